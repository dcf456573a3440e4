package karpenter

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/sim"
)

// Disruption reasons (pkg/apis/v1/nodepool.go DisruptionReason).
const (
	reasonEmpty         = "Empty"
	reasonUnderutilized = "Underutilized"
	reasonDrifted       = "Drifted"
	policyWhenEmpty     = "WhenEmpty"
)

// command is a disruption decided: its reason, the nodes it removes and
// the replacements it launches first (at most one but for drift).
type command struct {
	reason       string
	candidates   []*claim
	replacements []replacement
}

// replacement is a node to launch: its NodePool and instance type.
type replacement struct {
	pool *model.NodePool
	it   *model.InstanceType
}

// disrupt is one pass of the disruption loop (disruption/controller.go
// Reconcile): the first method that finds something to do (emptiness,
// drift, single-node consolidation) does it, after the validation delay
// for emptiness and consolidation; otherwise it polls again in 10s.
func (c *Controller) disrupt() {
	c.pass = c.w.StartPass()
	clear(c.sims)
	if c.pass.Stopping() {
		c.w.Engine().Schedule(&c.poll, c.w.Now(), sim.Normal)
		return
	}
	if c.cmd != nil {
		c.execute()
		return
	}
	if len(c.claims) == 0 {
		return
	}
	for _, cl := range c.claims { // a NodePool replaced: its nodes follow the new one
		for _, p := range c.w.NodePools() {
			if p.Name == cl.pool.Name {
				cl.pool = p
			}
		}
	}
	for _, m := range []func() *command{c.emptiness, c.drift, c.consolidation} {
		cmd := m()
		if c.pass.Cut() { // decided nothing: disrupt again at this instant
			c.w.Engine().Schedule(&c.poll, c.w.Now(), sim.Normal)
			return
		}
		if cmd != nil {
			if cmd.reason == reasonDrifted {
				c.cmd = cmd
				c.execute()
				return
			}
			c.cmd = cmd
			c.w.Engine().Schedule(&c.poll, sim.AddSat(c.w.Now(), validationDelay), sim.Normal)
			return
		}
	}
	c.w.Engine().Schedule(&c.poll, sim.AddSat(c.w.Now(), pollingPeriod), sim.Normal)
}

// candidates are the nodes that may be disrupted for reason, each NodePool
// within its budget for it; every node that may not says why in a
// DisruptionBlocked event (deduped for 2 minutes per node).
func (c *Controller) candidates(reason string, want func(*claim) bool) []*claim {
	var out []*claim
	for _, cl := range c.claims {
		if cl.marked() {
			continue // in the orchestration queue already: no event
		}
		if why := c.blocked(cl); why != "" {
			c.publish(sayKey{reason: "DisruptionBlocked", id: cl.node.ID()}, dedupeTimeout, func() {
				cl.node.Event(model.EventNormal, "DisruptionBlocked", source, why)
			})
			continue
		}
		if want(cl) {
			out = append(out, cl)
		}
	}
	allowed := map[*model.NodePool]int{}
	return slices.DeleteFunc(out, func(cl *claim) bool {
		n, ok := allowed[cl.pool]
		if !ok {
			n = c.allowed(cl.pool, reason)
		}
		if n <= 0 {
			if !ok {
				msg := "No allowed disruptions for disruption reason " + reason + " due to blocking budget"
				c.publish(sayKey{reason: "DisruptionBlocked/" + reason, name: cl.pool.Name}, time.Minute, func() {
					c.w.NodePoolEvent(cl.pool.Name, model.EventNormal, "DisruptionBlocked", source, msg)
				})
			}
			allowed[cl.pool] = 0
			return true
		}
		allowed[cl.pool] = n - 1
		return false
	})
}

// blocked is why a node may not be disrupted at all
// (ValidateNodeDisruptable, then ValidatePodsDisruptable), or "".
func (c *Controller) blocked(cl *claim) string {
	switch {
	case cl.node.Booting():
		return "Node isn't initialized"
	case cl.marked():
		return "Node is deleting or marked for deletion"
	case c.w.Now() < cl.nominated:
		return "Node is nominated for a pending pod"
	}
	for _, p := range cl.node.Pods() {
		if active(p) && p.Annotations[AnnotationDoNotDisrupt] == "true" {
			return fmt.Sprintf(`Pod has "karpenter.sh/do-not-disrupt" annotation (Pod=%s/%s)`, p.Namespace, p.Name)
		}
	}
	for _, p := range cl.node.Pods() {
		if !active(p) {
			continue
		}
		switch bs := p.DisruptionBudgets(); {
		case len(bs) > 1:
			keys := make([]string, len(bs))
			for i, b := range bs {
				keys[i] = b.Spec.Namespace + "/" + b.Spec.Name
			}
			return fmt.Sprintf("Eviction does not support multiple PDBs (PodDisruptionBudget(s)=[%s])", strings.Join(keys, " "))
		case len(bs) == 1 && bs[0].Status.DisruptionsAllowed <= 0:
			return fmt.Sprintf("Pdb prevents pod evictions (PodDisruptionBudget=[%s/%s])", bs[0].Spec.Namespace, bs[0].Spec.Name)
		}
	}
	return ""
}

// active is a pod that holds its node: not finished, not being deleted.
func active(p *model.Pod) bool { return !p.Phase().Terminal() && !p.Terminating() && !p.Deleted() }

// reschedulable are the pods that must go elsewhere if the node goes
// (pod.IsReschedulable): active, not a DaemonSet's.
func reschedulable(n *model.Node) []*model.Pod {
	var out []*model.Pod
	for _, p := range n.Pods() {
		if active(p) && !daemon(p) {
			out = append(out, p)
		}
	}
	return out
}

// allowed is how many more of pool's nodes may be disrupted for reason
// now (GetAllowedDisruptionsByReason, rounding percentages up, less the
// nodes not Ready or being deleted; BuildDisruptionBudgetMapping).
func (c *Controller) allowed(pool *model.NodePool, reason string) int {
	total, disrupting := 0, 0
	for _, cl := range c.claims {
		if cl.pool != pool || cl.node.Booting() {
			continue
		}
		total++
		if cl.marked() || !cl.node.Ready() {
			disrupting++
		}
	}
	allowed := math.MaxInt32
	for _, b := range pool.Budgets {
		if len(b.Reasons) > 0 && !slices.Contains(b.Reasons, reason) {
			continue
		}
		allowed = min(allowed, scaled(b.Nodes, total))
	}
	return allowed - disrupting
}

// scaled is a budget's nodes of total: a count, or a percentage rounded
// up (intstr.GetScaledValueFromIntOrPercent).
func scaled(nodes string, total int) int {
	if pct, ok := strings.CutSuffix(nodes, "%"); ok {
		v, _ := strconv.Atoi(pct)
		return (v*total + 99) / 100
	}
	v, _ := strconv.Atoi(nodes)
	return v
}

// notConsolidatable is why consolidation leaves a node alone, or "":
// its NodePool's consolidateAfter has not passed since its last pod event
// (the Consolidatable condition), or its policy is WhenEmpty and it has
// pods.
func (c *Controller) notConsolidatable(cl *claim) string {
	after := cl.pool.ConsolidateAfter
	if after == sim.MaxDuration {
		return "consolidateAfter is Never"
	}
	if at := sim.AddSat(cl.lastPod, after); c.w.Now() < at {
		return fmt.Sprintf("consolidateAfter %s has not passed since its last pod event (until %s)", after, sim.FormatTime(at))
	}
	if cl.pool.ConsolidationPolicy == policyWhenEmpty && len(reschedulable(cl.node)) > 0 {
		return "consolidationPolicy is WhenEmpty and it has pods"
	}
	return ""
}

// emptiness deletes every consolidatable node without reschedulable pods
// (disruption/emptiness.go), within the budgets.
func (c *Controller) emptiness() *command {
	cands := c.candidates(reasonEmpty, func(cl *claim) bool {
		return c.notConsolidatable(cl) == "" && len(reschedulable(cl.node)) == 0
	})
	if len(cands) == 0 {
		return nil
	}
	return &command{reason: reasonEmpty, candidates: cands}
}

// drift replaces the first node launched from an older template of its
// NodePool (disruption/drift.go).
func (c *Controller) drift() *command {
	cands := c.candidates(reasonDrifted, func(cl *claim) bool { return cl.hash != cl.pool.Hash })
	for _, cl := range cands {
		if cmd := c.simulate(cl, reasonDrifted); cmd != nil {
			return cmd
		}
	}
	return nil
}

// consolidation is single-node consolidation
// (disruption/singlenodeconsolidation.go): the first underutilized node,
// fewest pods first, whose pods all fit on the other nodes (delete) or
// on one new node cheaper than it (replace).
func (c *Controller) consolidation() *command {
	cands := c.candidates(reasonUnderutilized, func(cl *claim) bool {
		return cl.pool.ConsolidationPolicy != policyWhenEmpty && c.notConsolidatable(cl) == ""
	})
	slices.SortStableFunc(cands, func(a, b *claim) int {
		return cmp.Or(cmp.Compare(len(reschedulable(a.node)), len(reschedulable(b.node))), cmp.Compare(a.launched, b.launched))
	})
	for _, cl := range cands {
		if cmd := c.simulate(cl, reasonUnderutilized); cmd != nil {
			return cmd
		}
	}
	return nil
}

// simulate schedules cl's pods, with the pending ones, as if cl were gone
// (SimulateScheduling): nil if one of its pods would not schedule, or it
// would take more than one new node, or (consolidating) the new node
// costs no less than cl.
func (c *Controller) simulate(cl *claim, reason string) *command {
	mine := reschedulable(cl.node)
	if c.pass.Stopping() || reason == reasonUnderutilized && !c.mayConsolidate(cl, mine) {
		return nil
	}
	s := c.newSolverExcept(cl, true)
	defer s.undo()
	pods := append(slices.Clone(mine), c.pendingPods()...)
	sortPods(pods)
	for _, p := range pods {
		if c.pass.Stopping() {
			return nil
		}
		s.add(p)
	}
	for _, p := range mine {
		if s.failed[p.ID()] {
			return nil
		}
	}
	cmd := &command{reason: reason, candidates: []*claim{cl}}
	switch {
	case len(s.fresh) == 0:
		return cmd
	case len(s.fresh) > 1 && reason != reasonDrifted:
		return nil
	}
	for _, nc := range s.fresh {
		cmd.replacements = append(cmd.replacements, replacement{pool: nc.pool, it: nc.cheapest()})
	}
	if reason == reasonUnderutilized && cmd.replacements[0].it.PricePerHour >= cl.price() {
		return nil
	}
	return cmd
}

// mayConsolidate is a cheap bound before the simulation: cl's pods can
// go only if the other nodes have that much room free in all, or an
// instance type cheaper than cl holds them all.
func (c *Controller) mayConsolidate(cl *claim, pods []*model.Pod) bool {
	var need, free model.Resources
	for _, p := range pods {
		r := p.Requests()
		need.MilliCPU, need.Memory = need.MilliCPU+r.MilliCPU, need.Memory+r.Memory
	}
	for _, it := range c.w.InstanceTypes() {
		if it.PricePerHour < cl.price() && it.Capacity.MilliCPU >= need.MilliCPU && it.Capacity.Memory >= need.Memory {
			return true
		}
	}
	c.pass.Read(len(c.w.Nodes()))
	for _, n := range c.w.Nodes() {
		if o := c.byNode[n.ID()]; n == cl.node || o != nil && o.marked() {
			continue
		}
		a := n.Allocated()
		free.MilliCPU += max(0, n.Capacity.MilliCPU-a.MilliCPU)
		free.Memory += max(0, n.Capacity.Memory-a.Memory)
	}
	return free.MilliCPU >= need.MilliCPU && free.Memory >= need.Memory
}

// execute carries out the command decided a validation delay ago, if its
// nodes may still be disrupted (validation.go), then polls again at once.
func (c *Controller) execute() {
	cmd := c.cmd
	c.cmd = nil
	defer c.w.Engine().Schedule(&c.poll, c.w.Now(), sim.Normal)
	for _, cl := range cmd.candidates {
		if c.byNode[cl.node.ID()] != cl || c.blocked(cl) != "" {
			return
		}
		if cmd.reason != reasonDrifted && c.notConsolidatable(cl) != "" {
			return
		}
		if cmd.reason == reasonEmpty && len(reschedulable(cl.node)) > 0 {
			return
		}
	}
	if cmd.reason == reasonUnderutilized {
		again := c.simulate(cmd.candidates[0], cmd.reason)
		if c.pass.Cut() {
			c.cmd = cmd // validated again at this instant (disrupt)
			return
		}
		if again == nil || len(again.replacements) != len(cmd.replacements) {
			return
		}
	}
	for _, cl := range cmd.candidates {
		cl.disrupting = cmd.reason
		cl.node.AddTaint(model.Taint{Key: TaintDisrupted, Effect: "NoSchedule", TimeAdded: c.w.Now()})
		cl.awaiting = len(cmd.replacements)
		if cl.awaiting == 0 {
			c.terminate(cl)
		}
	}
	for _, r := range cmd.replacements {
		repl := c.create(r.pool, r.it)
		repl.replaces = cmd.candidates
	}
}

// NodeReadyPosted terminates the nodes a replacement was waiting for, once
// it is Ready (the orchestration queue waits for replacements to
// initialize).
func (c *Controller) NodeReadyPosted(n *model.Node) {
	cl := c.byNode[n.ID()]
	if cl == nil || !n.Ready() {
		return
	}
	cl.nominated = max(cl.nominated, c.w.Now()+nominationWindow)
	for _, old := range cl.replaces {
		if old.awaiting--; old.awaiting == 0 {
			c.terminate(old)
		}
	}
	cl.replaces = nil
}

// terminate deletes a node's NodeClaim: DisruptionTerminating, then the
// termination controller drains the node and deletes it.
func (c *Controller) terminate(cl *claim) {
	if cl.disrupting != "" {
		cl.node.Event(model.EventNormal, "DisruptionTerminating", source, "Disrupting Node: "+cl.disrupting)
	}
	cl.deleting, cl.draining = true, true
	c.drain(cl)
}

// drain evicts the node's pods through the Eviction API (retried every 10s
// while a budget refuses), leaving DaemonSet pods and do-not-disrupt ones,
// and deletes the node once none holds it (node/termination).
func (c *Controller) drain(cl *claim) {
	if cl.node.Gone() {
		return
	}
	reason := cl.disrupting
	if reason == "" {
		reason = "Forceful Termination"
	}
	waiting, refused := false, false
	for _, p := range slices.Clone(cl.node.Pods()) {
		if p.Phase().Terminal() || p.Deleted() || daemon(p) {
			continue
		}
		waiting = true
		if p.Terminating() || p.Annotations[AnnotationDoNotDisrupt] == "true" {
			continue
		}
		if r := p.Evict(); r.Code == model.EvictionCreated {
			p.Event(model.EventNormal, "Evicted", source, "Evicted pod: "+reason)
		} else if r.Code != model.EvictionNotFound {
			refused = true
		}
	}
	if !waiting {
		cl.draining = false
		cl.node.Delete()
		return
	}
	if refused && !cl.drainTimer.Pending() {
		c.w.Engine().Schedule(&cl.drainTimer, sim.AddSat(c.w.Now(), evictRetry), sim.Normal)
	}
}

// expire deletes a node that lived its NodePool's expireAfter
// (nodeclaim/expiration): forcefully, without budgets.
func (c *Controller) expire(cl *claim) {
	if c.byNode[cl.node.ID()] != cl || cl.deleting {
		return
	}
	c.terminate(cl)
}
