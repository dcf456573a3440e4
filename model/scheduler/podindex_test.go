package scheduler

import (
	"fmt"
	"testing"
	"time"

	"github.com/podsim/podsim/model"
)

// recountIndex checks every count of the scheduler's index against a count
// from scratch over the pods bound to the nodes that exist.
func recountIndex(t *testing.T, w *model.World) {
	t.Helper()
	x := &schedOf(w).index
	recount := func(what string, c *podCounter, counts func(p *model.Pod) bool) {
		t.Helper()
		byDomain := make([]map[int32]int32, len(c.domains))
		for i := range byDomain {
			byDomain[i] = map[int32]int32{}
		}
		for _, n := range w.Nodes() {
			var want int32
			for _, p := range n.Pods() {
				if inCache(p) && counts(p) {
					want++
				}
			}
			if got := c.onNode(n); got != want {
				t.Fatalf("at %v, %s on %s: %d pods counted, %d in a recount", w.Now(), what, n.Name, got, want)
			}
			for i, dc := range c.domains {
				if id := dc.topo.domainOf(n); id >= 0 {
					byDomain[i][id] += want
				}
			}
		}
		for i, dc := range c.domains {
			var total int32
			for id := range dc.topo.nodes {
				total += byDomain[i][int32(id)]
				if got, want := dc.at(int32(id)), byDomain[i][int32(id)]; got != want {
					t.Fatalf("at %v, %s, domain %d of %s: %d pods counted, %d in a recount", w.Now(), what, id, dc.topo.key, got, want)
				}
			}
			if dc.total != total {
				t.Fatalf("at %v, %s, key %s: total %d, recount %d", w.Now(), what, dc.topo.key, dc.total, total)
			}
		}
	}
	for i, c := range x.all {
		recount(fmt.Sprintf("counter %d", i), c, func(p *model.Pod) bool {
			return c.selects(p) && !(c.skipTerminating && p.Terminating())
		})
	}
	for i, g := range x.groupL {
		recount(fmt.Sprintf("term group %d", i), &g.pods, func(p *model.Pod) bool {
			carries := false
			x.eachTerm(p, func(t *model.PodAffinityTerm, _ termKind, _ int32) { carries = carries || t == g.term })
			return carries && p.Namespace == g.ns
		})
	}
	for _, tp := range x.topoL {
		nodes := make([]int32, len(tp.nodes))
		for _, n := range w.Nodes() {
			if id := tp.domainOf(n); id >= 0 {
				nodes[id]++
			}
		}
		for id := range nodes {
			if nodes[id] != tp.nodes[id] {
				t.Fatalf("at %v, key %s, domain %d: %d nodes counted, %d exist", w.Now(), tp.key, id, tp.nodes[id], nodes[id])
			}
		}
	}
}

// TestIndexMatchesRecount churns a cluster (spreading in two namespaces, anti-affinity,
// preferred affinity, preemption, deletions, a lost node, a deleted node)
// and checks the index against a recount after every event.
func TestIndexMatchesRecount(t *testing.T) {
	w := newWorld(3, model.DefaultSettings())
	tl := &model.Timeline{}
	w.Subscribe(tl)
	w.AddPriorityClass(model.PriorityClass{Name: "high", Value: 1000})
	for i := range 6 {
		w.AddNode(model.NodeSpec{Name: fmt.Sprintf("n-%d", i), Capacity: model.Resources{MilliCPU: 2000, Memory: 8 << 30, Pods: 20},
			Labels: map[string]string{model.LabelZone: fmt.Sprint("z", i%3)}})
	}
	web := map[string]string{"app": "web"}
	spread := appSpec(300, &model.Behavior{Runs: []model.RunSpec{{ExitAfter: 3 * time.Minute, ExitCode: 1, Times: 1}}, ShutdownTime: 5 * time.Second}, model.RestartAlways)
	spread.TopologySpreadConstraints = []model.TopologySpreadConstraint{
		{MaxSkew: 2, TopologyKey: model.LabelZone, DoNotSchedule: true, LabelSelector: &model.LabelSelector{MatchLabels: web}},
		{MaxSkew: 1, TopologyKey: model.LabelHostname, LabelSelector: &model.LabelSelector{MatchExpressions: []model.Requirement{{Key: "app", Operator: model.OpIn, Values: []string{"web"}}}}},
	}
	w.AddWorkload(model.WorkloadSpec{Kind: model.KindReplicaSet, Name: "web", Template: spread, Options: model.PodOptions{Labels: web}, Replicas: 10})
	// The same labels in another namespace: counted apart.
	w.AddWorkload(model.WorkloadSpec{Kind: model.KindReplicaSet, Name: "web", Template: spread, Options: model.PodOptions{Namespace: "other", Labels: web}, Replicas: 3})
	anti := appSpec(200, nil, model.RestartAlways)
	anti.Affinity = &model.Affinity{
		PodAntiAffinity: &model.PodAffinity{Required: []model.PodAffinityTerm{{LabelSelector: &model.LabelSelector{MatchLabels: map[string]string{"app": "db"}}, TopologyKey: model.LabelHostname}}},
		PodAffinity:     &model.PodAffinity{Preferred: []model.WeightedPodAffinityTerm{{Weight: 50, Term: model.PodAffinityTerm{LabelSelector: &model.LabelSelector{MatchLabels: web}, TopologyKey: model.LabelZone}}}},
	}
	w.AddWorkload(model.WorkloadSpec{Kind: model.KindDeployment, Name: "db", Template: anti, Options: model.PodOptions{Labels: map[string]string{"app": "db"}}, Replicas: 4})
	big := appSpec(1800, nil, model.RestartAlways)
	big.PriorityClassName = "high"
	w.Schedule(4*time.Minute, func() {
		w.AddWorkload(model.WorkloadSpec{Kind: model.KindReplicaSet, Name: "big", Template: big, Replicas: 2})
	})
	w.Schedule(5*time.Minute, func() { w.Node("n-1").PowerOff(nil) })
	w.Schedule(12*time.Minute, func() { w.Node("n-1").Delete() })
	w.Schedule(13*time.Minute, func() { w.Workload("web").Scale(4) })
	w.Schedule(14*time.Minute, func() {
		for _, p := range w.Pods() {
			if p.Owner() != nil && p.Owner().Spec.Name == "db" {
				p.Delete(nil)
				break
			}
		}
	})
	recountIndex(t, w)
	for {
		at, ok := w.Engine().Peek()
		if !ok || at > 20*time.Minute {
			break
		}
		w.Engine().Step()
		recountIndex(t, w)
	}
	preempted := 0
	for _, c := range tl.Changes {
		if c.Kind == model.ChangeEvent && c.Reason == "Preempted" {
			preempted++
		}
	}
	if preempted == 0 {
		t.Error("no preemption happened: the test does not exercise the dry run")
	}
}
