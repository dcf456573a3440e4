package model

import (
	"fmt"
	"testing"
	"time"
)

// recountIndex checks every count of the scheduler's index against a count
// from scratch over the pods bound to the nodes that exist.
func recountIndex(t *testing.T, w *World) {
	t.Helper()
	x := &w.sched.index
	recount := func(what string, c *podCounter, counts func(p *Pod) bool) {
		t.Helper()
		byDomain := make([]map[int32]int32, len(c.domains))
		for i := range byDomain {
			byDomain[i] = map[int32]int32{}
		}
		for _, n := range w.nodes {
			var want int32
			for _, p := range n.pods {
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
		recount(fmt.Sprintf("counter %d", i), c, func(p *Pod) bool {
			return c.selects(p) && !(c.skipTerminating && p.deleting)
		})
	}
	for i, g := range x.groupL {
		recount(fmt.Sprintf("term group %d", i), &g.pods, func(p *Pod) bool {
			carries := false
			x.eachTerm(p, func(t *PodAffinityTerm, _ termKind, _ int32) { carries = carries || t == g.term })
			return carries && p.Namespace == g.ns
		})
	}
	for _, tp := range x.topoL {
		nodes := make([]int32, len(tp.nodes))
		for _, n := range w.nodes {
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
	w := newWorld(3, DefaultSettings())
	tl := &Timeline{}
	w.Subscribe(tl)
	w.AddPriorityClass(PriorityClass{Name: "high", Value: 1000})
	for i := range 6 {
		w.AddNode(NodeSpec{Name: fmt.Sprintf("n-%d", i), Capacity: Resources{MilliCPU: 2000, Memory: 8 << 30, Pods: 20},
			Labels: map[string]string{LabelZone: fmt.Sprint("z", i%3)}})
	}
	web := map[string]string{"app": "web"}
	spread := appSpec(300, &Behavior{Runs: []RunSpec{{ExitAfter: 3 * time.Minute, ExitCode: 1, Times: 1}}, ShutdownTime: 5 * time.Second}, RestartAlways)
	spread.TopologySpreadConstraints = []TopologySpreadConstraint{
		{MaxSkew: 2, TopologyKey: LabelZone, DoNotSchedule: true, LabelSelector: &LabelSelector{MatchLabels: web}},
		{MaxSkew: 1, TopologyKey: LabelHostname, LabelSelector: &LabelSelector{MatchExpressions: []Requirement{{Key: "app", Operator: OpIn, Values: []string{"web"}}}}},
	}
	w.AddWorkload(WorkloadSpec{Kind: KindReplicaSet, Name: "web", Template: spread, Options: PodOptions{Labels: web}, Replicas: 10})
	// The same labels in another namespace: counted apart.
	w.AddWorkload(WorkloadSpec{Kind: KindReplicaSet, Name: "web", Template: spread, Options: PodOptions{Namespace: "other", Labels: web}, Replicas: 3})
	anti := appSpec(200, nil, RestartAlways)
	anti.Affinity = &Affinity{
		PodAntiAffinity: &PodAffinity{Required: []PodAffinityTerm{{LabelSelector: &LabelSelector{MatchLabels: map[string]string{"app": "db"}}, TopologyKey: LabelHostname}}},
		PodAffinity:     &PodAffinity{Preferred: []WeightedPodAffinityTerm{{Weight: 50, Term: PodAffinityTerm{LabelSelector: &LabelSelector{MatchLabels: web}, TopologyKey: LabelZone}}}},
	}
	w.AddWorkload(WorkloadSpec{Kind: KindDeployment, Name: "db", Template: anti, Options: PodOptions{Labels: map[string]string{"app": "db"}}, Replicas: 4})
	big := appSpec(1800, nil, RestartAlways)
	big.PriorityClassName = "high"
	w.Schedule(4*time.Minute, func() {
		w.AddWorkload(WorkloadSpec{Kind: KindReplicaSet, Name: "big", Template: big, Replicas: 2})
	})
	w.Schedule(5*time.Minute, func() { w.Node("n-1").PowerOff(nil) })
	w.Schedule(12*time.Minute, func() { w.Node("n-1").Delete() })
	w.Schedule(13*time.Minute, func() { w.Workload("web").Scale(4) })
	w.Schedule(14*time.Minute, func() {
		for _, p := range w.Pods() {
			if p.owner != nil && p.owner.Spec.Name == "db" {
				p.Delete(nil)
				break
			}
		}
	})
	recountIndex(t, w)
	for {
		at, ok := w.eng.Peek()
		if !ok || at > 20*time.Minute {
			break
		}
		w.eng.Step()
		recountIndex(t, w)
	}
	preempted := 0
	for _, c := range tl.Changes {
		if c.Kind == ChangeEvent && c.Reason == "Preempted" {
			preempted++
		}
	}
	if preempted == 0 {
		t.Error("no preemption happened: the test does not exercise the dry run")
	}
}
