package model

import (
	"time"

	"github.com/podsim/podsim/sim"
)

// taintEviction is the taint eviction controller
// (pkg/controller/tainteviction): it deletes the pods on a node with a
// NoExecute taint they do not tolerate, at once or after their
// toleration's tolerationSeconds.
type taintEviction struct {
	w      *World
	timers []*sim.Timer // by Pod.id: its eviction's deadline; nil until one is planned
}

// PodBound plans p's eviction for the NoExecute taints of its new node.
func (c *taintEviction) PodBound(p *Pod) {
	n := p.Node
	for _, t := range n.Taints {
		if t.Effect == "NoExecute" {
			c.schedule(p, t)
		}
	}
}

// NodeTainted plans the evictions of the node's pods for a NoExecute taint.
func (c *taintEviction) NodeTainted(n *Node, t Taint) {
	if t.Effect == "NoExecute" {
		for _, p := range n.pods {
			c.schedule(p, t)
		}
	}
}

// NodeUntainted cancels the evictions planned on the node.
func (c *taintEviction) NodeUntainted(n *Node, _ string, _ bool) { c.cancel(n) }

// NodeDeleted cancels the evictions planned on the node.
func (c *taintEviction) NodeDeleted(n *Node) { c.cancel(n) }

// cancel is the taint eviction controller finding no NoExecute taint left
// on the node: it cancels the evictions it had planned there.
func (c *taintEviction) cancel(n *Node) {
	for _, p := range n.pods {
		if p.id < len(c.timers) && c.timers[p.id] != nil && c.w.eng.Stop(c.timers[p.id]) {
			p.event(EventNormal, "TaintManagerEviction", "taint-eviction-controller", "Cancelling deletion of Pod %s/%s", p.Namespace, p.Name)
		}
	}
}

// schedule plans p's eviction for its node's taint t: at once if it does
// not tolerate t, after its toleration's tolerationSeconds (the default
// tolerations give evictionTimeout), or never.
func (c *taintEviction) schedule(p *Pod, t Taint) {
	if p.phase.Terminal() || p.deleting {
		return
	}
	wait, ok := p.tolerationFor(t)
	if !ok {
		wait = 0
	} else if wait < 0 {
		return // tolerated forever
	}
	at := sim.AddSat(t.TimeAdded, wait)
	if p.id >= len(c.timers) {
		c.timers = append(c.timers, make([]*sim.Timer, p.id+1-len(c.timers))...)
	}
	timer := c.timers[p.id]
	if timer == nil {
		timer = sim.NewTimer(func() { evict(p) })
		c.timers[p.id] = timer
	}
	if timer.Pending() && timer.When() <= at {
		return
	}
	c.w.eng.Schedule(timer, max(at, c.w.Now()), sim.Normal)
}

// tolerationFor returns how long p tolerates the NoExecute taint t: -1 for
// ever, ok=false if not at all. Pods carry the default tolerations for the
// not-ready and unreachable taints (DefaultTolerationSeconds admission)
// unless they declare their own.
func (p *Pod) tolerationFor(t Taint) (time.Duration, bool) {
	for _, tol := range p.tolerations {
		if !tol.matches(t) {
			continue
		}
		if tol.Seconds == nil {
			return -1, true
		}
		return sim.Seconds(*tol.Seconds), true
	}
	if t.Key == TaintNotReady || t.Key == TaintUnreachable {
		return p.w.settings.EvictionTimeout, true
	}
	return 0, false
}

func (tol *Toleration) matches(t Taint) bool {
	if tol.Effect != "" && tol.Effect != t.Effect {
		return false
	}
	if tol.Operator == "Exists" {
		return tol.Key == "" || tol.Key == t.Key
	}
	return tol.Key == t.Key && tol.Value == t.Value
}

// evict is the taint eviction controller deleting p
// (pkg/controller/tainteviction, addConditionAndDeletePod): the condition
// DisruptionTarget, then an API delete with the pod's own grace period. On
// an unreachable node the kubelet cannot finish that deletion: the pod stays
// in its phase with a deletion timestamp (Terminating) until the node comes
// back or its Node object is deleted (PodGC), and its controller replaces it
// at once.
func evict(p *Pod) {
	if p.deleting || p.deleted || p.Node == nil {
		return
	}
	p.setCondition(DisruptionTarget, True, "DeletionByTaintManager", "Taint manager: deleting due to NoExecute taint")
	p.event(EventNormal, "TaintManagerEviction", "taint-eviction-controller", "Marking for deletion Pod %s/%s", p.Namespace, p.Name)
	p.Delete(nil)
}
