package manifests

import (
	"github.com/podsim/podsim/scenarios"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// hpaV2 converts an autoscaling/v2 HorizontalPodAutoscaler.
func (c *converter) hpaV2(o *autoscalingv2.HorizontalPodAutoscaler) *scenarios.Workload {
	sp := &o.Spec
	h := scenarios.HPASpec{MinReplicas: sp.MinReplicas, MaxReplicas: &sp.MaxReplicas,
		ScaleTargetRef: &scenarios.ObjectReference{APIVersion: sp.ScaleTargetRef.APIVersion, Kind: sp.ScaleTargetRef.Kind, Name: sp.ScaleTargetRef.Name}}
	for i := range sp.Metrics {
		h.Metrics = append(h.Metrics, c.hpaMetric(&sp.Metrics[i]))
	}
	if b := sp.Behavior; b != nil {
		h.Behavior = &scenarios.HPABehavior{ScaleUp: c.scalingRules(b.ScaleUp), ScaleDown: c.scalingRules(b.ScaleDown)}
	}
	return &scenarios.Workload{APIVersion: o.APIVersion, Kind: o.Kind, Metadata: c.hpaMeta(&o.ObjectMeta), Spec: scenarios.WorkloadSpec{HPASpec: h}}
}

// hpaMeta is an autoscaler's metadata with its creation time: one made
// before a snapshot's instant syncs as an established one does
// (model.AutoscalerSpec.Existing).
func (c *converter) hpaMeta(om *metav1.ObjectMeta) scenarios.ObjectMeta {
	m := meta(om)
	m.SnapshotMeta = c.snapshotMeta(om)
	return m
}

// hpaV1 converts an autoscaling/v1 HorizontalPodAutoscaler.
func (c *converter) hpaV1(o *autoscalingv1.HorizontalPodAutoscaler) *scenarios.Workload {
	sp := &o.Spec
	h := scenarios.HPASpec{MinReplicas: sp.MinReplicas, MaxReplicas: &sp.MaxReplicas, TargetCPUUtilizationPercentage: sp.TargetCPUUtilizationPercentage,
		ScaleTargetRef: &scenarios.ObjectReference{APIVersion: sp.ScaleTargetRef.APIVersion, Kind: sp.ScaleTargetRef.Kind, Name: sp.ScaleTargetRef.Name}}
	return &scenarios.Workload{APIVersion: o.APIVersion, Kind: o.Kind, Metadata: c.hpaMeta(&o.ObjectMeta), Spec: scenarios.WorkloadSpec{HPASpec: h}}
}

func (c *converter) hpaMetric(m *autoscalingv2.MetricSpec) scenarios.HPAMetric {
	out := scenarios.HPAMetric{Type: string(m.Type)}
	if r := m.Resource; r != nil {
		out.Resource = &scenarios.HPAResourceMetric{Name: string(r.Name), Target: c.metricTarget(&r.Target)}
	}
	if p := m.Pods; p != nil {
		out.Pods = &scenarios.HPAPodsMetric{Metric: metricName(&p.Metric), Target: c.metricTarget(&p.Target)}
	}
	if o := m.Object; o != nil {
		d := &o.DescribedObject
		out.Object = &scenarios.HPAObjectMetric{Metric: metricName(&o.Metric), Target: c.metricTarget(&o.Target),
			DescribedObject: scenarios.ObjectReference{APIVersion: d.APIVersion, Kind: d.Kind, Name: d.Name}}
	}
	return out
}

func metricName(m *autoscalingv2.MetricIdentifier) scenarios.HPAMetricName {
	return scenarios.HPAMetricName{Name: m.Name}
}

func (c *converter) metricTarget(t *autoscalingv2.MetricTarget) scenarios.HPAMetricTarget {
	return scenarios.HPAMetricTarget{Type: string(t.Type), AverageUtilization: t.AverageUtilization,
		AverageValue: c.quantityPtr(t.AverageValue), Value: c.quantityPtr(t.Value)}
}

func (c *converter) scalingRules(r *autoscalingv2.HPAScalingRules) *scenarios.HPAScalingRules {
	if r == nil {
		return nil
	}
	out := &scenarios.HPAScalingRules{StabilizationWindowSeconds: r.StabilizationWindowSeconds, Tolerance: c.quantityPtr(r.Tolerance)}
	if p := r.SelectPolicy; p != nil {
		out.SelectPolicy = string(*p)
	}
	for _, p := range r.Policies {
		out.Policies = append(out.Policies, scenarios.HPAScalingPolicy{Type: string(p.Type), Value: &p.Value, PeriodSeconds: &p.PeriodSeconds})
	}
	return out
}

// quantityPtr converts an optional quantity; one podsim cannot hold is
// reported at its place.
func (c *converter) quantityPtr(q *resource.Quantity) *scenarios.Quantity {
	if q == nil {
		return nil
	}
	out := new(scenarios.Quantity)
	v, err := scenarios.ParseQuantity(q.String())
	if err != nil {
		c.errs = append(c.errs, convError{out, q.String() + ": " + err.Error()})
		return out
	}
	*out = v
	return out
}
