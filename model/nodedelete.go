package model

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
	w.object(ObjectChange{Kind: ObjectNode, Op: ObjectDeleted, Node: n})
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

// MarkFailed patches the status of p, if it is in the API and not in a
// terminal phase, to phase Failed, with the condition DisruptionTarget
// (reason, msg) first unless reason is "", as a controller does before it
// force-deletes a pod (PodGC's markFailedAndDeletePodWithCondition). Its
// controller hears of it with the deletion.
func (p *Pod) MarkFailed(reason, msg string) {
	if p.deleted || p.terminal() {
		return
	}
	if reason != "" {
		p.SetDisruptionTarget(reason, msg)
	}
	p.setPhase(Failed)
}

// SetDisruptionTarget sets p's condition DisruptionTarget to True with
// reason and msg, as a controller does before it deletes the pod.
func (p *Pod) SetDisruptionTarget(reason, msg string) {
	p.setCondition(DisruptionTarget, True, reason, msg)
}

// ForceDelete deletes p from the API at once, terminating or not, as a
// delete with grace period 0 does: its node frees its resources and its
// controller hears of it; what still runs there is its kubelet's to kill,
// out of the API's sight.
func (p *Pod) ForceDelete() { p.remove() }
