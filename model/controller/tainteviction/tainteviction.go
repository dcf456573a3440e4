// Package tainteviction is the taint eviction controller
// (pkg/controller/tainteviction): it deletes the pods on a node with a
// NoExecute taint they do not tolerate, at once or after their
// toleration's tolerationSeconds, and cancels what it planned when the
// node loses its taints or goes.
package tainteviction

import (
	"fmt"
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/sim"
)

// Controller is the taint eviction controller; register it with
// World.Register.
type Controller struct {
	w      *model.World
	timers []*sim.Timer // by Pod.ID: its eviction's deadline; nil until one is planned
}

// New returns the taint eviction controller of w.
func New(w *model.World) *Controller { return &Controller{w: w} }

// PodBound plans p's eviction for the NoExecute taints of its new node.
func (c *Controller) PodBound(p *model.Pod) {
	for _, t := range p.Node.Taints {
		if t.Effect == "NoExecute" {
			c.schedule(p, t)
		}
	}
}

// NodeTainted plans the evictions of the node's pods for a NoExecute taint.
func (c *Controller) NodeTainted(n *model.Node, t model.Taint) {
	if t.Effect == "NoExecute" {
		for _, p := range n.Pods() {
			c.schedule(p, t)
		}
	}
}

// NodeUntainted cancels the evictions planned on the node.
func (c *Controller) NodeUntainted(n *model.Node, _ string, _ bool) { c.cancel(n) }

// NodeDeleted cancels the evictions planned on the node.
func (c *Controller) NodeDeleted(n *model.Node) { c.cancel(n) }

// cancel is the controller finding no NoExecute taint left on the node: it
// cancels the evictions it had planned there.
func (c *Controller) cancel(n *model.Node) {
	for _, p := range n.Pods() {
		if id := p.ID(); id < len(c.timers) && c.timers[id] != nil && c.w.Engine().Stop(c.timers[id]) {
			p.Event(model.EventNormal, "TaintManagerEviction", "taint-eviction-controller",
				fmt.Sprintf("Cancelling deletion of Pod %s/%s", p.Namespace, p.Name))
		}
	}
}

// schedule plans p's eviction for its node's taint t: at once if it does
// not tolerate t, after its toleration's tolerationSeconds (the default
// tolerations give evictionTimeout), or never.
func (c *Controller) schedule(p *model.Pod, t model.Taint) {
	if p.Phase().Terminal() || p.Terminating() {
		return
	}
	wait, ok := c.tolerationFor(p, t)
	if !ok {
		wait = 0
	} else if wait < 0 {
		return // tolerated forever
	}
	at := sim.AddSat(t.TimeAdded, wait)
	id := p.ID()
	if id >= len(c.timers) {
		c.timers = model.Extend(c.timers, id+1)
	}
	timer := c.timers[id]
	if timer == nil {
		timer = sim.NewTimer(func() { evict(p) })
		c.timers[id] = timer
	}
	if timer.Pending() && timer.When() <= at {
		return
	}
	c.w.Engine().Schedule(timer, max(at, c.w.Now()), sim.Normal)
}

// tolerationFor returns how long p tolerates the NoExecute taint t: -1 for
// ever, ok=false if not at all. Pods carry the default tolerations for the
// not-ready and unreachable taints (DefaultTolerationSeconds admission)
// unless they declare their own.
func (c *Controller) tolerationFor(p *model.Pod, t model.Taint) (time.Duration, bool) {
	for _, tol := range p.Tolerations() {
		if !tol.Matches(t) {
			continue
		}
		if tol.Seconds == nil {
			return -1, true
		}
		return sim.Seconds(*tol.Seconds), true
	}
	if t.Key == model.TaintNotReady || t.Key == model.TaintUnreachable {
		return c.w.Settings().EvictionTimeout, true
	}
	return 0, false
}

// evict deletes p (addConditionAndDeletePod): the condition
// DisruptionTarget, then an API delete with the pod's own grace period. On
// an unreachable node the kubelet cannot finish that deletion: the pod stays
// in its phase with a deletion timestamp (Terminating) until the node comes
// back or its Node object is deleted (PodGC), and its controller replaces it
// at once.
func evict(p *model.Pod) {
	if p.Terminating() || p.Deleted() || p.Node == nil {
		return
	}
	p.SetDisruptionTarget("DeletionByTaintManager", "Taint manager: deleting due to NoExecute taint")
	p.Event(model.EventNormal, "TaintManagerEviction", "taint-eviction-controller",
		fmt.Sprintf("Marking for deletion Pod %s/%s", p.Namespace, p.Name))
	p.Delete(nil)
}
