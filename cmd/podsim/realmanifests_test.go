package main

import (
	"path/filepath"
	"regexp"
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
