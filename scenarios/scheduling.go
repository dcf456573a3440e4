package scenarios

import (
	"slices"
	"strconv"
	"strings"

	"github.com/podsim/podsim/model"
)

// The scheduling fields of a pod spec (affinity, topology spread,
// priority) and PriorityClasses: their schema, their checks (the API
// server's validation and the Priority admission plugin) and their
// conversion to the model.

// Affinity is a pod's spec.affinity.
type Affinity struct {
	NodeAffinity    *NodeAffinity `yaml:"nodeAffinity"`
	PodAffinity     *PodAffinity  `yaml:"podAffinity"`
	PodAntiAffinity *PodAffinity  `yaml:"podAntiAffinity"`
}

// NodeAffinity is spec.affinity.nodeAffinity.
type NodeAffinity struct {
	Required  *NodeSelector             `yaml:"requiredDuringSchedulingIgnoredDuringExecution"`
	Preferred []PreferredSchedulingTerm `yaml:"preferredDuringSchedulingIgnoredDuringExecution"`
}

// NodeSelector is a required node affinity: its terms are ORed.
type NodeSelector struct {
	NodeSelectorTerms []NodeSelectorTerm `yaml:"nodeSelectorTerms"`
}

// NodeSelectorTerm is one term: every expression and field must hold.
type NodeSelectorTerm struct {
	MatchExpressions []SelectorRequirement `yaml:"matchExpressions"`
	MatchFields      []SelectorRequirement `yaml:"matchFields"`
}

// SelectorRequirement is a key, an operator and values, in a label
// selector (In, NotIn, Exists, DoesNotExist) or a node selector term (also
// Gt, Lt).
type SelectorRequirement struct {
	Key      string   `yaml:"key"`
	Operator string   `yaml:"operator"`
	Values   []string `yaml:"values"`
}

// PreferredSchedulingTerm is a weighted node selector term.
type PreferredSchedulingTerm struct {
	Weight     int32            `yaml:"weight"`
	Preference NodeSelectorTerm `yaml:"preference"`
}

// PodAffinity is spec.affinity.podAffinity or podAntiAffinity.
type PodAffinity struct {
	Required  []PodAffinityTerm         `yaml:"requiredDuringSchedulingIgnoredDuringExecution"`
	Preferred []WeightedPodAffinityTerm `yaml:"preferredDuringSchedulingIgnoredDuringExecution"`
}

// PodAffinityTerm selects pods and names a topology key.
type PodAffinityTerm struct {
	LabelSelector     *LabelSelector `yaml:"labelSelector"`
	Namespaces        []string       `yaml:"namespaces"`
	NamespaceSelector *LabelSelector `yaml:"namespaceSelector"`
	TopologyKey       string         `yaml:"topologyKey"`
}

// WeightedPodAffinityTerm is a weighted pod affinity term.
type WeightedPodAffinityTerm struct {
	Weight          int32           `yaml:"weight"`
	PodAffinityTerm PodAffinityTerm `yaml:"podAffinityTerm"`
}

// TopologySpreadConstraint is one of spec.topologySpreadConstraints.
type TopologySpreadConstraint struct {
	MaxSkew            *int32         `yaml:"maxSkew"`
	TopologyKey        string         `yaml:"topologyKey"`
	WhenUnsatisfiable  string         `yaml:"whenUnsatisfiable"`
	LabelSelector      *LabelSelector `yaml:"labelSelector"`
	MinDomains         *int32         `yaml:"minDomains"`
	NodeAffinityPolicy string         `yaml:"nodeAffinityPolicy"`
	NodeTaintsPolicy   string         `yaml:"nodeTaintsPolicy"`
	MatchLabelKeys     []string       `yaml:"matchLabelKeys"`
}

// kindPriorityClass is the kind of a PriorityClass in spec.workloads.
const kindPriorityClass = "PriorityClass"

// podless reports whether a workload of kind has no pods of its own.
func podless(kind string) bool {
	return kind == kindPDB || kind == kindPriorityClass || kind == kindService
}

// labelOps and nodeOps are the operators of label and node selectors.
var (
	labelOps = []string{"In", "NotIn", "Exists", "DoesNotExist"}
	nodeOps  = []string{"In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"}
)

// requirement checks one requirement against the operators allowed.
func (v *validator) requirement(r *SelectorRequirement, ops []string, field bool) {
	switch {
	case field && r.Key != model.FieldNodeName:
		v.at(&r.Key, "matchFields: key %q: the only field is %s", r.Key, model.FieldNodeName)
	case !field && r.Key == "":
		v.at(r, "matchExpressions: key is required")
	}
	if field {
		ops = ops[:2]
	}
	if !slices.Contains(ops, r.Operator) {
		v.at(&r.Operator, "operator %q: want %s", r.Operator, strings.Join(ops, ", "))
		return
	}
	switch r.Operator {
	case "In", "NotIn":
		if len(r.Values) == 0 {
			v.atKey(r, "operator %s needs values", r.Operator)
		}
		if field && len(r.Values) != 1 {
			v.atKey(&r.Values, "matchFields with %s takes exactly one value", r.Operator)
		}
	case "Exists", "DoesNotExist":
		if len(r.Values) > 0 {
			v.atKey(&r.Values, "operator %s takes no values", r.Operator)
		}
	case "Gt", "Lt":
		if len(r.Values) != 1 {
			v.atKey(r, "operator %s takes exactly one value", r.Operator)
		} else if _, err := strconv.ParseInt(r.Values[0], 10, 64); err != nil {
			v.at(&r.Values[0], "operator %s: value %q is not an integer", r.Operator, r.Values[0])
		}
	}
}

// labelSelector checks a label selector.
func (v *validator) labelSelector(s *LabelSelector) {
	if s == nil {
		return
	}
	for i := range s.MatchExpressions {
		v.requirement(&s.MatchExpressions[i], labelOps, false)
	}
}

func (v *validator) nodeSelectorTerm(t *NodeSelectorTerm) {
	for i := range t.MatchExpressions {
		v.requirement(&t.MatchExpressions[i], nodeOps, false)
	}
	for i := range t.MatchFields {
		v.requirement(&t.MatchFields[i], nodeOps, true)
	}
}

func (v *validator) weight(w *int32) {
	if *w < 1 || *w > 100 {
		v.at(w, "weight %d: want 1 to 100", *w)
	}
}

func (v *validator) podAffinityTerm(t *PodAffinityTerm) {
	if t.TopologyKey == "" {
		v.at(t, "topologyKey is required")
	}
	v.labelSelector(t.LabelSelector)
	v.labelSelector(t.NamespaceSelector)
}

// scheduling checks the scheduling fields of a pod spec.
func (v *validator) scheduling(ps *PodSpec) {
	if a := ps.Affinity; a != nil {
		if na := a.NodeAffinity; na != nil {
			if r := na.Required; r != nil {
				if len(r.NodeSelectorTerms) == 0 {
					v.at(r, "nodeSelectorTerms: at least one term is required")
				}
				for i := range r.NodeSelectorTerms {
					v.nodeSelectorTerm(&r.NodeSelectorTerms[i])
				}
			}
			for i := range na.Preferred {
				v.weight(&na.Preferred[i].Weight)
				v.nodeSelectorTerm(&na.Preferred[i].Preference)
			}
		}
		for _, pa := range []*PodAffinity{a.PodAffinity, a.PodAntiAffinity} {
			if pa == nil {
				continue
			}
			for i := range pa.Required {
				v.podAffinityTerm(&pa.Required[i])
			}
			for i := range pa.Preferred {
				v.weight(&pa.Preferred[i].Weight)
				v.podAffinityTerm(&pa.Preferred[i].PodAffinityTerm)
			}
		}
	}
	seen := map[[2]string]bool{}
	for i := range ps.TopologySpreadConstraints {
		c := &ps.TopologySpreadConstraints[i]
		switch {
		case c.MaxSkew == nil:
			v.at(c, "topologySpreadConstraints: maxSkew is required")
		case *c.MaxSkew < 1:
			v.at(c.MaxSkew, "maxSkew must be at least 1")
		}
		if c.TopologyKey == "" {
			v.at(c, "topologySpreadConstraints: topologyKey is required")
		}
		if c.WhenUnsatisfiable != "DoNotSchedule" && c.WhenUnsatisfiable != "ScheduleAnyway" {
			v.at(c, "whenUnsatisfiable %q: want DoNotSchedule or ScheduleAnyway", c.WhenUnsatisfiable)
		}
		if k := [2]string{c.TopologyKey, c.WhenUnsatisfiable}; seen[k] {
			v.at(&c.TopologyKey, "a second constraint on %s with %s", c.TopologyKey, c.WhenUnsatisfiable)
		} else {
			seen[k] = true
		}
		if m := c.MinDomains; m != nil {
			switch {
			case *m < 1:
				v.at(m, "minDomains must be at least 1")
			case c.WhenUnsatisfiable != "DoNotSchedule":
				v.atKey(m, "minDomains goes with whenUnsatisfiable DoNotSchedule")
			}
		}
		for _, pol := range []*string{&c.NodeAffinityPolicy, &c.NodeTaintsPolicy} {
			if *pol != "" && *pol != "Honor" && *pol != "Ignore" {
				v.at(pol, "policy %q: want Honor or Ignore", *pol)
			}
		}
		v.labelSelector(c.LabelSelector)
		for j := range c.MatchLabelKeys {
			if k := c.MatchLabelKeys[j]; c.LabelSelector != nil && hasKey(c.LabelSelector, k) {
				v.at(&c.MatchLabelKeys[j], "matchLabelKeys: %q is also in labelSelector", k)
			}
		}
	}
	if p := ps.PreemptionPolicy; p != "" && p != model.PreemptLowerPriority && p != model.PreemptNever {
		v.at(&ps.PreemptionPolicy, "preemptionPolicy %q: want PreemptLowerPriority or Never", p)
	}
}

func hasKey(s *LabelSelector, k string) bool {
	if _, ok := s.MatchLabels[k]; ok {
		return true
	}
	for _, r := range s.MatchExpressions {
		if r.Key == k {
			return true
		}
	}
	return false
}

// priorityClass checks a PriorityClass: a value, no spec, a name not
// reserved, the value within the user's range.
func (v *validator) priorityClass(w *Workload) {
	if p := v.s.pos.Of(&w.Spec); !p.IsZero() {
		v.atKey(&w.Spec, "a PriorityClass has no spec: value, globalDefault and preemptionPolicy are top-level fields")
	}
	switch {
	case w.Value == nil:
		v.at(w, "a PriorityClass needs a value")
	case *w.Value > model.HighestUserDefinablePriority:
		v.at(w.Value, "value %d: a PriorityClass may not be above %d", *w.Value, model.HighestUserDefinablePriority)
	}
	if strings.HasPrefix(w.Metadata.Name, "system-") {
		v.at(&w.Metadata.Name, "PriorityClass names with the prefix system- are reserved")
	}
	if p := w.PreemptionPolicy; p != "" && p != model.PreemptLowerPriority && p != model.PreemptNever {
		v.at(&w.PreemptionPolicy, "preemptionPolicy %q: want PreemptLowerPriority or Never", p)
	}
}

// priorityClassFields reports the PriorityClass fields set on a workload
// of another kind.
func (v *validator) priorityClassFields(w *Workload) {
	for _, f := range []any{&w.Value, &w.GlobalDefault, &w.PreemptionPolicy, &w.Description} {
		if !v.s.pos.KeyOf(f).IsZero() {
			v.atKey(f, "only a PriorityClass has value, globalDefault, preemptionPolicy and description")
		}
	}
}

// priorityClasses returns the scenario's PriorityClasses.
func (s *Scenario) priorityClasses() []model.PriorityClass {
	var out []model.PriorityClass
	for _, w := range s.workloads {
		if w.Kind != kindPriorityClass || w.Value == nil {
			continue
		}
		out = append(out, model.PriorityClass{Name: w.Metadata.Name, Value: *w.Value,
			GlobalDefault: w.GlobalDefault, PreemptionPolicy: w.PreemptionPolicy, Description: w.Description})
	}
	return out
}

// admission runs the Priority admission plugin on every pod and template,
// once every PriorityClass is known, and refuses a second global default.
func (v *validator) admission() {
	defaults := 0
	for _, w := range v.s.workloads {
		if w.Kind == kindPriorityClass && w.GlobalDefault {
			if defaults++; defaults > 1 {
				v.at(&w.GlobalDefault, "PriorityClass %s is marked as global default, and one already is: only one can be", w.Metadata.Name)
			}
		}
	}
	classes := v.s.priorityClasses()
	check := func(ps *PodSpec, what string) {
		_, _, err := model.ResolvePriority(classes, ps.PriorityClassName, ps.Priority, ps.PreemptionPolicy)
		if err == nil {
			return
		}
		var at any = ps
		switch {
		case ps.PriorityClassName != "" && strings.HasPrefix(err.Error(), "no PriorityClass"):
			at = &ps.PriorityClassName
		case ps.Priority != nil && strings.Contains(err.Error(), "priority ("):
			at = ps.Priority
		case ps.PreemptionPolicy != "":
			at = &ps.PreemptionPolicy
		}
		v.at(at, "%s: %v", what, err)
	}
	for _, p := range v.s.pods {
		check(&p.Spec, "pod "+model.Key(p.Metadata.Namespace, p.Metadata.Name))
	}
	for _, w := range v.s.workloads {
		if !podless(w.Kind) {
			check(&templateOf(w).Spec, "workload "+model.Key(w.Metadata.Namespace, w.Metadata.Name))
		}
	}
}

// Conversion to the model.

func modelRequirements(rs []SelectorRequirement) []model.Requirement {
	var out []model.Requirement
	for _, r := range rs {
		out = append(out, model.Requirement{Key: r.Key, Operator: model.ParseSelectorOp(r.Operator), Values: r.Values})
	}
	return out
}

func modelLabelSelector(s *LabelSelector) *model.LabelSelector {
	if s == nil {
		return nil
	}
	return &model.LabelSelector{MatchLabels: s.MatchLabels, MatchExpressions: modelRequirements(s.MatchExpressions)}
}

func modelNodeSelectorTerm(t *NodeSelectorTerm) model.NodeSelectorTerm {
	return model.NodeSelectorTerm{MatchExpressions: modelRequirements(t.MatchExpressions), MatchFields: modelRequirements(t.MatchFields)}
}

func modelPodAffinityTerm(t *PodAffinityTerm) model.PodAffinityTerm {
	return model.PodAffinityTerm{LabelSelector: modelLabelSelector(t.LabelSelector), Namespaces: t.Namespaces,
		NamespaceSelector: modelLabelSelector(t.NamespaceSelector), TopologyKey: t.TopologyKey}
}

func modelPodAffinity(a *PodAffinity) *model.PodAffinity {
	if a == nil {
		return nil
	}
	out := &model.PodAffinity{}
	for i := range a.Required {
		out.Required = append(out.Required, modelPodAffinityTerm(&a.Required[i]))
	}
	for i := range a.Preferred {
		out.Preferred = append(out.Preferred, model.WeightedPodAffinityTerm{Weight: a.Preferred[i].Weight,
			Term: modelPodAffinityTerm(&a.Preferred[i].PodAffinityTerm)})
	}
	return out
}

// schedulingSpec converts the scheduling fields of ps into out.
func schedulingSpec(ps *PodSpec, out *model.PodSpec) {
	out.PriorityClassName, out.Priority, out.PreemptionPolicy = ps.PriorityClassName, ps.Priority, ps.PreemptionPolicy
	if a := ps.Affinity; a != nil {
		ma := &model.Affinity{PodAffinity: modelPodAffinity(a.PodAffinity), PodAntiAffinity: modelPodAffinity(a.PodAntiAffinity)}
		if na := a.NodeAffinity; na != nil {
			ma.NodeAffinity = &model.NodeAffinity{}
			if na.Required != nil {
				for i := range na.Required.NodeSelectorTerms {
					ma.NodeAffinity.Required = append(ma.NodeAffinity.Required, modelNodeSelectorTerm(&na.Required.NodeSelectorTerms[i]))
				}
			}
			for i := range na.Preferred {
				ma.NodeAffinity.Preferred = append(ma.NodeAffinity.Preferred, model.PreferredSchedulingTerm{
					Weight: na.Preferred[i].Weight, Term: modelNodeSelectorTerm(&na.Preferred[i].Preference)})
			}
		}
		out.Affinity = ma
	}
	for i := range ps.TopologySpreadConstraints {
		c := &ps.TopologySpreadConstraints[i]
		mc := model.TopologySpreadConstraint{TopologyKey: c.TopologyKey, DoNotSchedule: c.WhenUnsatisfiable == "DoNotSchedule",
			LabelSelector: modelLabelSelector(c.LabelSelector), IgnoreNodeAffinity: c.NodeAffinityPolicy == "Ignore",
			HonorNodeTaints: c.NodeTaintsPolicy == "Honor", MatchLabelKeys: c.MatchLabelKeys}
		if c.MaxSkew != nil {
			mc.MaxSkew = *c.MaxSkew
		}
		if c.MinDomains != nil {
			mc.MinDomains = *c.MinDomains
		}
		out.TopologySpreadConstraints = append(out.TopologySpreadConstraints, mc)
	}
}
