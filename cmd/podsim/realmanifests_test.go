package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Real manifests' answers (issue 28): what a cluster would make of them.

// Pods that select the labels every kubelet registers (kubernetes.io/os,
// kubernetes.io/arch and their beta aliases) run on the default node.
func TestRealManifestsSelectKubeletLabels(t *testing.T) {
	out, errs, code := podsim(t, "run", filepath.Join(root, "testdata/manifests/os-selector.yaml"))
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	for _, pod := range []string{`ingress-nginx +ingress-nginx-controller-0`, `kube-system +metrics-server-0`} {
		if !regexp.MustCompile(`(?m)^` + pod + ` +1/1 +Running +0 +60m$`).MatchString(out) {
			t.Errorf("%s is not Running:\n%s", pod, out)
		}
	}
}

// A kind misspelled within a built-in API group is an error at the kind,
// with the kind meant, exit 2 in validate and run: not an ignored custom
// resource.
func TestRealManifestsKindTypo(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "typo.yaml")
	if err := os.WriteFile(path, []byte("apiVersion: apps/v1\nkind: Deploymnet\nmetadata: {name: web}\nspec: {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	want := path + ":2:7: apps/v1 Deploymnet is not a kind of the built-in API group apps; did you mean Deployment?\n"
	for _, cmd := range []string{"validate", "run"} {
		out, errs, code := podsim(t, cmd, path)
		if code != exitBadInput || errs != want || out != "" {
			t.Errorf("%s: exit %d, stdout %q, stderr %q, want %q", cmd, code, out, errs, want)
		}
	}
}

// A ReplicationController (guestbook-go's) runs as a ReplicaSet would.
func TestRealManifestsReplicationController(t *testing.T) {
	out, errs, code := podsim(t, "run", filepath.Join(root, "testdata/manifests/guestbook-go.yaml"))
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	for _, pod := range []string{"redis-master-0", "guestbook-0", "guestbook-1", "guestbook-2"} {
		if !regexp.MustCompile(`(?m)^` + pod + ` +1/1 +Running +0 +60m$`).MatchString(out) {
			t.Errorf("%s is not Running:\n%s", pod, out)
		}
	}
	if strings.Contains(errs, "ReplicationController") {
		t.Errorf("stderr: %s", errs)
	}
}

// An init container with nothing said of its runs completes at once, so
// its pod starts; runs: [{}] keeps one running (the pod at Init:0/1).
func TestRealManifestsInitContainersComplete(t *testing.T) {
	fixture := filepath.Join(root, "testdata/manifests/init-containers.yaml")
	out, errs, code := podsim(t, "run", fixture)
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	for _, pod := range []string{"load-tester-0", "argocd-repo-server-0"} {
		if !regexp.MustCompile(`(?m)^` + pod + ` +1/1 +Running +0 +60m$`).MatchString(out) {
			t.Errorf("%s is not Running:\n%s", pod, out)
		}
	}
	if !strings.Contains(squeeze(out), "0s pod/load-tester-0/frontend-check Terminated (Completed, exit 0)") {
		t.Errorf("the init container did not complete at once:\n%s", out)
	}

	fixture, err := filepath.Abs(fixture)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "hang.yaml")
	scenario := "apiVersion: podsim/v1\nkind: Scenario\nmetadata: {name: hang}\nspec:\n  duration: 10m\n  include: [" + fixture + "]\n" +
		"  behavior:\n  - {pod: load-tester, container: frontend-check, runs: [{}]}\n"
	if err := os.WriteFile(path, []byte(scenario), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, code = podsim(t, "run", path)
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	if !regexp.MustCompile(`(?m)^load-tester-0 +0/1 +Init:0/1 +0 +10m$`).MatchString(out) ||
		!regexp.MustCompile(`(?m)^argocd-repo-server-0 +1/1 +Running +0 +10m$`).MatchString(out) {
		t.Errorf("runs: [{}] does not keep the init container running:\n%s", out)
	}
}

// A suite that runs the shop's manifests as they are and through
// spec.include warns of them once.
func TestRealManifestsWarnOnceInASuite(t *testing.T) {
	_, errs, code := podsim(t, "test", filepath.Dir(shopInclude))
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	if n := strings.Count(errs, "warning: 3 objects ignored"); n != 1 || strings.Count(errs, "volumeClaimTemplates") != 1 {
		t.Errorf("the shop's warnings %d times:\n%s", n, errs)
	}
	_, errs, _ = podsim(t, "test", filepath.Dir(shopInclude), "--warnings=all")
	if n := strings.Count(errs, "warning: "); n != 5 {
		t.Errorf("--warnings=all: %d warnings, want 5 once each:\n%s", n, errs)
	}
}

// A microservices demo's release file (a ServiceAccount, a Deployment and a
// Service per service, a load generator with an init container, Linux
// node selectors) runs with every pod Running and one warning line.
func TestRealManifestsMicroservicesDemo(t *testing.T) {
	fixture := filepath.Join(root, "testdata/manifests/microservices.yaml")
	out, errs, code := podsim(t, "run", fixture)
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	if want := fixture + ": warning: 6 objects ignored: 6 ServiceAccounts (no API access) (--warnings=all lists each)\n"; errs != want {
		t.Errorf("stderr %q, want %q", errs, want)
	}
	for _, pod := range []string{"cartservice-0", "checkoutservice-0", "currencyservice-0", "frontend-0", "loadgenerator-0", "productcatalogservice-0"} {
		if !regexp.MustCompile(`(?m)^` + pod + ` +1/1 +Running +0 +60m$`).MatchString(out) {
			t.Errorf("%s is not Running:\n%s", pod, out[strings.Index(out, "$ kubectl get pods"):])
		}
	}
}

// describe shows what a probe checks, from a manifest or a scenario, as
// kubectl describe does.
func TestRealManifestsDescribeProbeTargets(t *testing.T) {
	out, errs, code := podsim(t, "describe", shopApp, "web-1", "-n", "shop")
	if code != exitOK || !strings.Contains(out, "Liveness:   http-get http://:http/healthz delay=15s timeout=1s period=10s successThreshold=1 failureThreshold=3\n") ||
		!strings.Contains(out, "Readiness:  http-get http://:http/ready delay=0s") {
		t.Errorf("manifest: exit %d\n%s%s", code, out, errs)
	}
	path := filepath.Join(t.TempDir(), "probes.yaml")
	scenario := `apiVersion: podsim/v1
kind: Scenario
metadata: {name: probes}
spec:
  duration: 1m
  pods:
  - metadata: {name: web}
    spec:
      containers:
      - name: app
        image: img
        livenessProbe: {exec: {command: [cat, /tmp/healthy]}}
        readinessProbe: {tcpSocket: {port: 80}}
        startupProbe: {grpc: {port: 9090, service: health}}
`
	if err := os.WriteFile(path, []byte(scenario), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, code = podsim(t, "describe", path, "web")
	for _, want := range []string{"Liveness:       exec [cat /tmp/healthy] delay=0s", "Readiness:      tcp-socket :80 delay=0s",
		"Startup:        grpc <pod>:9090 health delay=0s"} {
		if code != exitOK || !strings.Contains(out, want) {
			t.Errorf("scenario: exit %d, lacks %q\n%s%s", code, want, out, errs)
		}
	}
}
