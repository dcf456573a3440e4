package scheduler

import (
	"fmt"
	"testing"
	"time"
	"unsafe"

	"github.com/podsim/podsim/model"
)

// recount sums, from scratch, what the node's running totals must hold:
// the requests of its pods not in a terminal phase.
func recount(n *model.Node) model.Resources {
	var r model.Resources
	for _, p := range n.Pods() {
		if p.Phase().Terminal() {
			continue
		}
		r.MilliCPU += p.Requests().MilliCPU
		r.Memory += p.Requests().Memory
		r.Pods++
	}
	return r
}

// runChecked runs w event by event until the virtual time until, checking
// after every event that each node's running totals equal a recount.
func runChecked(t *testing.T, w *model.World, until time.Duration) {
	t.Helper()
	check := func() {
		for _, n := range w.Nodes() {
			if got, want := n.Allocated(), recount(n); got != want {
				t.Fatalf("at %v, node %s: running totals %+v, recount %+v", w.Now(), n.Name, got, want)
			}
		}
	}
	check()
	for {
		at, ok := w.Engine().Peek()
		if !ok || at > until {
			break
		}
		w.Engine().Step()
		check()
	}
}

func appSpec(cpu int64, b *model.Behavior, policy model.RestartPolicy) *model.PodSpec {
	return &model.PodSpec{RestartPolicy: policy, TerminationGracePeriod: 30 * time.Second,
		Containers: []model.ContainerSpec{{Name: "app", Image: "img", PullPolicy: model.PullIfNotPresent, Behavior: b,
			Requests: model.Resources{MilliCPU: cpu, Memory: 64 << 20}}}}
}

func TestRunningTotalsMatchRecount(t *testing.T) {
	exitAfter := func(d time.Duration, code int32) *model.Behavior {
		return &model.Behavior{Runs: []model.RunSpec{{ExitAfter: d, ExitCode: code, Times: 1}}, ShutdownTime: 5 * time.Second}
	}
	for _, tc := range []struct {
		name  string
		build func(w *model.World)
	}{
		{"out of capacity, batch pods finish", func(w *model.World) {
			for i := range 2 {
				w.AddPod(fmt.Sprintf("batch-%d", i), appSpec(1500, exitAfter(time.Minute, 0), model.RestartNever), model.PodOptions{})
			}
			w.AddWorkload(model.WorkloadSpec{Kind: model.KindReplicaSet, Name: "api", Template: appSpec(1000, nil, model.RestartAlways), Replicas: 6})
		}},
		{"deletions with grace, force deletes, pod GC", func(w *model.World) {
			for i := range 6 {
				p := w.AddPod(fmt.Sprintf("p-%d", i), appSpec(500, exitAfter(time.Duration(i+1)*20*time.Second, int32(i%2)), model.RestartNever), model.PodOptions{})
				switch i % 3 {
				case 0:
					w.Schedule(10*time.Second, func() { p.Delete(nil) })
				case 1:
					w.Schedule(15*time.Second, func() { p.Delete(new(time.Duration)) })
				}
			}
			w.AddWorkload(model.WorkloadSpec{Kind: model.KindReplicaSet, Name: "rs", Template: appSpec(700, exitAfter(45*time.Second, 1), model.RestartNever), Replicas: 4})
		}},
		{"power loss, partition, disk failure, evictions", func(w *model.World) {
			w.AddWorkload(model.WorkloadSpec{Kind: model.KindReplicaSet, Name: "web", Template: appSpec(300, nil, model.RestartAlways), Replicas: 12})
			w.AddPod("bare", appSpec(300, nil, model.RestartAlways), model.PodOptions{})
			w.Schedule(time.Minute, func() { w.Node("n-0").PowerOff(nil) })
			w.Schedule(2*time.Minute, func() { d := 3 * time.Minute; w.Node("n-1").Partition(&d) })
			w.Schedule(3*time.Minute, func() { w.Node("n-2").DiskFailure() })
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := model.DefaultSettings()
			st.TerminatedPodGCThreshold = 2
			w := newWorld(1, st)
			for i := range 3 {
				w.AddNode(model.NodeSpec{Name: fmt.Sprintf("n-%d", i), Capacity: model.Resources{MilliCPU: 2000, Memory: 8 << 30, Pods: 110}})
			}
			tc.build(w)
			runChecked(t, w, 15*time.Minute)
			freed := 0
			for _, p := range w.Pods() {
				if p.Node != nil && (p.Phase().Terminal() || p.Deleted()) {
					freed++
				}
			}
			if freed == 0 {
				t.Fatal("no bound pod finished or left: nothing was released")
			}
		})
	}
}

func TestPodBackoff(t *testing.T) {
	want := []time.Duration{0, 1 * time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 10 * time.Second, 10 * time.Second}
	for attempts, w := range want {
		if got := podBackoff(uint8(attempts)); got != w {
			t.Errorf("podBackoff(%d) = %v, want %v", attempts, got, w)
		}
	}
	if got := podBackoff(maxAttempts); got != podMaxBackoff {
		t.Errorf("podBackoff(maxAttempts) = %v, want %v", got, podMaxBackoff)
	}
}

func TestNumFeasibleNodesToFind(t *testing.T) {
	for _, tc := range []struct{ percentage, nodes, want int }{
		{0, 0, 0},
		{0, 10, 10},
		{0, 99, 99},
		{0, 100, 100}, // 50% of 100 is 50, raised to the minimum 100
		{0, 101, 100},
		{0, 1000, 420},  // 50 - 8 = 42%
		{0, 5000, 500},  // 50 - 40 = 10%
		{0, 10000, 500}, // 50 - 80 < 5: 5%
		{30, 1000, 300},
		{1, 1000, 100},
		{100, 150, 150},
	} {
		if got := numFeasibleNodesToFind(tc.percentage, tc.nodes); got != tc.want {
			t.Errorf("numFeasibleNodesToFind(%d, %d) = %d, want %d", tc.percentage, tc.nodes, got, tc.want)
		}
	}
}

// TestRotatingStartIndex: in a cluster over 100 nodes, each try stops after
// numFeasibleNodesToFind feasible nodes, picks among them, and the next one
// starts where it stopped.
func TestRotatingStartIndex(t *testing.T) {
	w := newWorld(1, model.DefaultSettings())
	for i := range 250 {
		w.AddNode(model.NodeSpec{Name: fmt.Sprintf("n-%d", i), Capacity: model.Resources{MilliCPU: 4000, Memory: 8 << 30, Pods: 110}})
	}
	// 250 nodes: look for 48% of them, 120 feasible nodes per try.
	for i, want := range []struct{ from, next int }{{0, 120}, {120, 240}, {240, 110}, {110, 230}} {
		p := w.AddPod(fmt.Sprintf("p-%d", i), appSpec(100, nil, model.RestartAlways), model.PodOptions{})
		w.Run(w.Now() + time.Second)
		if got := schedOf(w).nextStartNodeIndex; got != want.next {
			t.Errorf("pod %d: next start %d, want %d", i, got, want.next)
		}
		var at int
		fmt.Sscanf(p.Node.Name, "n-%d", &at)
		if (at-want.from+250)%250 >= 120 {
			t.Errorf("pod %d on %s, outside the 120 nodes from n-%d", i, p.Node.Name, want.from)
		}
	}
}

// TestSmallClusterScansAllNodes: under 100 nodes every try sees every node,
// and LeastAllocated spreads equal pods over equal nodes.
func TestSmallClusterScansAllNodes(t *testing.T) {
	w := newWorld(1, model.DefaultSettings())
	for i := range 3 {
		w.AddNode(model.NodeSpec{Name: fmt.Sprintf("n-%d", i), Capacity: model.Resources{MilliCPU: 4000, Memory: 8 << 30, Pods: 110}})
	}
	seen := map[string]bool{}
	for i := range 3 {
		p := w.AddPod(fmt.Sprintf("p-%d", i), appSpec(1000, nil, model.RestartAlways), model.PodOptions{})
		w.Run(w.Now() + time.Second)
		seen[p.Node.Name] = true
	}
	if len(seen) != 3 {
		t.Errorf("three pods on %v, want one on each node", seen)
	}
}

// TestTiesBrokenBySeed: the best nodes tie; the choice among them is drawn
// from the scheduler's stream: the same seed picks the same node, and over
// seeds every tied node is picked.
func TestTiesBrokenBySeed(t *testing.T) {
	place := func(seed uint64) string {
		w := newWorld(seed, model.DefaultSettings())
		for i := range 4 {
			w.AddNode(model.NodeSpec{Name: fmt.Sprintf("n-%d", i), Capacity: model.Resources{MilliCPU: 4000, Memory: 8 << 30, Pods: 110}})
		}
		p := w.AddPod("p", appSpec(1000, nil, model.RestartAlways), model.PodOptions{})
		w.Run(time.Second)
		return p.Node.Name
	}
	seen := map[string]bool{}
	for seed := range uint64(40) {
		a, b := place(seed), place(seed)
		if a != b {
			t.Fatalf("seed %d: %s then %s", seed, a, b)
		}
		seen[a] = true
	}
	if len(seen) != 4 {
		t.Errorf("over 40 seeds the pod went to %v, want each of the 4 nodes", seen)
	}
}

// TestUnschedulablePodWaitsForAnEvent: a pod that fits nowhere is not tried
// again when an unrelated pod comes and goes through the scheduler, but is
// at once when an assigned pod finishes and frees its cpu.
func TestUnschedulablePodWaitsForAnEvent(t *testing.T) {
	w := newWorld(1, model.DefaultSettings())
	w.AddNode(model.NodeSpec{Name: "n", Capacity: model.Resources{MilliCPU: 2000, Memory: 8 << 30, Pods: 110}})
	w.AddPod("batch", appSpec(1500, &model.Behavior{Runs: []model.RunSpec{{ExitAfter: 2 * time.Minute, Times: 1}}}, model.RestartNever), model.PodOptions{})
	big := w.AddPod("big", appSpec(1000, nil, model.RestartAlways), model.PodOptions{})
	w.Run(time.Second)
	if big.Node != nil || schedOf(w).of(big).state != inUnschedulable || schedOf(w).of(big).attempts != 1 {
		t.Fatalf("big: node %v, state %d, attempts %d; want parked after 1 attempt", big.Node, schedOf(w).of(big).state, schedOf(w).of(big).attempts)
	}
	w.Schedule(30*time.Second, func() { w.AddPod("small", appSpec(100, nil, model.RestartAlways), model.PodOptions{}) })
	w.Run(time.Minute)
	if schedOf(w).of(big).attempts != 1 {
		t.Errorf("big tried %d times after an unrelated pod was scheduled, want 1", schedOf(w).of(big).attempts)
	}
	w.Run(2*time.Minute + time.Second)
	if big.Node == nil || schedOf(w).of(big).attempts != 2 {
		t.Errorf("big: node %v after %d attempts; want bound at the 2nd, when batch finished", big.Node, schedOf(w).of(big).attempts)
	}
}

// TestUnschedulableFlush: a parked pod with no event is tried again by the
// 30s flush once it has waited longer than 5 minutes.
func TestUnschedulableFlush(t *testing.T) {
	w := newWorld(1, model.DefaultSettings())
	w.AddNode(model.NodeSpec{Name: "n", Capacity: model.Resources{MilliCPU: 1000, Memory: 8 << 30, Pods: 110}})
	p := w.AddPod("big", appSpec(2000, nil, model.RestartAlways), model.PodOptions{})
	var tries []time.Duration
	last := uint8(0)
	for at := time.Duration(0); at <= 12*time.Minute; at += time.Second {
		w.Run(at)
		if schedOf(w).of(p).attempts != last {
			last = schedOf(w).of(p).attempts
			tries = append(tries, w.Now())
		}
	}
	want := []time.Duration{0, 330 * time.Second, 660 * time.Second}
	if fmt.Sprint(tries) != fmt.Sprint(want) {
		t.Errorf("tries at %v, want %v", tries, want)
	}
	if c, _ := p.Condition(model.PodScheduled); c.Reason != "Unschedulable" || c.Message != "0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling." {
		t.Errorf("PodScheduled %+v", c)
	}
	if n := len(w.EventsFor("Pod", "big")); n != 1 {
		t.Errorf("%d events, want 1 FailedScheduling (the message never changed)", n)
	}
}

// TestBackoffQueueOrder: pods moved by an event while still backing off are
// tried after the pods in activeQ.
func TestBackoffQueueOrder(t *testing.T) {
	w := newWorld(1, model.DefaultSettings())
	w.AddNode(model.NodeSpec{Name: "n", Capacity: model.Resources{MilliCPU: 2000, Memory: 8 << 30, Pods: 110}})
	short := w.AddPod("short", appSpec(2000, &model.Behavior{Runs: []model.RunSpec{{ExitAfter: 500 * time.Millisecond, Times: 1}}}, model.RestartNever), model.PodOptions{})
	old := w.AddPod("old", appSpec(2000, nil, model.RestartAlways), model.PodOptions{})
	// "new" comes at the very instant short finishes: old, found
	// unschedulable at 0s, is still backing off (1s), so new goes first.
	var young *model.Pod
	w.Schedule(500*time.Millisecond, func() { young = w.AddPod("new", appSpec(2000, nil, model.RestartAlways), model.PodOptions{}) })
	w.Run(time.Second)
	if short.Phase() != model.Succeeded || young == nil || young.Node == nil || old.Node != nil {
		t.Fatalf("short %s, new on %v, old on %v; want new bound and old still pending", short.Phase(), young.Node, old.Node)
	}
	if schedOf(w).of(old).attempts != 2 || schedOf(w).of(old).state != inUnschedulable {
		t.Errorf("old: %d attempts, state %d; want retried once from backoffQ and parked again", schedOf(w).of(old).attempts, schedOf(w).of(old).state)
	}
}

func TestQueueForgetsDeletedPods(t *testing.T) {
	w := newWorld(1, model.DefaultSettings())
	w.AddNode(model.NodeSpec{Name: "n", Capacity: model.Resources{MilliCPU: 1000, Memory: 8 << 30, Pods: 110}})
	var ps []*model.Pod
	for i := range 5 {
		ps = append(ps, w.AddPod(fmt.Sprintf("p-%d", i), appSpec(2000, nil, model.RestartAlways), model.PodOptions{}))
	}
	w.Run(time.Second)
	if schedOf(w).q.parked != 5 {
		t.Fatalf("%d parked, want 5", schedOf(w).q.parked)
	}
	for _, p := range ps[1:4] {
		p.Delete(nil)
	}
	if schedOf(w).q.parked != 2 || schedOf(w).of(ps[2]).state != notQueued {
		t.Errorf("%d parked after 3 deletions, want 2", schedOf(w).q.parked)
	}
	w.Run(time.Hour)
	if schedOf(w).q.parked != 2 || schedOf(w).q.waiting() {
		t.Errorf("%d parked, waiting %v; want the 2 left parked", schedOf(w).q.parked, schedOf(w).q.waiting())
	}
}

// A podState packs into 32 bytes: a 150k-pod run holds 150k of them.
func TestPodStateSize(t *testing.T) {
	if n := unsafe.Sizeof(podState{}); n != 32 && unsafe.Sizeof(uintptr(0)) == 8 {
		t.Errorf("podState is %d bytes, want 32", n)
	}
}
