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

// checkShopWarnings checks what podsim says about the typical application:
// one warning per kind it ignores, one per field it does not simulate, each
// at the manifest's line and column, and nothing else (its Deployment's
// strategy is simulated).
func checkShopWarnings(t *testing.T, stderr string) {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	if len(lines) != 7 {
		t.Fatalf("%d lines on stderr, want 7:\n%s", len(lines), stderr)
	}
	line := regexp.MustCompile(`^` + regexp.QuoteMeta(shopApp) + `:\d+:\d+: warning: `)
	for _, l := range lines {
		if !line.MatchString(l) {
			t.Errorf("not a warning at the manifest's line and column: %s", l)
		}
	}
	for _, want := range []string{
		`:12:1: warning: v1 ConfigMap "shop/web-config" is ignored`,
		`:21:1: warning: v1 Secret "shop/web-secret" is ignored`,
		`:30:1: warning: v1 Service "shop/web" is ignored`,
		`:62:7: warning: affinity is not simulated`,
		`:96:1: warning: apps/v1 StatefulSet "shop/db" is not simulated yet`,
		`:121:1: warning: autoscaling/v2 HorizontalPodAutoscaler "shop/web" is ignored`,
		`:146:1: warning: networking.k8s.io/v1 Ingress "shop/web" is ignored`,
	} {
		if !strings.Contains(stderr, shopApp+want) {
			t.Errorf("stderr lacks %s%s", shopApp, want)
		}
	}
}

// The typical application's manifests run with podsim run as they are.
func TestRunManifestAsItIs(t *testing.T) {
	out, errs, code := podsim(t, "run", shopApp)
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	checkShopWarnings(t, errs)
	get := out[strings.Index(out, "$ kubectl get pods"):]
	for _, pod := range []string{"web-0", "web-1", "web-2"} {
		if !regexp.MustCompile(`(?m)^shop +` + pod + ` +1/1 +Running +0 +60m$`).MatchString(get) {
			t.Errorf("%s is not Running and ready at the end:\n%s", pod, get)
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
	if !strings.HasPrefix(stderr.String(), "<stdin>:12:1: warning: v1 ConfigMap") {
		t.Errorf("run -: stderr %s", stderr.String())
	}
	out, errs, code = podsim(t, "describe", shopApp, "web-1", "-n", "shop")
	if code != exitOK || !strings.Contains(out, "Namespace:   shop\n") || !strings.Contains(out, "Image:          registry.example.com/shop/web:1.4.2") {
		t.Errorf("describe: exit %d\n%s%s", code, out, errs)
	}
	_, errs, code = podsim(t, "describe", shopApp, "web-1")
	if want := `pod "web-1" not found at 1h; pods: shop/web-0, shop/web-1, shop/web-2; it is in namespace shop: add -n shop`; code != exitBadInput || !strings.HasSuffix(strings.TrimSpace(errs), want) {
		t.Errorf("describe without -n: exit %d, stderr ends %q, want %q", code, errs[strings.LastIndex(strings.TrimSpace(errs), "\n")+1:], want)
	}
	out, errs, code = podsim(t, "validate", filepath.Dir(shopApp))
	if code != exitOK || out != filepath.Dir(shopApp)+": valid\n" {
		t.Errorf("validate FOLDER: exit %d\n%s%s", code, out, errs)
	}
	checkShopWarnings(t, errs)
}

// ... and through spec.include, where the scenario's behaviour, faults and
// expectations name its Deployment.
func TestRunManifestIncluded(t *testing.T) {
	out, errs, code := podsim(t, "run", shopInclude, "--strict")
	if code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	checkShopWarnings(t, errs)
	for _, want := range []string{
		"5m      shop/pod/web-1/web             Terminated (OOMKilled, exit 137)",
		"shop        web-1   1/1     Running   1 (5m ago)   10m",
		"expectations: 8 held, 0 failed",
	} {
		if !strings.Contains(out, want) {
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
