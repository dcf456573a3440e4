package clusterautoscaler

import (
	"fmt"
	"strconv"
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/sim"
)

// dest is a node pods could move to in a scale-down simulation.
type dest struct {
	n       *model.Node
	sim     *model.SimNode
	removed bool // found unneeded in this pass: no pod moves onto it
}

// pass is one scale-down pass's simulation of the cluster.
type pass struct {
	dests []*dest
	byID  map[int]*dest
	reads *model.Pass // counts the destinations looked at (place)
}

// scaleDown is the scale-down planner and actuator (core/scaledown): it
// finds the unneeded nodes and, outside the delays after a scale-up, a
// deletion or a failure, deletes those unneeded long enough, empty ones
// up to maxEmptyBulkDelete at once, non-empty ones one at a time.
func (c *Controller) scaleDown() {
	now := c.w.Now()
	ps := c.newPass()
	type candidate struct {
		n    *model.Node
		g    *group
		pods []*model.Pod
	}
	var ready []candidate
	for _, g := range c.groups {
		for _, n := range g.nodes {
			if c.deleting[n.ID()] || !n.Ready() || booting(n) {
				delete(c.unneededSince, n.ID())
				continue
			}
			pods, why := c.removable(n, ps)
			if c.pass.Read(1); c.pass.Stopping() {
				return // runOnce makes the pass again at this instant
			}
			c.why[n.ID()] = why
			if why != "" {
				delete(c.unneededSince, n.ID())
				continue
			}
			since, ok := c.unneededSince[n.ID()]
			if !ok {
				since = now
				c.unneededSince[n.ID()] = now
			}
			if now-since >= c.s.ScaleDownUnneededTime {
				ready = append(ready, candidate{n, g, pods})
			}
		}
	}
	if c.cooldown() {
		return
	}
	empties, drained := 0, false
	for _, cd := range ready {
		if cd.g.size()-c.deletingIn(cd.g) <= cd.g.spec.Min {
			c.why[cd.n.ID()] = reasonUnderMinMsg
			continue
		}
		switch {
		case len(cd.pods) == 0 && empties < c.s.MaxEmptyBulkDelete:
			empties++
			c.deleteEmpty(cd.n)
		case len(cd.pods) > 0 && !drained && c.draining == 0:
			drained = true
			c.drain(cd.n, cd.pods)
		}
	}
}

// cooldown reports whether scale-down waits: scaleDownDelayAfterAdd after
// a scale-up, ...AfterDelete after a deletion, ...AfterFailure after a
// failed one.
func (c *Controller) cooldown() bool {
	now := c.w.Now()
	return now < sim.AddSat(c.lastScaleUp, c.s.ScaleDownDelayAfterAdd) ||
		now < sim.AddSat(c.lastDelete, c.s.ScaleDownDelayAfterDelete) ||
		now < sim.AddSat(c.lastFailure, c.s.ScaleDownDelayAfterFailure)
}

// deletingIn counts g's nodes being deleted.
func (c *Controller) deletingIn(g *group) int { return g.deleting }

// newPass simulates every Ready node not being deleted, as destinations.
func (c *Controller) newPass() *pass {
	ps := &pass{byID: map[int]*dest{}, reads: &c.pass}
	for _, n := range c.w.Nodes() {
		if n.Gone() || !n.Ready() || c.deleting[n.ID()] {
			continue
		}
		d := &dest{n: n}
		ps.dests = append(ps.dests, d)
		ps.byID[n.ID()] = d
	}
	return ps
}

// utilization is the larger of the node's cpu and memory requested over
// its allocatable (simulator/utilization/info.go).
func utilization(n *model.Node) float64 {
	used, capa := n.Allocated(), n.Capacity
	u := 0.0
	if capa.MilliCPU > 0 {
		u = float64(used.MilliCPU) / float64(capa.MilliCPU)
	}
	if capa.Memory > 0 {
		u = max(u, float64(used.Memory)/float64(capa.Memory))
	}
	return u
}

// removable returns the pods n's removal would move, or why it cannot be
// removed: its utilization, a pod that blocks it
// (simulator/drainability/rules, utils/drain/drain.go), or no place for
// its pods on the other nodes (simulator/cluster.go). A removable node
// leaves the pass's destinations; its pods stay on the nodes they moved to.
func (c *Controller) removable(n *model.Node, ps *pass) ([]*model.Pod, string) {
	if u := utilization(n); u >= c.s.ScaleDownUtilizationThreshold {
		return nil, fmt.Sprintf("node utilization %.2f is not below scaleDownUtilizationThreshold %.2f", u, c.s.ScaleDownUtilizationThreshold)
	}
	var pods []*model.Pod
	for _, p := range n.Pods() {
		if p.Deleted() || p.Terminating() || p.Phase().Terminal() || isDaemonSetPod(p) {
			continue
		}
		if why := c.blocks(p); why != "" {
			return nil, why
		}
		pods = append(pods, p)
	}
	for _, p := range pods {
		for _, b := range p.DisruptionBudgets() {
			if b.Status.DisruptionsAllowed < 1 {
				return nil, fmt.Sprintf("not enough pod disruption budget to move %s/%s", p.Namespace, p.Name)
			}
		}
	}
	var placed []*dest
	for _, p := range pods {
		d := ps.place(p, n)
		if d == nil {
			for i, q := range pods[:len(placed)] {
				placed[i].sim.Remove(q)
			}
			return nil, fmt.Sprintf("no place to move pod %s/%s", p.Namespace, p.Name)
		}
		placed = append(placed, d)
	}
	if d := ps.byID[n.ID()]; d != nil {
		d.removed = true
	}
	return pods, ""
}

// place finds the first destination other than from that p fits and packs
// it there; nil if none.
func (ps *pass) place(p *model.Pod, from *model.Node) *dest {
	for _, d := range ps.dests {
		if d.removed || d.n == from {
			continue
		}
		if d.sim == nil {
			d.sim = d.n.Simulate()
		}
		ps.reads.Read(1)
		if d.sim.Admits(p) {
			d.sim.Add(p)
			return d
		}
	}
	return nil
}

// isDaemonSetPod reports whether a DaemonSet owns p.
func isDaemonSetPod(p *model.Pod) bool {
	o := p.Owner()
	return o != nil && o.Spec.Kind == model.KindDaemonSet
}

// blocks is why p keeps its node from being removed, or "": the drain
// rules for a pod not annotated safe-to-evict "true", in upstream's order.
func (c *Controller) blocks(p *model.Pod) string {
	ann := p.Annotations[safeToEvict]
	if ann == "true" {
		return ""
	}
	switch {
	case p.Owner() == nil:
		return fmt.Sprintf("%s/%s is not replicated", p.Namespace, p.Name)
	case p.Namespace == kubeSystem && c.s.SkipNodesWithSystemPods && len(p.DisruptionBudgets()) == 0:
		return "non-daemonset, non-mirrored, non-pdb-assigned kube-system pod present: " + p.Name
	case ann == "false":
		return "pod annotated as not safe to evict present: " + p.Name
	}
	return ""
}

// markToBeDeleted taints n ToBeDeletedByClusterAutoscaler (its value the
// Unix time) and says so (ScaleDown).
func (c *Controller) markToBeDeleted(n *model.Node) {
	c.deleting[n.ID()] = true
	c.groupOf(n.Group).deleting++
	delete(c.unneededSince, n.ID())
	c.lastDelete = c.w.Now()
	at := strconv.FormatInt(c.w.WallTime(c.w.Now()).Unix(), 10)
	n.AddTaint(model.Taint{Key: taintToBeDeleted, Value: at, Effect: "NoSchedule"})
	n.Event(model.EventNormal, "ScaleDown", source, "marked the node as toBeDeleted/unschedulable")
}

// deleteEmpty deletes an empty node after --node-delete-delay-after-taint.
func (c *Controller) deleteEmpty(n *model.Node) {
	c.markToBeDeleted(n)
	c.w.Engine().At(sim.AddSat(c.w.Now(), deleteDelayAfter), sim.Normal, n.Delete)
}

// drain evicts n's pods through the Eviction API (its DaemonSet pods too,
// --daemonset-eviction-for-occupied-nodes), retrying a refused eviction
// every evictionRetryTime for up to maxPodEvictionTime; then it waits for
// them to be gone (at most maxGracefulTerminationSec and a headroom) and
// deletes the node. A pod it cannot evict aborts: the taint comes off
// (ScaleDownFailed) and scale-down waits scaleDownDelayAfterFailure.
func (c *Controller) drain(n *model.Node, pods []*model.Pod) {
	c.markToBeDeleted(n)
	c.draining++
	for _, p := range n.Pods() {
		if isDaemonSetPod(p) && !p.Deleted() && !p.Terminating() && !p.Phase().Terminal() {
			pods = append(pods, p)
		}
	}
	start := c.w.Now()
	for _, p := range pods {
		p.Event(model.EventNormal, "ScaleDown", source, "deleting pod for node scale down")
	}
	var try func()
	left := pods
	try = func() {
		if n.Gone() {
			c.draining--
			return
		}
		keep := left[:0]
		for _, p := range left {
			grace := min(p.Spec.TerminationGracePeriod, c.s.MaxGracefulTermination)
			if r := p.EvictWithGrace(&grace); r.Code != model.EvictionCreated && r.Code != model.EvictionNotFound && !isDaemonSetPod(p) {
				keep = append(keep, p)
			}
		}
		left = keep
		switch {
		case len(left) == 0:
			c.awaitGone(n, pods, sim.AddSat(c.w.Now(), c.s.MaxGracefulTermination+podEvictionHeadroom))
		case c.w.Now()-start >= maxPodEvictionTime:
			c.abort(n)
		default:
			c.w.Engine().At(sim.AddSat(c.w.Now(), evictionRetryTime), sim.Normal, try)
		}
	}
	try()
}

// awaitGone deletes n once its evicted pods are gone, or at deadline.
func (c *Controller) awaitGone(n *model.Node, pods []*model.Pod, deadline time.Duration) {
	for _, p := range pods {
		if !p.Deleted() && p.Node == n && c.w.Now() < deadline {
			c.w.Engine().At(sim.AddSat(c.w.Now(), 5*time.Second), sim.Normal, func() { c.awaitGone(n, pods, deadline) })
			return
		}
	}
	c.draining--
	c.lastDelete = c.w.Now()
	n.Delete()
}

// abort gives up a drain: the node keeps what is left and takes pods
// again.
func (c *Controller) abort(n *model.Node) {
	c.draining--
	delete(c.deleting, n.ID())
	c.groupOf(n.Group).deleting--
	c.lastFailure = c.w.Now()
	n.Untaint(taintToBeDeleted)
	n.Event(model.EventWarning, "ScaleDownFailed", source, "failed to drain the node, aborting ScaleDown")
}
