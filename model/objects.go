package model

import "time"

// ObjectKind says what kind of object an ObjectChange is about.
type ObjectKind uint8

// The kinds of object.
const (
	ObjectPod ObjectKind = iota + 1
	ObjectNode
	ObjectWorkload
	ObjectBudget
	ObjectPriorityClass
	ObjectService
	ObjectAutoscaler
)

// ObjectOp says what happened to the object.
type ObjectOp uint8

// The operations.
const (
	ObjectAdded ObjectOp = iota + 1
	ObjectUpdated
	ObjectDeleted
)

// ObjectChange is an object of the world added, updated or deleted. The
// field of its Kind points at the object, whose state a sink reads from it
// during the call (an update does not say what moved). Updated announces
// what the timeline does not carry: a pod's nominated node and its
// containers' started and ready flags; a node's taints, power, network
// and disk; a workload's replicas, status and rollouts (a CronJob's
// active Jobs and last schedule and success); a budget's status. A
// Service is announced when added; its traffic and endpoints are read from
// it.
type ObjectChange struct {
	T        time.Duration
	Kind     ObjectKind
	Op       ObjectOp
	Pod      *Pod
	Node     *Node
	Workload *Workload
	Budget   *DisruptionBudget
	Class    *PriorityClass
	Service  *Service
	// Autoscaler is a HorizontalPodAutoscaler: added, and updated when
	// its controller writes a status that differs.
	Autoscaler *Autoscaler
}

// An ObjectSink hears every ObjectChange at the instant the object
// changes, interleaved with the changes of the timeline in the order they
// happened. Subscribe adds a Sink that also implements ObjectSink to both
// streams. The *ObjectChange is only valid during the call.
type ObjectSink interface {
	Object(o *ObjectChange)
}

// object stamps o with the current time and hands it to every object
// sink. With none subscribed it costs a length check (it is inlined);
// sinks get the world's own copy, so that o does not escape (and is not
// allocated).
func (w *World) object(o ObjectChange) {
	if o.Kind == ObjectNode {
		w.nodesChanged()
	}
	if len(w.objectSinks) > 0 {
		w.announce(&o)
	}
}

// NodeChanges counts the changes of the nodes other than of the pods they
// hold: an update of a Node object (its spec, taints, conditions), a node
// added or deleted, a node's disk or cordon, a bound pod's resize. A part
// that keeps what it read of the nodes (the scheduler's verdicts) keeps it
// while the count is the same.
func (w *World) NodeChanges() uint64 { return w.nodeEdits }

// nodesChanged counts a change of the nodes in NodeChanges.
func (w *World) nodesChanged() { w.nodeEdits++ }

func (w *World) announce(o *ObjectChange) {
	o.T = w.eng.Now()
	w.currentObject = *o
	for _, s := range w.objectSinks {
		s.Object(&w.currentObject)
	}
}

// PoweredOff reports whether the node's power is off (PowerOff).
func (n *Node) PoweredOff() bool { return n.down }

// Partitioned reports whether the node is cut off from the control plane
// (Partition).
func (n *Node) Partitioned() bool { return n.partitioned }

// ContainerFlags returns the started and ready flags of the pod's
// container called name (false for none).
func (p *Pod) ContainerFlags(name string) (started, ready bool) {
	for i := range p.statuses {
		if st := &p.statuses[i]; st.Name == name {
			return st.Started, st.Ready
		}
	}
	return false, false
}
