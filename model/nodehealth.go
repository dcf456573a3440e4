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

// Reachable reports whether the node's kubelet can talk to the control
// plane: powered on and not cut off.
func (n *Node) Reachable() bool { return !n.down && !n.partitioned }

// NodeLeaseRenewInterval is how often a kubelet renews its node Lease: a
// quarter of nodeLeaseDurationSeconds, 40s (pkg/kubelet/kubelet.go,
// nodeLeaseRenewIntervalFraction), whatever nodeStatusUpdateFrequency is.
const NodeLeaseRenewInterval = 10 * time.Second

// LastHeartbeat is the last heartbeat the kubelet got through before cut:
// a renewal of its Lease (every NodeLeaseRenewInterval) or a node status
// post (every NodeStatusUpdateFrequency when a scenario sets it, which
// also sets nodeStatusReportFrequency), each from when it (re)joined; the
// node controller takes either. A heartbeat due at the very instant of a
// cut-off is lost.
func (n *Node) LastHeartbeat(cut time.Duration) time.Duration {
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

// lostContact is the kubelet's heartbeats stopping now.
func (n *Node) lostContact() {
	n.silentAt = n.w.Now()
	n.w.nodeUnreachable(n)
}

// MarkNotReady is the kubelet reporting Ready=False with reason and msg
// (it is alive but cannot run containers).
func (n *Node) MarkNotReady(reason, msg string) { n.markNotReady(reason, msg) }

// markNotReady is MarkNotReady.
func (n *Node) markNotReady(reason, msg string) {
	n.setCondition(Ready, False, reason, msg)
	n.w.nodeReadyPosted(n)
}

// markReady is a heartbeat after an outage: Ready again.
func (n *Node) markReady() {
	n.w.nodeReachable(n)
	n.joinedAt = n.w.Now()
	if n.Ready() {
		return
	}
	n.setCondition(Ready, True, "KubeletReady", "kubelet is posting ready status")
	n.w.event("Node", n.Name, EventNormal, "NodeReady", "kubelet", "Node %s status is now: NodeReady", n.Name)
	n.w.nodeReadyPosted(n)
	n.w.nodeReady(n)
}

// SetCondition sets the node's condition of type t (a status write): its
// lastTransitionTime moves only when the status changes.
func (n *Node) SetCondition(t string, s ConditionStatus, reason, msg string) {
	n.setCondition(t, s, reason, msg)
}

// Event records a Kubernetes event about the node from source.
func (n *Node) Event(typ EventType, reason, source, msg string) {
	n.w.eventMsg("Node", n.Name, typ, reason, source, msg)
}

// Taint puts key on the node with the NoSchedule and NoExecute effects
// (those it lacks, TimeAdded now), then announces the NoExecute taint
// (NodeTainted): the taint eviction controller evicts the pods that do not
// tolerate it.
func (n *Node) Taint(key string) {
	now := n.w.Now()
	for _, effect := range []string{"NoSchedule", "NoExecute"} {
		if !n.hasTaint(key, effect) {
			n.Taints = append(n.Taints, Taint{Key: key, Effect: effect, TimeAdded: now})
			n.w.object(ObjectChange{Kind: ObjectNode, Op: ObjectUpdated, Node: n})
		}
	}
	n.w.nodeTainted(n, Taint{Key: key, Effect: "NoExecute", TimeAdded: now})
}

// Untaint removes the node's taints with key, every effect, then announces
// it (NodeUntainted), whether it had any or not.
func (n *Node) Untaint(key string) {
	keep := n.Taints[:0]
	for _, t := range n.Taints {
		if t.Key != key {
			keep = append(keep, t)
		}
	}
	had := len(keep) < len(n.Taints)
	n.Taints = keep
	if had {
		n.w.object(ObjectChange{Kind: ObjectNode, Op: ObjectUpdated, Node: n})
	}
	n.w.nodeUntainted(n, key, had)
}

func (n *Node) hasTaint(key, effect string) bool {
	for _, t := range n.Taints {
		if t.Key == key && t.Effect == effect {
			return true
		}
	}
	return false
}

// MarkNotReady sets the pod's Ready condition False, keeping its reason
// and message, if it is set and not False already (the node lifecycle
// controller's MarkPodsNotReady); it reports whether it did.
func (p *Pod) MarkNotReady() bool {
	c, ok := p.Condition(Ready)
	if !ok || c.Status == False {
		return false
	}
	p.setCondition(Ready, False, c.Reason, c.Message)
	return true
}
