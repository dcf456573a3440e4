package clusterautoscaler

import (
	"fmt"
	"slices"
	"strings"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/sim"
)

// equiv is an equivalence group of pending pods (core/scaleup/equivalence):
// pods of one controller with one spec schedule alike, so one of them
// stands for all.
type equiv struct {
	pods []*model.Pod
}

func (e *equiv) sample() *model.Pod { return e.pods[0] }

// equivKey is what makes pods equivalent: their controller and spec; a
// pod without a controller is alone.
type equivKey struct {
	owner *model.Workload
	spec  *model.PodSpec
	pod   int
}

// equivalence groups pods, in the order of their first pod.
func equivalence(pods []*model.Pod) []*equiv {
	idx := map[equivKey]int{}
	var out []*equiv
	for _, p := range pods {
		k := equivKey{owner: p.Owner(), spec: p.Spec}
		if k.owner == nil {
			k.pod = p.ID() + 1
		}
		i, ok := idx[k]
		if !ok {
			i = len(out)
			idx[k] = i
			out = append(out, &equiv{})
		}
		out[i].pods = append(out[i].pods, p)
	}
	return out
}

// option is one node group's expansion (expander.Option): the nodes the
// binpacking estimator asks for and the pods of each equivalence group
// they would take.
type option struct {
	g      *group
	nodes  int
	helped []int // by equivalence group: how many of its pods
	pods   int
	req    model.Resources // what the helped pods request
}

// scaleUp is ScaleUp (core/scaleup/orchestrator): the unschedulable pods
// that fit no existing or upcoming node, an option per group, the
// expander's pick. It reports whether it added nodes.
func (c *Controller) scaleUp() bool {
	pods := c.unschedulable()
	if len(pods) == 0 {
		return false
	}
	eqs := c.filterSchedulable(equivalence(pods))
	if len(eqs) == 0 || c.pass.Cut() {
		return false
	}
	rejected := make([]map[string]int, len(eqs)) // by equivalence group: reason -> groups
	note := func(i int, reason string) {
		if rejected[i] == nil {
			rejected[i] = map[string]int{}
		}
		rejected[i][reason]++
	}
	var options []*option
	total := c.totalNodes()
	for _, g := range c.groups {
		why := ""
		switch {
		case c.s.MaxNodesTotal > 0 && total >= c.s.MaxNodesTotal:
			why = reasonMaxTotal
		case g.size() >= g.spec.Max:
			why = reasonMaxSize
		case c.w.Now() < g.backoffUntil:
			why = reasonBackoff
		}
		if why != "" {
			for i := range eqs {
				note(i, why)
			}
			continue
		}
		if o := c.estimate(g, eqs, total, note); o != nil {
			options = append(options, o)
		}
	}
	if c.pass.Cut() {
		return false
	}
	if len(options) == 0 {
		for i, e := range eqs {
			msg := "pod didn't trigger scale-up: " + reasonsMessage(rejected[i])
			for _, p := range e.pods {
				p.Event(model.EventNormal, "NotTriggerScaleUp", source, msg)
			}
		}
		return false
	}
	best := c.expand(options)
	c.provision(best, eqs)
	return true
}

// reasonsMessage is ReasonsMessage (processors/status): each reason with
// the number of groups that gave it, sorted.
func reasonsMessage(reasons map[string]int) string {
	keys := make([]string, 0, len(reasons))
	for k := range reasons {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%d %s", reasons[k], k)
	}
	return strings.Join(parts, ", ")
}

// filterSchedulable is the FilterOutSchedulable pod list processor: pods
// that fit on an existing node or on one still booting (an upcoming node,
// as its group's template) are left to the scheduler. It returns the
// equivalence groups with the pods that fit nowhere.
func (c *Controller) filterSchedulable(eqs []*equiv) []*equiv {
	var sims []*model.SimNode
	for _, n := range c.w.Nodes() {
		switch {
		case n.Gone() || c.deleting[n.ID()]:
		case booting(n):
			if g := c.groupOf(n.Group); g != nil {
				sims = append(sims, upcoming(g, n))
			}
		case n.Ready():
			sims = append(sims, n.Simulate())
		}
	}
	out := eqs[:0]
	c.pass.Read(len(sims))
	for _, e := range eqs {
		placed := c.pack(e.pods, sims, 0)
		if c.pass.Stopping() {
			return out
		}
		if placed < len(e.pods) {
			e.pods = e.pods[placed:]
			out = append(out, e)
		}
	}
	return out
}

// upcoming is a booting node as the estimator sees it: its group's
// template, with n's name and the pods already bound to it.
func upcoming(g *group, n *model.Node) *model.SimNode {
	spec := g.spec.Template
	spec.Name = n.Name
	s := model.SimulateNode(spec)
	for _, p := range n.Pods() {
		s.Add(p)
	}
	return s
}

// pack places pods of one equivalence group first-fit on nodes, from
// index from on, and returns how many it placed: once a pod does not fit
// a node, none of its equivalents does. It counts the nodes it reads.
func (c *Controller) pack(pods []*model.Pod, nodes []*model.SimNode, from int) int {
	h := from
	for i, p := range pods {
		for h < len(nodes) {
			c.pass.Read(1)
			if nodes[h].Admits(p) {
				break
			}
			h++
		}
		if h == len(nodes) {
			return i
		}
		nodes[h].Add(p)
	}
	return len(pods)
}

// estimate is the binpacking estimator (estimator/binpacking_estimator.go)
// on g's template: the equivalence groups whose pod fits it, packed onto
// as many new nodes as they need, up to the group's max, the cluster's
// and --max-nodes-per-scaleup. A group whose template a pod does not fit
// notes the scheduler's reasons. nil: no node would help.
func (c *Controller) estimate(g *group, eqs []*equiv, total int, note func(int, string)) *option {
	limit := min(g.spec.Max-g.size(), maxNodesPerScaleUp)
	if c.s.MaxNodesTotal > 0 {
		limit = min(limit, c.s.MaxNodesTotal-total)
	}
	tmpl := g.spec.Template
	tmpl.Name = g.spec.Name + "-template"
	var nodes []*model.SimNode
	o := &option{g: g, helped: make([]int, len(eqs))}
	for i, e := range eqs {
		if c.pass.Read(1); c.pass.Stopping() {
			return nil
		}
		if ok, why := model.SimulateNode(tmpl).Fits(e.sample()); !ok {
			for _, r := range strings.Split(why, ", ") {
				note(i, r)
			}
			continue
		}
		placed := c.pack(e.pods, nodes, 0)
		for placed < len(e.pods) && len(nodes) < limit && !c.pass.Stopping() {
			nodes = append(nodes, model.SimulateNode(tmpl))
			n := c.pack(e.pods[placed:], nodes, len(nodes)-1)
			if n == 0 {
				nodes = nodes[:len(nodes)-1]
				break
			}
			placed += n
		}
		if c.pass.Stopping() {
			return nil
		}
		o.helped[i] = placed
		o.pods += placed
		r := e.sample().Requests()
		o.req.MilliCPU += r.MilliCPU * int64(placed)
		o.req.Memory += r.Memory * int64(placed)
	}
	if len(nodes) == 0 {
		return nil
	}
	o.nodes = len(nodes)
	return o
}

// provision adds o's nodes to its group, booting (ProvisionNode), tells
// each pod it helps (TriggeredScaleUp), and checks maxNodeProvisionTime
// later.
func (c *Controller) provision(o *option, eqs []*equiv) {
	g := o.g
	before := g.size()
	var added []*model.Node
	for range o.nodes {
		spec := g.spec.Template
		spec.Name = fmt.Sprintf("%s-%d", g.spec.Name, g.next)
		boot := g.spec.BootTime
		if g.spec.BootDist != nil {
			boot = g.spec.BootDist.Sample(g.boot)
		}
		added = append(added, c.w.ProvisionNode(spec, boot))
	}
	msg := fmt.Sprintf("pod triggered scale-up: [{%s %d->%d (max: %d)}]", g.spec.Name, before, before+o.nodes, g.spec.Max)
	for i, e := range eqs {
		for _, p := range e.pods[:o.helped[i]] {
			p.Event(model.EventNormal, "TriggeredScaleUp", source, msg)
		}
	}
	c.w.Engine().At(sim.AddSat(c.w.Now(), c.s.MaxNodeProvisionTime), sim.Normal, func() { c.checkProvisioned(g, added) })
}

// checkProvisioned is the scale-up timeout (clusterstate): nodes of a
// scale-up still not Ready after maxNodeProvisionTime are deleted and the
// group backs off, exponentially (utils/backoff/exponential_backoff.go).
func (c *Controller) checkProvisioned(g *group, added []*model.Node) {
	failed := false
	for _, n := range added {
		if booting(n) {
			failed = true
			n.Delete()
		}
	}
	if !failed {
		return
	}
	now := c.w.Now()
	if g.lastFail == never || now-g.lastFail > c.s.NodeGroupBackoffReset || g.backoff == 0 {
		g.backoff = c.s.InitialNodeGroupBackoff
	} else {
		g.backoff = min(2*g.backoff, c.s.MaxNodeGroupBackoff)
	}
	g.lastFail = now
	g.backoffUntil = sim.AddSat(now, g.backoff)
}
