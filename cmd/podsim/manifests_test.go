package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var (
	shopApp     = filepath.Join(root, "scenarios/manifests/k8s/shop-app.yaml")
	shopInclude = filepath.Join(root, "scenarios/manifests/shop-include.yaml")
)

// checkShopWarnings checks what podsim says about the typical application
// by default (--warnings=summary): one line for the objects it ignores,
// one per field it does not simulate, at the manifest's line and column.
func checkShopWarnings(t *testing.T, stderr string) {
	t.Helper()
	want := shopApp + ": warning: 3 objects ignored: 1 ConfigMap, 1 Secret (no volumes and no environment); " +
		"1 Ingress (no networking) (--warnings=all lists each)\n" +
		shopApp + ":115:3: warning: volumeClaimTemplates is not simulated: a StatefulSet's pods get no PersistentVolumeClaims: a replacement starts as fast as the first pod\n" +
		shopApp + ":180:7: warning: ttlSecondsAfterFinished is not simulated: a finished Job and its pods are never cleaned up\n"
	if stderr != want {
		t.Errorf("stderr:\n%s\nwant:\n%s", stderr, want)
	}
}

// checkShopWarningsAll checks what podsim says about the typical
// application with --warnings=all: one warning per kind it ignores, one per
// field it does not simulate, each at the manifest's line and column, and
// nothing else: its StatefulSet and CronJob are simulated, not "not
// simulated yet", and so is its Deployment's strategy.
func checkShopWarningsAll(t *testing.T, stderr string) {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	if len(lines) != 5 {
		t.Fatalf("%d lines on stderr, want 5:\n%s", len(lines), stderr)
	}
	line := regexp.MustCompile(`^` + regexp.QuoteMeta(shopApp) + `:\d+:\d+: warning: `)
	for _, l := range lines {
		if !line.MatchString(l) {
			t.Errorf("not a warning at the manifest's line and column: %s", l)
		}
		if strings.Contains(l, "StatefulSet \"shop/db\"") || strings.Contains(l, "Service \"shop/web\"") || strings.Contains(l, "CronJob \"shop/orders-report\"") || strings.Contains(l, "HorizontalPodAutoscaler") || strings.Contains(l, "not simulated yet") || strings.Contains(l, "affinity") {
			t.Errorf("a simulated kind is ignored: %s", l)
		}
		if strings.Contains(l, ": strategy is not simulated") {
			t.Errorf("the Deployment's strategy is simulated: %s", l)
		}
	}
	for _, want := range []string{
		`:12:1: warning: v1 ConfigMap "shop/web-config" is ignored`,
		`:21:1: warning: v1 Secret "shop/web-secret" is ignored`,
		`:115:3: warning: volumeClaimTemplates is not simulated: a StatefulSet's pods get no PersistentVolumeClaims`,
		`:146:1: warning: networking.k8s.io/v1 Ingress "shop/web" is ignored`,
		`:180:7: warning: ttlSecondsAfterFinished is not simulated`,
	} {
		if !strings.Contains(stderr, shopApp+want) {
			t.Errorf("stderr lacks %s%s", shopApp, want)
		}
	}
}

var spaces = regexp.MustCompile(` +`)

// squeeze turns runs of spaces into one, so that a check of a table's row
// does not depend on its columns' widths.
func squeeze(s string) string { return spaces.ReplaceAllString(s, " ") }

// The typical application's manifests run with podsim run as they are.
func TestRunManifestAsItIs(t *testing.T) {
	out, errs, code := podsim(t, "run", shopApp)
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	checkShopWarnings(t, errs)
	get := out[strings.Index(out, "$ kubectl get pods"):]
	for _, pod := range []string{"web-0", "web-1", "web-2", "db-0"} {
		if !regexp.MustCompile(`(?m)^shop +` + pod + ` +1/1 +Running +0 +60m$`).MatchString(get) {
			t.Errorf("%s is not Running and ready at the end:\n%s", pod, get)
		}
	}
	// The CronJob's Jobs run every 5 minutes in its namespace; their pods,
	// with no behaviour, run their command and exit 0 at once, so each Job
	// completes and the CronJob keeps its successfulJobsHistoryLimit (2).
	for _, want := range []string{
		"5m0.1s shop/cronjob/orders-report Normal SuccessfulCreate: Created job orders-report-5\n",
		"5m0.1s shop/pod/orders-report-5-0/report Terminated (Completed, exit 0)\n",
		"5m0.1s shop/job/orders-report-5 Normal Completed: Job completed\n",
		"15m0.1s shop/cronjob/orders-report Normal SuccessfulDelete: Deleted job orders-report-5\n",
	} {
		if !strings.Contains(squeeze(out), want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if !strings.HasPrefix(out, "Scenario shop-app (seed 1, 1h of virtual time)\n") {
		t.Errorf("header: %s", out[:strings.Index(out, "\n")])
	}

	// From standard input, and in describe and validate.
	data, err := os.ReadFile(shopApp)
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	m := &Main{Stdin: bytes.NewReader(data), Stdout: &stdout, Stderr: &stderr}
	if code := m.Run(context.Background(), []string{"run", "-", "-o", "jsonl"}); code != exitOK || !strings.Contains(stdout.String(), `"pod":"web-2"`) {
		t.Errorf("run -: exit %d\n%s", code, stderr.String())
	}
	if !strings.HasPrefix(stderr.String(), "<stdin>: warning: 3 objects ignored: 1 ConfigMap") {
		t.Errorf("run -: stderr %s", stderr.String())
	}
	out, errs, code = podsim(t, "describe", shopApp, "web-1", "-n", "shop")
	if code != exitOK || !strings.Contains(squeeze(out), "Namespace: shop\n") || !strings.Contains(out, "Image:          registry.example.com/shop/web:1.4.2") ||
		!strings.Contains(squeeze(out), "Controlled By: ReplicaSet/web-") {
		t.Errorf("describe: exit %d\n%s%s", code, out, errs)
	}
	_, errs, code = podsim(t, "describe", shopApp, "web-1")
	last := errs[strings.LastIndex(strings.TrimSpace(errs), "\n")+1:]
	if code != exitBadInput || !strings.Contains(last, `pod "web-1" not found at 1h; pods: shop/web-0, shop/web-1, shop/web-2, shop/db-0, shop/orders-report-5-0 (deleted),`) ||
		!strings.HasSuffix(last, "; it is in namespace shop: add -n shop\n") {
		t.Errorf("describe without -n: exit %d, stderr ends %q", code, last)
	}
	out, errs, code = podsim(t, "validate", filepath.Dir(shopApp), "--warnings=all")
	if code != exitOK || out != filepath.Dir(shopApp)+": valid\n" {
		t.Errorf("validate FOLDER: exit %d\n%s%s", code, out, errs)
	}
	checkShopWarningsAll(t, errs)
	for _, cmd := range [][]string{{"run", shopApp}, {"describe", shopApp, "web-1", "-n", "shop"}, {"test", shopApp}, {"validate", shopApp}} {
		if _, errs, code := podsim(t, append(cmd, "--warnings=none")...); errs != "" || code != exitOK {
			t.Errorf("%s --warnings=none: exit %d, stderr %s", cmd[0], code, errs)
		}
		if _, errs, _ := podsim(t, append(cmd, "--warnings=all")...); strings.Count(errs, "warning: ") != 5 {
			t.Errorf("%s --warnings=all: stderr %s", cmd[0], errs)
		}
	}
}

// ... and through spec.include, where the scenario's behaviour, faults and
// expectations name its Deployment, StatefulSet and CronJob.
func TestRunManifestIncluded(t *testing.T) {
	out, errs, code := podsim(t, "run", shopInclude, "--strict")
	if code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	checkShopWarnings(t, errs)
	for _, want := range []string{
		"5m shop/pod/web-1/web Terminated (OOMKilled, exit 137)",
		"5m30.1s shop/cronjob/orders-report Normal SawCompletedJob: Saw completed job: orders-report-5, condition: Complete",
		"shop web-1 1/1 Running 1 (5m ago) 10m",
		"shop db-0 1/1 Running 0 10m",
		"shop orders-report-5-0 0/1 Completed 0 4m59s",
		"expectations: 14 held, 0 failed",
	} {
		if !strings.Contains(squeeze(out), want) {
			t.Errorf("output lacks %q", want)
		}
	}
}

// A manifest's problems are errors at its line and column, exit 2.
func TestRunBadManifest(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(path, []byte("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec:\n  replica: 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errs, code := podsim(t, "run", path)
	if want := path + `:5:3: unknown field "replica" in v1.DeploymentSpec; did you mean "replicas"?` + "\n"; code != exitBadInput || errs != want {
		t.Errorf("exit %d, stderr %q, want %q", code, errs, want)
	}
}

// A StatefulSet's and a CronJob's fields that Kubernetes acts on and podsim
// does not are warnings at their line; a CronJob's time zone other than UTC
// is an error at its line, exit 2, as in a scenario.
func TestRunStatefulSetAndCronJobManifest(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "data.yaml")
	src := `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: data}
spec:
  replicas: 2
  serviceName: db
  updateStrategy: {type: OnDelete}
  ordinals: {start: 1}
  template: {spec: {containers: [{name: db, image: example/db:1}]}}
---
apiVersion: batch/v1
kind: CronJob
metadata: {name: backup, namespace: data}
spec:
  schedule: "*/10 * * * *"
  timeZone: Etc/UTC
  jobTemplate:
    spec:
      suspend: true
      template: {spec: {restartPolicy: Never, containers: [{name: dump, image: x:1}]}}
`
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, code := podsim(t, "run", path, "--duration", "15m")
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	want := path + ":7:3: warning: updateStrategy is not simulated: there are no DaemonSet or StatefulSet updates\n" +
		path + ":8:3: warning: ordinals is not simulated: a StatefulSet's pods are numbered from 0: ordinals.start is not applied\n" +
		path + ":19:7: warning: suspend is not simulated: a CronJob's Jobs run all the same, never suspended\n"
	if errs != want {
		t.Errorf("stderr:\n%s\nwant:\n%s", errs, want)
	}
	for _, want := range []string{
		"0s data/statefulset/db Normal SuccessfulCreate: create Pod db-1 in StatefulSet db successful\n",
		"10m0.1s data/cronjob/backup Normal SuccessfulCreate: Created job backup-10\n",
		"data db-1 1/1 Running 0 15m\n",
		"data backup-10-0 0/1 Completed 0 4m59s\n",
	} {
		if !strings.Contains(squeeze(out), want) {
			t.Errorf("output lacks %q", want)
		}
	}

	if err := os.WriteFile(path, []byte(strings.Replace(src, "Etc/UTC", "America/New_York", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errs, code = podsim(t, "run", path)
	if want := path + `:16:13: timeZone "America/New_York": podsim runs schedules in UTC (UTC or Etc/UTC)`; code != exitBadInput || !strings.Contains(errs, want+"\n") {
		t.Errorf("exit %d, stderr %q, want it to hold %q", code, errs, want)
	}
}
