package model

import (
	"time"

	"github.com/podsim/podsim/sim"
)

// Taints the node lifecycle controller puts on nodes that are not Ready.
const (
	TaintUnreachable = "node.kubernetes.io/unreachable"
	TaintNotReady    = "node.kubernetes.io/not-ready"
)

// nodeMonitorPeriod is how often the node lifecycle controller looks at
// the nodes' heartbeats.
const nodeMonitorPeriod = 5 * time.Second

// Reachable reports whether the node's kubelet can talk to the control
// plane: powered on and not cut off.
func (n *Node) Reachable() bool { return !n.down && !n.partitioned }

// NodeLeaseRenewInterval is how often a kubelet renews its node Lease: a
// quarter of nodeLeaseDurationSeconds, 40s (pkg/kubelet/kubelet.go,
// nodeLeaseRenewIntervalFraction), whatever nodeStatusUpdateFrequency is.
const NodeLeaseRenewInterval = 10 * time.Second

// lastHeartbeat is the last heartbeat the kubelet got through before cut:
// a renewal of its Lease (every NodeLeaseRenewInterval) or a node status
// post (every NodeStatusUpdateFrequency when a scenario sets it, which
// also sets nodeStatusReportFrequency), each from when it (re)joined; the
// node controller takes either. A heartbeat due at the very instant of a
// cut-off is lost.
func (n *Node) lastHeartbeat(cut time.Duration) time.Duration {
	last := func(every time.Duration) time.Duration {
		return sim.AddSat(n.joinedAt, sim.MulSat(every, int64((cut-n.joinedAt-1)/every)))
	}
	return max(last(NodeLeaseRenewInterval), last(n.w.settings.NodeStatusUpdateFrequency))
}

// Heartbeats tells when the kubelet's heartbeats come: from `since`, when
// it (re)joined; if silent (powered off or cut off), only before `until`.
func (n *Node) Heartbeats() (since, until time.Duration, silent bool) {
	return n.joinedAt, n.silentAt, !n.Reachable()
}

// lostContact starts the node controller's watch on a node whose
// heartbeats stopped at now: at the first monitor pass more than
// nodeMonitorGracePeriod after the last heartbeat, Ready becomes Unknown.
func (n *Node) lostContact() {
	now := n.w.Now()
	n.silentAt = now
	deadline := sim.AddSat(n.lastHeartbeat(now), n.w.settings.NodeMonitorGracePeriod)
	at := sim.AddSat(deadline/nodeMonitorPeriod*nodeMonitorPeriod, nodeMonitorPeriod) // the first pass strictly after
	n.w.eng.Schedule(&n.monitorTimer, max(at, now), sim.Normal)
}

// markUnknown is the node controller finding a silent node.
func (n *Node) markUnknown() {
	if n.Reachable() {
		return
	}
	n.setCondition(Ready, StatusUnknown, "NodeStatusUnknown", "Kubelet stopped posting node status.")
	n.w.event("Node", n.Name, EventNormal, "NodeNotReady", "node-controller", "Node %s status is now: NodeNotReady", n.Name)
	n.taint(TaintUnreachable)
	for _, p := range n.pods {
		if p.phase.Terminal() {
			continue
		}
		if c, ok := p.status.Condition(Ready); ok && c.Status != False {
			p.setCondition(Ready, False, c.Reason, c.Message)
			p.event(EventWarning, "NodeNotReady", "node-controller", "Node is not ready")
		}
	}
}

// markNotReady is the kubelet reporting Ready=False (it is alive but cannot
// run containers).
func (n *Node) markNotReady(reason, msg string) {
	n.setCondition(Ready, False, reason, msg)
	n.w.event("Node", n.Name, EventNormal, "NodeNotReady", "node-controller", "Node %s status is now: NodeNotReady", n.Name)
	n.taint(TaintNotReady)
}

// markReady is a heartbeat after an outage: Ready again, taints lifted.
func (n *Node) markReady() {
	n.w.eng.Stop(&n.monitorTimer)
	n.joinedAt = n.w.Now()
	if n.Ready() {
		return
	}
	n.setCondition(Ready, True, "KubeletReady", "kubelet is posting ready status")
	n.w.event("Node", n.Name, EventNormal, "NodeReady", "kubelet", "Node %s status is now: NodeReady", n.Name)
	n.untaint(TaintUnreachable)
	n.untaint(TaintNotReady)
	n.w.sched.kick()
	n.w.daemonSetsChanged()
}

// taint adds key with NoSchedule and NoExecute effects; the taint eviction
// controller then evicts the pods that do not tolerate it.
func (n *Node) taint(key string) {
	now := n.w.Now()
	for _, effect := range []string{"NoSchedule", "NoExecute"} {
		if !n.hasTaint(key, effect) {
			n.Taints = append(n.Taints, Taint{Key: key, Effect: effect, TimeAdded: now})
			n.w.object(ObjectChange{Kind: ObjectNode, Op: ObjectUpdated, Node: n})
		}
	}
	for _, p := range n.pods {
		p.scheduleEviction(n, Taint{Key: key, Effect: "NoExecute", TimeAdded: now})
	}
	n.w.daemonSetsChanged()
}

func (n *Node) untaint(key string) {
	keep := n.Taints[:0]
	for _, t := range n.Taints {
		if t.Key != key {
			keep = append(keep, t)
		}
	}
	if len(keep) < len(n.Taints) {
		n.w.sched.taintsRemoved()
		n.Taints = keep
		n.w.object(ObjectChange{Kind: ObjectNode, Op: ObjectUpdated, Node: n})
	}
	n.cancelEvictions()
}

// cancelEvictions is the taint eviction controller finding no NoExecute
// taint left on the node: it cancels the evictions it had planned there.
func (n *Node) cancelEvictions() {
	for _, p := range n.pods {
		if p.w.eng.Stop(&p.evictTimer) {
			p.event(EventNormal, "TaintManagerEviction", "taint-eviction-controller", "Cancelling deletion of Pod %s/%s", p.Namespace, p.Name)
		}
	}
}

func (n *Node) hasTaint(key, effect string) bool {
	for _, t := range n.Taints {
		if t.Key == key && t.Effect == effect {
			return true
		}
	}
	return false
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
