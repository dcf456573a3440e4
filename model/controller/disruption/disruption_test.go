package disruption_test

import (
	"testing"
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/model/cluster"
)

func appSpec() *model.PodSpec {
	return &model.PodSpec{RestartPolicy: model.RestartAlways, TerminationGracePeriod: 30 * time.Second,
		Containers: []model.ContainerSpec{{Name: "app", Image: "img", PullPolicy: model.PullIfNotPresent,
			Requests: model.Resources{MilliCPU: 100, Memory: 64 << 20}}}}
}

func addNode(w *model.World, name string) {
	w.AddNode(model.NodeSpec{Name: name, Capacity: model.Resources{MilliCPU: 4000, Memory: 8 << 30, Pods: 110}})
}

// pdbWorld is two nodes, a Deployment "web" of replicas pods labelled
// app=web, and the budget b; it runs to 1m, when every pod is ready.
func pdbWorld(t *testing.T, replicas int, b model.PDBSpec) (*model.World, *model.DisruptionBudget) {
	t.Helper()
	w := cluster.New(1, model.DefaultSettings())
	addNode(w, "a")
	addNode(w, "b")
	budget := w.AddPodDisruptionBudget(b)
	w.AddWorkload(model.WorkloadSpec{Kind: model.KindDeployment, Name: "web", Replicas: replicas,
		Template: appSpec(), Options: model.PodOptions{Labels: map[string]string{"app": "web", "tier": "front"}}})
	w.Run(time.Minute)
	return w, budget
}

func TestDisruptionBudgetStatus(t *testing.T) {
	web := map[string]string{"app": "web"}
	for _, tc := range []struct {
		name string
		spec model.PDBSpec
		want model.PDBStatus
	}{
		{"minAvailable 2 of 3", model.PDBSpec{Selector: web, MinAvailable: &model.IntOrPercent{Value: 2}},
			model.PDBStatus{CurrentHealthy: 3, DesiredHealthy: 2, ExpectedPods: 3, DisruptionsAllowed: 1}},
		{"minAvailable 50% of 3, rounded up", model.PDBSpec{Selector: web, MinAvailable: &model.IntOrPercent{Value: 50, Percent: true}},
			model.PDBStatus{CurrentHealthy: 3, DesiredHealthy: 2, ExpectedPods: 3, DisruptionsAllowed: 1}},
		{"maxUnavailable 1", model.PDBSpec{Selector: web, MaxUnavailable: &model.IntOrPercent{Value: 1}},
			model.PDBStatus{CurrentHealthy: 3, DesiredHealthy: 2, ExpectedPods: 3, DisruptionsAllowed: 1}},
		{"maxUnavailable 0", model.PDBSpec{Selector: web, MaxUnavailable: &model.IntOrPercent{Value: 0}},
			model.PDBStatus{CurrentHealthy: 3, DesiredHealthy: 3, ExpectedPods: 3, DisruptionsAllowed: 0}},
		{"two labels", model.PDBSpec{Selector: map[string]string{"app": "web", "tier": "front"}, MinAvailable: &model.IntOrPercent{Value: 1}},
			model.PDBStatus{CurrentHealthy: 3, DesiredHealthy: 1, ExpectedPods: 3, DisruptionsAllowed: 2}},
		{"selects nothing", model.PDBSpec{Selector: map[string]string{"app": "db"}, MinAvailable: &model.IntOrPercent{Value: 1}},
			model.PDBStatus{DesiredHealthy: 1}},
		{"empty selector selects nothing", model.PDBSpec{MaxUnavailable: &model.IntOrPercent{Value: 1}},
			model.PDBStatus{}},
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
	w, b := pdbWorld(t, 3, model.PDBSpec{Name: "pdb", Selector: map[string]string{"app": "web"}, MaxUnavailable: &model.IntOrPercent{Value: 1}})
	w.Workload("web").Scale(5)
	w.Run(2 * time.Minute)
	if want := (model.PDBStatus{CurrentHealthy: 5, DesiredHealthy: 4, ExpectedPods: 5, DisruptionsAllowed: 1}); b.Status != want {
		t.Errorf("after scaling to 5: %+v, want %+v", b.Status, want)
	}
}

// A job's pods have a controller without a scale: a budget by percentage
// cannot be computed (failSafe).
func TestDisruptionBudgetWithoutScaleFailsSafe(t *testing.T) {
	w := cluster.New(1, model.DefaultSettings())
	addNode(w, "a")
	b := w.AddPodDisruptionBudget(model.PDBSpec{Name: "pdb", Selector: map[string]string{"app": "batch"},
		MinAvailable: &model.IntOrPercent{Value: 50, Percent: true}})
	w.AddWorkload(model.WorkloadSpec{Kind: model.KindJob, Name: "batch", Completions: 1, Parallelism: 1, BackoffLimit: 6,
		Template: &model.PodSpec{RestartPolicy: model.RestartNever, TerminationGracePeriod: time.Second,
			Containers: []model.ContainerSpec{{Name: "app", Image: "img", PullPolicy: model.PullIfNotPresent}}},
		Options: model.PodOptions{Labels: map[string]string{"app": "batch"}}})
	w.Run(time.Second)
	if c := b.Condition; c.Reason != "SyncFailed" || c.Message != `found no controllers for pod "batch-0"` || b.Status.DisruptionsAllowed != 0 {
		t.Errorf("budget over a Job's pods: %+v, %+v", c, b.Status)
	}
}

func TestDisruptionBudgetAdoptsExistingPods(t *testing.T) {
	w := cluster.New(1, model.DefaultSettings())
	addNode(w, "a")
	for _, n := range []string{"p", "q"} {
		w.AddPod(n, appSpec(), model.PodOptions{Labels: map[string]string{"app": "web"}})
	}
	w.Run(time.Second)
	b1 := w.AddPodDisruptionBudget(model.PDBSpec{Name: "one", Selector: map[string]string{"app": "web"}, MinAvailable: &model.IntOrPercent{Value: 1}})
	b2 := w.AddPodDisruptionBudget(model.PDBSpec{Name: "two", Selector: map[string]string{"app": "web"}, MinAvailable: &model.IntOrPercent{Value: 2}})
	w.Run(2 * time.Second)
	if b1.Status.CurrentHealthy != 2 || b2.Status.CurrentHealthy != 2 || b1.Status.DisruptionsAllowed != 1 {
		t.Errorf("budgets made after their pods: %+v, %+v", b1.Status, b2.Status)
	}
	if res := w.Pod("p").Evict(); res.Code != model.EvictionInternalError {
		t.Errorf("a pod under two budgets: eviction %+v, want 500", res)
	}
}

func TestEvict(t *testing.T) {
	web := map[string]string{"app": "web"}
	t.Run("refused while no disruption is allowed, allowed again once a replacement is ready", func(t *testing.T) {
		w, b := pdbWorld(t, 2, model.PDBSpec{Name: "pdb", Selector: web, MaxUnavailable: &model.IntOrPercent{Value: 1}})
		if res := w.Pod("web-0").Evict(); res.Code != model.EvictionCreated {
			t.Fatalf("first eviction: %+v", res)
		}
		st := w.Pod("web-0").Status()
		if c, _ := st.Condition(model.DisruptionTarget); c.Reason != "EvictionByEvictionAPI" || !w.Pod("web-0").Terminating() {
			t.Errorf("evicted pod: condition %+v, terminating %v", c, w.Pod("web-0").Terminating())
		}
		// The status is the one the eviction wrote: the disruption
		// controller has not synced yet at this instant.
		res := w.Pod("web-1").Evict()
		if res.Code != model.EvictionTooManyRequests || res.Cause != "The disruption budget pdb needs 1 healthy pods and has 2 currently" {
			t.Errorf("second eviction: %+v", res)
		}
		if w.Pod("web-1").Terminating() || b.Condition.Reason != "InsufficientPods" {
			t.Errorf("a refused eviction changed the pod or the budget: %+v", b.Condition)
		}
		w.Run(2 * time.Minute) // web-2 replaces web-0 and is ready at once
		if res := w.Pod("web-1").Evict(); res.Code != model.EvictionCreated {
			t.Errorf("eviction after the replacement is ready: %+v (budget %+v)", res, b.Status)
		}
	})
	t.Run("a pod that is not ready goes without a disruption while the budget is healthy", func(t *testing.T) {
		w, b := pdbWorld(t, 3, model.PDBSpec{Name: "pdb", Selector: web, MinAvailable: &model.IntOrPercent{Value: 2}})
		p := w.Pod("web-0")
		p.MarkNotReady()
		w.Run(w.Now())
		if b.Status.CurrentHealthy != 2 || b.Status.DisruptionsAllowed != 0 {
			t.Fatalf("budget after web-0 went unready: %+v", b.Status)
		}
		if res := p.Evict(); res.Code != model.EvictionCreated {
			t.Errorf("unready pod: %+v", res)
		}
	})
	t.Run("gone", func(t *testing.T) {
		w, _ := pdbWorld(t, 1, model.PDBSpec{Name: "pdb", Selector: web, MinAvailable: &model.IntOrPercent{Value: 1}})
		w.Pod("web-0").Delete(new(time.Duration))
		if res := w.Pod("web-0").Evict(); res.Code != model.EvictionNotFound {
			t.Errorf("deleted pod: %+v", res)
		}
	})
}
