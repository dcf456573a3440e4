package serve

import (
	"fmt"
	"slices"
	"strings"
	"time"

	autoscalingv1 "k8s.io/api/autoscaling/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/report"
)

// hpaSnap is a HorizontalPodAutoscaler: its spec, and its status as the
// model's horizontal-pod-autoscaler controller last wrote it (a copy: the
// controller reuses its slices).
type hpaSnap struct {
	meta
	spec   *model.AutoscalerSpec // the model's: it never changes
	status model.AutoscalerStatus
}

// hpaSrc ties a model autoscaler to its API object.
type hpaSrc struct {
	a      *model.Autoscaler
	snap   *hpaSnap
	queued bool // in pending.scaled
}

// addAutoscaler writes a new autoscaler's first version (t is the world's
// time).
func (s *Store) addAutoscaler(a *model.Autoscaler, t time.Duration) {
	key := model.Key(a.Namespace(), a.Spec.Name)
	src := &hpaSrc{a: a, snap: &hpaSnap{meta: meta{name: a.Spec.Name, namespace: a.Namespace(),
		uid: uid(model.KindHorizontalPodAutoscaler, key), created: t}, spec: &a.Spec}}
	s.autoscalers[a] = src
	s.putAutoscaler(src)
}

// putAutoscaler writes an autoscaler's status as a new version.
func (s *Store) putAutoscaler(src *hpaSrc) {
	snap := *src.snap
	st := src.a.Status
	st.CurrentMetrics = slices.Clone(st.CurrentMetrics)
	st.Conditions = slices.Clone(st.Conditions)
	snap.status = st
	src.snap = &snap
	s.put(colHPAs, src.snap, false)
}

// moved reports whether an autoscaler's status differs from its
// snapshot's.
func (src *hpaSrc) moved() bool {
	a, b := &src.a.Status, &src.snap.status
	return a.Synced != b.Synced || a.CurrentReplicas != b.CurrentReplicas || a.DesiredReplicas != b.DesiredReplicas ||
		a.LastScaleTime != b.LastScaleTime || a.Scaled != b.Scaled ||
		!slices.Equal(a.CurrentMetrics, b.CurrentMetrics) || !slices.Equal(a.Conditions, b.Conditions)
}

// hpaV2 is an autoscaling/v2 HorizontalPodAutoscaler: the spec with its
// defaults, the status as its controller last wrote it. A metric the last
// sync could not compute shows as an empty entry of currentMetrics, as
// the controller writes it (pkg/controller/podautoscaler/horizontal.go).
// The model keeps no spec changes: generation and observedGeneration are
// 1, the latter once the controller has synced.
func (m moment) hpaV2(s *hpaSnap) *autoscalingv2.HorizontalPodAutoscaler {
	sp, st := s.spec, &s.status
	h := &autoscalingv2.HorizontalPodAutoscaler{TypeMeta: metav1.TypeMeta{Kind: "HorizontalPodAutoscaler", APIVersion: "autoscaling/v2"},
		ObjectMeta: m.objectMeta(&s.meta),
		Spec: autoscalingv2.HorizontalPodAutoscalerSpec{
			ScaleTargetRef: autoscalingv2.CrossVersionObjectReference{APIVersion: "apps/v1", Kind: sp.TargetKind, Name: sp.TargetName},
			MinReplicas:    new(sp.MinReplicas), MaxReplicas: sp.MaxReplicas, Behavior: behaviorV2(sp.Behavior)},
		Status: autoscalingv2.HorizontalPodAutoscalerStatus{CurrentReplicas: st.CurrentReplicas, DesiredReplicas: st.DesiredReplicas},
	}
	h.Generation = 1
	for i := range sp.Metrics {
		h.Spec.Metrics = append(h.Spec.Metrics, metricSpecV2(&sp.Metrics[i]))
	}
	if !st.Synced {
		return h
	}
	h.Status.ObservedGeneration = new(int64(1))
	if st.Scaled {
		h.Status.LastScaleTime = m.tsp(st.LastScaleTime)
	}
	for i := range st.CurrentMetrics {
		h.Status.CurrentMetrics = append(h.Status.CurrentMetrics, metricStatusV2(&sp.Metrics[i], &st.CurrentMetrics[i]))
	}
	for _, c := range st.Conditions {
		h.Status.Conditions = append(h.Status.Conditions, autoscalingv2.HorizontalPodAutoscalerCondition{
			Type: autoscalingv2.HorizontalPodAutoscalerConditionType(c.Type), Status: corev1.ConditionStatus(c.Status),
			LastTransitionTime: m.ts(c.LastTransitionTime), Reason: c.Reason, Message: c.Message})
	}
	return h
}

func metricSpecV2(ms *model.MetricSpec) autoscalingv2.MetricSpec {
	t := autoscalingv2.MetricTarget{Type: autoscalingv2.MetricTargetType(ms.Target.String())}
	switch ms.Target {
	case model.TargetUtilization:
		t.AverageUtilization = new(ms.Utilization)
	case model.TargetAverageValue:
		t.AverageValue = targetQuantity(ms)
	case model.TargetValue:
		t.Value = targetQuantity(ms)
	}
	switch ms.Source {
	case model.MetricPods:
		return autoscalingv2.MetricSpec{Type: autoscalingv2.PodsMetricSourceType,
			Pods: &autoscalingv2.PodsMetricSource{Metric: autoscalingv2.MetricIdentifier{Name: ms.Name}, Target: t}}
	case model.MetricObject:
		return autoscalingv2.MetricSpec{Type: autoscalingv2.ObjectMetricSourceType,
			Object: &autoscalingv2.ObjectMetricSource{DescribedObject: autoscalingv2.CrossVersionObjectReference{APIVersion: "v1", Kind: ms.ObjectKind, Name: ms.ObjectName},
				Metric: autoscalingv2.MetricIdentifier{Name: ms.Name}, Target: t}}
	}
	return autoscalingv2.MetricSpec{Type: autoscalingv2.ResourceMetricSourceType,
		Resource: &autoscalingv2.ResourceMetricSource{Name: corev1.ResourceName(ms.Resource), Target: t}}
}

// targetQuantity is a metric's target value. The model keeps no format:
// a memory target of whole bytes is written in binary units (256Mi), as
// such targets are mostly given; any other in decimal units.
func targetQuantity(ms *model.MetricSpec) *resource.Quantity {
	if ms.Resource == "memory" && ms.MilliValue%1000 == 0 {
		return resource.NewQuantity(ms.MilliValue/1000, resource.BinarySI)
	}
	return resource.NewMilliQuantity(ms.MilliValue, resource.DecimalSI)
}

// metricStatusV2 is a metric's current value as the controller writes it:
// a resource metric's average value and its utilization, a Pods metric's
// average, an Object metric's value (or average, for an AverageValue
// target); empty if the last sync could not compute it.
func metricStatusV2(ms *model.MetricSpec, v *model.MetricStatus) autoscalingv2.MetricStatus {
	if !v.Valid {
		return autoscalingv2.MetricStatus{}
	}
	milli := func(n int64) *resource.Quantity { return resource.NewMilliQuantity(n, resource.DecimalSI) }
	switch ms.Source {
	case model.MetricPods:
		return autoscalingv2.MetricStatus{Type: autoscalingv2.PodsMetricSourceType, Pods: &autoscalingv2.PodsMetricStatus{
			Metric: autoscalingv2.MetricIdentifier{Name: ms.Name}, Current: autoscalingv2.MetricValueStatus{AverageValue: milli(v.Average)}}}
	case model.MetricObject:
		cur := autoscalingv2.MetricValueStatus{Value: milli(v.Value)}
		if ms.Target == model.TargetAverageValue {
			cur = autoscalingv2.MetricValueStatus{AverageValue: milli(v.Average)}
		}
		return autoscalingv2.MetricStatus{Type: autoscalingv2.ObjectMetricSourceType, Object: &autoscalingv2.ObjectMetricStatus{
			DescribedObject: autoscalingv2.CrossVersionObjectReference{APIVersion: "v1", Kind: ms.ObjectKind, Name: ms.ObjectName},
			Metric:          autoscalingv2.MetricIdentifier{Name: ms.Name}, Current: cur}}
	}
	cur := autoscalingv2.MetricValueStatus{AverageValue: milli(v.Average)}
	if ms.Target == model.TargetUtilization {
		cur.AverageUtilization = new(v.Utilization)
	}
	return autoscalingv2.MetricStatus{Type: autoscalingv2.ResourceMetricSourceType,
		Resource: &autoscalingv2.ResourceMetricStatus{Name: corev1.ResourceName(ms.Resource), Current: cur}}
}

func behaviorV2(b *model.AutoscalerBehavior) *autoscalingv2.HorizontalPodAutoscalerBehavior {
	if b == nil {
		return nil
	}
	rules := func(r *model.ScalingRules) *autoscalingv2.HPAScalingRules {
		out := &autoscalingv2.HPAScalingRules{}
		if r.Stabilization != nil {
			out.StabilizationWindowSeconds = new(int32(*r.Stabilization / 1e9))
		}
		if r.SelectPolicy != "" {
			p := autoscalingv2.ScalingPolicySelect(r.SelectPolicy)
			out.SelectPolicy = &p
		}
		for _, p := range r.Policies {
			typ := autoscalingv2.PodsScalingPolicy
			if p.Percent {
				typ = autoscalingv2.PercentScalingPolicy
			}
			out.Policies = append(out.Policies, autoscalingv2.HPAScalingPolicy{Type: typ, Value: p.Value, PeriodSeconds: int32(p.Period / 1e9)})
		}
		if r.Tolerance != nil {
			out.Tolerance = resource.NewMilliQuantity(int64(*r.Tolerance*1000+0.5), resource.DecimalSI)
		}
		return out
	}
	return &autoscalingv2.HorizontalPodAutoscalerBehavior{ScaleUp: rules(&b.ScaleUp), ScaleDown: rules(&b.ScaleDown)}
}

// hpaV1 is the autoscaler as autoscaling/v1 shows it: the target CPU
// utilization of its cpu Utilization metric and its current value. The
// annotations in which the API server carries the other metrics and the
// conditions of a v2 object are left out.
func (m moment) hpaV1(s *hpaSnap) *autoscalingv1.HorizontalPodAutoscaler {
	sp, st := s.spec, &s.status
	h := &autoscalingv1.HorizontalPodAutoscaler{TypeMeta: metav1.TypeMeta{Kind: "HorizontalPodAutoscaler", APIVersion: "autoscaling/v1"},
		ObjectMeta: m.objectMeta(&s.meta),
		Spec: autoscalingv1.HorizontalPodAutoscalerSpec{
			ScaleTargetRef: autoscalingv1.CrossVersionObjectReference{APIVersion: "apps/v1", Kind: sp.TargetKind, Name: sp.TargetName},
			MinReplicas:    new(sp.MinReplicas), MaxReplicas: sp.MaxReplicas},
		Status: autoscalingv1.HorizontalPodAutoscalerStatus{CurrentReplicas: st.CurrentReplicas, DesiredReplicas: st.DesiredReplicas},
	}
	h.Generation = 1
	for i, ms := range sp.Metrics {
		if ms.Source != model.MetricResource || ms.Resource != "cpu" || ms.Target != model.TargetUtilization {
			continue
		}
		h.Spec.TargetCPUUtilizationPercentage = new(ms.Utilization)
		if i < len(st.CurrentMetrics) && st.CurrentMetrics[i].Valid {
			h.Status.CurrentCPUUtilizationPercentage = new(st.CurrentMetrics[i].Utilization)
		}
		break
	}
	if st.Synced {
		h.Status.ObservedGeneration = new(int64(1))
	}
	if st.Scaled {
		h.Status.LastScaleTime = m.tsp(st.LastScaleTime)
	}
	return h
}

// hpaColumns are kubectl's HorizontalPodAutoscaler columns
// (pkg/printers/internalversion/printers.go).
var hpaColumns = []metav1.TableColumnDefinition{nameCol,
	col("Reference", "string", false, "scaleTargetRef points to the target resource to scale, and is used to the pods for which metrics should be collected, as well as to actually change the replica count."),
	col("Targets", "string", false, "metrics contains the specifications for which to use to calculate the desired replica count (the maximum replica count across all metrics will be used)."),
	col("MinPods", "string", false, "minReplicas is the lower limit for the number of replicas to which the autoscaler can scale down."),
	col("MaxPods", "string", false, "maxReplicas is the upper limit for the number of replicas to which the autoscaler can scale up."),
	col("Replicas", "string", false, "currentReplicas is current number of replicas of pods managed by this autoscaler, as last seen by the autoscaler."),
	ageCol}

// hpaCells are printHorizontalPodAutoscaler's row.
func hpaCells(m moment, s snapshot) []any {
	h := s.(*hpaSnap)
	return []any{h.name, h.spec.TargetKind + "/" + h.spec.TargetName, hpaTargets(h.spec, h.status.CurrentMetrics),
		fmt.Sprint(h.spec.MinReplicas), int64(h.spec.MaxReplicas), int64(h.status.CurrentReplicas), report.HumanDuration(m.now - h.created)}
}

// hpaTargets is formatHPAMetrics: "cpu: 85%/50%" for a utilization, the
// current and target quantities otherwise ("(avg)" after an Object
// metric's average), "<unknown>" for a value the last sync did not
// compute; two metrics at most, then "+ N more...".
func hpaTargets(sp *model.AutoscalerSpec, cur []model.MetricStatus) string {
	if len(sp.Metrics) == 0 {
		return "<none>"
	}
	q := func(n int64) string { return resource.NewMilliQuantity(n, resource.DecimalSI).String() }
	var list []string
	for i := range sp.Metrics {
		ms := &sp.Metrics[i]
		var v *model.MetricStatus
		if i < len(cur) && cur[i].Valid {
			v = &cur[i]
		}
		current, target := "<unknown>", targetQuantity(ms).String()
		switch {
		case ms.Source == model.MetricResource && ms.Target == model.TargetUtilization:
			if v != nil {
				current = fmt.Sprintf("%d%%", v.Utilization)
			}
			list = append(list, fmt.Sprintf("%s: %s/%d%%", ms.Resource, current, ms.Utilization))
			continue
		case ms.Source == model.MetricObject && ms.Target == model.TargetValue:
			if v != nil {
				current = q(v.Value)
			}
		default:
			if v != nil {
				current = q(v.Average)
			}
		}
		switch ms.Source {
		case model.MetricResource:
			list = append(list, fmt.Sprintf("%s: %s/%s", ms.Resource, current, target))
		case model.MetricObject:
			if ms.Target == model.TargetAverageValue {
				target += " (avg)"
			}
			list = append(list, current+"/"+target)
		default:
			list = append(list, current+"/"+target)
		}
	}
	if len(list) > 2 {
		return strings.Join(list[:2], ", ") + fmt.Sprintf(" + %d more...", len(list)-2)
	}
	return strings.Join(list, ", ")
}

// hpaResource is the HorizontalPodAutoscalers' resource in autoscaling
// version v2 (the preferred version) or v1; in the category all, as the
// API server has them.
func hpaResource(version string) *apiResource {
	object := func(m moment, s snapshot) runtime.Object { return m.hpaV2(s.(*hpaSnap)) }
	if version == "v1" {
		object = func(m moment, s snapshot) runtime.Object { return m.hpaV1(s.(*hpaSnap)) }
	}
	return &apiResource{group: "autoscaling", version: version, categories: all, name: "horizontalpodautoscalers",
		singular: "horizontalpodautoscaler", kind: "HorizontalPodAutoscaler", namespaced: true, shortNames: []string{"hpa"},
		col: colHPAs, object: object, columns: hpaColumns, cells: hpaCells, fields: metaFields}
}
