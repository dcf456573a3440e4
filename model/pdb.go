package model

import (
	"slices"
	"sort"
)

// KindPodDisruptionBudget is the kind of a PodDisruptionBudget's events.
const KindPodDisruptionBudget = "PodDisruptionBudget"

// DisruptionAllowed is the type of a PodDisruptionBudget's condition.
const DisruptionAllowed = "DisruptionAllowed"

// IntOrPercent is an int or a percentage, as intstr.IntOrString is used by
// minAvailable and maxUnavailable.
type IntOrPercent struct {
	Value   int
	Percent bool // Value is a percentage
}

// Scaled resolves v against total (intstr.GetScaledValueFromIntOrPercent):
// a percentage of total, rounded up or down.
func (v IntOrPercent) Scaled(total int, roundUp bool) int {
	if !v.Percent {
		return v.Value
	}
	if roundUp {
		return (v.Value*total + 99) / 100
	}
	return v.Value * total / 100
}

// PDBSpec is a policy/v1 PodDisruptionBudget: a label selector
// (matchLabels; an empty one matches no pod) and at most one of
// MinAvailable and MaxUnavailable (neither: no disruption is allowed).
type PDBSpec struct {
	Name           string
	Namespace      string // "" is DefaultNamespace; it selects pods of its namespace only
	Selector       map[string]string
	MinAvailable   *IntOrPercent
	MaxUnavailable *IntOrPercent
	// AlwaysAllowUnhealthy is unhealthyPodEvictionPolicy AlwaysAllow: a
	// pod that is not Ready may always be evicted. The default,
	// IfHealthyBudget, allows it only while the budget has its desired
	// healthy pods.
	AlwaysAllowUnhealthy bool
}

// PDBStatus is a PodDisruptionBudget's status as last written: by the
// disruption controller (model/controller/disruption), or by the eviction
// API taking one disruption.
type PDBStatus struct {
	CurrentHealthy, DesiredHealthy, ExpectedPods, DisruptionsAllowed int
}

// DisruptionBudget is a PodDisruptionBudget: the API object. The
// disruption controller keeps its counts of the budget's pods and writes
// its status (SetStatus, SetCondition).
type DisruptionBudget struct {
	w         *World
	Spec      PDBSpec
	key       string // Key(namespace, name)
	Status    PDBStatus
	Condition Condition // DisruptionAllowed
	id        int       // creation order, for a pod's list of budgets
}

// budgetIndex holds the budgets, indexed by one label of their selectors
// (a pod meets only the budgets that could select it), and the budgets
// that select each pod, as the PodDisruptionBudget lister finds them.
type budgetIndex struct {
	list    []*DisruptionBudget
	byName  map[string]*DisruptionBudget
	byLabel map[[2]string][]*DisruptionBudget
	ofPod   [][]*DisruptionBudget // by Pod.id; up to the last pod a budget selects
}

// BudgetAddedHandler hears of a new PodDisruptionBudget, after its Added
// object change, when World.BudgetsOf lists it for the pods it selects.
type BudgetAddedHandler interface{ BudgetAdded(b *DisruptionBudget) }

// AddPodDisruptionBudget creates a PodDisruptionBudget now; the disruption
// controller hears of it (BudgetAddedHandler).
func (w *World) AddPodDisruptionBudget(s PDBSpec) *DisruptionBudget {
	bi := &w.budgets
	if bi.byName == nil {
		bi.byName, bi.byLabel = map[string]*DisruptionBudget{}, map[[2]string][]*DisruptionBudget{}
	}
	if s.Namespace == "" {
		s.Namespace = DefaultNamespace
	}
	b := &DisruptionBudget{w: w, Spec: s, key: Key(s.Namespace, s.Name), id: len(bi.list)}
	bi.list = append(bi.list, b)
	bi.byName[b.key] = b
	w.object(ObjectChange{Kind: ObjectBudget, Op: ObjectAdded, Budget: b})
	if k, ok := indexKey(s.Selector); ok {
		bi.byLabel[k] = append(bi.byLabel[k], b)
		for _, p := range w.pods { // once per budget
			if !p.deleted && b.Selects(p) {
				bi.slot(p)
				bi.ofPod[p.ID()] = append(bi.ofPod[p.ID()], b)
			}
		}
	}
	for _, h := range w.parts.budgetAdded {
		h.BudgetAdded(b)
	}
	return b
}

// slot makes room for p in ofPod.
func (bi *budgetIndex) slot(p *Pod) {
	if p.ID() >= len(bi.ofPod) {
		bi.ofPod = append(bi.ofPod, make([][]*DisruptionBudget, p.ID()+1-len(bi.ofPod))...)
	}
}

// indexKey is the label a budget is indexed by: its selector's least key.
func indexKey(sel map[string]string) ([2]string, bool) {
	if len(sel) == 0 {
		return [2]string{}, false
	}
	keys := make([]string, 0, len(sel))
	for k := range sel {
		keys = append(keys, k)
	}
	k := slices.Min(keys)
	return [2]string{k, sel[k]}, true
}

// DisruptionBudget returns the PodDisruptionBudget called name, or nil.
func (w *World) DisruptionBudget(key string) *DisruptionBudget { return w.budgets.byName[key] }

// DisruptionBudgets returns every PodDisruptionBudget in the order added.
func (w *World) DisruptionBudgets() []*DisruptionBudget { return w.budgets.list }

// BudgetsOf returns the budgets that select p, in the order added. The
// slice is the world's: do not change it.
func (w *World) BudgetsOf(p *Pod) []*DisruptionBudget {
	if p.ID() < len(w.budgets.ofPod) {
		return w.budgets.ofPod[p.ID()]
	}
	return nil
}

// ID numbers the budgets in the order added, from 0: the disruption
// controller keeps its state of a budget in a slice indexed by it.
func (b *DisruptionBudget) ID() int { return b.id }

// Key is the budget's key (see Key).
func (b *DisruptionBudget) Key() string { return b.key }

// Selects reports whether the budget's selector matches p's labels.
func (b *DisruptionBudget) Selects(p *Pod) bool {
	if len(b.Spec.Selector) == 0 || p.Namespace != b.Spec.Namespace {
		return false
	}
	for k, v := range b.Spec.Selector { // any mismatch decides: order is moot
		if l, ok := p.Labels[k]; !ok || l != v {
			return false
		}
	}
	return true
}

// matchBudgets finds the budgets that select a new pod, before its parts
// hear of it: only those indexed under one of its labels are looked at.
func (w *World) matchBudgets(p *Pod) {
	bi := &w.budgets
	if len(bi.list) == 0 {
		return
	}
	for k, v := range p.Labels {
		for _, b := range bi.byLabel[[2]string{k, v}] {
			if b.Selects(p) {
				bi.slot(p)
				bi.ofPod[p.ID()] = append(bi.ofPod[p.ID()], b)
			}
		}
	}
	bs := w.BudgetsOf(p)
	sort.Slice(bs, func(i, j int) bool { return bs[i].id < bs[j].id })
}

// IsReady is IsPodReady: the pod's Ready condition is True.
func (p *Pod) IsReady() bool { return p.ready() }

// SetStatus writes the budget's status (an Updated object change).
func (b *DisruptionBudget) SetStatus(s PDBStatus) {
	b.Status = s
	b.w.object(ObjectChange{Kind: ObjectBudget, Op: ObjectUpdated, Budget: b})
}

// Event records a Kubernetes event about the budget from source.
func (b *DisruptionBudget) Event(typ EventType, reason, source, msg string) {
	b.w.eventMsg(KindPodDisruptionBudget, b.key, typ, reason, source, msg)
}

// UpdateCondition is UpdateDisruptionAllowedCondition: True
// (SufficientPods) while a disruption is allowed, else False
// (InsufficientPods).
func (b *DisruptionBudget) UpdateCondition() {
	if b.Status.DisruptionsAllowed > 0 {
		b.SetCondition(True, "SufficientPods", "")
	} else {
		b.SetCondition(False, "InsufficientPods", "")
	}
}

// SetCondition sets DisruptionAllowed and records a change of its status or
// reason.
func (b *DisruptionBudget) SetCondition(s ConditionStatus, reason, msg string) {
	c := &b.Condition
	if c.Type == DisruptionAllowed && c.Status == s && c.Reason == reason {
		c.Message = msg
		return
	}
	if c.Status != s {
		c.LastTransitionTime = b.w.Now()
	}
	*c = Condition{Type: DisruptionAllowed, Status: s, Reason: reason, Message: msg, LastTransitionTime: c.LastTransitionTime}
	b.w.record(Change{Kind: ChangeWorkload, Workload: b.Spec.Name, Namespace: b.Spec.Namespace, Object: KindPodDisruptionBudget, Type: DisruptionAllowed, Status: string(s), Reason: reason})
}

// ScaleOf is the workload's desired pods, as the disruption controller's
// finders read it from a scale subresource; ok is false for kinds without
// one.
func (wl *Workload) ScaleOf() (int, bool) { return wl.scale() }

// scale is ScaleOf.
func (wl *Workload) scale() (int, bool) {
	switch wl.Spec.Kind {
	case KindReplicaSet, KindDeployment, KindStatefulSet:
		return wl.Spec.Replicas, true
	}
	return 0, false
}

// DisruptionBudgets returns the PodDisruptionBudgets that select p, in
// creation order, as a node autoscaler checks them before it drains p's
// node (World.BudgetsOf).
func (p *Pod) DisruptionBudgets() []*DisruptionBudget { return p.w.BudgetsOf(p) }
