package model

import (
	"time"

	"github.com/podsim/podsim/sim"
)

// PowerOff cuts a node's power now, for d (nil: for good). Its containers
// die with it, but nobody hears of it: the API keeps showing the pods as
// they were until the node controller notices the silence. When the power
// comes back the kubelet finds every container gone (Terminated, reason
// Unknown, exit 255), finishes the deletions it missed and restarts the rest
// as their restart policies say.
func (n *Node) PowerOff(d *time.Duration) {
	if n.down || n.gone {
		return
	}
	wasReachable := n.Reachable()
	n.down, n.downAt = true, n.w.Now()
	n.w.object(ObjectChange{Kind: ObjectNode, Op: ObjectUpdated, Node: n})
	n.w.kubelet.NodePoweredOff(n)
	if wasReachable {
		n.lostContact()
	}
	if d != nil {
		n.w.eng.At(sim.AddSat(n.w.Now(), *d), sim.Normal, n.powerOn)
	}
}

func (n *Node) powerOn() {
	if !n.down || n.gone {
		return
	}
	n.down = false
	n.w.object(ObjectChange{Kind: ObjectNode, Op: ObjectUpdated, Node: n})
	n.w.kubelet.NodePoweredOn(n, n.downAt)
	if n.Reachable() {
		n.markReady()
		n.w.kubelet.Reconnected(n)
	}
}

// Partition cuts a node off from the control plane now, for d (nil: for
// good). Its kubelet keeps running its containers; nothing it reports gets
// through, and API changes (deletions) do not reach it until it heals.
func (n *Node) Partition(d *time.Duration) {
	if n.partitioned || n.gone {
		return
	}
	wasReachable := n.Reachable()
	n.partitioned = true
	n.w.object(ObjectChange{Kind: ObjectNode, Op: ObjectUpdated, Node: n})
	if wasReachable {
		n.lostContact()
	}
	if d != nil {
		n.w.eng.At(sim.AddSat(n.w.Now(), *d), sim.Normal, n.heal)
	}
}

func (n *Node) heal() {
	if !n.partitioned || n.gone {
		return
	}
	n.partitioned = false
	n.w.object(ObjectChange{Kind: ObjectNode, Op: ObjectUpdated, Node: n})
	if n.Reachable() {
		n.markReady()
		n.w.kubelet.Reconnected(n)
	}
}

// DiskFailure kills the node's disk now: every container on it dies, its
// pods fail, the kubelet reports the node NotReady and it takes no new pods.
func (n *Node) DiskFailure() {
	if n.diskFailed || n.gone {
		return
	}
	n.diskFailed = true
	n.w.nodesChanged()
	n.w.object(ObjectChange{Kind: ObjectNode, Op: ObjectUpdated, Node: n})
	n.setCondition("ReadonlyFilesystem", True, "FilesystemIsReadOnly", "Filesystem is read-only")
	n.w.event("Node", n.Name, EventWarning, "FilesystemIsReadOnly", "kernel-monitor", "Remounting filesystem read-only")
	n.w.kubelet.DiskFailed(n)
	if n.Reachable() {
		n.markNotReady("KubeletNotReady", "container runtime is down: disk failure")
	}
	n.w.nodeDiskFailed(n)
}
