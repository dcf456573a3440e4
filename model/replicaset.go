package model

import (
	"fmt"
	"hash/fnv"
	"slices"
	"time"

	"github.com/podsim/podsim/sim"
)

// replicaSet is one ReplicaSet: a ReplicaSet workload's own, or one of a
// Deployment's, one for each pod template it has had.
type replicaSet struct {
	name     string
	template *PodSpec
	replicas int           // spec.replicas
	created  time.Duration // creationTimestamp
	pods     []*Pod        // the pods it created, in order
	status   rsStatus      // as the ReplicaSet controller last counted it

	// The deployment.kubernetes.io/desired-replicas and max-replicas
	// annotations: the Deployment's replicas, and replicas + maxSurge,
	// when the deployment controller last scaled it.
	desired, maxReplicas int
	revision             int   // deployment.kubernetes.io/revision; 0 for a ReplicaSet workload's own
	history              []int // its earlier revisions, when a rollout took its template back
}

// ReplicaSetState is one ReplicaSet as its controllers last left it: a
// ReplicaSet workload's own, or one of a Deployment's.
type ReplicaSetState struct {
	Name     string
	Template *PodSpec // its pod template: must not be changed
	Replicas int      // spec.replicas
	Created  time.Duration
	// Status counts its pods: Replicas, ReadyReplicas, AvailableReplicas.
	Status ReplicaStatus
	// A Deployment's ReplicaSet's annotations: deployment.kubernetes.io/
	// revision, desired-replicas and max-replicas (0 for a ReplicaSet
	// workload's own).
	Revision, Desired, MaxReplicas int
	// RevisionHistory is deployment.kubernetes.io/revision-history: the
	// revisions it had before rollouts took its template back, oldest
	// first (nil if none did).
	RevisionHistory []int
}

// ReplicaSets appends a ReplicaSet's or Deployment's ReplicaSets, in the
// order they were made, to out[:0] (none for other kinds).
func (wl *Workload) ReplicaSets(out []ReplicaSetState) []ReplicaSetState {
	out = out[:0]
	for _, rs := range wl.rc.rss {
		out = append(out, ReplicaSetState{Name: rs.name, Template: rs.template, Replicas: rs.replicas, Created: rs.created,
			Status:   ReplicaStatus{Replicas: rs.status.replicas, ReadyReplicas: rs.status.ready, AvailableReplicas: rs.status.available},
			Revision: rs.revision, Desired: rs.desired, MaxReplicas: rs.maxReplicas, RevisionHistory: slices.Clone(rs.history)})
	}
	return out
}

// ReplicaSetOf returns the name of the ReplicaSet of wl that created p,
// or "" if none did. It is known from p's first change on: a ReplicaSet's
// pods share its template, and no two ReplicaSets share one.
func (wl *Workload) ReplicaSetOf(p *Pod) string {
	if p.owner != wl {
		return ""
	}
	for _, rs := range wl.rc.rss {
		if rs.template == p.Spec {
			return rs.name
		}
	}
	return ""
}

// ActingReplicaSet is the name of the ReplicaSet of wl creating or
// deleting a pod while it does (the time of its SuccessfulCreate and
// SuccessfulDelete events, which the API records on that ReplicaSet),
// "" otherwise.
func (wl *Workload) ActingReplicaSet() string {
	if wl.rc.acting == nil {
		return ""
	}
	return wl.rc.acting.name
}

// Revision is a Deployment's deployment.kubernetes.io/revision: its new
// ReplicaSet's when the controller last found or made it (a Recreate
// rollout makes it only once the old pods are gone); 0 for other kinds.
func (wl *Workload) Revision() int { return wl.rc.revision }

// ProgressUpdated is the lastUpdateTime of a Deployment's Progressing
// condition: when progress was last seen.
func (wl *Workload) ProgressUpdated() time.Duration { return wl.rc.progressUpdate }

// rsStatus is a ReplicaSet's status: its active pods (not finished, not
// being deleted), those Ready, and those available.
type rsStatus struct{ replicas, ready, available int }

// ReplicaStatus is a ReplicaSet's or Deployment's status as its controller
// last wrote it.
type ReplicaStatus struct {
	Replicas          int // active pods: not Succeeded or Failed, not being deleted
	UpdatedReplicas   int // a Deployment's active pods of its current template
	ReadyReplicas     int // active pods that are Ready
	AvailableReplicas int // active pods Ready for more than minReadySeconds
	// UnavailableReplicas is a Deployment's ReplicaSets' replicas less its
	// available pods, at least 0.
	UnavailableReplicas int
}

// replicaControl is what the ReplicaSet and deployment controllers keep
// of a ReplicaSet or Deployment.
type replicaControl struct {
	rss     []*replicaSet // in creation order
	current string        // a Deployment's: the name of its template's ReplicaSet
	status  ReplicaStatus

	rollouts       int           // templates applied after the first
	noted          replicaNote   // as the object sinks last heard it
	progressUpdate time.Duration // the Progressing condition's lastUpdateTime
	availTimer     sim.Timer     // the next pod to become available
	progressTimer  sim.Timer     // the progress deadline check
	scratch        []*replicaSet
	acting         *replicaSet // the one creating or deleting pods (manageReplicas)
	revision       int         // a Deployment's revision annotation
}

// replicaNote is what the object sinks last heard of a ReplicaSet or
// Deployment.
type replicaNote struct {
	desired  int // spec.replicas
	status   ReplicaStatus
	rollouts int
}

// ReplicaStatus returns the status of a ReplicaSet or Deployment as its
// controller last wrote it (zero for other kinds).
func (wl *Workload) ReplicaStatus() ReplicaStatus { return wl.rc.status }

// Rollouts is how many new pod templates a Deployment has been given
// (Rollout) since its creation.
func (wl *Workload) Rollouts() int { return wl.rc.rollouts }

// Template returns the workload's current pod template. It must not be
// changed: Rollout takes a new one.
func (wl *Workload) Template() *PodSpec { return wl.Spec.Template }

// initReplicas sets up a new ReplicaSet (its one ReplicaSet, for its
// replicas) or Deployment (whose controller makes its first ReplicaSet at
// once: "Scaled up replica set D-H from 0 to N").
func (wl *Workload) initReplicas() {
	wl.rc.availTimer.Init(wl.sync)
	wl.rc.progressTimer.Init(wl.sync)
	if len(wl.rc.rss) > 0 {
		return // restored from a snapshot (restore.go)
	}
	switch wl.Spec.Kind {
	case KindReplicaSet:
		wl.rc.rss = []*replicaSet{{name: wl.Spec.Name, template: wl.Spec.Template, replicas: wl.Spec.Replicas,
			created: wl.w.Now()}}
	case KindDeployment:
		wl.rc.current = replicaSetName(wl.Spec.Name, wl.Spec.Template)
		wl.syncDeployment()
	}
}

// Rollout gives a Deployment a new pod template, as `kubectl set image`
// does: its controller makes a ReplicaSet for it (or takes back the one
// made for an earlier template alike) and moves the pods to it by its
// strategy. A template whose containers have the same images as the
// current one changes nothing. It reports whether wl is a Deployment.
func (wl *Workload) Rollout(t *PodSpec) bool {
	if wl.Spec.Kind != KindDeployment {
		return false
	}
	name := replicaSetName(wl.Spec.Name, t)
	if name == wl.rc.current {
		return true
	}
	wl.Spec.Template, wl.rc.current = t, name
	wl.rc.rollouts++
	wl.syncDeployment()
	wl.requestSync()
	return true
}

// syncReplicas is the sync of a ReplicaSet or Deployment: each ReplicaSet
// creates or deletes pods for its replicas (manageReplicas) and counts its
// status; then a Deployment's controller acts on those counts, and while
// it changes a ReplicaSet's replicas, the ReplicaSets act again, all at
// this instant.
func (wl *Workload) syncReplicas() {
	defer wl.noteReplicas()
	now := wl.w.Now()
	minReady := sim.Seconds(int64(wl.Spec.MinReadySeconds))
	for {
		var next time.Duration
		for _, rs := range wl.rc.rss {
			if at := wl.manageReplicas(rs, now, minReady); at > 0 && (next == 0 || at < next) {
				next = at
			}
		}
		if t := &wl.rc.availTimer; next > 0 && (!t.Pending() || t.When() > next) {
			wl.w.eng.Schedule(t, next, sim.Normal)
		}
		if wl.Spec.Kind != KindDeployment {
			rs := wl.rc.rss[0]
			wl.rc.status = ReplicaStatus{Replicas: rs.status.replicas, ReadyReplicas: rs.status.ready,
				AvailableReplicas: rs.status.available}
			return
		}
		if !wl.syncDeployment() {
			return
		}
	}
}

// noteReplicas tells the object sinks of a change of replicas, status or
// rollouts since they last heard. Every change of them is followed by a
// sync at the same instant, which ends here.
func (wl *Workload) noteReplicas() {
	d := replicaNote{desired: wl.Spec.Replicas, status: wl.rc.status, rollouts: wl.rc.rollouts}
	if d != wl.rc.noted {
		wl.rc.noted = d
		wl.w.object(ObjectChange{Kind: ObjectWorkload, Op: ObjectUpdated, Workload: wl})
	}
}

// manageReplicas is the ReplicaSet controller's sync (manageReplicas, then
// calculateStatus): rs keeps replicas active pods; it replaces pods that
// failed, succeeded, were evicted or deleted, and deletes the surplus
// after a scale-down (scale.go). It counts its status, and returns when a
// Ready pod is to be looked at again (countStatus).
func (wl *Workload) manageReplicas(rs *replicaSet, now, minReady time.Duration) (next time.Duration) {
	st, next := rs.countStatus(now, minReady)
	n := st.replicas
	if n == rs.replicas {
		rs.status = st
		return next
	}
	wl.rc.acting = rs
	for ; n < rs.replicas; n++ {
		rs.pods = append(rs.pods, wl.createPod(rs.template, ""))
	}
	if n > rs.replicas {
		wl.scaleDown(rs, n-rs.replicas)
	}
	wl.rc.acting = nil
	rs.status, next = rs.countStatus(now, minReady) // its pods changed
	return next
}

// countStatus is the ReplicaSet controller's calculateStatus at now: its
// active pods, those Ready, and those available (IsPodAvailable: Ready
// for more than minReady). next is when the controller looks again at a
// pod Ready but not yet available: minReady and a second after it became
// Ready (0 if none waits).
func (rs *replicaSet) countStatus(now, minReady time.Duration) (st rsStatus, next time.Duration) {
	for _, p := range rs.pods {
		if !active(p) {
			continue
		}
		st.replicas++
		if !p.ready() {
			continue
		}
		st.ready++
		if minReady == 0 {
			st.available++
			continue
		}
		since := p.readySince()
		if sim.AddSat(since, minReady) < now {
			st.available++
		} else if at := sim.AddSat(since, minReady+time.Second); next == 0 || at < next {
			next = at
		}
	}
	return st, next
}

// safeAlphabet is apimachinery's rand.SafeEncodeString alphabet: no vowels,
// no digits that read like letters.
const safeAlphabet = "bcdfghjklmnpqrstvwxz2456789"

// replicaSetName is the name of a Deployment's ReplicaSet for template t,
// <deployment>-<pod-template-hash>. The hash is FNV-32a, written in
// decimal and each digit mapped into the safe alphabet as
// controller.ComputeHash does, but of podsim's own digest of the template
// (each container's name and image), not of the whole object: names differ
// from a real cluster's.
func replicaSetName(deployment string, t *PodSpec) string {
	h := fnv.New32a()
	for _, list := range [][]ContainerSpec{t.InitContainers, t.Containers} {
		for i := range list {
			fmt.Fprintf(h, "%s=%s;", list[i].Name, list[i].Image)
		}
	}
	digits := []byte(fmt.Sprint(h.Sum32()))
	for i, b := range digits {
		digits[i] = safeAlphabet[int(b)%len(safeAlphabet)]
	}
	return deployment + "-" + string(digits)
}
