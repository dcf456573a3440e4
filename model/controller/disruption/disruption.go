// Package disruption is the disruption controller
// (pkg/controller/disruption/disruption.go): it counts the pods each
// PodDisruptionBudget selects as they change (no scan of the pods) and,
// at the instant of a change, writes the budget's status and its
// DisruptionAllowed condition from the counts.
package disruption

import (
	"fmt"
	"sort"
	"strings"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/sim"
)

// Controller is the disruption controller; register it with
// World.Register. Its state is by DisruptionBudget.ID and by Pod.ID.
type Controller struct {
	w       *model.World
	budgets []*budget  // by DisruptionBudget.ID
	pods    []podCount // by Pod.ID; up to the last pod a budget selects
}

// budget is what the controller keeps of a PodDisruptionBudget's pods.
type budget struct {
	b           *model.DisruptionBudget
	pods        int                     // matching pods in the API
	healthy     int                     // matching pods that are Ready and not being deleted
	controllers map[*model.Workload]int // matching pods in the API, by controller
	unmanaged   int                     // matching pods in the API without a controller
	syncTimer   sim.Timer
}

// podCount is how a pod is counted in the budgets that select it
// (World.BudgetsOf).
type podCount struct {
	counted bool // counted in their pods
	healthy bool // counted in their healthy pods
}

// New returns the disruption controller of w.
func New(w *model.World) *Controller { return &Controller{w: w} }

// slot returns p's podCount, making room for it.
func (c *Controller) slot(p *model.Pod) *podCount {
	if id := p.ID(); id >= len(c.pods) {
		c.pods = append(c.pods, make([]podCount, id+1-len(c.pods))...)
	}
	return &c.pods[p.ID()]
}

// BudgetAdded counts the pods that existed before the budget in it and
// asks it to sync.
func (c *Controller) BudgetAdded(b *model.DisruptionBudget) {
	bs := &budget{b: b, controllers: map[*model.Workload]int{}}
	bs.syncTimer.Init(func() { c.sync(bs) })
	c.budgets = append(c.budgets, bs)
	if len(b.Spec.Selector) > 0 {
		for _, p := range c.w.Pods() { // once per budget
			if !p.Deleted() && b.Selects(p) {
				c.adopt(bs, p)
			}
		}
	}
	c.requestSync(bs)
}

// adopt counts p, a pod that existed before the budget, in it.
func (c *Controller) adopt(bs *budget, p *model.Pod) {
	d := c.slot(p)
	if len(c.w.BudgetsOf(p)) == 1 {
		// Its counts were not kept: count it afresh.
		d.counted, d.healthy = false, false
		c.update(p)
		return
	}
	if d.counted {
		bs.count(p, 1)
	}
	if d.healthy {
		bs.healthy++
	}
}

// count adds delta (1 or -1) pods of p's controller to the budget.
func (bs *budget) count(p *model.Pod, delta int) {
	bs.pods += delta
	owner := p.Owner()
	if owner == nil {
		bs.unmanaged += delta
		return
	}
	bs.controllers[owner] += delta
	if bs.controllers[owner] == 0 {
		delete(bs.controllers, owner)
	}
}

// update brings the counts of the budgets that select p up to date with p
// (in the API; Ready and not being deleted) and asks them to sync if they
// changed.
func (c *Controller) update(p *model.Pod) {
	bs := c.w.BudgetsOf(p)
	if len(bs) == 0 {
		return
	}
	d := c.slot(p)
	counted := !p.Deleted()
	healthy := counted && !p.Terminating() && p.IsReady()
	if counted == d.counted && healthy == d.healthy {
		return
	}
	for _, b := range bs {
		st := c.budgets[b.ID()]
		if counted != d.counted {
			delta := 1
			if !counted {
				delta = -1
			}
			st.count(p, delta)
		}
		if healthy != d.healthy {
			if healthy {
				st.healthy++
			} else {
				st.healthy--
			}
		}
		c.requestSync(st)
	}
	d.counted, d.healthy = counted, healthy
}

func (c *Controller) requestSync(bs *budget) {
	if !bs.syncTimer.Pending() {
		c.w.Engine().Schedule(&bs.syncTimer, c.w.Now(), sim.Normal)
	}
}

// PodAdded counts a new pod in the budgets that select it.
func (c *Controller) PodAdded(p *model.Pod) { c.update(p) }

// PodConditionAdded counts p in its budgets when it gets a Ready condition.
func (c *Controller) PodConditionAdded(p *model.Pod, t string) {
	if t == model.Ready {
		c.update(p)
	}
}

// PodChanged brings p's budgets up to date.
func (c *Controller) PodChanged(p *model.Pod) { c.update(p) }

// WorkloadScaled asks the budgets that count wl's pods to sync: their
// expected pods may have changed.
func (c *Controller) WorkloadScaled(wl *model.Workload) {
	for _, bs := range c.budgets {
		if bs.controllers[wl] > 0 {
			c.requestSync(bs)
		}
	}
}

// sync is the disruption controller's trySync: expected and desired
// healthy pods from the spec (getExpectedPodCount), current healthy pods
// (countHealthyPods: Ready and not being deleted), and the disruptions
// allowed (updatePdbStatus: none while no pod is expected).
func (c *Controller) sync(bs *budget) {
	b := bs.b
	expected, desired, err := bs.expectedPodCount()
	if err != "" {
		// failSafe: no disruption while the status cannot be computed.
		st := b.Status
		st.DisruptionsAllowed = 0
		b.SetStatus(st)
		b.SetCondition(model.False, "SyncFailed", err)
		return
	}
	allowed := bs.healthy - desired
	if expected <= 0 || allowed <= 0 {
		allowed = 0
	}
	b.SetStatus(model.PDBStatus{CurrentHealthy: bs.healthy, DesiredHealthy: desired, ExpectedPods: expected, DisruptionsAllowed: allowed})
	b.UpdateCondition()
}

// expectedPodCount is getExpectedPodCount: an integer minAvailable expects
// the matching pods; a percentage, or maxUnavailable, expects the sum of
// the scales of their controllers (getExpectedScale), whose pods without a
// controller are left out with a warning.
func (bs *budget) expectedPodCount() (expected, desired int, err string) {
	s := &bs.b.Spec
	switch {
	case s.MinAvailable != nil && !s.MinAvailable.Percent:
		return bs.pods, s.MinAvailable.Value, ""
	case s.MaxUnavailable != nil:
		if expected, err = bs.expectedScale(); err != "" {
			return 0, 0, err
		}
		return expected, max(expected-s.MaxUnavailable.Scaled(expected, true), 0), ""
	case s.MinAvailable != nil:
		if expected, err = bs.expectedScale(); err != "" {
			return 0, 0, err
		}
		return expected, s.MinAvailable.Scaled(expected, true), ""
	}
	return 0, 0, ""
}

// expectedScale sums the scale of every controller of the matching pods.
// A controller without a scale (a Job, a DaemonSet) is an error, as the
// controller finders find none for it.
func (bs *budget) expectedScale() (int, string) {
	if bs.unmanaged > 0 {
		bs.b.Event(model.EventWarning, "UnmanagedPods", "controllermanager", fmt.Sprintf(
			"Pods selected by this PodDisruptionBudget (selector: %s) were found to be unmanaged. As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. To account for these pods please set \".spec.minAvailable\" field of the PDB to an integer value.",
			selectorString(bs.b.Spec.Selector)))
	}
	sum := 0
	for wl := range bs.controllers { // a sum: order is moot
		n, ok := wl.ScaleOf()
		if !ok {
			return 0, fmt.Sprintf("found no controllers for pod %q", bs.firstPodOf(wl))
		}
		sum += n
	}
	return sum, ""
}

// firstPodOf names the first live pod of wl that the budget selects.
func (bs *budget) firstPodOf(wl *model.Workload) string {
	for _, p := range wl.Pods() {
		if !p.Deleted() && bs.b.Selects(p) {
			return p.Name
		}
	}
	return ""
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
