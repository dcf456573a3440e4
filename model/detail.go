package model

import "time"

// DetailKind says what a Detail is about.
type DetailKind uint8

// The kinds of detail.
const (
	DetailContainerFlags DetailKind = iota + 1 // a container's started and ready flags flipped: Pod, Container, Started, Ready
	DetailPower                                // a node's power went off (On) or came back: Node, On
	DetailPartition                            // a node was cut off from the control plane (On) or healed: Node, On
	DetailDiskFailure                          // a node's disk failed (On, for good): Node
	DetailTaint                                // a taint was put on a node (On) or lifted: Node, Key, Effect
	DetailReplicas                             // a ReplicaSet's or Deployment's replicas, status or rollouts changed: Workload, Replicas
)

// Detail is something the timeline does not carry: the ground truth of a
// node's machine and network (which the API sees only later, through the
// node controller, if at all), a node's taints, a container's started
// and ready flags (the timeline shows them only through the pod's
// ContainersReady and Ready conditions), and when a controller's counts of
// its pods changed (a pod becomes available minReadySeconds after it is
// Ready, with no change of its own). Views that draw a run in full (a
// picture of it) want them; the timeline stays as it is.
type Detail struct {
	T         time.Duration
	Kind      DetailKind
	Node      string
	Pod       string // the pod's key (see Key)
	Container string
	Workload  string // the workload's key (see Key)
	Key       string // taint key
	Effect    string // taint effect
	On        bool   // the fault began, the taint was added
	Started   bool
	Ready     bool
	Replicas  ReplicaDetail
}

// A DetailSink hears every Detail, in time order, interleaved with the
// changes at the same instant in the order they happened. Subscribe adds a
// Sink that also implements DetailSink to both streams. The *Detail is only
// valid during the call.
type DetailSink interface {
	Detail(d *Detail)
}

// detail stamps d with the current time and hands it to every detail sink.
// With none subscribed (every run but a picture's or a study's) it costs a
// length check. Sinks get the world's own copy, so that d does not escape
// (and is not allocated).
func (w *World) detail(d Detail) {
	if d.Node != "" && len(w.objectSinks) > 0 {
		w.object(ObjectChange{Kind: ObjectNode, Op: ObjectUpdated, Node: w.nodeIdx[d.Node]})
	}
	if len(w.detailSinks) == 0 {
		return
	}
	d.T = w.eng.Now()
	w.currentDetail = d
	for _, s := range w.detailSinks {
		s.Detail(&w.currentDetail)
	}
}
