package scenarios

import (
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/sim"
)

// defaultCPUUtilization is the target of an autoscaler without metrics
// (autoscaling.DefaultCPUUtilization).
const defaultCPUUtilization = 80

// addAutoscalers adds the scenario's HorizontalPodAutoscalers, after every
// workload.
func (s *Scenario) addAutoscalers(w *model.World) {
	for _, wl := range s.workloads {
		if wl.Kind == kindHPA {
			spec := autoscalerSpec(wl)
			spec.Existing = s.since(wl.Metadata.CreationTimestamp) < 0 // a snapshot's
			w.AddAutoscaler(spec)
		}
	}
}

// autoscalerSpec converts a HorizontalPodAutoscaler with the defaults of
// pkg/apis/autoscaling/v2/defaults.go (and v1's conversion to v2).
func autoscalerSpec(wl *Workload) model.AutoscalerSpec {
	h := &wl.Spec.HPASpec
	out := model.AutoscalerSpec{Name: wl.Metadata.Name, Namespace: wl.Metadata.Namespace, MinReplicas: 1}
	if r := h.ScaleTargetRef; r != nil {
		out.TargetKind, out.TargetName = r.Kind, r.Name
	}
	if h.MinReplicas != nil {
		out.MinReplicas = *h.MinReplicas
	}
	if h.MaxReplicas != nil {
		out.MaxReplicas = *h.MaxReplicas
	}
	for i := range h.Metrics {
		if m := metricSpec(&h.Metrics[i]); m.Source != 0 {
			out.Metrics = append(out.Metrics, m)
		}
	}
	if len(h.Metrics) == 0 {
		u := int32(defaultCPUUtilization)
		if p := h.TargetCPUUtilizationPercentage; p != nil {
			u = *p
		}
		out.Metrics = []model.MetricSpec{{Source: model.MetricResource, Resource: "cpu", Target: model.TargetUtilization, Utilization: u}}
	}
	if b := h.Behavior; b != nil {
		out.Behavior = &model.AutoscalerBehavior{
			ScaleUp: scalingRules(b.ScaleUp, model.ScalingRules{Stabilization: ptr(time.Duration(0)), SelectPolicy: model.SelectMax,
				Policies: []model.ScalingPolicy{{Value: 4, Period: 15 * time.Second}, {Percent: true, Value: 100, Period: 15 * time.Second}}}),
			ScaleDown: scalingRules(b.ScaleDown, model.ScalingRules{SelectPolicy: model.SelectMax,
				Policies: []model.ScalingPolicy{{Percent: true, Value: 100, Period: 15 * time.Second}}}),
		}
	}
	return out
}

func ptr[T any](v T) *T { return &v }

// metricSpec converts one metric.
func metricSpec(m *HPAMetric) model.MetricSpec {
	var out model.MetricSpec
	var t *HPAMetricTarget
	switch {
	case m.Resource != nil:
		out = model.MetricSpec{Source: model.MetricResource, Resource: m.Resource.Name}
		t = &m.Resource.Target
	case m.Pods != nil:
		out = model.MetricSpec{Source: model.MetricPods, Name: m.Pods.Metric.Name}
		t = &m.Pods.Target
	case m.Object != nil:
		o := m.Object
		out = model.MetricSpec{Source: model.MetricObject, Name: o.Metric.Name, ObjectKind: o.DescribedObject.Kind, ObjectName: o.DescribedObject.Name}
		t = &o.Target
	default:
		return out
	}
	switch {
	case t.AverageUtilization != nil:
		out.Target, out.Utilization = model.TargetUtilization, *t.AverageUtilization
	case t.AverageValue != nil:
		out.Target, out.MilliValue = model.TargetAverageValue, t.AverageValue.MilliValue()
	case t.Value != nil:
		out.Target, out.MilliValue = model.TargetValue, t.Value.MilliValue()
	}
	return out
}

// scalingRules fills the rules' unset fields from def (GenerateHPAScaleUpRules,
// GenerateHPAScaleDownRules); no rules at all are def.
func scalingRules(r *HPAScalingRules, def model.ScalingRules) model.ScalingRules {
	if r == nil {
		return def
	}
	out := def
	if r.StabilizationWindowSeconds != nil {
		out.Stabilization = ptr(sim.Seconds(int64(*r.StabilizationWindowSeconds)))
	}
	if r.SelectPolicy != "" {
		out.SelectPolicy = r.SelectPolicy
	}
	if len(r.Policies) > 0 {
		out.Policies = nil
		for _, p := range r.Policies {
			out.Policies = append(out.Policies, model.ScalingPolicy{Percent: p.Type == "Percent", Value: deref(p.Value),
				Period: sim.Seconds(int64(deref(p.PeriodSeconds)))})
		}
	}
	if r.Tolerance != nil {
		out.Tolerance = ptr(float64(r.Tolerance.MilliValue()) / 1000)
	}
	return out
}

func deref(p *int32) int32 {
	if p == nil {
		return 0
	}
	return *p
}

// hpaSettings applies settings.horizontalPodAutoscaler over the defaults.
func hpaSettings(in *HPASettings, out *model.HPASettings) {
	setDur(&out.SyncPeriod, in.SyncPeriod)
	setDur(&out.DownscaleStabilization, in.DownscaleStabilization)
	setDur(&out.CPUInitializationPeriod, in.CPUInitializationPeriod)
	setDur(&out.InitialReadinessDelay, in.InitialReadinessDelay)
	if in.Tolerance != nil {
		out.Tolerance = *in.Tolerance
	}
}
