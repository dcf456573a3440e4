package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A create fault's file is read as an include is: a missing file is an
// error at its entry, and a second create of the same object is refused
// there, as the API refuses it.
func TestCreateFaultErrors(t *testing.T) {
	tmp, src := createLate(t, "")
	const fault = "- {at: 2m, create: {file: k8s/late-worker.yaml}}"
	for _, c := range []struct{ edit, want string }{
		{"- {at: 2m, create: {file: k8s/nope.yaml}}", ":20:31: create k8s/nope.yaml: no such file or directory"},
		{fault + "\n    - {at: 3m, create: {file: k8s/late-worker.yaml}}", `:21:31: create k8s/late-worker.yaml: Deployment "worker" in namespace shop exists already`},
	} {
		path := filepath.Join(tmp, "create.yaml")
		if err := os.WriteFile(path, []byte(strings.Replace(string(src), fault, c.edit, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		_, errs, code := podsim(t, "validate", path)
		if code != exitBadInput || !strings.Contains(errs, path+c.want) {
			t.Errorf("exit %d, stderr %q; want %q", code, errs, path+c.want)
		}
	}
}

// A create fault may bring an autoscaler, a budget and a Service named as
// their Deployment, as kubectl autoscale and most charts make them: a name
// is unique per kind.
func TestCreateFaultSharesANameAcrossKinds(t *testing.T) {
	tmp, src := createLate(t, `---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: worker, namespace: shop}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: worker}
  minReplicas: 2
  maxReplicas: 4
  metrics: [{type: Resource, resource: {name: cpu, target: {type: Utilization, averageUtilization: 70}}}]
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: worker, namespace: shop}
spec: {minAvailable: 1, selector: {matchLabels: {app: worker}}}
---
apiVersion: v1
kind: Service
metadata: {name: worker, namespace: shop}
spec: {selector: {app: worker}, ports: [{port: 80}]}
`)
	path := filepath.Join(tmp, "create.yaml")
	if err := os.WriteFile(path, src, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errs, code := podsim(t, "validate", path); code != exitOK {
		t.Errorf("exit %d, stderr %q; want a valid scenario", code, errs)
	}
}

// createLate copies the library's create-late scenario's manifest, with
// more appended, into k8s/ of a temporary folder, and returns the folder
// and the scenario's source.
func createLate(t *testing.T, more string) (string, []byte) {
	t.Helper()
	dir := filepath.Join(root, "scenarios", "manifests")
	src, err := os.ReadFile(filepath.Join(dir, "create-late.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	manifest, err := os.ReadFile(filepath.Join(dir, "k8s", "late-worker.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	if err := os.Mkdir(filepath.Join(tmp, "k8s"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(tmp, "k8s", "late-worker.yaml"), append(manifest, more...), 0o644); err != nil {
		t.Fatal(err)
	}
	return tmp, src
}
