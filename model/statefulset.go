package model

import (
	"maps"
	"strconv"
)

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

// syncStatefulSet is the StatefulSet controller's updateStatefulSet
// (pkg/controller/statefulset/stateful_set_control.go): the pods of
// ordinals [0, replicas) are processed in order (processReplica), then the
// condemned pods of higher ordinals from the highest down
// (processCondemned). A pod is named <set>-<ordinal> for good: a
// replacement keeps its name and is created only once the old pod object
// is gone from the API. Under OrderedReady each step that changes
// something, or finds a pod not yet Running and Ready or being deleted,
// ends the sync; the next change to one of its pods starts another.
func (wl *Workload) syncStatefulSet() {
	monotonic := wl.Spec.PodManagement == OrderedReady
	n := wl.Spec.Replicas
	for ord := range n {
		p := wl.podAt(ord)
		switch {
		case p == nil:
			wl.createStatefulPod(ord)
			if monotonic {
				return
			}
			continue
		case p.phase.Terminal():
			// A finished pod is deleted; its replacement comes at the sync
			// after the old object is gone.
			if !p.deleting {
				wl.deleteStatefulPod(p)
			}
			if monotonic {
				return
			}
			continue
		}
		if monotonic && (p.deleting || !runningAndReady(p)) {
			return
		}
	}
	// Every pod in range is Running and Ready (under OrderedReady): the
	// condemned go, highest ordinal first. Under OrderedReady only the
	// lowest unhealthy one may go while unhealthy, and each must be gone
	// before the next is deleted.
	var firstUnhealthy *Pod
	for ord := n; ord < len(wl.ordinals); ord++ {
		if p := wl.podAt(ord); p != nil && unavailable(p) {
			firstUnhealthy = p
			break
		}
	}
	for ord := len(wl.ordinals) - 1; ord >= n; ord-- {
		p := wl.podAt(ord)
		switch {
		case p == nil:
			continue
		case p.deleting:
			if monotonic {
				return
			}
			continue
		case monotonic && !runningAndReady(p) && p != firstUnhealthy:
			return
		}
		wl.deleteStatefulPod(p)
		if monotonic {
			return
		}
	}
}

// podAt returns the pod object of ordinal ord, or nil if it has none in
// the API.
func (wl *Workload) podAt(ord int) *Pod {
	if ord >= len(wl.ordinals) {
		return nil
	}
	if p := wl.ordinals[ord]; p != nil && !p.deleted {
		return p
	}
	return nil
}

// runningAndReady is the StatefulSet controller's isRunningAndReady: phase
// Running and the Ready condition True.
func runningAndReady(p *Pod) bool { return p.phase == Running && p.ready() }

// unavailable is the StatefulSet controller's isUnavailable with
// minReadySeconds 0: not Running and Ready, or being deleted.
func unavailable(p *Pod) bool { return !runningAndReady(p) || p.deleting }

// createStatefulPod creates the pod of ordinal ord (CreateStatefulPod),
// with the template's labels and the controller's identity labels.
func (wl *Workload) createStatefulPod(ord int) {
	name := wl.Spec.Name + "-" + strconv.Itoa(ord)
	wl.w.event(KindStatefulSet, wl.key, EventNormal, "SuccessfulCreate", "statefulset-controller",
		"create Pod %s in StatefulSet %s successful", name, wl.Spec.Name)
	o := wl.Spec.Options
	o.Labels = maps.Clone(o.Labels)
	if o.Labels == nil {
		o.Labels = make(map[string]string, 2)
	}
	o.Labels[LabelStatefulSetPodName] = name
	o.Labels[LabelPodIndex] = strconv.Itoa(ord)
	p := wl.w.addPod(name, wl.Spec.Template, o, wl)
	wl.pods = append(wl.pods, p)
	for len(wl.ordinals) <= ord {
		wl.ordinals = append(wl.ordinals, nil)
	}
	wl.ordinals[ord] = p
}

// deleteStatefulPod deletes p through the API with its own grace period
// (DeleteStatefulPod).
func (wl *Workload) deleteStatefulPod(p *Pod) {
	wl.w.event(KindStatefulSet, wl.key, EventNormal, "SuccessfulDelete", "statefulset-controller",
		"delete Pod %s in StatefulSet %s successful", p.Name, wl.Spec.Name)
	p.Delete(nil)
}
