package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// explain on a scenario with no node autoscaler: the Pending pod with the
// scheduler's reason, and a plain word that nothing will add a node.
func TestExplainWithoutAutoscaler(t *testing.T) {
	file := filepath.Join(root, "scenarios", "cluster", "out-of-capacity.yaml")
	out, errs, code := podsim(t, "explain", file, "--at", "1m")
	if code != exitOK || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	want := `At 1m: 1 pod Pending and not scheduled.

Pod default/api-3 (Pending for 60s)
  Scheduler:  0/2 nodes are available: 2 Insufficient cpu. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.

No node autoscaler in this scenario (spec.clusterAutoscaler with spec.nodeGroups, or a Karpenter NodePool): nothing adds a node for a Pending pod or removes an idle one.
`
	if out != want {
		t.Errorf("explain at 1m:\n%s\nwant:\n%s", out, want)
	}
	// At the end the batch pod has finished and api-3 runs.
	out, _, code = podsim(t, "explain", file)
	if code != exitOK || !strings.HasPrefix(out, "At 5m: no pods Pending and not scheduled.\n") {
		t.Errorf("explain at the end: exit %d:\n%s", code, out)
	}
}

func TestExplainBadInput(t *testing.T) {
	file := filepath.Join(root, "scenarios", "cluster", "out-of-capacity.yaml")
	for _, args := range [][]string{
		{"explain"},
		{"explain", file, "extra"},
		{"explain", file, "--at", "6m"},
		{"explain", file, "--at", "soon"},
		{"explain", "no-such-file.yaml"},
		{"explain", file, "--max-events", "10"},
	} {
		out, errs, code := podsim(t, args...)
		if code != exitBadInput || out != "" || errs == "" {
			t.Errorf("podsim %v: exit %d, stdout %q, stderr %q; want 2, a message, nothing on stdout", args, code, out, errs)
		}
	}
}
