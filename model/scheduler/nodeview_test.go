package scheduler

import (
	"fmt"
	"testing"
	"time"

	"github.com/podsim/podsim/model"
)

// churnWorld is 240 nodes of two sizes, some with a taint, and ReplicaSets
// without a required spread that outgrow them: low-priority ones, then
// high-priority ones that preempt (nominating nodes). fullScan turns the
// nodes' views off.
func churnWorld(fullScan bool) (*model.World, []*model.Workload) {
	w := newWorld(3, unthrottled())
	schedOf(w).fullScan = fullScan
	w.AddPriorityClass(model.PriorityClass{Name: "high", Value: 1000})
	for i := range 240 {
		c := model.Resources{MilliCPU: 4000, Memory: 16 << 30, Pods: 30}
		if i%4 == 0 {
			c = model.Resources{MilliCPU: 8000, Memory: 8 << 30, Pods: 110}
		}
		n := w.AddNode(model.NodeSpec{Name: fmt.Sprint("n-", i), Capacity: c})
		if i%37 == 5 {
			n.AddTaint(model.Taint{Key: "gpu", Value: "yes", Effect: "NoSchedule"})
		}
	}
	return w, churnSets(w, [4]int64{300, 900, 0, 1500})
}

// churnSets adds ReplicaSets rs-0 to rs-3 of no pods, whose pods ask for
// the cpu (millicores; 0: best-effort) of cpus, those of the last in
// priority class "high".
func churnSets(w *model.World, cpus [4]int64) []*model.Workload {
	var wls []*model.Workload
	for i, cpu := range cpus {
		spec := appSpec(cpu, nil, model.RestartAlways)
		if cpu == 0 {
			spec.Containers[0].Requests = model.Resources{}
		}
		if i == 3 {
			spec.PriorityClassName = "high"
		}
		name := fmt.Sprint("rs-", i)
		wls = append(wls, w.AddWorkload(model.WorkloadSpec{Kind: model.KindReplicaSet, Name: name, Template: spec,
			Options: model.PodOptions{Labels: map[string]string{"app": name}}, Replicas: 0}))
	}
	return wls
}

// Filtering by the nodes' views places every pod where reading every node
// does, with the same messages, as pods come and go, nodes fill up, are
// cordoned, uncordoned and tainted, and preemption nominates nodes.
func TestNodeViewsPlaceAsNodes(t *testing.T) {
	viewed, wv := churnWorld(false)
	read, wr := churnWorld(true)
	steps := []struct {
		at       time.Duration
		replicas [4]int
		act      func(w *model.World)
	}{
		{time.Second, [4]int{1500, 300, 400, 0}, nil},
		{time.Minute, [4]int{2500, 300, 400, 0}, func(w *model.World) { w.Node("n-8").Cordon(); w.Node("n-9").Cordon() }},
		{2 * time.Minute, [4]int{1200, 600, 400, 100}, func(w *model.World) {
			w.Node("n-8").Uncordon()
			w.Node("n-12").AddTaint(model.Taint{Key: "gpu", Value: "yes", Effect: "NoSchedule"})
		}},
		{4 * time.Minute, [4]int{1200, 600, 900, 300}, nil},
	}
	for _, st := range steps {
		for _, w := range []*model.World{viewed, read} {
			for i, n := range st.replicas {
				[][]*model.Workload{wv, wr}[boolIndex(w == read)][i].Scale(n)
			}
			if st.act != nil {
				st.act(w)
			}
			for t0 := w.Now() + 5*time.Second; t0 < st.at; t0 += 5 * time.Second {
				w.Run(t0)
				checkViews(t, schedOf(w))
			}
			w.Run(st.at)
			checkViews(t, schedOf(w))
		}
		for i := range wv {
			a, b := wv[i].Pods(), wr[i].Pods()
			if len(a) != len(b) {
				t.Fatalf("at %v: %s has %d pods, %d reading the nodes", st.at, wv[i].Key(), len(a), len(b))
			}
			for j, p := range a {
				if (p.Node == nil) != (b[j].Node == nil) || p.Node != nil && p.Node.Name != b[j].Node.Name {
					t.Fatalf("at %v: pod %s on %v, reading the nodes on %v", st.at, p.Name, p.Node, b[j].Node)
				}
				c, _ := p.Condition(model.PodScheduled)
				d, _ := b[j].Condition(model.PodScheduled)
				if c != d {
					t.Fatalf("at %v: pod %s %+v, reading the nodes %+v", st.at, p.Name, c, d)
				}
			}
		}
	}
	if s := schedOf(viewed); s.nominations == 0 || len(s.views) != 240 {
		t.Errorf("%d nominations, %d views; want some, and 240", s.nominations, len(s.views))
	}
	if len(schedOf(read).views) != 0 {
		t.Error("the full scan filled views")
	}
}

// checkViews fails t if a current view of s differs from the view its
// node gives now.
func checkViews(t *testing.T, s *Scheduler) {
	t.Helper()
	s.syncViews()
	for id := range s.views {
		if v := s.views[id]; v.epoch == s.viewEpoch {
			s.views[id].epoch = 0
			if now := *s.viewOf(id, s.w.Nodes()[id]); now != v {
				t.Fatalf("at %v: the view of %s is %+v, its node gives %+v", s.w.Now(), s.w.Nodes()[id].Name, v, now)
			}
		}
	}
}
