package scenarios

import (
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Patterns of Karpenter's CRDs (pkg/apis/v1: nodepool.go, nodeclaim.go).
var (
	nillableDuration = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(([0-9]+(s|m|h))+|Never)$`) })
	budgetNodes      = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^((100|[0-9]{1,2})%|[0-9]+)$`) })
)

var (
	requirementOperators  = []string{"In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"}
	consolidationPolicies = []string{"WhenEmptyOrUnderutilized", "WhenEmpty"}
	disruptionReasons     = []string{"Underutilized", "Empty", "Drifted"}
	nodePoolLimits        = []string{"cpu", "memory", "nodes"}
	taintEffects          = []string{"NoSchedule", "PreferNoSchedule", "NoExecute"}
)

// nodePool checks a NodePool: its own fields only, a pod template's
// none.
func (v *validator) nodePool(w *Workload) {
	v.name(&w.Metadata.Name, &w.Metadata, kindNodePool)
	if w.APIVersion != "" && w.APIVersion != nodePoolAPIVersion {
		v.at(&w.APIVersion, "a NodePool's apiVersion is %s, not %q", nodePoolAPIVersion, w.APIVersion)
	}
	if w.Metadata.Namespace != "" {
		v.at(&w.Metadata.Namespace, "a NodePool is cluster-scoped: it has no namespace")
	}
	for _, o := range v.nodePools {
		if o.Metadata.Name == w.Metadata.Name && w.Metadata.Name != "" {
			v.at(&w.Metadata.Name, "duplicate NodePool name %q", w.Metadata.Name)
		}
	}
	v.nodePools = append(v.nodePools, w)
	if len(v.nodePools) == 1 && (v.s.File.Spec.ClusterAutoscaler != nil || len(v.s.File.Spec.NodeGroups) > 0) {
		v.at(&w.Metadata.Name, "NodePool %q beside spec.nodeGroups or spec.clusterAutoscaler: a scenario runs one node autoscaler, Karpenter or the Cluster Autoscaler", w.Metadata.Name)
	}
	v.priorityClassFields(w)
	v.onlyFields(reflect.ValueOf(&w.Spec).Elem(), "a NodePool's spec", "template", "disruption", "limits", "weight")
	v.onlyFields(reflect.ValueOf(&w.Spec.Template.Spec).Elem(), "a NodePool's template.spec",
		"requirements", "taints", "startupTaints", "expireAfter", "terminationGracePeriod", "nodeClassRef")
	v.labels(&w.Spec.Template.Metadata.Labels)
	ts := &w.Spec.Template.Spec.NodeClaimTemplateSpec
	for i := range ts.Requirements {
		v.nodePoolRequirement(&ts.Requirements[i])
	}
	for _, list := range [][]Taint{ts.Taints, ts.StartupTaints} {
		for i := range list {
			v.taint(&list[i])
		}
	}
	if ts.ExpireAfter != "" && !nillableDuration().MatchString(ts.ExpireAfter) {
		v.at(&ts.ExpireAfter, "expireAfter %q: want a duration of s, m and h (720h) or Never", ts.ExpireAfter)
	}
	sp := &w.Spec.NodePoolSpec
	for k := range sp.Limits {
		if !slices.Contains(nodePoolLimits, k) {
			v.atMapKey(&sp.Limits, k, "limit %q: podsim limits cpu, memory and nodes%s", k, suggestion(k, nodePoolLimits))
		}
	}
	if sp.Weight != nil && (*sp.Weight < 1 || *sp.Weight > 100) {
		v.at(sp.Weight, "weight must be between 1 and 100")
	}
	if d := sp.Disruption; d != nil {
		v.nodePoolDisruption(d)
	}
	if len(v.s.File.Spec.InstanceTypes) == 0 {
		v.at(w, "NodePool %q: spec.instanceTypes lists none (podsim has no cloud: list the instance types it may launch)", w.Metadata.Name)
	}
}

// onlyFields refuses every set field of the struct rv but those named,
// looking into inlined structs.
func (v *validator) onlyFields(rv reflect.Value, what string, allowed ...string) {
	for i := range rv.NumField() {
		f, tag := rv.Field(i), rv.Type().Field(i).Tag.Get("yaml")
		name := strings.Split(tag, ",")[0]
		switch {
		case strings.HasSuffix(tag, ",inline"):
			v.onlyFields(f, what, allowed...)
		case slices.Contains(allowed, name) || f.IsZero():
		default:
			v.atKey(f.Addr().Interface(), "%s has no %s", what, name)
		}
	}
}

func (v *validator) nodePoolRequirement(r *NodePoolRequirement) {
	if r.Key == "" {
		v.at(r, "requirement: key is required")
	} else if p := keyProblem(r.Key); p != "" {
		v.at(&r.Key, "requirement key %s: %s", quoteValue(r.Key), p)
	}
	switch r.Operator {
	case "In", "NotIn":
		if len(r.Values) == 0 {
			v.at(r, "requirement %s %s needs values", r.Key, r.Operator)
		}
	case "Exists", "DoesNotExist":
		if len(r.Values) > 0 {
			v.at(&r.Values, "requirement %s %s takes no values", r.Key, r.Operator)
		}
	case "Gt", "Lt":
		if len(r.Values) != 1 {
			v.at(r, "requirement %s %s takes one integer value", r.Key, r.Operator)
		} else if _, err := strconv.ParseInt(r.Values[0], 10, 64); err != nil {
			v.at(&r.Values, "requirement %s %s: %q is not an integer", r.Key, r.Operator, r.Values[0])
		}
	default:
		v.at(&r.Operator, "requirement operator %q: want %s%s", r.Operator, strings.Join(requirementOperators, ", "), suggestion(r.Operator, requirementOperators))
	}
	if r.MinValues != nil && *r.MinValues < 1 {
		v.at(r.MinValues, "minValues must be at least 1")
	}
}

func (v *validator) taint(t *Taint) {
	if t.Key == "" {
		v.at(t, "taint: key is required")
	} else if p := keyProblem(t.Key); p != "" {
		v.at(&t.Key, "taint key %s: %s", quoteValue(t.Key), p)
	}
	if !slices.Contains(taintEffects, t.Effect) {
		v.at(t, "taint effect %q: want NoSchedule, PreferNoSchedule or NoExecute%s", t.Effect, suggestion(t.Effect, taintEffects))
	}
}

func (v *validator) nodePoolDisruption(d *NodePoolDisruption) {
	if p := d.ConsolidationPolicy; p != "" && !slices.Contains(consolidationPolicies, p) {
		v.at(&d.ConsolidationPolicy, "consolidationPolicy %q: want WhenEmptyOrUnderutilized or WhenEmpty%s", p, suggestion(p, consolidationPolicies))
	}
	if a := d.ConsolidateAfter; a != "" && !nillableDuration().MatchString(a) {
		v.at(&d.ConsolidateAfter, "consolidateAfter %q: want a duration of s, m and h (30s) or Never", a)
	}
	for i := range d.Budgets {
		b := &d.Budgets[i]
		if !budgetNodes().MatchString(b.Nodes) {
			v.at(b, "budget nodes %q: want a count (5) or a percentage (10%%)", b.Nodes)
		}
		for j := range b.Reasons {
			if r := b.Reasons[j]; !slices.Contains(disruptionReasons, r) {
				v.at(&b.Reasons, "budget reason %q: want Underutilized, Empty or Drifted%s", r, suggestion(r, disruptionReasons))
			}
		}
		if b.Schedule != nil || b.Duration != nil {
			v.at(b, "a budget's schedule and duration are not simulated: podsim keeps every budget active")
		}
	}
}

// nodeClaimFields refuses a NodePool template's fields in a pod's spec.
func (v *validator) nodeClaimFields(ps *PodSpec) {
	v.onlyFields(reflect.ValueOf(&ps.NodeClaimTemplateSpec).Elem(), "a pod's spec (only a NodePool's template)")
}

// instanceTypes checks spec.instanceTypes.
func (v *validator) instanceTypes(its []InstanceType) {
	seen := map[string]bool{}
	for i := range its {
		it := &its[i]
		v.item(it)
		switch {
		case it.Name == "":
			v.at(it, "instance type: name is required")
		case seen[it.Name]:
			v.at(&it.Name, "instance type %q is listed twice", it.Name)
		}
		seen[it.Name] = true
		for k := range it.Capacity {
			if !slices.Contains(resourceNames, k) && !strings.Contains(k, "/") {
				v.atMapKey(&it.Capacity, k, "unknown resource %q: want cpu, memory, pods or ephemeral-storage%s", k, suggestion(k, resourceNames))
			}
		}
		for _, k := range []string{"cpu", "memory"} {
			if _, ok := it.Capacity[k]; !ok {
				v.at(it, "instance type %q: capacity needs %s", it.Name, k)
			}
		}
		if it.PricePerHour == nil {
			v.at(it, "instance type %q: pricePerHour is required (Karpenter launches the cheapest that fits)", it.Name)
		} else if *it.PricePerHour < 0 {
			v.at(it.PricePerHour, "pricePerHour must not be negative")
		}
		v.labels(&it.Labels)
	}
}

// karpenterNode reports whether name may be a node Karpenter launches: a
// NodePool's name, a dash and five characters of the safe alphabet
// (deterministic for a seed, so checks and faults may name it).
func (v *validator) karpenterNode(name string) bool {
	i := len(name) - 6
	if i < 1 || name[i] != '-' || strings.Trim(name[i+1:], "bcdfghjklmnpqrstvwxz2456789") != "" {
		return false
	}
	return v.nodePoolNamed(name[:i])
}

// nodePoolNamed reports whether the scenario has a NodePool of that name.
func (v *validator) nodePoolNamed(name string) bool {
	return slices.ContainsFunc(v.nodePools, func(w *Workload) bool { return w.Metadata.Name == name })
}

// nodePoolUpdateFault checks a nodePoolUpdate fault: a NodePool of the
// scenario and at least one valid label.
func (v *validator) nodePoolUpdateFault(f *NodePoolUpdateFault) {
	known := make([]string, 0, len(v.nodePools))
	for _, w := range v.nodePools {
		known = append(known, w.Metadata.Name)
	}
	switch {
	case f.NodePool == "":
		v.at(f, "nodePoolUpdate: nodePool is required")
	case !slices.Contains(known, f.NodePool):
		v.at(&f.NodePool, "no NodePool called %q%s", f.NodePool, suggestion(f.NodePool, known))
	}
	if len(f.Labels) == 0 {
		v.at(f, "nodePoolUpdate: labels are required (the template labels to set)")
	}
	v.labels(&f.Labels)
}
