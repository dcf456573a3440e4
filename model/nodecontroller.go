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

// nodeLifecycle is the node lifecycle controller
// (pkg/controller/nodelifecycle) watching the nodes' heartbeats.
type nodeLifecycle struct {
	w        *World
	monitors []*sim.Timer // by Node.id: its next look at a silent node; nil until it fell silent
}

// NodeUnreachable starts the watch on a node whose heartbeats stopped at
// now: at the first monitor pass more than nodeMonitorGracePeriod after
// the last heartbeat, Ready becomes Unknown.
func (c *nodeLifecycle) NodeUnreachable(n *Node) {
	now := c.w.Now()
	deadline := sim.AddSat(n.lastHeartbeat(now), c.w.settings.NodeMonitorGracePeriod)
	at := sim.AddSat(deadline/nodeMonitorPeriod*nodeMonitorPeriod, nodeMonitorPeriod) // the first pass strictly after
	if n.id >= len(c.monitors) {
		c.monitors = append(c.monitors, make([]*sim.Timer, n.id+1-len(c.monitors))...)
	}
	if c.monitors[n.id] == nil {
		c.monitors[n.id] = sim.NewTimer(n.markUnknown)
	}
	c.w.eng.Schedule(c.monitors[n.id], max(at, now), sim.Normal)
}

// NodeReachable ends the watch.
func (c *nodeLifecycle) NodeReachable(n *Node) { c.stop(n) }

// NodeDeleted ends the watch; the controller notices at its next pass.
func (c *nodeLifecycle) NodeDeleted(n *Node) {
	c.stop(n)
	w := c.w
	next := sim.AddSat(w.Now()/nodeMonitorPeriod*nodeMonitorPeriod, nodeMonitorPeriod)
	w.eng.At(next, sim.Normal, func() {
		w.event("Node", n.Name, EventNormal, "RemovingNode", "node-controller", "Node %s event: Removing Node %s from Controller", n.Name, n.Name)
	})
}

func (c *nodeLifecycle) stop(n *Node) {
	if n.id < len(c.monitors) && c.monitors[n.id] != nil {
		c.w.eng.Stop(c.monitors[n.id])
	}
}

// lostContact is the kubelet's heartbeats stopping now.
func (n *Node) lostContact() {
	n.silentAt = n.w.Now()
	n.w.nodeUnreachable(n)
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
	n.w.nodeReachable(n)
	n.joinedAt = n.w.Now()
	if n.Ready() {
		return
	}
	n.setCondition(Ready, True, "KubeletReady", "kubelet is posting ready status")
	n.w.event("Node", n.Name, EventNormal, "NodeReady", "kubelet", "Node %s status is now: NodeReady", n.Name)
	n.untaint(TaintUnreachable)
	n.untaint(TaintNotReady)
	n.w.nodeReady(n)
}

// taint adds key with NoSchedule and NoExecute effects; the taint eviction
// controller then evicts the pods that do not tolerate it.
func (n *Node) taint(key string) {
	now := n.w.Now()
	for _, effect := range []string{"NoSchedule", "NoExecute"} {
		if !n.hasTaint(key, effect) {
			n.Taints = append(n.Taints, Taint{Key: key, Effect: effect, TimeAdded: now})
			n.w.detail(Detail{Kind: DetailTaint, Node: n.Name, Key: key, Effect: effect, On: true})
		}
	}
	n.w.nodeTainted(n, Taint{Key: key, Effect: "NoExecute", TimeAdded: now})
}

func (n *Node) untaint(key string) {
	keep := n.Taints[:0]
	for _, t := range n.Taints {
		if t.Key != key {
			keep = append(keep, t)
		} else {
			n.w.detail(Detail{Kind: DetailTaint, Node: n.Name, Key: t.Key, Effect: t.Effect})
		}
	}
	had := len(keep) < len(n.Taints)
	n.Taints = keep
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
