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
