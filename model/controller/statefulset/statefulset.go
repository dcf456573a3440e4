// Package statefulset is the StatefulSet controller
// (pkg/controller/statefulset): it keeps one pod per ordinal, named
// <set>-<ordinal> for good, created in ordinal order and deleted from the
// highest ordinal under OrderedReady, all at once under Parallel.
package statefulset

import (
	"maps"
	"strconv"
	"strings"

	"github.com/podsim/podsim/model"
)

// Controller is the StatefulSet controller; register it with
// World.RegisterWorkloadController for model.KindStatefulSet. It hears of
// its sets' pods as a part; its state of a set is by Workload.ID.
type Controller struct {
	w    *model.World
	sets []*set // by Workload.ID; nil: not a StatefulSet, or not yet seen
}

// New returns the StatefulSet controller of w.
func New(w *model.World) *Controller { return &Controller{w: w} }

// set is what the controller keeps of a StatefulSet: the latest pod of
// each ordinal, and its ordinals by state, so that a sync looks only at
// the ordinals that may need it (a scan of every pod per sync is quadratic
// in the replicas): each bitset holds the ordinals whose pod (podAt) is as
// it says. Ordinals past the room made have no pod.
type set struct {
	wl               *model.Workload
	ordinals         []*model.Pod // the latest pod of each ordinal
	unhealthy        bitset       // no pod, or not Running and Ready, or being deleted
	actionable       bitset       // no pod, or finished and not being deleted
	present          bitset       // a pod
	presentUnhealthy bitset       // a pod, unhealthy
	live             bitset       // a pod not being deleted
	room             int
}

// of returns wl's state, made on first use.
func (c *Controller) of(wl *model.Workload) *set {
	id := wl.ID()
	for id >= len(c.sets) {
		c.sets = append(c.sets, nil)
	}
	if c.sets[id] == nil {
		c.sets[id] = &set{wl: wl}
	}
	return c.sets[id]
}

// Sync is the StatefulSet controller's updateStatefulSet
// (pkg/controller/statefulset/stateful_set_control.go): the pods of
// ordinals [0, replicas) are processed in order (processReplica), then the
// condemned pods of higher ordinals from the highest down
// (processCondemned). A pod is named <set>-<ordinal> for good: a
// replacement keeps its name and is created only once the old pod object
// is gone from the API. Under OrderedReady each step that changes
// something, or finds a pod not yet Running and Ready or being deleted,
// ends the sync; the next change to one of its pods starts another.
func (c *Controller) Sync(wl *model.Workload) {
	monotonic := wl.Spec.PodManagement == model.OrderedReady
	n := wl.Spec.Replicas
	st := c.of(wl)
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
		p := st.podAt(ord)
		switch {
		case p == nil:
			st.createPod(ord)
		case p.Phase().Terminal():
			// A finished pod is deleted; its replacement comes at the sync
			// after the old object is gone.
			if !p.Terminating() {
				st.deletePod(p)
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
	var firstUnhealthy *model.Pod
	if ord := st.presentUnhealthy.next(n); ord >= 0 {
		firstUnhealthy = st.podAt(ord)
	}
	if monotonic {
		ord := st.present.prev(len(st.ordinals) - 1)
		if ord < n {
			return
		}
		p := st.podAt(ord)
		if p.Terminating() || (!runningAndReady(p) && p != firstUnhealthy) {
			return
		}
		st.deletePod(p)
		return
	}
	for ord := st.live.prev(len(st.ordinals) - 1); ord >= n; ord = st.live.prev(ord - 1) {
		st.deletePod(st.podAt(ord))
	}
}

// grow makes room for ordinals below n: new ones have no pod.
func (st *set) grow(n int) {
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
func (st *set) track(ord int) {
	st.grow(ord + 1)
	p := st.podAt(ord)
	has := p != nil
	bad := !has || unavailable(p)
	st.unhealthy.setTo(ord, bad)
	st.actionable.setTo(ord, !has || (p.Phase().Terminal() && !p.Terminating()))
	st.present.setTo(ord, has)
	st.presentUnhealthy.setTo(ord, has && bad)
	st.live.setTo(ord, has && !p.Terminating())
}

// PodChanged files the ordinal of a StatefulSet's pod anew.
func (c *Controller) PodChanged(p *model.Pod) { c.trackPod(p) }

// PodConditionAdded files it anew when it gets its Ready condition (a
// later change of it comes as PodChanged).
func (c *Controller) PodConditionAdded(p *model.Pod, t string) {
	if t == model.Ready {
		c.trackPod(p)
	}
}

// PodAdopted files a pod of a snapshot that a StatefulSet adopts under
// the ordinal its name ends with (<set>-<ordinal>), before its status is
// restored.
func (c *Controller) PodAdopted(wl *model.Workload, p *model.Pod) {
	ord, ok := 0, false
	if rest, found := strings.CutPrefix(p.Name, wl.Spec.Name+"-"); found && rest != "" {
		ok = true
		for _, r := range rest {
			if r < '0' || r > '9' || ord > 1<<20 {
				ok = false
				break
			}
			ord = ord*10 + int(r-'0')
		}
	}
	if ok {
		c.of(wl).setOrdinal(ord, p)
	}
}

// trackPod files the ordinal of p, if a StatefulSet's pod, anew.
func (c *Controller) trackPod(p *model.Pod) {
	wl := p.Owner()
	if wl == nil || wl.Spec.Kind != model.KindStatefulSet {
		return
	}
	st := c.of(wl)
	if ord, err := strconv.Atoi(p.Name[len(wl.Spec.Name)+1:]); err == nil && ord < len(st.ordinals) {
		st.track(ord)
	}
}

// podAt returns the pod object of ordinal ord, or nil if it has none in
// the API.
func (st *set) podAt(ord int) *model.Pod {
	if ord >= len(st.ordinals) {
		return nil
	}
	if p := st.ordinals[ord]; p != nil && !p.Deleted() {
		return p
	}
	return nil
}

// setOrdinal makes p the pod of ordinal ord.
func (st *set) setOrdinal(ord int, p *model.Pod) {
	for len(st.ordinals) <= ord {
		st.ordinals = append(st.ordinals, nil)
	}
	st.ordinals[ord] = p
}

// runningAndReady is the StatefulSet controller's isRunningAndReady: phase
// Running and the Ready condition True.
func runningAndReady(p *model.Pod) bool { return p.Phase() == model.Running && p.IsReady() }

// unavailable is the StatefulSet controller's isUnavailable with
// minReadySeconds 0: not Running and Ready, or being deleted.
func unavailable(p *model.Pod) bool { return !runningAndReady(p) || p.Terminating() }

// createPod creates the pod of ordinal ord (CreateStatefulPod), with the
// template's labels and the controller's identity labels.
func (st *set) createPod(ord int) {
	wl := st.wl
	name := wl.Spec.Name + "-" + strconv.Itoa(ord)
	wl.Event(model.EventNormal, "SuccessfulCreate", "statefulset-controller",
		"create Pod "+name+" in StatefulSet "+wl.Spec.Name+" successful")
	o := wl.Spec.Options
	o.Labels = maps.Clone(o.Labels)
	if o.Labels == nil {
		o.Labels = make(map[string]string, 2)
	}
	o.Labels[model.LabelStatefulSetPodName] = name
	o.Labels[model.LabelPodIndex] = strconv.Itoa(ord)
	p := wl.AddPodNamed(wl.Spec.Template, name, o)
	st.setOrdinal(ord, p)
	st.track(ord)
}

// deletePod deletes p through the API with its own grace period
// (DeleteStatefulPod).
func (st *set) deletePod(p *model.Pod) {
	st.wl.Event(model.EventNormal, "SuccessfulDelete", "statefulset-controller",
		"delete Pod "+p.Name+" in StatefulSet "+st.wl.Spec.Name+" successful")
	p.Delete(nil)
}
