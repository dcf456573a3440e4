package podautoscaler_test

import (
	"testing"
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/model/cluster"
)

// loadStep is a Deployment of 2 pods (200m requested, 20m idle, 10m per
// request per second) behind a Service, autoscaled at 50% CPU between 2
// and 10 replicas, offered 10 requests per second, then 60 from 1m.
func loadStep(b *model.AutoscalerBehavior) (*model.World, *model.Autoscaler) {
	return loadStepOf(b, false)
}

// loadStepOf is loadStep with an autoscaler that existed before the run
// or not.
func loadStepOf(b *model.AutoscalerBehavior, existing bool) (*model.World, *model.Autoscaler) {
	w := cluster.New(1, model.DefaultSettings())
	w.AddNode(model.NodeSpec{Name: "n", Capacity: model.Resources{MilliCPU: 64000, Memory: 256 << 30, Pods: 110}})
	tmpl := &model.PodSpec{RestartPolicy: model.RestartAlways, TerminationGracePeriod: 30 * time.Second,
		Containers: []model.ContainerSpec{{Name: "app", Image: "app", PullPolicy: model.PullIfNotPresent,
			Requests: model.Resources{MilliCPU: 200},
			Behavior: &model.Behavior{Usage: model.Resources{MilliCPU: 20}, PerRequest: model.Resources{MilliCPU: 10}}}}}
	labels := map[string]string{"app": "web"}
	w.AddWorkload(model.WorkloadSpec{Kind: model.KindDeployment, Name: "web", Template: tmpl, Replicas: 2,
		Options: model.PodOptions{Labels: labels}, MaxSurge: model.IntOrPercent{Value: 25, Percent: true},
		MaxUnavailable: model.IntOrPercent{Value: 25, Percent: true}})
	s := w.AddService(model.ServiceSpec{Name: "web", Selector: labels})
	a := w.AddAutoscaler(model.AutoscalerSpec{Name: "web", TargetKind: model.KindDeployment, TargetName: "web",
		MinReplicas: 2, MaxReplicas: 10, Behavior: b, Existing: existing,
		Metrics: []model.MetricSpec{{Source: model.MetricResource, Resource: "cpu", Target: model.TargetUtilization, Utilization: 50}}})
	s.SetTraffic([]model.RateStep{{At: 0, MilliRPS: 10_000}, {At: time.Minute, MilliRPS: 60_000}})
	return w, a
}

// The loop end to end: the step's load reaches the autoscaler through
// metrics-server's scrape; the first sync after it is capped at
// max(2 x 2, 4), the next (its new pods inside their CPU initialization,
// counted at 0 on a scale-up) asks for 7, and 60 rps over 7 pods is within
// tolerance.
func TestLoadStepScalesUp(t *testing.T) {
	w, a := loadStep(nil)
	for _, step := range []struct {
		at               time.Duration
		desired, current int32
		limited          model.ConditionStatus
	}{
		{75 * time.Second, 4, 2, model.True},
		{90 * time.Second, 7, 4, model.False},
		{10 * time.Minute, 7, 7, model.False},
	} {
		w.Run(step.at)
		st := &a.Status
		c, _ := st.Condition(model.ScalingLimited)
		if st.DesiredReplicas != step.desired || st.CurrentReplicas != step.current || c.Status != step.limited {
			t.Errorf("at %v: desired %d, current %d, ScalingLimited %s (%s); want %d, %d, %s", step.at,
				st.DesiredReplicas, st.CurrentReplicas, c.Status, c.Reason, step.desired, step.current, step.limited)
		}
	}
	if got := w.Workload("web").Spec.Replicas; got != 7 {
		t.Errorf("the Deployment has %d replicas, want 7", got)
	}
}

// A behavior of 1 pod per minute limits the same step to one more pod a
// minute.
func TestBehaviorPolicyLimitsScaleUp(t *testing.T) {
	zero := time.Duration(0)
	w, a := loadStep(&model.AutoscalerBehavior{
		ScaleUp:   model.ScalingRules{Stabilization: &zero, SelectPolicy: model.SelectMax, Policies: []model.ScalingPolicy{{Value: 1, Period: time.Minute}}},
		ScaleDown: model.ScalingRules{SelectPolicy: model.SelectMax, Policies: []model.ScalingPolicy{{Percent: true, Value: 100, Period: 15 * time.Second}}},
	})
	w.Run(75 * time.Second)
	if got := a.Status.DesiredReplicas; got != 3 {
		t.Errorf("at 1m15s desired %d, want 3", got)
	}
	w.Run(2 * time.Minute)
	if got := a.Status.DesiredReplicas; got != 3 {
		t.Errorf("at 2m desired %d, want 3 (a minute not yet passed)", got)
	}
	w.Run(2*time.Minute + 15*time.Second)
	if got := a.Status.DesiredReplicas; got != 4 {
		t.Errorf("at 2m15s desired %d, want 4", got)
	}
}

// An autoscaler's sync allocates nothing in its steady state.
func TestAutoscalerSteadyStateAllocatesNothing(t *testing.T) {
	w, a := loadStep(nil)
	w.Run(20 * time.Minute)
	next := w.Now()
	allocs := testing.AllocsPerRun(20, func() {
		next += 15 * time.Second
		w.Run(next)
	})
	if allocs != 0 {
		t.Errorf("%v allocations per sync period, want 0", allocs)
	}
	if c, _ := a.Status.Condition(model.ScalingActive); c.Reason != "ValidMetricFound" {
		t.Errorf("ScalingActive %+v", c)
	}
}

// BenchmarkAutoscalerSteadyState runs the load step's world one sync
// period of virtual time per op, after 20 minutes.
func BenchmarkAutoscalerSteadyState(b *testing.B) {
	w, _ := loadStep(nil)
	w.Run(20 * time.Minute)
	next := w.Now()
	b.ReportAllocs()
	for b.Loop() {
		next += 15 * time.Second
		w.Run(next)
	}
}

// A new autoscaler syncs at once (v1.37): before metrics-server's first
// scrape it finds no metrics. One that existed before the run (a
// snapshot's) is in its periodic syncs: nothing at once, its next sync one
// period in.
func TestFirstSync(t *testing.T) {
	for _, existing := range []bool{false, true} {
		w, a := loadStepOf(nil, existing)
		w.Run(0)
		c, synced := a.Status.Condition(model.ScalingActive)
		if synced != !existing || (synced && c.Reason != "FailedGetResourceMetric") {
			t.Errorf("existing %v: at 0s ScalingActive %v (%s), want synced %v", existing, c.Status, c.Reason, !existing)
		}
		w.Run(15 * time.Second)
		if c, ok := a.Status.Condition(model.ScalingActive); !ok {
			t.Errorf("existing %v: no sync by 15s (%v)", existing, c)
		}
	}
}
