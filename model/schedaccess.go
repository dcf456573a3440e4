package model

import "strings"

// What the scheduler (model/scheduler) reads and asks of the core beyond
// what every part uses. Each is a field read or a call the core makes
// itself, kept small enough to inline: the scheduler calls most of them
// once per node it filters or scores.

// PreemptNever reports whether the pod's spec.preemptionPolicy, as
// admission computed it, is Never.
func (p *Pod) PreemptNever() bool { return p.preemptNever }

// SchedulingGates are the pod's spec.schedulingGates: the scheduler
// leaves a pod that has any unscheduled.
func (p *Pod) SchedulingGates() []string { return p.options().schedulingGates }

// Tolerates reports whether one of the pod's tolerations matches t.
func (p *Pod) Tolerates(t Taint) bool { return p.tolerates(t) }

// BoundNode returns the node whose pods include p (Pod.Node until p
// leaves the API), or nil.
func (p *Pod) BoundNode() *Node { return p.boundNode() }

// Bind binds p, which is not bound, to n, as the scheduler's binding
// does: p joins n's pods (and holds its requests there, PodHeld, unless
// it is in a terminal phase), its PodScheduled condition turns True,
// parts hear PodBound, and its kubelet is asked to sync.
func (p *Pod) Bind(n *Node) { p.bind(n) }

// SetPodScheduled sets the pod's PodScheduled condition (the scheduler's:
// False with reason Unschedulable or SchedulingGated and its message);
// lastTransitionTime moves only when the status changes.
func (p *Pod) SetPodScheduled(s ConditionStatus, reason, msg string) {
	p.setCondition(PodScheduled, s, reason, msg)
}

// RequestsWith is PodSpec.Requests with each container's request passed
// through per first (as the scheduler counts a container that asks for
// none).
func (s *PodSpec) RequestsWith(per func(Resources) Resources) Resources { return s.requests(per) }

// PodUpdated hands the object sinks an update of p that only a part
// knows of (the scheduler's status.nominatedNodeName).
func (w *World) PodUpdated(p *Pod) {
	w.object(ObjectChange{Kind: ObjectPod, Op: ObjectUpdated, Pod: p})
}

// AnnouncePodUnschedulable tells the parts that the scheduler found no
// node for p and parked it (PodUnschedulableHandler), after its
// PodScheduled condition says why.
func (w *World) AnnouncePodUnschedulable(p *Pod) { w.podUnschedulable(p) }

// NodesAdded is how many nodes were ever added (Node.ID of the next
// one): it equals len(Nodes()) while no node was deleted.
func (w *World) NodesAdded() int { return w.nodesAdded }

// And returns a selector that requires what s and o both require (nil if
// either is nil).
func (s *LabelSelector) And(o *LabelSelector) *LabelSelector { return s.and(o) }

// WriteKey appends a canonical form of the selector to b: two selectors
// with the same form select the same objects.
func (s *LabelSelector) WriteKey(b *strings.Builder) { s.writeKey(b) }

// Matches reports whether node n satisfies the term
// (k8s.io/component-helpers/scheduling/corev1/nodeaffinity).
func (t *NodeSelectorTerm) Matches(n *Node) bool { return t.matches(n) }

// NamespaceLabels are the labels of the namespace called ns (podsim's
// carry only kubernetes.io/metadata.name): what a namespaceSelector reads.
func NamespaceLabels(ns string) map[string]string { return namespaceLabels(ns) }
