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
	st := wl.statefulState()
	st.grow(n)
	// processReplica for ordinals [0, n): only the ordinals that are not
	// Running and Ready (or have no pod) can stop the sync or need action.
	for ord := st.unhealthy.next(0); ord >= 0 && ord < n; ord = st.unhealthy.next(ord + 1) {
		if !monotonic {
			ord = st.actionable.next(ord)
			if ord < 0 || ord >= n {
				break
			}
		}
		p := wl.podAt(ord)
		switch {
		case p == nil:
			wl.createStatefulPod(ord)
		case p.phase.Terminal():
			// A finished pod is deleted; its replacement comes at the sync
			// after the old object is gone.
			if !p.deleting {
				wl.deleteStatefulPod(p)
			}
		}
		if monotonic {
			return // not Running and Ready, or being deleted
		}
	}
	// Every pod in range is Running and Ready (under OrderedReady): the
	// condemned go, highest ordinal first. Under OrderedReady only the
	// lowest unhealthy one may go while unhealthy, and each must be gone
	// before the next is deleted.
	var firstUnhealthy *Pod
	if ord := st.presentUnhealthy.next(n); ord >= 0 {
		firstUnhealthy = wl.podAt(ord)
	}
	if monotonic {
		ord := st.present.prev(len(wl.ordinals) - 1)
		if ord < n {
			return
		}
		p := wl.podAt(ord)
		if p.deleting || (!runningAndReady(p) && p != firstUnhealthy) {
			return
		}
		wl.deleteStatefulPod(p)
		return
	}
	for ord := st.live.prev(len(wl.ordinals) - 1); ord >= n; ord = st.live.prev(ord - 1) {
		wl.deleteStatefulPod(wl.podAt(ord))
	}
}

// statefulState is what the StatefulSet controller keeps of a set's
// ordinals, so that a sync looks only at the ordinals that may need it
// (a scan of every pod per sync is quadratic in the replicas): each set
// holds the ordinals whose pod (podAt) is as it says. Ordinals past the
// room made have no pod.
type statefulState struct {
	unhealthy        bitset // no pod, or not Running and Ready, or being deleted
	actionable       bitset // no pod, or finished and not being deleted
	present          bitset // a pod
	presentUnhealthy bitset // a pod, unhealthy
	live             bitset // a pod not being deleted
	room             int
}

// statefulState returns wl's, made on first use.
func (wl *Workload) statefulState() *statefulState {
	if wl.sts == nil {
		wl.sts = &statefulState{}
	}
	return wl.sts
}

// grow makes room for ordinals below n: new ones have no pod.
func (st *statefulState) grow(n int) {
	if n <= st.room {
		return
	}
	for _, b := range []*bitset{&st.unhealthy, &st.actionable, &st.present, &st.presentUnhealthy, &st.live} {
		b.grow(n)
	}
	for ord := st.room; ord < n; ord++ {
		st.unhealthy.setTo(ord, true)
		st.actionable.setTo(ord, true)
	}
	st.room = n
}

// track files ordinal ord by its pod now.
func (wl *Workload) track(ord int) {
	st := wl.statefulState()
	st.grow(ord + 1)
	p := wl.podAt(ord)
	has := p != nil
	bad := !has || unavailable(p)
	st.unhealthy.setTo(ord, bad)
	st.actionable.setTo(ord, !has || (p.phase.Terminal() && !p.deleting))
	st.present.setTo(ord, has)
	st.presentUnhealthy.setTo(ord, has && bad)
	st.live.setTo(ord, has && !p.deleting)
}

// PodChanged files the ordinal of a StatefulSet's pod anew.
func (statefulSetController) PodChanged(p *Pod) { trackStateful(p) }

// PodConditionAdded files it anew when it gets its Ready condition (a
// later change of it comes as PodChanged).
func (statefulSetController) PodConditionAdded(p *Pod, t string) {
	if t == Ready {
		trackStateful(p)
	}
}

// trackStateful files the ordinal of p, if a StatefulSet's pod, anew.
func trackStateful(p *Pod) {
	wl := p.owner
	if wl == nil || wl.Spec.Kind != KindStatefulSet {
		return
	}
	if ord, err := strconv.Atoi(p.Name[len(wl.Spec.Name)+1:]); err == nil && ord < len(wl.ordinals) {
		wl.track(ord)
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
	wl.track(ord)
}

// deleteStatefulPod deletes p through the API with its own grace period
// (DeleteStatefulPod).
func (wl *Workload) deleteStatefulPod(p *Pod) {
	wl.w.event(KindStatefulSet, wl.key, EventNormal, "SuccessfulDelete", "statefulset-controller",
		"delete Pod %s in StatefulSet %s successful", p.Name, wl.Spec.Name)
	p.Delete(nil)
}
