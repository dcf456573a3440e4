package scheduler

import (
	"fmt"
	"testing"
	"time"

	"github.com/podsim/podsim/model"
)

// spreadWorld is nodes nodes and a ReplicaSet of pods pods spread on their
// hostname with maxSkew 1, DoNotSchedule.
func spreadWorld(nodes, pods int, fullScan bool) (*model.World, *model.Workload) {
	w := newWorld(1, unthrottled())
	schedOf(w).fullScan = fullScan
	for i := range nodes {
		w.AddNode(model.NodeSpec{Name: fmt.Sprint("n-", i), Capacity: model.Resources{MilliCPU: 32000, Memory: 64 << 30, Pods: 110}})
	}
	spec := appSpec(100, nil, model.RestartAlways)
	sel := &model.LabelSelector{MatchLabels: map[string]string{"app": "a"}}
	spec.TopologySpreadConstraints = []model.TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: model.LabelHostname, DoNotSchedule: true, LabelSelector: sel}}
	wl := w.AddWorkload(model.WorkloadSpec{Kind: model.KindReplicaSet, Name: "a", Template: spec, Options: model.PodOptions{Labels: sel.MatchLabels}, Replicas: pods})
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
	if got := schedOf(fast).filtered; got > pods*want {
		t.Errorf("%d nodes filtered for %d pods, want at most %d per pod", got, pods, want)
	}
	if schedOf(full).filtered <= schedOf(fast).filtered {
		t.Errorf("the full scan filtered %d nodes, the fast one %d", schedOf(full).filtered, schedOf(fast).filtered)
	}
}

// Pending pods that no pod of lower priority could make room for do not
// read the nodes' pods for victims on every try.
func TestPreemptionWithoutLowerPriorityReadsNoNode(t *testing.T) {
	w := newWorld(1, model.DefaultSettings())
	for i := range 10 {
		w.AddNode(model.NodeSpec{Name: fmt.Sprint("n-", i), Capacity: model.Resources{MilliCPU: 1000, Memory: 8 << 30, Pods: 110}})
	}
	wl := w.AddWorkload(model.WorkloadSpec{Kind: model.KindReplicaSet, Name: "a", Template: appSpec(500, nil, model.RestartAlways),
		Options: model.PodOptions{Labels: map[string]string{"app": "a"}}, Replicas: 200})
	w.Run(10 * time.Minute)
	pending := 0
	for _, p := range wl.Pods() {
		if p.Node == nil {
			pending++
		}
	}
	if pending != 180 || schedOf(w).victimReads != 0 {
		t.Errorf("%d pending, %d nodes read for victims; want 180 and 0", pending, schedOf(w).victimReads)
	}
	c, _ := wl.Pods()[199].Condition(model.PodScheduled)
	if want := "0/10 nodes are available: 10 Insufficient cpu. preemption: 0/10 nodes are available: 10 No preemption victims found for incoming pod."; c.Message != want {
		t.Errorf("message %q, want %q", c.Message, want)
	}
}

// tooSmallWorld is 500 nodes of 1 cpu, one tainted, and a ReplicaSet of
// 300 pods that need 2 cpu each: none fits. fullScan turns the failure
// memo off.
func tooSmallWorld(fullScan bool) (*model.World, *model.Workload) {
	w := newWorld(1, model.DefaultSettings())
	schedOf(w).fullScan = fullScan
	for i := range 500 {
		w.AddNode(model.NodeSpec{Name: fmt.Sprint("n-", i), Capacity: model.Resources{MilliCPU: 1000, Memory: 8 << 30, Pods: 110}})
	}
	w.Node("n-7").AddTaint(model.Taint{Key: "gpu", Value: "yes", Effect: "NoSchedule"})
	wl := w.AddWorkload(model.WorkloadSpec{Kind: model.KindReplicaSet, Name: "a", Template: appSpec(2000, nil, model.RestartAlways),
		Options: model.PodOptions{Labels: map[string]string{"app": "a"}}, Replicas: 300})
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
		c, _ := p.Condition(model.PodScheduled)
		d, _ := wf.Pods()[i].Condition(model.PodScheduled)
		if c.Message != d.Message || c.Message != want {
			t.Fatalf("pod %s: %q; the full scan says %q; want %q", p.Name, c.Message, d.Message, want)
		}
	}
	if schedOf(memo).filtered != 500 || schedOf(full).filtered != 300*500 {
		t.Errorf("filtered %d nodes with the memo (want 500), %d without (want %d)", schedOf(memo).filtered, schedOf(full).filtered, 300*500)
	}
	big := memo.AddNode(model.NodeSpec{Name: "big", Capacity: model.Resources{MilliCPU: 64000, Memory: 64 << 30, Pods: 110}})
	memo.Run(time.Minute)
	if n := len(big.Pods()); n != 32 {
		t.Errorf("%d pods on the new node, want 32", n)
	}
}

// mixedSpreadWorld is 600 nodes of two sizes, some with a PreferNoSchedule
// or a NoSchedule taint, and ReplicaSets spread on hostname with
// DoNotSchedule: one of small pods (maxSkew 1), one of big pods that
// tolerate the taint (maxSkew 2), one of best-effort pods spread on zone
// too, and bare pods that load some nodes unevenly. fullScan turns the
// fast scans (candidates, the verdict cache, scoring by class) off;
// prefer puts the PreferNoSchedule taints on (they make every node score
// apart).
func mixedSpreadWorld(fullScan, prefer bool) (*model.World, []*model.Workload) {
	w := newWorld(7, unthrottled())
	schedOf(w).fullScan = fullScan
	for i := range 600 {
		c := model.Resources{MilliCPU: 8000, Memory: 32 << 30, Pods: 110}
		if i%3 == 0 {
			c = model.Resources{MilliCPU: 16000, Memory: 32 << 30, Pods: 110}
		}
		n := w.AddNode(model.NodeSpec{Name: fmt.Sprint("n-", i), Capacity: c, Labels: map[string]string{model.LabelZone: fmt.Sprint("z-", i%4)}})
		switch i % 50 {
		case 7:
			if !prefer {
				break
			}
			n.AddTaint(model.Taint{Key: "soft", Effect: "PreferNoSchedule"})
		case 11:
			n.AddTaint(model.Taint{Key: "gpu", Value: "yes", Effect: "NoSchedule"})
		}
	}
	var wls []*model.Workload
	for i, tc := range []struct {
		cpu      int64
		skew     int32
		zone     bool
		tolerGPU bool
	}{{100, 1, false, false}, {700, 2, false, true}, {0, 1, true, false}} {
		name := fmt.Sprint("rs-", i)
		spec := appSpec(tc.cpu, nil, model.RestartAlways)
		if tc.cpu == 0 {
			spec.Containers[0].Requests = model.Resources{}
		}
		sel := &model.LabelSelector{MatchLabels: map[string]string{"app": name}}
		spec.TopologySpreadConstraints = []model.TopologySpreadConstraint{{MaxSkew: tc.skew, TopologyKey: model.LabelHostname, DoNotSchedule: true, LabelSelector: sel}}
		if tc.zone {
			spec.TopologySpreadConstraints = append(spec.TopologySpreadConstraints, model.TopologySpreadConstraint{MaxSkew: 3, TopologyKey: model.LabelZone, DoNotSchedule: true, LabelSelector: sel})
		}
		o := model.PodOptions{Labels: sel.MatchLabels}
		if tc.tolerGPU {
			o.Tolerations = []model.Toleration{{Key: "gpu", Operator: "Equal", Value: "yes", Effect: "NoSchedule"}}
		}
		wls = append(wls, w.AddWorkload(model.WorkloadSpec{Kind: model.KindReplicaSet, Name: name, Template: spec, Options: o, Replicas: 0}))
	}
	for i := range 40 {
		spec := appSpec(int64(250*(i%5+1)), nil, model.RestartAlways)
		spec.NodeSelector = map[string]string{model.LabelHostname: fmt.Sprint("n-", i*13%600)}
		w.AddPod(fmt.Sprint("bare-", i), spec, model.PodOptions{})
	}
	return w, wls
}

// The fast scans place every pod where the full scan of every node does,
// on nodes of several sizes and loads, with taints, as ReplicaSets grow
// and shrink and a node is cordoned.
func TestSpreadScanByClassPlacesAsFullScan(t *testing.T) {
	for _, prefer := range []bool{false, true} {
		t.Run(fmt.Sprint("prefer=", prefer), func(t *testing.T) { testSpreadScanByClass(t, prefer) })
	}
}

func testSpreadScanByClass(t *testing.T, prefer bool) {
	fast, wf := mixedSpreadWorld(false, prefer)
	full, wl := mixedSpreadWorld(true, prefer)
	steps := []struct {
		at       time.Duration
		replicas [3]int
	}{{time.Second, [3]int{900, 300, 200}}, {time.Minute, [3]int{400, 500, 200}}, {2 * time.Minute, [3]int{1500, 500, 700}}}
	for _, st := range steps {
		for _, w := range []*model.World{fast, full} {
			for i, n := range st.replicas {
				[][]*model.Workload{wf, wl}[boolIndex(w == full)][i].Scale(n)
			}
			if st.at == time.Minute {
				w.Node("n-5").Cordon()
			}
			w.Run(st.at)
		}
		for i := range wf {
			a, b := wf[i].Pods(), wl[i].Pods()
			if len(a) != len(b) {
				t.Fatalf("at %v: %s has %d pods, %d with the full scan", st.at, wf[i].Key(), len(a), len(b))
			}
			for j, p := range a {
				if (p.Node == nil) != (b[j].Node == nil) || p.Node != nil && p.Node.Name != b[j].Node.Name {
					t.Fatalf("at %v: pod %s on %v, the full scan put it on %v", st.at, p.Name, p.Node, b[j].Node)
				}
			}
		}
	}
	if schedOf(fast).filtered >= schedOf(full).filtered {
		t.Errorf("the fast scans filtered %d nodes, the full scan %d", schedOf(fast).filtered, schedOf(full).filtered)
	}
	if picks := schedOf(fast).classPicks; prefer != (picks == 0) {
		t.Errorf("%d nodes picked by class", picks)
	}
}

func boolIndex(b bool) int {
	if b {
		return 1
	}
	return 0
}

// A DoNotSchedule spread on hostname over a large cluster reads each node
// about once per change of its pods, not once per try that filters it
// (testdata/hostile/slow/spread-50k-nodes.yaml is this at 50,000 nodes).
func TestSpreadScanReadsNodesOncePerChange(t *testing.T) {
	const nodes, pods = 5000, 10000
	w, wl := spreadWorld(nodes, pods, false)
	w.Run(time.Second)
	for _, p := range wl.Pods() {
		if p.Node == nil {
			t.Fatalf("pod %s pending", p.Name)
		}
	}
	want := uint64(numFeasibleNodesToFind(0, nodes))
	if got := schedOf(w).filtered; got < pods*want/2 {
		t.Errorf("%d nodes filtered, want about %d per pod", got, want)
	}
	if got := schedOf(w).nodesRead; got > nodes+2*pods {
		t.Errorf("%d nodes read for %d pods on %d nodes, want at most %d", got, pods, nodes, nodes+2*pods)
	}
	if schedOf(w).classPicks < pods/2 {
		t.Errorf("%d of %d pods placed by class", schedOf(w).classPicks, pods)
	}
}

// unthrottled is the default settings with the controller manager's API
// client unthrottled, so a ReplicaSet makes all its pods at once.
func unthrottled() model.Settings {
	st := model.DefaultSettings()
	st.KubeAPIQPS, st.KubeAPIBurst = 1e6, 1e6
	return st
}
