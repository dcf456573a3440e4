package model

import (
	"fmt"
	"testing"
	"time"
)

// spreadWorld is nodes nodes and a ReplicaSet of pods pods spread on their
// hostname with maxSkew 1, DoNotSchedule.
func spreadWorld(nodes, pods int, fullScan bool) (*World, *Workload) {
	w := newWorld(1, DefaultSettings())
	w.sched.fullScan = fullScan
	for i := range nodes {
		w.AddNode(NodeSpec{Name: fmt.Sprint("n-", i), Capacity: Resources{MilliCPU: 32000, Memory: 64 << 30, Pods: 110}})
	}
	spec := appSpec(100, nil, RestartAlways)
	sel := &LabelSelector{MatchLabels: map[string]string{"app": "a"}}
	spec.TopologySpreadConstraints = []TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: LabelHostname, DoNotSchedule: true, LabelSelector: sel}}
	wl := w.AddWorkload(WorkloadSpec{Kind: KindReplicaSet, Name: "a", Template: spec, Options: PodOptions{Labels: sel.MatchLabels}, Replicas: pods})
	return w, wl
}

// A DoNotSchedule spread on hostname filters only the nodes that may pass
// it, and places every pod where the scan of every node would: the work
// per pod is the feasible nodes upstream looks for, not the cluster.
func TestSpreadScanFiltersCandidatesOnly(t *testing.T) {
	const nodes, pods = 2000, 3000
	fast, wf := spreadWorld(nodes, pods, false)
	full, wl := spreadWorld(nodes, pods, true)
	fast.Run(time.Second)
	full.Run(time.Second)
	for i, p := range wf.Pods() {
		q := wl.Pods()[i]
		if p.Node == nil || q.Node == nil || p.Node.Name != q.Node.Name {
			t.Fatalf("pod %s on %v, the full scan put it on %v", p.Name, p.Node, q.Node)
		}
	}
	want := uint64(numFeasibleNodesToFind(0, nodes))
	if got := fast.sched.filtered; got > pods*want {
		t.Errorf("%d nodes filtered for %d pods, want at most %d per pod", got, pods, want)
	}
	if full.sched.filtered <= fast.sched.filtered {
		t.Errorf("the full scan filtered %d nodes, the fast one %d", full.sched.filtered, fast.sched.filtered)
	}
}

// Pending pods that no pod of lower priority could make room for do not
// read the nodes' pods for victims on every try.
func TestPreemptionWithoutLowerPriorityReadsNoNode(t *testing.T) {
	w := newWorld(1, DefaultSettings())
	for i := range 10 {
		w.AddNode(NodeSpec{Name: fmt.Sprint("n-", i), Capacity: Resources{MilliCPU: 1000, Memory: 8 << 30, Pods: 110}})
	}
	wl := w.AddWorkload(WorkloadSpec{Kind: KindReplicaSet, Name: "a", Template: appSpec(500, nil, RestartAlways),
		Options: PodOptions{Labels: map[string]string{"app": "a"}}, Replicas: 200})
	w.Run(10 * time.Minute)
	pending := 0
	for _, p := range wl.Pods() {
		if p.Node == nil {
			pending++
		}
	}
	if pending != 180 || w.sched.victimReads != 0 {
		t.Errorf("%d pending, %d nodes read for victims; want 180 and 0", pending, w.sched.victimReads)
	}
	c, _ := wl.Pods()[199].status.Condition(PodScheduled)
	if want := "0/10 nodes are available: 10 Insufficient cpu. preemption: 0/10 nodes are available: 10 No preemption victims found for incoming pod."; c.Message != want {
		t.Errorf("message %q, want %q", c.Message, want)
	}
}

// tooSmallWorld is 500 nodes of 1 cpu, one tainted, and a ReplicaSet of
// 300 pods that need 2 cpu each: none fits. fullScan turns the failure
// memo off.
func tooSmallWorld(fullScan bool) (*World, *Workload) {
	w := newWorld(1, DefaultSettings())
	w.sched.fullScan = fullScan
	for i := range 500 {
		w.AddNode(NodeSpec{Name: fmt.Sprint("n-", i), Capacity: Resources{MilliCPU: 1000, Memory: 8 << 30, Pods: 110}})
	}
	w.Node("n-7").AddTaint(Taint{Key: "gpu", Value: "yes", Effect: "NoSchedule"})
	wl := w.AddWorkload(WorkloadSpec{Kind: KindReplicaSet, Name: "a", Template: appSpec(2000, nil, RestartAlways),
		Options: PodOptions{Labels: map[string]string{"app": "a"}}, Replicas: 300})
	return w, wl
}

// Pods of one template that fit no node are turned down from the
// template's last failed try while no node changed: the same message,
// with the nodes filtered once, not once per pod; a node that changes
// sends them through the filters again.
func TestFailedTriesOfATemplateFilterOnce(t *testing.T) {
	memo, wm := tooSmallWorld(false)
	full, wf := tooSmallWorld(true)
	memo.Run(15 * time.Second) // the ReplicaSet makes 30 pods at once, then 20 a second
	full.Run(15 * time.Second)
	const want = "0/500 nodes are available: 1 node(s) had untolerated taint {gpu: yes}, 499 Insufficient cpu. preemption: 0/500 nodes are available: 500 Preemption is not helpful for scheduling."
	for i, p := range wm.Pods() {
		c, _ := p.status.Condition(PodScheduled)
		d, _ := wf.Pods()[i].status.Condition(PodScheduled)
		if c.Message != d.Message || c.Message != want {
			t.Fatalf("pod %s: %q; the full scan says %q; want %q", p.Name, c.Message, d.Message, want)
		}
	}
	if memo.sched.filtered != 500 || full.sched.filtered != 300*500 {
		t.Errorf("filtered %d nodes with the memo (want 500), %d without (want %d)", memo.sched.filtered, full.sched.filtered, 300*500)
	}
	big := memo.AddNode(NodeSpec{Name: "big", Capacity: Resources{MilliCPU: 64000, Memory: 64 << 30, Pods: 110}})
	memo.Run(time.Minute)
	if n := len(big.Pods()); n != 32 {
		t.Errorf("%d pods on the new node, want 32", n)
	}
}
