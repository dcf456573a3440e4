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
	out, _, code = podsim(t, "explain", file, "--at", "1m", "-o", "json")
	if want := `{
  "at": 60,
  "hasAutoscaler": false,
  "pods": [
    {
      "namespace": "default",
      "name": "api-3",
      "pendingSeconds": 60,
      "scheduler": "0/2 nodes are available: 2 Insufficient cpu. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod."
    }
  ],
  "nodes": []
}
`; code != exitOK || out != want {
		t.Errorf("explain -o json: exit %d:\n%s\nwant:\n%s", code, out, want)
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
		{"explain", file, "-o", "yaml"},
	} {
		out, errs, code := podsim(t, args...)
		if code != exitBadInput || out != "" || errs == "" {
			t.Errorf("podsim %v: exit %d, stdout %q, stderr %q; want 2, a message, nothing on stdout", args, code, out, errs)
		}
	}
}

func TestDescribeNode(t *testing.T) {
	file := filepath.Join(root, "scenarios", "cluster", "out-of-capacity.yaml")
	out, errs, code := podsim(t, "describe", file, "node/node-0", "--at", "1m")
	if code != exitOK || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	for _, want := range []string{"Name:               node-0\n", "Non-terminated Pods:  (2 in total)\n",
		"  default             batch    1 (50%)       0 (0%)      0 (0%)           0 (0%)         60s\n", "  cpu       2 (100%)  0 (0%)\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("describe node/node-0 at 1m lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "Autoscaler") {
		t.Errorf("describe node/node-0 with no autoscaler has an Autoscaler section:\n%s", out)
	}
	if pod, _, _ := podsim(t, "describe", file, "pod/api-3", "--at", "1m"); !strings.HasPrefix(pod, "Name:           api-3\n") {
		t.Errorf("describe pod/api-3:\n%s", pod)
	}
	for _, args := range [][]string{
		{"describe", file, "node/nope"},
		{"describe", file, "node/node-0", "-o", "json"},
		{"describe", file, "service/api"},
	} {
		out, errs, code := podsim(t, args...)
		if code != exitBadInput || out != "" || errs == "" {
			t.Errorf("podsim %v: exit %d, stdout %q, stderr %q; want 2, a message, nothing on stdout", args, code, out, errs)
		}
	}
}

// A pod the scheduler nominated a node for, after preempting its victims,
// says so: it waits for them to go, not for a new node.
func TestExplainNominated(t *testing.T) {
	file := filepath.Join(root, "scenarios", "scheduling", "preemption.yaml")
	out, errs, code := podsim(t, "explain", file, "--at", "1m9s")
	want := "Pod default/urgent-0 (Pending for 9s)\n  Scheduler:  0/2 nodes are available: 2 Insufficient cpu.\n  Nominated:  node-b (preemption: waiting for its victims to go)\n"
	if code != exitOK || errs != "" || !strings.Contains(out, want) {
		t.Errorf("exit %d, stderr %q:\n%s\nwant\n%s", code, errs, out, want)
	}
	if js, _, _ := podsim(t, "explain", file, "--at", "1m9s", "-o", "json"); !strings.Contains(js, `"nominatedNode": "node-b"`) {
		t.Errorf("-o json has no nominatedNode:\n%s", js)
	}
}
