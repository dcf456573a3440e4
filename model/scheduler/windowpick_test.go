package scheduler

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/podsim/podsim/model"
)

// windowWorld is nodes nodes of two sizes, scored 100 at a time (400
// nodes: four windows; 150: three, one wrapping), and ReplicaSets under the system default spreading, which
// scores by the pods' resources and the hostname count alone: small pods,
// big pods, best-effort pods, and high-priority pods that preempt (and
// nominate nodes). fullScan turns the kept windows off.
func windowWorld(fullScan bool, nodes int) (*model.World, []*model.Workload) {
	w := newWorld(5, unthrottled())
	s := schedOf(w)
	s.fullScan, s.percentageOfNodesToScore = fullScan, 25
	w.AddPriorityClass(model.PriorityClass{Name: "high", Value: 1000})
	for i := range nodes {
		c := model.Resources{MilliCPU: 4000, Memory: 16 << 30, Pods: 40}
		if i%5 == 0 {
			c = model.Resources{MilliCPU: 8000, Memory: 8 << 30, Pods: 110}
		}
		w.AddNode(model.NodeSpec{Name: fmt.Sprint("n-", i), Capacity: c})
	}
	return w, churnSets(w, [4]int64{200, 700, 0, 1500})
}

// Picking from the kept windows places every pod where scanning and
// scoring every feasible node does, with the same draws and the same work
// counted, as ReplicaSets grow and shrink (the hostname counts' extremes
// move), nodes fill up and are cordoned, and preemption nominates nodes.
func TestWindowsPickAsScoringEveryNode(t *testing.T) {
	for _, nodes := range []int{400, 150} {
		t.Run(fmt.Sprint(nodes, " nodes"), func(t *testing.T) { testWindowsPick(t, nodes) })
	}
}

func testWindowsPick(t *testing.T, nodes int) {
	kept, wk := windowWorld(false, nodes)
	full, wf := windowWorld(true, nodes)
	steps := []struct {
		at       time.Duration
		replicas [4]int
		act      func(w *model.World)
	}{
		{time.Second, [4]int{1200, 0, 0, 0}, nil},
		{time.Minute, [4]int{1800, 500, 600, 0}, nil},
		{2 * time.Minute, [4]int{900, 500, 600, 0}, nil},
		{3 * time.Minute, [4]int{2600, 700, 900, 0}, nil},
		{4 * time.Minute, [4]int{2600, 900, 900, 0}, func(w *model.World) { w.Node("n-8").Cordon() }},
		{6 * time.Minute, [4]int{2600, 900, 900, 400}, func(w *model.World) { w.Node("n-8").Uncordon() }},
	}
	for _, st := range steps {
		for _, w := range []*model.World{kept, full} {
			for i, n := range st.replicas {
				[][]*model.Workload{wk, wf}[boolIndex(w == full)][i].Scale(n * nodes / 400)
			}
			if st.act != nil {
				st.act(w)
			}
			w.Run(st.at)
		}
		for i := range wk {
			a, b := wk[i].Pods(), wf[i].Pods()
			if len(a) != len(b) {
				t.Fatalf("at %v: %s has %d pods, %d scoring every node", st.at, wk[i].Key(), len(a), len(b))
			}
			for j, p := range a {
				if (p.Node == nil) != (b[j].Node == nil) || p.Node != nil && p.Node.Name != b[j].Node.Name {
					t.Fatalf("at %v: pod %s on %s, scoring every node on %s", st.at, p.Name, nodeName(p), nodeName(b[j]))
				}
			}
		}
	}
	s, f := schedOf(kept), schedOf(full)
	if s.windowHits < s.tries/2 || s.windowScans < s.tries/2 || s.nominations == 0 {
		t.Errorf("of %d tries, %d picked from a kept window and %d scanned none; %d nominations; want most, most, and some",
			s.tries, s.windowHits, s.windowScans, s.nominations)
	}
	if f.windowHits != 0 || f.windowScans != 0 || f.tries != s.tries {
		t.Errorf("scoring every node: %d tries picked from a window, %d scans skipped, %d tries; want 0, 0 and %d", f.windowHits, f.windowScans, f.tries, s.tries)
	}
	if s.filtered != f.filtered || s.nodesRead != f.nodesRead {
		t.Errorf("%d nodes filtered and %d read; scoring every node, %d and %d", s.filtered, s.nodesRead, f.filtered, f.nodesRead)
	}
}

// A kept window stands for a scan only while its nodes still fit: a node
// that fills up by its pod count (which no score reads) while it scores
// best leaves it.
func TestWindowsDropNodesThatFill(t *testing.T) {
	var placed [2][]string
	for i, fullScan := range []bool{false, true} {
		w := newWorld(9, unthrottled())
		schedOf(w).fullScan = fullScan
		for j := range 10 {
			c := model.Resources{MilliCPU: 4000, Memory: 16 << 30, Pods: 110}
			if j == 0 {
				c = model.Resources{MilliCPU: 64000, Memory: 64 << 30, Pods: 3}
			}
			w.AddNode(model.NodeSpec{Name: fmt.Sprint("n-", j), Capacity: c})
		}
		var pods []*model.Pod
		for j := range 12 {
			pods = append(pods, w.AddPod(fmt.Sprint("p-", j), appSpec(100, nil, model.RestartAlways), model.PodOptions{}))
		}
		w.Run(time.Minute)
		for _, p := range pods {
			placed[i] = append(placed[i], nodeName(p))
		}
		if s := schedOf(w); !fullScan && s.windowScans == 0 {
			t.Error("no scan was skipped")
		}
	}
	if !slices.Equal(placed[0], placed[1]) {
		t.Errorf("placed on %v, scanning every node on %v", placed[0], placed[1])
	}
}

// Updating a window node by node leaves the same best total and the same
// ties, in order, as filling it anew from the same scores, unless it says
// the extreme counts changed (then the window is filled anew).
func TestWindowUpdateAsFill(t *testing.T) {
	gen := rand.New(rand.NewPCG(7, 8))
	counter := &podCounter{}
	for round := range 300 {
		k := 1 + gen.IntN(60)
		key := windowKey{k: int32(k)}
		if round%3 != 0 {
			key.counter = counter
		}
		ids, base, hostK := make([]int32, k), make([]int64, k), make([]int32, k)
		for i := range ids {
			ids[i] = int32(i)
			base[i] = int64(gen.IntN(5))
			hostK[i] = int32(gen.IntN(4))
		}
		extremes := func() (int32, int32) { return slices.Min(hostK), slices.Max(hostK) }
		normOf := func(lo, hi int32) []int64 {
			norm := make([]int64, hi-lo+1)
			for c := range norm {
				norm[c] = int64(hi-lo-int32(c)) * 100 / int64(hi-lo+1)
			}
			return norm
		}
		var w, ref windowPick
		lo, hi := extremes()
		w.fill(key, ids, base, hostK, normOf(lo, hi), lo, hi)
		for range 50 {
			pos := int32(gen.IntN(k))
			base[pos] = int64(gen.IntN(5))
			if gen.IntN(2) == 0 {
				hostK[pos] = int32(gen.IntN(4))
			}
			lo, hi := extremes()
			ok := w.update(pos, base[pos], hostK[pos])
			if key.counter != nil && (lo != w.lo || hi != w.hi) {
				if ok {
					t.Fatalf("round %d: counts %v span %d..%d, the window kept %d..%d", round, hostK, lo, hi, w.lo, w.hi)
				}
			} else if !ok {
				t.Fatalf("round %d: the update of %d failed with the counts' extremes unchanged", round, pos)
			}
			ref.fill(key, ids, base, hostK, normOf(lo, hi), lo, hi)
			if !ok {
				w.fill(key, ids, base, hostK, normOf(lo, hi), lo, hi)
			}
			if w.best != ref.best || !slices.Equal(w.tied, ref.tied) {
				t.Fatalf("round %d: best %d ties %v, filled anew %d %v", round, w.best, w.tied, ref.best, ref.tied)
			}
		}
	}
}

// The change log hands a window the changes it has not seen, and none
// once it was cut.
func TestChangeLogSince(t *testing.T) {
	var l changeLog
	l.add(3)
	at := l.end()
	l.add(7)
	l.add(9)
	if got, ok := l.since(at); !ok || len(got) != 2 || got[0] != 7 || got[1] != 9 {
		t.Fatalf("since %d: %v, %v", at, got, ok)
	}
	for i := range changeLogMax {
		l.add(i)
	}
	if _, ok := l.since(at); ok {
		t.Error("the changes since a position cut from the log were handed out")
	}
	if got, ok := l.since(l.end()); !ok || len(got) != 0 {
		t.Errorf("since the end: %v, %v", got, ok)
	}
}

// nodeName is the name of p's node, or "none".
func nodeName(p *model.Pod) string {
	if p.Node == nil {
		return "none"
	}
	return p.Node.Name
}

func TestSameIDs(t *testing.T) {
	for _, c := range []struct {
		a, b []int32
		want bool
	}{
		{nil, nil, true},
		{nil, []int32{}, true},
		{[]int32{1, 2, 3}, []int32{1, 2, 3}, true},
		{[]int32{1, 2, 3}, []int32{1, 2}, false},
		{[]int32{1, 2, 3}, []int32{1, 2, 4}, false},
		{[]int32{1 << 8}, []int32{1}, false},
		{[]int32{-1}, []int32{1<<31 - 1}, false},
	} {
		if got := sameIDs(c.a, c.b); got != c.want || sameIDs(c.b, c.a) != c.want {
			t.Errorf("sameIDs(%v, %v) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}
