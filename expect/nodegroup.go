package expect

import (
	"fmt"

	"github.com/podsim/podsim/scenarios"
)

// nodeGroup counts a node group's nodes now (those the API holds, with
// Node.Group its name; a Karpenter NodePool's the same way) and those of
// them Ready.
func (k *checker) nodeGroup(e *scenarios.Expect) {
	nodes, ready := 0, 0
	for _, n := range k.w.Nodes() {
		if n.Gone() || n.Group != e.NodeGroup {
			continue
		}
		nodes++
		if n.Ready() {
			ready++
		}
	}
	why := func() string { return fmt.Sprintf("%d nodes, %d of them Ready", nodes, ready) }
	k.num("nodes", e.Nodes, int64(nodes), why)
	k.num("readyNodes", e.ReadyNodes, int64(ready), why)
}

// pendingPods counts the cluster's pods waiting for a node: in the API,
// not bound, not terminating, not finished.
func (k *checker) pendingPods(e *scenarios.Expect) {
	pending := 0
	for _, p := range k.w.Pods() {
		if p.Node == nil && !p.Deleted() && !p.Terminating() && !p.Phase().Terminal() {
			pending++
		}
	}
	k.num("pendingPods", e.PendingPods, int64(pending), nil)
}
