package model

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/podsim/podsim/sim"
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
// disruption controller, or by the eviction API taking one disruption.
type PDBStatus struct {
	CurrentHealthy, DesiredHealthy, ExpectedPods, DisruptionsAllowed int
}

// DisruptionBudget is a PodDisruptionBudget and what the disruption
// controller (pkg/controller/disruption/disruption.go) keeps of its pods.
// Its counts are kept as pods change (no scan of the pods), and a sync at
// the instant of a change writes the status from them.
type DisruptionBudget struct {
	w         *World
	Spec      PDBSpec
	key       string // Key(namespace, name)
	Status    PDBStatus
	Condition Condition // DisruptionAllowed
	order     int       // creation order, for a pod's list of budgets

	pods        int               // matching pods in the API
	healthy     int               // matching pods that are Ready and not being deleted
	controllers map[*Workload]int // matching pods in the API, by controller
	unmanaged   int               // matching pods in the API without a controller
	syncTimer   sim.Timer
}

// podDisruption is what a pod contributes to the budgets that select it.
type podDisruption struct {
	budgets []*DisruptionBudget // the budgets whose selector matches its labels, in creation order
	counted bool                // counted in their pods
	healthy bool                // counted in their healthy pods
}

// disruptionController holds the budgets, indexed by one label of their
// selectors: a pod meets only the budgets that could select it.
type disruptionController struct {
	list    []*DisruptionBudget
	byName  map[string]*DisruptionBudget
	byLabel map[[2]string][]*DisruptionBudget
	pods    []podDisruption // by Pod.id; up to the last pod a budget selects
}

// slot returns p's podDisruption, making room for it.
func (dc *disruptionController) slot(p *Pod) *podDisruption {
	if p.id >= len(dc.pods) {
		dc.pods = append(dc.pods, make([]podDisruption, p.id+1-len(dc.pods))...)
	}
	return &dc.pods[p.id]
}

// budgetsOf returns the budgets that select p, in creation order.
func (dc *disruptionController) budgetsOf(p *Pod) []*DisruptionBudget {
	if p.id < len(dc.pods) {
		return dc.pods[p.id].budgets
	}
	return nil
}

// DisruptionBudgets returns the PodDisruptionBudgets that select p, in
// creation order, as a node autoscaler checks them before it drains p's
// node.
func (p *Pod) DisruptionBudgets() []*DisruptionBudget { return p.w.disruption.budgetsOf(p) }

// AddPodDisruptionBudget creates a PodDisruptionBudget now; the disruption
// controller writes its status at once.
func (w *World) AddPodDisruptionBudget(s PDBSpec) *DisruptionBudget {
	dc := &w.disruption
	if dc.byName == nil {
		dc.byName, dc.byLabel = map[string]*DisruptionBudget{}, map[[2]string][]*DisruptionBudget{}
	}
	if s.Namespace == "" {
		s.Namespace = DefaultNamespace
	}
	b := &DisruptionBudget{w: w, Spec: s, key: Key(s.Namespace, s.Name), order: len(dc.list), controllers: map[*Workload]int{}}
	b.syncTimer.Init(b.sync)
	dc.list = append(dc.list, b)
	dc.byName[b.key] = b
	w.object(ObjectChange{Kind: ObjectBudget, Op: ObjectAdded, Budget: b})
	if k, ok := indexKey(s.Selector); ok {
		dc.byLabel[k] = append(dc.byLabel[k], b)
		for _, p := range w.pods { // once per budget
			if !p.deleted && b.selects(p) {
				b.adopt(p)
			}
		}
	}
	b.requestSync()
	return b
}

// adopt counts p, a pod that existed before the budget, in it.
func (b *DisruptionBudget) adopt(p *Pod) {
	d := b.w.disruption.slot(p)
	if len(d.budgets) == 0 {
		// Its counts were not kept: count it afresh.
		d.budgets, d.counted, d.healthy = append(d.budgets, b), false, false
		p.updateBudgets()
		return
	}
	d.budgets = append(d.budgets, b)
	if d.counted {
		b.count(p, 1)
	}
	if d.healthy {
		b.healthy++
	}
}

// count adds delta (1 or -1) pods of p's controller to the budget.
func (b *DisruptionBudget) count(p *Pod, delta int) {
	b.pods += delta
	if p.owner == nil {
		b.unmanaged += delta
		return
	}
	b.controllers[p.owner] += delta
	if b.controllers[p.owner] == 0 {
		delete(b.controllers, p.owner)
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
func (w *World) DisruptionBudget(key string) *DisruptionBudget { return w.disruption.byName[key] }

// DisruptionBudgets returns every PodDisruptionBudget in the order added.
func (w *World) DisruptionBudgets() []*DisruptionBudget { return w.disruption.list }

// selects reports whether the budget's selector matches p's labels.
func (b *DisruptionBudget) selects(p *Pod) bool {
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

// matchBudgets finds the budgets that select a new pod: only those indexed
// under one of its labels are looked at.
func (w *World) matchBudgets(p *Pod) {
	dc := &w.disruption
	if len(dc.list) == 0 {
		return
	}
	for k, v := range p.Labels {
		for _, b := range dc.byLabel[[2]string{k, v}] {
			if b.selects(p) {
				d := dc.slot(p)
				d.budgets = append(d.budgets, b)
			}
		}
	}
	bs := dc.budgetsOf(p)
	sort.Slice(bs, func(i, j int) bool { return bs[i].order < bs[j].order })
	p.updateBudgets()
}

// updateBudgets brings the counts of the budgets that select p up to date
// with p (in the API; Ready and not being deleted) and asks them to sync
// if they changed.
func (p *Pod) updateBudgets() {
	dc := &p.w.disruption
	if p.id >= len(dc.pods) {
		return
	}
	d := &dc.pods[p.id]
	if len(d.budgets) == 0 {
		return
	}
	counted := !p.deleted
	healthy := counted && !p.deleting && p.ready()
	if counted == d.counted && healthy == d.healthy {
		return
	}
	for _, b := range d.budgets {
		if counted != d.counted {
			delta := 1
			if !counted {
				delta = -1
			}
			b.count(p, delta)
		}
		if healthy != d.healthy {
			if healthy {
				b.healthy++
			} else {
				b.healthy--
			}
		}
		b.requestSync()
	}
	d.counted, d.healthy = counted, healthy
}

// ready is IsPodReady: the pod's Ready condition is True.
func (p *Pod) ready() bool {
	for i := range p.status.Conditions {
		if c := &p.status.Conditions[i]; c.Type == Ready {
			return c.Status == True
		}
	}
	return false
}

func (b *DisruptionBudget) requestSync() {
	if !b.syncTimer.Pending() {
		b.w.eng.Schedule(&b.syncTimer, b.w.Now(), sim.Normal)
	}
}

// controllerScaleChanged asks the budgets that count wl's pods to sync:
// their expected pods may have changed.
func (w *World) controllerScaleChanged(wl *Workload) {
	for _, b := range w.disruption.list {
		if b.controllers[wl] > 0 {
			b.requestSync()
		}
	}
}

// sync is the disruption controller's trySync: expected and desired
// healthy pods from the spec (getExpectedPodCount), current healthy pods
// (countHealthyPods: Ready and not being deleted), and the disruptions
// allowed (updatePdbStatus: none while no pod is expected).
func (b *DisruptionBudget) sync() {
	expected, desired, err := b.expectedPodCount()
	if err != "" {
		// failSafe: no disruption while the status cannot be computed.
		b.Status.DisruptionsAllowed = 0
		b.w.object(ObjectChange{Kind: ObjectBudget, Op: ObjectUpdated, Budget: b})
		b.setCondition(False, "SyncFailed", err)
		return
	}
	allowed := b.healthy - desired
	if expected <= 0 || allowed <= 0 {
		allowed = 0
	}
	b.Status = PDBStatus{CurrentHealthy: b.healthy, DesiredHealthy: desired, ExpectedPods: expected, DisruptionsAllowed: allowed}
	b.w.object(ObjectChange{Kind: ObjectBudget, Op: ObjectUpdated, Budget: b})
	b.updateCondition()
}

// expectedPodCount is getExpectedPodCount: an integer minAvailable expects
// the matching pods; a percentage, or maxUnavailable, expects the sum of
// the scales of their controllers (getExpectedScale), whose pods without a
// controller are left out with a warning.
func (b *DisruptionBudget) expectedPodCount() (expected, desired int, err string) {
	s := &b.Spec
	switch {
	case s.MinAvailable != nil && !s.MinAvailable.Percent:
		return b.pods, s.MinAvailable.Value, ""
	case s.MaxUnavailable != nil:
		if expected, err = b.expectedScale(); err != "" {
			return 0, 0, err
		}
		return expected, max(expected-s.MaxUnavailable.Scaled(expected, true), 0), ""
	case s.MinAvailable != nil:
		if expected, err = b.expectedScale(); err != "" {
			return 0, 0, err
		}
		return expected, s.MinAvailable.Scaled(expected, true), ""
	}
	return 0, 0, ""
}

// expectedScale sums the scale of every controller of the matching pods.
// A controller without a scale (a Job, a DaemonSet) is an error, as the
// controller finders find none for it.
func (b *DisruptionBudget) expectedScale() (int, string) {
	if b.unmanaged > 0 {
		b.w.event(KindPodDisruptionBudget, b.key, EventWarning, "UnmanagedPods", "controllermanager",
			"Pods selected by this PodDisruptionBudget (selector: %s) were found to be unmanaged. As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. To account for these pods please set \".spec.minAvailable\" field of the PDB to an integer value.",
			selectorString(b.Spec.Selector))
	}
	sum := 0
	for wl := range b.controllers { // a sum: order is moot
		n, ok := wl.scale()
		if !ok {
			return 0, fmt.Sprintf("found no controllers for pod %q", b.firstPodOf(wl))
		}
		sum += n
	}
	return sum, ""
}

// firstPodOf names the first live pod of wl that the budget selects.
func (b *DisruptionBudget) firstPodOf(wl *Workload) string {
	for _, p := range wl.pods {
		if !p.deleted && b.selects(p) {
			return p.Name
		}
	}
	return ""
}

// scale is the workload's desired pods, as the disruption controller's
// finders read it from a scale subresource; ok is false for kinds without
// one.
func (wl *Workload) scale() (int, bool) {
	switch wl.Spec.Kind {
	case KindReplicaSet, KindDeployment, KindStatefulSet:
		return wl.Spec.Replicas, true
	}
	return 0, false
}

// selectorString prints a selector as a *metav1.LabelSelector prints in
// an event (its generated String).
func selectorString(sel map[string]string) string {
	keys := make([]string, 0, len(sel))
	for k := range sel {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteString("&LabelSelector{MatchLabels:map[string]string{")
	for _, k := range keys {
		b.WriteString(k + ": " + sel[k] + ",")
	}
	b.WriteString("},MatchExpressions:[]LabelSelectorRequirement{},}")
	return b.String()
}

// updateCondition is UpdateDisruptionAllowedCondition: True
// (SufficientPods) while a disruption is allowed, else False
// (InsufficientPods).
func (b *DisruptionBudget) updateCondition() {
	if b.Status.DisruptionsAllowed > 0 {
		b.setCondition(True, "SufficientPods", "")
	} else {
		b.setCondition(False, "InsufficientPods", "")
	}
}

// setCondition sets DisruptionAllowed and records a change of its status or
// reason.
func (b *DisruptionBudget) setCondition(s ConditionStatus, reason, msg string) {
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

// PodAdded finds the budgets that select the new pod.
func (dc *disruptionController) PodAdded(p *Pod) { p.w.matchBudgets(p) }

// PodConditionAdded counts p in its budgets when it gets a Ready condition.
func (dc *disruptionController) PodConditionAdded(p *Pod, t string) {
	if t == Ready {
		p.updateBudgets()
	}
}

// PodChanged brings p's budgets up to date.
func (dc *disruptionController) PodChanged(p *Pod) { p.updateBudgets() }

// WorkloadScaled asks the budgets that count wl's pods to sync.
func (dc *disruptionController) WorkloadScaled(wl *Workload) { wl.w.controllerScaleChanged(wl) }
