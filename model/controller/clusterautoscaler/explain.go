package clusterautoscaler

import (
	"fmt"
	"strings"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/sim"
)

// Active reports whether the Cluster Autoscaler runs (the scenario sets
// spec.clusterAutoscaler).
func (c *Controller) Active() bool { return c.on }

// ExplainPod says, for a pod the scheduler could not place, what each
// node group would do for it now: too small a template (the scheduler's
// reasons on it), at its max, backing off after a failed scale-up, or
// able to take it.
func (c *Controller) ExplainPod(p *model.Pod) string {
	if !c.on || p.Node != nil || p.Deleted() || !c.queued[p.ID()] {
		return ""
	}
	var lines []string
	total := c.totalNodes()
	for _, g := range c.groups {
		tmpl := g.spec.Template
		tmpl.Name = g.spec.Name + "-template"
		head := fmt.Sprintf("node group %s (%d/%d nodes): ", g.spec.Name, g.size(), g.spec.Max)
		ok, why := model.SimulateNode(tmpl).Fits(p)
		switch {
		case !ok:
			lines = append(lines, head+"its nodes do not fit the pod: "+why)
		case c.s.MaxNodesTotal > 0 && total >= c.s.MaxNodesTotal:
			lines = append(lines, head+"fits the pod, but "+reasonMaxTotal)
		case g.size() >= g.spec.Max:
			lines = append(lines, head+"fits the pod, but "+reasonMaxSize)
		case c.w.Now() < g.backoffUntil:
			lines = append(lines, head+fmt.Sprintf("fits the pod, but %s (until %s)", reasonBackoff, sim.FormatTime(g.backoffUntil)))
		default:
			lines = append(lines, head+"fits the pod: a scale-up adds a node at the next scan, or one of its booting nodes takes it")
		}
	}
	return strings.Join(lines, "\n")
}

// ExplainNode says why a node of a group is not removed: being deleted,
// booting, what the last scale-down pass found (its utilization, the pod
// that blocks it and by which rule, no place for its pods, the group's
// min), or how long it has been unneeded and what it waits for.
func (c *Controller) ExplainNode(n *model.Node) string {
	g := c.groupOf(n.Group)
	if !c.on || g == nil || n.Gone() {
		return ""
	}
	now := c.w.Now()
	switch {
	case c.deleting[n.ID()]:
		return "being removed by the cluster autoscaler (" + taintToBeDeleted + ")"
	case booting(n):
		return "booting: not yet Ready"
	case !c.s.ScaleDownEnabled:
		return "scale-down is disabled (scaleDownEnabled: false)"
	}
	if since, ok := c.unneededSince[n.ID()]; ok {
		switch {
		case g.size()-c.deletingIn(g) <= g.spec.Min:
			return fmt.Sprintf("unneeded since %s, but %s (min %d)", sim.FormatTime(since), reasonUnderMinMsg, g.spec.Min)
		case now-since < c.s.ScaleDownUnneededTime:
			return fmt.Sprintf("unneeded since %s: removable after scaleDownUnneededTime (%s), at %s", sim.FormatTime(since),
				c.s.ScaleDownUnneededTime, sim.FormatTime(sim.AddSat(since, c.s.ScaleDownUnneededTime)))
		case c.cooldown():
			return fmt.Sprintf("unneeded since %s: scale-down waits for its delay after a scale-up, deletion or failure", sim.FormatTime(since))
		}
		return fmt.Sprintf("unneeded since %s: removed at the next scan", sim.FormatTime(since))
	}
	if why := c.why[n.ID()]; why != "" {
		return "cannot be removed: " + why
	}
	return ""
}
