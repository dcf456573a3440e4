package model

// Taints podsim's control plane and its users put on nodes.
const (
	// TaintUnschedulable is kept on a cordoned node by the node lifecycle
	// controller (doNoScheduleTaintingPass, from spec.unschedulable).
	TaintUnschedulable = "node.kubernetes.io/unschedulable"
	// TaintOutOfService marks a node that is shut down for good
	// (non-graceful node shutdown): PodGC force-deletes its terminating
	// pods once the node is not Ready.
	TaintOutOfService = "node.kubernetes.io/out-of-service"
)

// Unschedulable reports the node's spec.unschedulable (cordoned).
func (n *Node) Unschedulable() bool { return n.unschedulable }

// Cordon sets spec.unschedulable, as `kubectl cordon` does; it reports
// whether the node was schedulable before. The scheduler's NodeUnschedulable
// filter keeps new pods off it (unless they tolerate the unschedulable
// taint), the node lifecycle controller adds the taint
// node.kubernetes.io/unschedulable:NoSchedule, and the kubelet reports the
// change (event NodeNotSchedulable) at its next node status update. Pods
// already on the node keep running.
func (n *Node) Cordon() bool {
	if n.gone || n.unschedulable {
		return false
	}
	n.unschedulable = true
	n.w.nodesChanged()
	if !n.hasTaint(TaintUnschedulable, "NoSchedule") {
		n.Taints = append(n.Taints, Taint{Key: TaintUnschedulable, Effect: "NoSchedule", TimeAdded: n.w.Now()})
		n.w.object(ObjectChange{Kind: ObjectNode, Op: ObjectUpdated, Node: n})
	}
	n.w.kubelet.UnschedulableSet(n)
	return true
}

// Uncordon clears spec.unschedulable (`kubectl uncordon`); it reports
// whether the node was cordoned. The unschedulable taint goes, and the pods
// the cordon kept off are tried again.
func (n *Node) Uncordon() bool {
	if n.gone || !n.unschedulable {
		return false
	}
	n.unschedulable = false
	n.w.nodesChanged()
	n.removeTaint(TaintUnschedulable, "NoSchedule")
	n.w.nodeUncordoned(n)
	n.w.kubelet.UnschedulableSet(n)
	return true
}

// AddTaint puts t on the node now, as `kubectl taint` does (a taint with
// the same key and effect is left as it is). A NoExecute taint makes the
// taint eviction controller evict the pods that do not tolerate it; the
// out-of-service taint also sets PodGC on the node's terminating pods.
func (n *Node) AddTaint(t Taint) {
	if n.gone || n.hasTaint(t.Key, t.Effect) {
		return
	}
	t.TimeAdded = n.w.Now()
	n.Taints = append(n.Taints, t)
	n.w.object(ObjectChange{Kind: ObjectNode, Op: ObjectUpdated, Node: n})
	n.w.nodeTainted(n, t)
}

// removeTaint takes the taint with key and effect off the node; it does
// not touch evictions (it is only used for NoSchedule taints).
func (n *Node) removeTaint(key, effect string) {
	keep := n.Taints[:0]
	for _, t := range n.Taints {
		if t.Key != key || t.Effect != effect {
			keep = append(keep, t)
		}
	}
	if len(keep) < len(n.Taints) {
		n.Taints = keep
		n.w.object(ObjectChange{Kind: ObjectNode, Op: ObjectUpdated, Node: n})
	}
}
