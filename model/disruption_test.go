package model

import (
	"testing"
	"time"
)

func TestIntOrPercentScaled(t *testing.T) {
	for _, tc := range []struct {
		v       IntOrPercent
		total   int
		roundUp bool
		want    int
	}{
		{IntOrPercent{Value: 2}, 10, true, 2},
		{IntOrPercent{Value: 50, Percent: true}, 3, true, 2},
		{IntOrPercent{Value: 50, Percent: true}, 3, false, 1},
		{IntOrPercent{Value: 34, Percent: true}, 3, true, 2},
		{IntOrPercent{Value: 100, Percent: true}, 7, true, 7},
		{IntOrPercent{Value: 0, Percent: true}, 7, true, 0},
	} {
		if got := tc.v.Scaled(tc.total, tc.roundUp); got != tc.want {
			t.Errorf("%+v of %d (round up %v) = %d, want %d", tc.v, tc.total, tc.roundUp, got, tc.want)
		}
	}
}

// pdbWorld is two nodes, a Deployment "web" of replicas pods labelled
// app=web, and the budget b; it runs to 1m, when every pod is ready.
func pdbWorld(t *testing.T, replicas int, b PDBSpec) (*World, *DisruptionBudget) {
	t.Helper()
	w := newWorld(1, DefaultSettings())
	for _, n := range []string{"a", "b"} {
		w.AddNode(NodeSpec{Name: n, Capacity: Resources{MilliCPU: 4000, Memory: 8 << 30, Pods: 110}})
	}
	budget := w.AddPodDisruptionBudget(b)
	w.AddWorkload(WorkloadSpec{Kind: KindDeployment, Name: "web", Replicas: replicas,
		Template: appSpec(100, nil, RestartAlways), Options: PodOptions{Labels: map[string]string{"app": "web", "tier": "front"}}})
	w.Run(time.Minute)
	return w, budget
}

func TestDisruptionBudgetStatus(t *testing.T) {
	web := map[string]string{"app": "web"}
	for _, tc := range []struct {
		name string
		spec PDBSpec
		want PDBStatus
	}{
		{"minAvailable 2 of 3", PDBSpec{Selector: web, MinAvailable: &IntOrPercent{Value: 2}},
			PDBStatus{CurrentHealthy: 3, DesiredHealthy: 2, ExpectedPods: 3, DisruptionsAllowed: 1}},
		{"minAvailable 50% of 3, rounded up", PDBSpec{Selector: web, MinAvailable: &IntOrPercent{Value: 50, Percent: true}},
			PDBStatus{CurrentHealthy: 3, DesiredHealthy: 2, ExpectedPods: 3, DisruptionsAllowed: 1}},
		{"maxUnavailable 1", PDBSpec{Selector: web, MaxUnavailable: &IntOrPercent{Value: 1}},
			PDBStatus{CurrentHealthy: 3, DesiredHealthy: 2, ExpectedPods: 3, DisruptionsAllowed: 1}},
		{"maxUnavailable 0", PDBSpec{Selector: web, MaxUnavailable: &IntOrPercent{Value: 0}},
			PDBStatus{CurrentHealthy: 3, DesiredHealthy: 3, ExpectedPods: 3, DisruptionsAllowed: 0}},
		{"two labels", PDBSpec{Selector: map[string]string{"app": "web", "tier": "front"}, MinAvailable: &IntOrPercent{Value: 1}},
			PDBStatus{CurrentHealthy: 3, DesiredHealthy: 1, ExpectedPods: 3, DisruptionsAllowed: 2}},
		{"selects nothing", PDBSpec{Selector: map[string]string{"app": "db"}, MinAvailable: &IntOrPercent{Value: 1}},
			PDBStatus{DesiredHealthy: 1}},
		{"empty selector selects nothing", PDBSpec{MaxUnavailable: &IntOrPercent{Value: 1}},
			PDBStatus{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.spec.Name = "pdb"
			_, b := pdbWorld(t, 3, tc.spec)
			if b.Status != tc.want {
				t.Errorf("status %+v, want %+v", b.Status, tc.want)
			}
		})
	}
}

func TestDisruptionBudgetFollowsScale(t *testing.T) {
	w, b := pdbWorld(t, 3, PDBSpec{Name: "pdb", Selector: map[string]string{"app": "web"}, MaxUnavailable: &IntOrPercent{Value: 1}})
	w.Workload("web").Scale(5)
	w.Run(2 * time.Minute)
	if want := (PDBStatus{CurrentHealthy: 5, DesiredHealthy: 4, ExpectedPods: 5, DisruptionsAllowed: 1}); b.Status != want {
		t.Errorf("after scaling to 5: %+v, want %+v", b.Status, want)
	}
}

func TestDisruptionBudgetAdoptsExistingPods(t *testing.T) {
	w := newWorld(1, DefaultSettings())
	w.AddNode(NodeSpec{Name: "a", Capacity: Resources{MilliCPU: 4000, Memory: 8 << 30, Pods: 110}})
	for _, n := range []string{"p", "q"} {
		w.AddPod(n, appSpec(100, nil, RestartAlways), PodOptions{Labels: map[string]string{"app": "web"}})
	}
	w.Run(time.Second)
	b1 := w.AddPodDisruptionBudget(PDBSpec{Name: "one", Selector: map[string]string{"app": "web"}, MinAvailable: &IntOrPercent{Value: 1}})
	b2 := w.AddPodDisruptionBudget(PDBSpec{Name: "two", Selector: map[string]string{"app": "web"}, MinAvailable: &IntOrPercent{Value: 2}})
	w.Run(2 * time.Second)
	if b1.Status.CurrentHealthy != 2 || b2.Status.CurrentHealthy != 2 || b1.Status.DisruptionsAllowed != 1 {
		t.Errorf("budgets made after their pods: %+v, %+v", b1.Status, b2.Status)
	}
	if res := w.Pod("p").Evict(); res.Code != EvictionInternalError {
		t.Errorf("a pod under two budgets: eviction %+v, want 500", res)
	}
}

func TestEvict(t *testing.T) {
	web := map[string]string{"app": "web"}
	t.Run("refused while no disruption is allowed, allowed again once a replacement is ready", func(t *testing.T) {
		w, b := pdbWorld(t, 2, PDBSpec{Name: "pdb", Selector: web, MaxUnavailable: &IntOrPercent{Value: 1}})
		if res := w.Pod("web-0").Evict(); res.Code != EvictionCreated {
			t.Fatalf("first eviction: %+v", res)
		}
		if c, _ := w.Pod("web-0").status.Condition(DisruptionTarget); c.Reason != "EvictionByEvictionAPI" || !w.Pod("web-0").Terminating() {
			t.Errorf("evicted pod: condition %+v, terminating %v", c, w.Pod("web-0").Terminating())
		}
		// The status is the one the eviction wrote: the disruption
		// controller has not synced yet at this instant.
		res := w.Pod("web-1").Evict()
		if res.Code != EvictionTooManyRequests || res.Cause != "The disruption budget pdb needs 1 healthy pods and has 2 currently" {
			t.Errorf("second eviction: %+v", res)
		}
		if w.Pod("web-1").Terminating() || b.Condition.Reason != "InsufficientPods" {
			t.Errorf("a refused eviction changed the pod or the budget: %+v", b.Condition)
		}
		w.Run(2 * time.Minute) // web-2 replaces web-0 and is ready at once
		if res := w.Pod("web-1").Evict(); res.Code != EvictionCreated {
			t.Errorf("eviction after the replacement is ready: %+v (budget %+v)", res, b.Status)
		}
	})
	t.Run("a pod that is not ready goes without a disruption while the budget is healthy", func(t *testing.T) {
		w, b := pdbWorld(t, 3, PDBSpec{Name: "pdb", Selector: web, MinAvailable: &IntOrPercent{Value: 2}})
		p := w.Pod("web-0")
		p.setCondition(Ready, False, "ContainersNotReady", "")
		w.Run(w.Now())
		if b.Status.CurrentHealthy != 2 || b.Status.DisruptionsAllowed != 0 {
			t.Fatalf("budget after web-0 went unready: %+v", b.Status)
		}
		if res := p.Evict(); res.Code != EvictionCreated {
			t.Errorf("unready pod: %+v", res)
		}
	})
	t.Run("gone", func(t *testing.T) {
		w, _ := pdbWorld(t, 1, PDBSpec{Name: "pdb", Selector: web, MinAvailable: &IntOrPercent{Value: 1}})
		w.Pod("web-0").Delete(new(time.Duration))
		if res := w.Pod("web-0").Evict(); res.Code != EvictionNotFound {
			t.Errorf("deleted pod: %+v", res)
		}
	})
}

func TestScaleDownRanks(t *testing.T) {
	w := newWorld(1, DefaultSettings())
	w.AddNode(NodeSpec{Name: "a", Capacity: Resources{MilliCPU: 4000, Memory: 8 << 30, Pods: 110}})
	w.AddNode(NodeSpec{Name: "b", Capacity: Resources{MilliCPU: 4000, Memory: 8 << 30, Pods: 110}})
	wl := w.AddWorkload(WorkloadSpec{Kind: KindReplicaSet, Name: "rs", Replicas: 2, Template: appSpec(100, nil, RestartAlways)})
	w.Run(time.Minute)
	wl.Scale(4) // rs-2, rs-3: ready for less time
	w.Run(5 * time.Minute)
	wl.Scale(1)
	w.Run(5 * time.Minute)
	var deleting []string
	for _, p := range wl.Pods() {
		if p.Terminating() || p.Deleted() {
			deleting = append(deleting, p.Name)
		}
	}
	if len(deleting) != 3 || w.Pod("rs-0").Terminating() {
		t.Errorf("scale-down deleted %v, want rs-1, rs-2, rs-3", deleting)
	}
}
