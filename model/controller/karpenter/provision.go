package karpenter

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/sim"
)

// existingNode is a node of the cluster as the provisioning scheduler
// packs pods onto it (scheduling/existingnode.go).
type existingNode struct {
	sim   *model.SimNode
	node  *model.Node
	claim *claim
}

// newClaim is a NodeClaim the scheduler is filling (scheduling/nodeclaim.go):
// its NodePool, the instance types that still fit every pod it holds
// (each a simulated node holding them), and its pods.
type newClaim struct {
	pool    *model.NodePool
	options []option
	pods    []*model.Pod
	room    model.Resources // the most any option has left, per resource
}

type option struct {
	it  *model.InstanceType
	sim *model.SimNode
}

// template is a NodePool with the instance types its requirements allow.
type template struct {
	pool *model.NodePool
	its  []*model.InstanceType
}

// remaining is what a NodePool's limits leave (scheduler.remainingResources).
type remaining struct{ cpu, mem, nodes int64 }

// solver is one provisioning pass (scheduling/scheduler.go Solve).
type solver struct {
	c         *Controller
	existing  []existingNode
	templates []template
	remaining map[*model.NodePool]*remaining
	fresh     []*newClaim
	// dry: a consolidation's simulation, which records what fails in
	// failed (by Pod.ID) instead of saying anything.
	dry    bool
	failed map[int]bool
	added  []placed // dry: the pods packed onto existing nodes, to undo
}

// placed is a pod a dry pass packed onto a simulated node.
type placed struct {
	sim *model.SimNode
	p   *model.Pod
}

// provision closes the batch: it packs every provisionable pod, largest
// first, onto a node in the cluster or in flight, then onto a NodeClaim it
// is filling, then onto a new one of the heaviest NodePool that can hold
// it, and launches the NodeClaims as the cheapest instance type that
// fits all their pods.
func (c *Controller) provision() {
	c.batchOpen = false
	c.pass = c.w.StartPass()
	if c.pass.Stopping() {
		c.w.Engine().At(c.w.Now(), sim.Normal, c.provision)
		return
	}
	pods := c.pendingPods()
	sortPods(pods)
	s := c.newSolverExcept(nil, false)
	for _, p := range pods {
		if c.pass.Stopping() { // the run ends after this event: pods placed so far stay nominated
			c.w.Engine().At(c.w.Now(), sim.Normal, c.provision) // a new batch cannot move it
			return
		}
		s.add(p)
	}
	for _, nc := range s.fresh {
		c.launch(nc)
	}
}

// pendingPods are the provisionable pods, in no order; it forgets the
// others.
func (c *Controller) pendingPods() []*model.Pod {
	pods := make([]*model.Pod, 0, len(c.pending))
	for id, p := range c.pending {
		if !provisionable(p) {
			delete(c.pending, id)
			continue
		}
		pods = append(pods, p)
	}
	return pods
}

// sortPods orders pods as the scheduler's queue does: most cpu first, then
// most memory (queue.go byCPUAndMemoryDescending), then creation.
func sortPods(pods []*model.Pod) {
	slices.SortFunc(pods, func(a, b *model.Pod) int {
		ra, rb := a.Requests(), b.Requests()
		return cmp.Or(cmp.Compare(rb.MilliCPU, ra.MilliCPU), cmp.Compare(rb.Memory, ra.Memory), cmp.Compare(a.ID(), b.ID()))
	})
}

// newSolverExcept is a pass over the cluster's nodes but except's (nil:
// all) and those being deleted. A real pass (not dry) packs onto the nodes
// still booting only: the scheduler has just found no room for its pods on
// the others (podsim schedules at once), and it knows more than
// model.SimNode (topology spread, inter-pod affinity).
func (c *Controller) newSolverExcept(except *claim, dry bool) *solver {
	s := &solver{c: c, remaining: map[*model.NodePool]*remaining{}, failed: map[int]bool{}, dry: dry}
	pools := slices.Clone(c.w.NodePools())
	slices.SortStableFunc(pools, func(a, b *model.NodePool) int {
		return cmp.Or(cmp.Compare(b.Weight, a.Weight), strings.Compare(a.Name, b.Name))
	})
	its := c.w.InstanceTypes()
	for _, p := range pools {
		t := template{pool: p}
		for i := range its {
			if ok, _ := compatible(p, &its[i]); ok {
				t.its = append(t.its, &its[i])
			}
		}
		if len(t.its) == 0 {
			if !dry {
				const msg = "NodePool requirements filtered out all compatible available instance types"
				c.publish(sayKey{reason: "NoCompatibleInstanceTypes", name: p.Name}, time.Minute, func() {
					c.w.NodePoolEvent(p.Name, model.EventWarning, "NoCompatibleInstanceTypes", source, msg)
				})
			}
			continue
		}
		s.templates = append(s.templates, t)
		s.remaining[p] = &remaining{cpu: p.LimitMilliCPU, mem: p.LimitMemory, nodes: p.LimitNodes}
	}
	c.pass.Read(len(c.w.Nodes()))
	for _, n := range c.w.Nodes() {
		cl := c.byNode[n.ID()]
		if cl != nil {
			if r := s.remaining[cl.pool]; r != nil {
				r.take(n.Capacity)
			}
			if cl == except || cl.marked() {
				continue // marked for deletion
			}
		}
		switch {
		case dry:
			s.existing = append(s.existing, existingNode{sim: c.simulated(n), node: n, claim: cl})
		case n.Booting():
			s.existing = append(s.existing, existingNode{sim: simulate(n), node: n, claim: cl})
		}
	}
	return s
}

// take counts a node of capacity r against the limits.
func (r *remaining) take(c model.Resources) {
	if r.cpu >= 0 {
		r.cpu -= c.MilliCPU
	}
	if r.mem >= 0 {
		r.mem -= c.Memory
	}
	if r.nodes >= 0 {
		r.nodes--
	}
}

// allows reports whether a node of capacity c fits within the limits
// (filterByRemainingResources).
func (r *remaining) allows(c model.Resources) bool {
	return (r.cpu < 0 || c.MilliCPU <= r.cpu) && (r.mem < 0 || c.Memory <= r.mem)
}

// simulated is simulate(n) for a dry pass: made once per disruption pass
// (disrupt) and shared by its simulations, each of which undoes what it
// packed (solver.undo).
func (c *Controller) simulated(n *model.Node) *model.SimNode {
	s := c.sims[n.ID()]
	if s == nil {
		s = simulate(n)
		c.sims[n.ID()] = s
	}
	return s
}

// undo takes the pods a dry pass packed off the shared simulated nodes.
func (s *solver) undo() {
	for _, a := range s.added {
		a.sim.Remove(a.p)
	}
	s.added = s.added[:0]
}

// simulate is n as the scheduler packs it: a node still booting without
// the taints that go away once it is up, holding what its pods request.
func simulate(n *model.Node) *model.SimNode {
	if !n.Booting() {
		return n.Simulate()
	}
	var taints []model.Taint
	for _, t := range n.Taints {
		if !ephemeral(t) {
			taints = append(taints, t)
		}
	}
	s := model.SimulateNode(model.NodeSpec{Name: n.Name, Labels: n.Labels, Capacity: n.Capacity, Taints: taints})
	for _, p := range n.Pods() {
		if !p.Phase().Terminal() {
			s.Add(p)
		}
	}
	return s
}

// add places one pod (Scheduler.add), or records why it cannot.
func (s *solver) add(p *model.Pod) {
	s.c.pass.Read(len(s.existing) + len(s.fresh)) // at most
	for i := range s.existing {
		if e := &s.existing[i]; roomFor(e.sim, p) && fits(e.sim, p) {
			e.sim.Add(p)
			if s.dry {
				s.added = append(s.added, placed{e.sim, p})
			}
			if !s.dry {
				s.c.nominate(p, e.node, e.claim)
			}
			return
		}
	}
	for i, nc := range s.fresh { // fewest pods first
		if nc.add(p) {
			for ; i+1 < len(s.fresh) && len(s.fresh[i+1].pods) < len(nc.pods); i++ {
				s.fresh[i], s.fresh[i+1] = s.fresh[i+1], s.fresh[i]
			}
			return
		}
	}
	if len(s.templates) == 0 {
		s.cannot(p, "nodepool requirements filtered out all available instance types")
		return
	}
	var errs []string
	for _, t := range s.templates {
		nc, why := s.open(t, p)
		if nc != nil {
			s.fresh = slices.Insert(s.fresh, 0, nc) // one pod: the fewest
			return
		}
		errs = append(errs, why)
	}
	s.cannot(p, strings.Join(errs, "; "))
}

// cannot records that p fits nowhere: a real pass says so.
func (s *solver) cannot(p *model.Pod, why string) {
	s.failed[p.ID()] = true
	if !s.dry {
		s.c.cannot(p, why)
	}
}

// roomFor is the cheap half of NodeResourcesFit: whether n has p's
// requests free, before the filters run.
func roomFor(n *model.SimNode, p *model.Pod) bool {
	c, a, r := n.Capacity(), n.Allocated(), p.Requests()
	return a.MilliCPU+r.MilliCPU <= c.MilliCPU && a.Memory+r.Memory <= c.Memory && a.Pods+r.Pods <= c.Pods
}

// fits is SimNode.Fits without its reasons.
func fits(n *model.SimNode, p *model.Pod) bool {
	ok, _ := n.Fits(p)
	return ok
}

// open starts a NodeClaim of template t for p, or says why it cannot
// (addToNewNodeClaim).
func (s *solver) open(t template, p *model.Pod) (*newClaim, string) {
	r := s.remaining[t.pool]
	if r.nodes == 0 {
		return nil, fmt.Sprintf("node limits have been exhausted for nodepool (NodePool=%s)", t.pool.Name)
	}
	nc := &newClaim{pool: t.pool}
	var first string
	for _, it := range t.its {
		if !r.allows(it.Capacity) {
			continue
		}
		sn := model.SimulateNode(nodeSpec("", t.pool, it))
		if ok, why := sn.Fits(p); !ok {
			if first == "" {
				first = why
			}
			continue
		}
		sn.Add(p)
		nc.options = append(nc.options, option{it: it, sim: sn})
	}
	if len(nc.options) > 0 {
		nc.pods = append(nc.pods, p)
		nc.measure()
		var most model.Resources // subtractMax: the largest option counts against the limits
		for _, o := range nc.options {
			most.MilliCPU = max(most.MilliCPU, o.it.Capacity.MilliCPU)
			most.Memory = max(most.Memory, o.it.Capacity.Memory)
		}
		r.take(most)
		return nc, ""
	}
	if first == "" {
		return nil, fmt.Sprintf("all available instance types exceed limits for nodepool (NodePool=%s)", t.pool.Name)
	}
	return nil, fmt.Sprintf("incompatible with nodepool %q, no instance type satisfied the pod: %s", t.pool.Name, first)
}

// add packs p onto the NodeClaim if an instance type it may still be
// holds it too; the options that cannot are dropped.
func (nc *newClaim) add(p *model.Pod) bool {
	if r := p.Requests(); r.MilliCPU > nc.room.MilliCPU || r.Memory > nc.room.Memory || r.Pods > nc.room.Pods {
		return false
	}
	any := false
	for _, o := range nc.options {
		if fits(o.sim, p) {
			any = true
			break
		}
	}
	if !any {
		return false
	}
	nc.options = slices.DeleteFunc(nc.options, func(o option) bool { return !fits(o.sim, p) })
	for _, o := range nc.options {
		o.sim.Add(p)
	}
	nc.pods = append(nc.pods, p)
	nc.measure()
	return true
}

// measure sets the room the claim's options have left.
func (nc *newClaim) measure() {
	nc.room = model.Resources{}
	for _, o := range nc.options {
		c, a := o.sim.Capacity(), o.sim.Allocated()
		nc.room.MilliCPU = max(nc.room.MilliCPU, c.MilliCPU-a.MilliCPU)
		nc.room.Memory = max(nc.room.Memory, c.Memory-a.Memory)
		nc.room.Pods = max(nc.room.Pods, c.Pods-a.Pods)
	}
}

// cannot records why the pass left p pending, and says so on p as
// Karpenter's FailedScheduling (deduped for 5 minutes).
func (c *Controller) cannot(p *model.Pod, why string) {
	c.why[p.ID()] = why
	msg := "Failed to schedule pod, " + why
	c.publish(sayKey{reason: "FailedScheduling", id: p.ID()}, 5*time.Minute, func() {
		p.Event(model.EventWarning, "FailedScheduling", source, msg)
	})
}

// nominate says on p where it should go (NominatePodEvent, deduped by pod)
// and keeps that node from being disrupted for the nomination window.
func (c *Controller) nominate(p *model.Pod, n *model.Node, cl *claim) {
	target := "node/" + n.Name
	if cl != nil {
		target = "nodeclaim/" + n.Name + ", " + target
		cl.nominated = c.w.Now() + nominationWindow
	}
	msg := "Pod should schedule on: " + target
	c.why[p.ID()] = "nominated to " + target + ", which is booting"
	c.publish(sayKey{reason: "Nominated", id: p.ID()}, dedupeTimeout, func() { p.Event(model.EventNormal, "Nominated", source, msg) })
}

// launch creates the NodeClaim as its cheapest instance type, named
// <nodepool>-<five letters>, and its node, which boots for the instance
// type's boot time.
func (c *Controller) launch(nc *newClaim) *claim {
	cl := c.create(nc.pool, nc.cheapest())
	msg := "Pod should schedule on: nodeclaim/" + cl.node.Name
	for _, p := range nc.pods {
		c.why[p.ID()] = "nominated to nodeclaim/" + cl.node.Name + ", which is booting"
		c.publish(sayKey{reason: "Nominated", id: p.ID()}, dedupeTimeout, func() { p.Event(model.EventNormal, "Nominated", source, msg) })
	}
	return cl
}

// cheapest is the cheapest instance type that holds every pod of the
// NodeClaim (the cloud provider's launch), the first by name among equals.
func (nc *newClaim) cheapest() *model.InstanceType {
	best := nc.options[0].it
	for _, o := range nc.options[1:] {
		if o.it.PricePerHour < best.PricePerHour || o.it.PricePerHour == best.PricePerHour && o.it.Name < best.Name {
			best = o.it
		}
	}
	return best
}

// create launches a node of pool and instance type it.
func (c *Controller) create(pool *model.NodePool, it *model.InstanceType) *claim {
	name := c.name(pool.Name)
	boot := it.BootTime
	if it.BootDist != nil {
		boot = it.BootDist.Sample(c.boot)
	}
	now := c.w.Now()
	n := c.w.ProvisionNode(nodeSpec(name, pool, it), boot)
	cl := &claim{node: n, pool: pool, it: it, hash: pool.Hash, launched: now, lastPod: now, nominated: now + nominationWindow}
	cl.drainTimer.Init(func() { c.drain(cl) })
	if pool.ExpireAfter < sim.MaxDuration {
		cl.expiry.Init(func() { c.expire(cl) })
		c.w.Engine().Schedule(&cl.expiry, sim.AddSat(now, pool.ExpireAfter), sim.Normal)
	}
	c.claims = append(c.claims, cl)
	c.byNode[n.ID()] = cl
	if !c.poll.Pending() {
		c.w.Engine().Schedule(&c.poll, sim.AddSat(now, pollingPeriod), sim.Normal)
	}
	return cl
}

// name is a NodeClaim's name: the NodePool's, a dash and five characters
// of apimachinery's safe alphabet (generateName), unused by any node.
func (c *Controller) name(pool string) string {
	const alphabet = "bcdfghjklmnpqrstvwxz2456789"
	for {
		b := []byte(pool + "-xxxxx")
		for i := len(pool) + 1; i < len(b); i++ {
			b[i] = alphabet[c.names.IntN(len(alphabet))]
		}
		if c.w.Node(string(b)) == nil {
			return string(b)
		}
	}
}

// price is what a node of the claim costs per hour.
func (cl *claim) price() float64 {
	if cl.it == nil {
		return math.Inf(1)
	}
	return cl.it.PricePerHour
}
