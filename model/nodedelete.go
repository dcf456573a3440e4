package model

import (
	"time"

	"github.com/podsim/podsim/sim"
)

// orphanQuarantine is how long PodGC waits after it first finds pods bound
// to a node it does not know before it deletes them (quarantineTime in
// pkg/controller/podgc/gc_controller.go).
const orphanQuarantine = 40 * time.Second

// Gone reports whether the node's Node object was deleted.
func (n *Node) Gone() bool { return n.gone }

// Delete deletes the Node object, as a cloud provider's node lifecycle
// controller does for a VM that no longer exists: the machine is gone with
// its containers (a power loss for good), the node leaves the cluster (the
// scheduler and DaemonSets no longer see it), and the taint eviction
// controller cancels what it had planned there. The pods bound to it stay in
// the API until PodGC finds them orphaned: after its quarantine it marks
// them Failed (DisruptionTarget, DeletionByPodGC) and force-deletes them.
// Node(name) still finds a deleted node; faults on it do nothing.
func (n *Node) Delete() {
	if n.gone {
		return
	}
	w := n.w
	n.PowerOff(nil)
	n.gone = true
	w.event("Node", n.Name, EventNormal, "DeletingNode", "cloud-node-lifecycle-controller",
		"Deleting node %s because it does not exist in the cloud provider", n.Name)
	for i, m := range w.nodes {
		if m == n {
			w.nodes = append(w.nodes[:i], w.nodes[i+1:]...)
			break
		}
	}
	w.nodeDeleted(n)
}

// gcTerminating is PodGC's pass over terminating pods on nodes that are not
// Ready and carry the out-of-service taint: each is marked Failed and
// force-deleted. It reports whether an out-of-service node still has pods
// (whose time may come: the node may not be Ready yet, the pods not yet
// evicted).
func (g *podGC) gcTerminating() bool {
	watch := false
	for _, n := range g.w.nodes {
		if !n.hasTaintKey(TaintOutOfService) {
			continue
		}
		if !n.Ready() {
			for _, p := range append([]*Pod(nil), n.pods...) {
				if p.deleting {
					p.markFailedAndForceDelete("", "")
				}
			}
		}
		watch = watch || len(n.pods) > 0
	}
	return watch
}

// gcOrphaned is PodGC's pass over pods bound to deleted nodes: a deleted
// node's pods are quarantined at the first pass that finds them, and
// deleted at the first pass at least orphanQuarantine later (marked Failed
// with DisruptionTarget DeletionByPodGC, then force-deleted). It reports
// whether some deleted node still has pods.
func (g *podGC) gcOrphaned() bool {
	now := g.w.Now()
	keep := g.orphanNodes[:0]
	for _, o := range g.orphanNodes {
		if len(o.n.pods) == 0 {
			continue
		}
		if !o.seen {
			o.seen, o.seenAt = true, now
		}
		if now >= sim.AddSat(o.seenAt, orphanQuarantine) {
			for _, p := range append([]*Pod(nil), o.n.pods...) {
				p.markFailedAndForceDelete("DeletionByPodGC", "PodGC: node no longer exists")
			}
			continue
		}
		keep = append(keep, o)
	}
	g.orphanNodes = keep
	return len(keep) > 0
}

// markFailedAndForceDelete is PodGC's markFailedAndDeletePodWithCondition:
// a pod not yet in a terminal phase is patched to Failed (with the
// DisruptionTarget condition of the given reason, if any), then deleted
// with a grace period of 0.
func (p *Pod) markFailedAndForceDelete(reason, msg string) {
	if p.deleted {
		return
	}
	if !p.phase.Terminal() {
		if reason != "" {
			p.setCondition(DisruptionTarget, True, reason, msg)
		}
		p.setPhase(Failed)
	}
	p.remove() // a delete with grace period 0 goes at once, terminating or not
}

// hasTaintKey reports whether the node has a taint with key, any effect.
func (n *Node) hasTaintKey(key string) bool {
	for _, t := range n.Taints {
		if t.Key == key {
			return true
		}
	}
	return false
}
