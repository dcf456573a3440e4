// Package replicaset is the ReplicaSet controller
// (pkg/controller/replicaset/replica_set.go): a ReplicaSet keeps its
// replicas of active pods, replacing those that failed, succeeded, were
// evicted or deleted, and deleting the surplus after a scale-down, those
// ranked first for deletion (getPodsToDelete); it counts its status
// (calculateStatus). The deployment controller runs the same sync on a
// Deployment's ReplicaSets (Manage).
package replicaset

import (
	"slices"
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/sim"
)

// Controller is the ReplicaSet controller; register it with
// World.RegisterWorkloadController for model.KindReplicaSet. Its state of
// a ReplicaSet is by Workload.ID; the ReplicaSet itself, as the API holds
// it, is the workload's (Workload.ReplicaControl).
type Controller struct {
	w    *model.World
	sets []*state // by Workload.ID; nil: not seen yet
	api  client   // its API client's rate limiter, which every ReplicaSet's creations and deletions share

	tallies map[*model.ReplicaSet]*tally // what it counted of each ReplicaSet
	pods    podRecords                   // by Pod.ID: what each pod counts in its ReplicaSet's tally
	dirty   []*model.Pod                 // pods changed since their tally last counted them
	looked  int                          // pods looked at by the counts, for tests
}

// reserveMax bounds the room Manage makes in a ReplicaSet's pods at once.
const reserveMax = 1 << 16

// state is what the controller keeps of a ReplicaSet.
type state struct {
	availTimer sim.Timer // the next pod to become available
}

// New returns the ReplicaSet controller of w.
func New(w *model.World) *Controller {
	st := w.Settings()
	return &Controller{w: w, api: newClient(st.KubeAPIQPS, st.KubeAPIBurst)}
}

// of returns the state of wl, made at its first use.
func (c *Controller) of(wl *model.Workload) *state {
	for wl.ID() >= len(c.sets) {
		c.sets = append(c.sets, nil)
	}
	s := c.sets[wl.ID()]
	if s == nil {
		s = &state{}
		s.availTimer.Init(func() { c.Sync(wl) })
		c.sets[wl.ID()] = s
	}
	return s
}

// WorkloadAdded makes a new ReplicaSet's one ReplicaSet, for its
// replicas, unless it was restored from a snapshot (AdoptSnapshot).
func (c *Controller) WorkloadAdded(wl *model.Workload) {
	c.of(wl)
	if rc := wl.ReplicaControl(); len(rc.Sets) == 0 {
		rc.Sets = []*model.ReplicaSet{{Name: wl.Spec.Name, Template: wl.Spec.Template, Replicas: wl.Spec.Replicas, Created: c.w.Now()}}
	}
}

// AdoptSnapshot makes the ReplicaSet of a snapshot, created when the
// snapshot says; its pods are made from its template.
func (c *Controller) AdoptSnapshot(wl *model.Workload) {
	wl.ReplicaControl().Sets = []*model.ReplicaSet{{Name: wl.Spec.Name, Template: wl.Spec.Template,
		Replicas: wl.Spec.Replicas, Created: wl.Spec.Snapshot.Created}}
}

// AdoptTemplate is the ReplicaSet's template, which each pod of its
// snapshot is made from.
func (c *Controller) AdoptTemplate(wl *model.Workload, _ *model.PodSnapshot) *model.PodSpec {
	return wl.ReplicaControl().Sets[0].Template
}

// PodAdopted files a snapshot's pod under the ReplicaSet.
func (c *Controller) PodAdopted(wl *model.Workload, p *model.Pod) {
	rs := wl.ReplicaControl().Sets[0]
	rs.Pods = model.Grow(rs.Pods, p)
}

// Scale gives the ReplicaSet the workload's new replicas.
func (c *Controller) Scale(wl *model.Workload) {
	wl.ReplicaControl().Sets[0].Replicas = wl.Spec.Replicas
}

// Sync is syncReplicaSet: the ReplicaSet creates or deletes pods for its
// replicas and writes its status.
func (c *Controller) Sync(wl *model.Workload) {
	defer wl.ReplicasWritten()
	rc := wl.ReplicaControl()
	c.ManageAll(wl, rc.Sets, &c.of(wl).availTimer)
	rs := rc.Sets[0]
	rc.Status = model.ReplicaStatus{Replicas: rs.Status.Replicas, ReadyReplicas: rs.Status.Ready,
		AvailableReplicas: rs.Status.Available}
}

// ManageAll runs Manage on each of rss, the workload's ReplicaSets, now,
// and schedules t for the earliest instant one of them is to be synced
// again (its Ready pods becoming available, or its client's next token
// for the pods it could not create or delete yet), unless it is due
// sooner.
func (c *Controller) ManageAll(wl *model.Workload, rss []*model.ReplicaSet, t *sim.Timer) {
	eng := c.w.Engine()
	now := eng.Now()
	minReady := sim.Seconds(int64(wl.Spec.MinReadySeconds))
	var next time.Duration
	for _, rs := range rss {
		if at := c.Manage(wl, rs, now, minReady); at > 0 && (next == 0 || at < next) {
			next = at
		}
	}
	if next > 0 && (!t.Pending() || t.When() > next) {
		eng.Schedule(t, next, sim.Normal)
	}
}

// Manage is the ReplicaSet controller's sync of rs, one of wl's
// ReplicaSets (manageReplicas, then calculateStatus): rs keeps replicas
// active pods; it replaces pods that failed, succeeded, were evicted or
// deleted, and deletes the surplus after a scale-down, each creation and
// deletion a request of its API client (client.take), which may have to
// wait. It counts its status, and returns when it is to be synced again:
// when a Ready pod becomes available (count) or, if its client made
// it wait, when its next token comes (0: neither).
func (c *Controller) Manage(wl *model.Workload, rs *model.ReplicaSet, now, minReady time.Duration) (next time.Duration) {
	st, next := c.count(rs, now, minReady)
	n := st.Replicas
	if n == rs.Replicas {
		rs.Status = st
		return next
	}
	if more := rs.Replicas - n; more > 0 && len(rs.Pods)+int(more) > cap(rs.Pods) {
		// room for the pods it makes, at once rather than by doublings
		// (bounded: a huge ReplicaSet that its client makes wait grows)
		rs.Pods = slices.Grow(rs.Pods, min(int(more), reserveMax))
	}
	var wait time.Duration
	for ; n < rs.Replicas; n++ {
		if wait = c.api.take(now); wait > 0 {
			break
		}
		name := wl.NextPodName()
		wl.ReplicaSetEvent(rs.Name, model.EventNormal, "SuccessfulCreate", source, "Created pod: "+name)
		rs.Pods = model.Grow(rs.Pods, wl.AddPodNamed(rs.Template, name, wl.Spec.Options))
	}
	if n > rs.Replicas {
		wait = c.scaleDown(wl, rs, n-rs.Replicas, now)
	}
	rs.Status, next = c.count(rs, now, minReady) // its pods changed
	if wait > 0 && (next == 0 || wait < next) {
		next = wait
	}
	return next
}

// source is the controller's name in the events it records.
const source = "replicaset-controller"

// readySince is the Ready condition's last transition time.
func readySince(p *model.Pod) time.Duration {
	c, _ := p.ReadyCondition()
	return c.LastTransitionTime
}
