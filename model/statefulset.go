package model

// A StatefulSet's kind, labels and policy; its controller is
// model/controller/statefulset.

// KindStatefulSet is the kind of an apps/v1 StatefulSet.
const KindStatefulSet = "StatefulSet"

// Labels the StatefulSet controller puts on each of its pods (initIdentity
// in pkg/controller/statefulset/stateful_set_utils.go).
const (
	LabelStatefulSetPodName = "statefulset.kubernetes.io/pod-name"
	LabelPodIndex           = "apps.kubernetes.io/pod-index"
)

// PodManagementPolicy is a StatefulSet's spec.podManagementPolicy.
type PodManagementPolicy uint8

// Pod management policies. OrderedReady, the default, creates pods one at a
// time in ordinal order, each once its predecessors are Running and Ready,
// and deletes them one at a time from the highest ordinal; Parallel
// creates and deletes them all at once.
const (
	OrderedReady PodManagementPolicy = iota
	Parallel
)

func (p PodManagementPolicy) String() string {
	if p == Parallel {
		return "Parallel"
	}
	return "OrderedReady"
}
