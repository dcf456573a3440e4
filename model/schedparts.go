package model

// What the core tells the scheduler beyond the notifications of parts.go,
// and what it reads back of it: a pod's requests changed (in-place
// resize), a node's taints were lifted by its kubelet, the node a pod is
// nominated to. Only the scheduler (model/scheduler) implements them;
// they go through Register as every notification does.

// PodRequestsChangedHandler hears that p's requests (Pod.Requests) were
// set anew by a resize: after p.requests changes and, for a pod that
// holds resources on its node, between PodReleased and PodHeld, so that
// PodHeld counts the new requests.
type PodRequestsChangedHandler interface{ PodRequestsChanged(p *Pod) }

// PodResizedHandler hears that the resize of p, bound and holding
// resources on its node, was applied (AssignedPodUpdate), after PodHeld.
type PodResizedHandler interface{ PodResized(p *Pod) }

// NodePressureLiftedHandler hears that the kubelet took its NoSchedule
// pressure taint off n (Node.RemovePressureTaint), after the taint is
// gone.
type NodePressureLiftedHandler interface{ NodePressureLifted(n *Node) }

// Nominator is what the core reads back of the scheduler: the node p is
// nominated to by preemption (status.nominatedNodeName), or nil.
// Registering the scheduler sets it.
type Nominator interface{ NominatedNode(p *Pod) *Node }

// NodeReader is what the core reads of the scheduler's work for a run's
// budget (World.Used): how many times it has read a node, for its filters
// and for preemption's victims. Registering the scheduler sets it.
type NodeReader interface{ NodeReads() uint64 }

// schedParts holds the handlers of the notifications above.
type schedParts struct {
	podRequestsChanged []PodRequestsChangedHandler
	podResized         []PodResizedHandler
	nodePressureLifted []NodePressureLiftedHandler
	nominator          Nominator
	nodeReader         NodeReader
}

// registerSchedParts sorts part into the lists of schedParts.
func (w *World) registerSchedParts(part any) {
	ps := &w.schedParts
	listen(&ps.podRequestsChanged, part)
	listen(&ps.podResized, part)
	listen(&ps.nodePressureLifted, part)
	set(&ps.nominator, part)
	set(&ps.nodeReader, part)
}

func (w *World) podRequestsChanged(p *Pod) {
	for _, h := range w.schedParts.podRequestsChanged {
		h.PodRequestsChanged(p)
	}
}

func (w *World) podResized(p *Pod) {
	for _, h := range w.schedParts.podResized {
		h.PodResized(p)
	}
}

func (w *World) nodePressureLifted(n *Node) {
	for _, h := range w.schedParts.nodePressureLifted {
		h.NodePressureLifted(n)
	}
}

// nodeReads is the scheduler's reads of nodes so far (0: no scheduler).
func (w *World) nodeReads() uint64 {
	if w.schedParts.nodeReader == nil {
		return 0
	}
	return w.schedParts.nodeReader.NodeReads()
}

// nominatedNode is the node p is nominated to, or nil (no scheduler).
func (w *World) nominatedNode(p *Pod) *Node {
	if w.schedParts.nominator == nil {
		return nil
	}
	return w.schedParts.nominator.NominatedNode(p)
}
