package scenarios

import (
	"reflect"
	"slices"
	"strings"

	"github.com/podsim/podsim/model"
)

// hpaVersions are the apiVersions of a HorizontalPodAutoscaler.
var hpaVersions = []string{"autoscaling/v2", "autoscaling/v1"}

// scalableKinds are the kinds an autoscaler can scale, and their group.
var scalableKinds = map[string]string{"Deployment": "apps/v1", "ReplicaSet": "apps/v1", kindStatefulSet: "apps/v1"}

// hpa checks a HorizontalPodAutoscaler's own fields (its target is
// checked once every workload is known: autoscalerTargets).
func (v *validator) hpa(w *Workload) {
	v.name(&w.Metadata.Name, &w.Metadata, kindHPA)
	v.namespace(&w.Metadata.Namespace)
	if w.APIVersion != "" && w.APIVersion != hpaVersions[0] && w.APIVersion != hpaVersions[1] {
		v.at(&w.APIVersion, "a HorizontalPodAutoscaler's apiVersion is autoscaling/v2 or autoscaling/v1, not %q", w.APIVersion)
	}
	v.priorityClassFields(w)
	key := model.Key(w.Metadata.Namespace, w.Metadata.Name)
	for _, o := range v.hpas {
		if model.Key(o.Metadata.Namespace, o.Metadata.Name) == key && w.Metadata.Name != "" {
			v.at(&w.Metadata.Name, "duplicate HorizontalPodAutoscaler name %q%s", w.Metadata.Name, inNamespace(w.Metadata.Namespace))
		}
	}
	v.hpas = append(v.hpas, w)
	sp := &w.Spec
	rv := reflect.ValueOf(sp).Elem()
	for i := range rv.NumField() {
		f, name := rv.Field(i), strings.Split(rv.Type().Field(i).Tag.Get("yaml"), ",")[0]
		switch {
		case name == "":
		case name == "template":
			if p := v.s.pos.Of(&sp.Template); !p.IsZero() {
				v.atKey(&sp.Template, "a HorizontalPodAutoscaler has no template: it scales spec.scaleTargetRef")
			}
		case !f.IsZero():
			v.atKey(f.Addr().Interface(), "a HorizontalPodAutoscaler has no %s", name)
		}
	}
	h := &sp.HPASpec
	if h.ScaleTargetRef == nil {
		v.at(w, "a HorizontalPodAutoscaler needs spec.scaleTargetRef: the Deployment, ReplicaSet or StatefulSet it scales")
	}
	switch {
	case h.MaxReplicas == nil:
		v.at(w, "a HorizontalPodAutoscaler needs spec.maxReplicas")
	case *h.MaxReplicas < 1:
		v.at(h.MaxReplicas, "maxReplicas must be at least 1")
	case h.MinReplicas != nil && *h.MinReplicas > *h.MaxReplicas:
		v.at(h.MinReplicas, "minReplicas (%d) must not be greater than maxReplicas (%d)", *h.MinReplicas, *h.MaxReplicas)
	}
	if h.MinReplicas != nil && *h.MinReplicas < 1 {
		v.at(h.MinReplicas, "minReplicas must be at least 1 (scaling to zero is the alpha HPAScaleToZero gate)")
	}
	v1 := w.APIVersion == hpaVersions[1]
	if v1 && (len(h.Metrics) > 0 || h.Behavior != nil) {
		var at any = &h.Metrics
		if len(h.Metrics) == 0 {
			at = h.Behavior
		}
		v.atKey(at, "autoscaling/v1 has no metrics or behavior: use autoscaling/v2, or targetCPUUtilizationPercentage")
		return
	}
	if p := h.TargetCPUUtilizationPercentage; p != nil {
		if !v1 {
			v.atKey(p, "targetCPUUtilizationPercentage is autoscaling/v1's: autoscaling/v2 writes metrics")
		} else if *p < 1 {
			v.at(p, "targetCPUUtilizationPercentage must be at least 1")
		}
	}
	for i := range h.Metrics {
		v.hpaMetric(&h.Metrics[i])
	}
	if b := h.Behavior; b != nil {
		v.scalingRules(b.ScaleUp)
		v.scalingRules(b.ScaleDown)
	}
}

// hpaFields refuses an autoscaler's fields on another kind.
func (v *validator) hpaFields(w *Workload) {
	rv := reflect.ValueOf(&w.Spec.HPASpec).Elem()
	for i := range rv.NumField() {
		if f := rv.Field(i); !f.IsZero() {
			v.atKey(f.Addr().Interface(), "only a HorizontalPodAutoscaler has %s", strings.Split(rv.Type().Field(i).Tag.Get("yaml"), ",")[0])
		}
	}
}

// hpaMetric checks one metric: its type names the one source it has,
// and the target fits it.
func (v *validator) hpaMetric(m *HPAMetric) {
	t := &HPAMetricTarget{}
	switch m.Type {
	case "Resource":
		if m.Resource == nil {
			v.at(m, "a Resource metric needs resource: {name, target}")
			return
		}
		t = &m.Resource.Target
		if n := m.Resource.Name; n != "cpu" && n != "memory" {
			v.at(&m.Resource.Name, "resource %q: want cpu or memory%s", n, suggestion(n, []string{"cpu", "memory"}))
		}
		v.metricTarget(t, "Utilization", "AverageValue")
	case "Pods":
		if m.Pods == nil {
			v.at(m, "a Pods metric needs pods: {metric, target}")
			return
		}
		t = &m.Pods.Target
		v.metricName(&m.Pods.Metric)
		v.metricTarget(t, "AverageValue")
	case "Object":
		o := m.Object
		if o == nil {
			v.at(m, "an Object metric needs object: {describedObject, metric, target}")
			return
		}
		t = &o.Target
		v.metricName(&o.Metric)
		if o.DescribedObject.Kind != kindService {
			v.at(&o.DescribedObject.Kind, "an Object metric describes a Service (its requests_per_second), not %q", o.DescribedObject.Kind)
		}
		v.metricTarget(t, "Value", "AverageValue")
	case "ContainerResource", "External":
		return // its field is not simulated: a warning
	default:
		v.at(&m.Type, "metric type %q: want Resource, Pods or Object%s", m.Type, suggestion(m.Type, []string{"Resource", "Pods", "Object", "ContainerResource", "External"}))
		return
	}
	for _, src := range []struct {
		name string
		set  bool
	}{{"resource", m.Resource != nil}, {"pods", m.Pods != nil}, {"object", m.Object != nil}} {
		if src.set && !strings.EqualFold(src.name, m.Type) {
			v.at(m, "a %s metric has no %s", m.Type, src.name)
		}
	}
}

// metricName checks a metric's name: podsim provides requests_per_second.
func (v *validator) metricName(n *HPAMetricName) {
	if n.Name != "requests_per_second" {
		v.at(&n.Name, "metric %q: podsim provides requests_per_second (from spec.traffic)%s", n.Name, suggestion(n.Name, []string{"requests_per_second"}))
	}
}

// metricTarget checks that a target's type is one of types and that it
// has the value of its type and no other.
func (v *validator) metricTarget(t *HPAMetricTarget, types ...string) {
	ok := false
	for _, ty := range types {
		ok = ok || t.Type == ty
	}
	if !ok {
		v.at(&t.Type, "target type %q: want %s%s", t.Type, strings.Join(types, " or "), suggestion(t.Type, types))
		return
	}
	has := map[string]bool{"Utilization": t.AverageUtilization != nil, "AverageValue": t.AverageValue != nil, "Value": t.Value != nil}
	field := map[string]string{"Utilization": "averageUtilization", "AverageValue": "averageValue", "Value": "value"}
	if !has[t.Type] {
		v.at(t, "a target of type %s needs %s", t.Type, field[t.Type])
	}
	for _, ty := range []string{"Utilization", "AverageValue", "Value"} {
		if ty != t.Type && has[ty] {
			v.at(t, "a target of type %s has no %s", t.Type, field[ty])
		}
	}
	if u := t.AverageUtilization; u != nil && *u < 1 {
		v.at(u, "averageUtilization must be at least 1")
	}
	for _, q := range []*Quantity{t.AverageValue, t.Value} {
		if q != nil && q.MilliValue() <= 0 {
			v.at(q, "a target value must be positive")
		}
	}
}

// scalingRules checks one direction's behavior.
func (v *validator) scalingRules(r *HPAScalingRules) {
	if r == nil {
		return
	}
	if s := r.StabilizationWindowSeconds; s != nil && (*s < 0 || *s > 3600) {
		v.at(s, "stabilizationWindowSeconds must be between 0 and 3600")
	}
	if p := r.SelectPolicy; p != "" && p != model.SelectMax && p != model.SelectMin && p != model.SelectDisabled {
		v.at(&r.SelectPolicy, "selectPolicy %q: want Max, Min or Disabled%s", p, suggestion(p, []string{"Max", "Min", "Disabled"}))
	}
	if q := r.Tolerance; q != nil && q.MilliValue() < 0 {
		v.at(q, "tolerance must not be negative")
	}
	for i := range r.Policies {
		p := &r.Policies[i]
		if p.Type != "Pods" && p.Type != "Percent" {
			v.at(&p.Type, "policy type %q: want Pods or Percent%s", p.Type, suggestion(p.Type, []string{"Pods", "Percent"}))
		}
		if p.Value == nil || *p.Value < 1 {
			v.at(p, "a policy needs a value of at least 1")
		}
		if p.PeriodSeconds == nil || *p.PeriodSeconds < 1 || *p.PeriodSeconds > 1800 {
			v.at(p, "a policy needs periodSeconds between 1 and 1800")
		}
	}
}

// autoscalerTargets checks that each autoscaler's target is a workload of
// its namespace that it can scale.
func (v *validator) autoscalerTargets() {
	for _, w := range v.hpas {
		v.item(w)
		ref := w.Spec.ScaleTargetRef
		if ref == nil {
			continue
		}
		group, scalable := scalableKinds[ref.Kind]
		switch {
		case !scalable:
			v.at(&ref.Kind, "scaleTargetRef kind %q: a HorizontalPodAutoscaler scales a Deployment, ReplicaSet or StatefulSet%s",
				ref.Kind, suggestion(ref.Kind, []string{"Deployment", "ReplicaSet", "StatefulSet"}))
			continue
		case ref.APIVersion != "" && ref.APIVersion != group:
			v.at(&ref.APIVersion, "a %s's apiVersion is %s, not %q", ref.Kind, group, ref.APIVersion)
		}
		target := v.workloads[model.Key(w.Metadata.Namespace, ref.Name)]
		if target == nil || target.Kind != ref.Kind {
			v.at(&ref.Name, "scaleTargetRef: no %s %q%s%s", ref.Kind, ref.Name, inNamespace(w.Metadata.Namespace),
				suggestion(ref.Name, names(v.workloads, ref.Kind, w.Metadata.Namespace)))
		}
		for i := range w.Spec.Metrics {
			o := w.Spec.Metrics[i].Object
			if o == nil || o.DescribedObject.Kind != kindService {
				continue
			}
			if _, ok := v.services[model.Key(w.Metadata.Namespace, o.DescribedObject.Name)]; !ok {
				v.at(&o.DescribedObject.Name, "no Service %q%s%s", o.DescribedObject.Name, inNamespace(w.Metadata.Namespace),
					suggestion(o.DescribedObject.Name, names(v.services, kindService, w.Metadata.Namespace)))
			}
		}
	}
}

// suggestion is "; did you mean X?" for the closest of names, or "".
func suggestion(s string, names []string) string {
	if m := suggestName(s, names); m != "" {
		return "; did you mean " + quoteValue(m) + "?"
	}
	return ""
}

// names returns the sorted names of the objects of m of kind in
// namespace ns.
func names(m map[string]*Workload, kind, ns string) []string {
	var out []string
	for _, w := range m {
		if w.Kind == kind && w.Metadata.Namespace == ns {
			out = append(out, w.Metadata.Name)
		}
	}
	slices.Sort(out)
	return out
}

// hpaSettings checks settings.horizontalPodAutoscaler.
func (v *validator) hpaSettings(h *HPASettings) {
	if d := h.SyncPeriod; d != nil && d.D() <= 0 {
		v.at(d, "syncPeriod must be positive")
	}
	for _, d := range []*Duration{h.DownscaleStabilization, h.CPUInitializationPeriod, h.InitialReadinessDelay} {
		if d != nil && d.D() < 0 {
			v.at(d, "must not be negative")
		}
	}
	if t := h.Tolerance; t != nil && (*t < 0 || *t != *t) {
		v.at(t, "tolerance must not be negative")
	}
}

// hpaNamed returns the HorizontalPodAutoscaler with key k, or nil.
func (v *validator) hpaNamed(k string) *Workload {
	for _, w := range v.hpas {
		if model.Key(w.Metadata.Namespace, w.Metadata.Name) == k {
			return w
		}
	}
	return nil
}

// expectHPAFields refuses an autoscaler's status fields on a check of
// anything else.
func (v *validator) expectHPAFields(e *Expect, k string) {
	for _, r := range []*IntRange{e.DesiredReplicas, e.CurrentReplicas} {
		if r != nil && (e.Workload == "" || v.hpaNamed(k) == nil) {
			v.atKey(r, "desiredReplicas and currentReplicas are checked on a HorizontalPodAutoscaler (workload: its name)")
		}
	}
}

// IsAutoscalerCheck reports whether e reads a HorizontalPodAutoscaler's
// status rather than its namesake controller's: desiredReplicas,
// currentReplicas, or one of its conditions.
func (e *Expect) IsAutoscalerCheck() bool {
	if e.DesiredReplicas != nil || e.CurrentReplicas != nil {
		return true
	}
	if c := e.Condition; c != nil {
		return c.Type == model.AbleToScale || c.Type == model.ScalingActive || c.Type == model.ScalingLimited
	}
	return false
}
