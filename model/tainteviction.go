package model

import (
	"time"

	"github.com/podsim/podsim/sim"
)

// taintEviction is the taint eviction controller
// (pkg/controller/tainteviction): it deletes the pods on a node with a
// NoExecute taint they do not tolerate, at once or after their
// toleration's tolerationSeconds.
type taintEviction struct{ w *World }

// PodBound plans p's eviction for the NoExecute taints of its new node.
func (c *taintEviction) PodBound(p *Pod) {
	n := p.Node
	for _, t := range n.Taints {
		if t.Effect == "NoExecute" {
			p.scheduleEviction(n, t)
		}
	}
}

// NodeTainted plans the evictions of the node's pods for a NoExecute taint.
func (c *taintEviction) NodeTainted(n *Node, t Taint) {
	if t.Effect == "NoExecute" {
		for _, p := range n.pods {
			p.scheduleEviction(n, t)
		}
	}
}

// NodeUntainted cancels the evictions planned on the node.
func (c *taintEviction) NodeUntainted(n *Node, _ string, _ bool) { n.cancelEvictions() }

// NodeDeleted cancels the evictions planned on the node.
func (c *taintEviction) NodeDeleted(n *Node) { n.cancelEvictions() }

// cancelEvictions is the taint eviction controller finding no NoExecute
// taint left on the node: it cancels the evictions it had planned there.
func (n *Node) cancelEvictions() {
	for _, p := range n.pods {
		if p.w.eng.Stop(&p.evictTimer) {
			p.event(EventNormal, "TaintManagerEviction", "taint-eviction-controller", "Cancelling deletion of Pod %s/%s", p.Namespace, p.Name)
		}
	}
}

// scheduleEviction arms the taint eviction controller for p: at once if it
// does not tolerate t, after its toleration's tolerationSeconds (the
// default tolerations give evictionTimeout), or never.
func (p *Pod) scheduleEviction(n *Node, t Taint) {
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
	if p.evictTimer.Pending() && p.evictTimer.When() <= at {
		return
	}
	p.w.eng.Schedule(&p.evictTimer, max(at, p.w.Now()), sim.Normal)
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
func (p *Pod) evict() {
	if p.deleting || p.deleted || p.Node == nil {
		return
	}
	p.setCondition(DisruptionTarget, True, "DeletionByTaintManager", "Taint manager: deleting due to NoExecute taint")
	p.event(EventNormal, "TaintManagerEviction", "taint-eviction-controller", "Marking for deletion Pod %s/%s", p.Namespace, p.Name)
	p.Delete(nil)
}
