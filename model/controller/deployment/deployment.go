// Package deployment is the deployment controller
// (pkg/controller/deployment/deployment_controller.go): a Deployment owns
// one ReplicaSet per pod template it has had and moves its pods to the
// current template's by its strategy (RollingUpdate within maxSurge and
// maxUnavailable, or Recreate), scales its ReplicaSets in proportion when
// its replicas change during a rollout, keeps their revisions (a template
// taken back becomes the newest revision), writes its status and its
// Available and Progressing conditions, and adopts the ReplicaSets and
// pods of a snapshot. Its ReplicaSets' own sync is the ReplicaSet
// controller's (replicaset.Controller.Manage).
package deployment

import (
	"fmt"
	"hash/fnv"
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/model/controller/replicaset"
	"github.com/podsim/podsim/sim"
)

// source is the controller's name in the events it records.
const source = "deployment-controller"

// Controller is the deployment controller; register it with
// World.RegisterWorkloadController for model.KindDeployment. Its state of
// a Deployment is by Workload.ID; the Deployment's ReplicaSets and status,
// as the API holds them, are the workload's (Workload.ReplicaControl).
type Controller struct {
	w    *model.World
	rsc  *replicaset.Controller // syncs the Deployments' ReplicaSets
	deps []*state               // by Workload.ID; nil: not seen yet
}

// state is what the controller keeps of a Deployment.
type state struct {
	w   *model.World
	rsc *replicaset.Controller
	wl  *model.Workload
	rc  *model.ReplicaControl

	current       string    // the name of the current template's ReplicaSet
	availTimer    sim.Timer // the next pod to become available
	progressTimer sim.Timer // the progress deadline check
	scratch       []*model.ReplicaSet
	adopting      *model.ReplicaSet // the ReplicaSet of the snapshot's pod being made (AdoptTemplate)
}

// New returns the deployment controller of w, whose Deployments'
// ReplicaSets rsc syncs; rsc must be registered (as the ReplicaSet kind's
// controller) to hear their pods change.
func New(w *model.World, rsc *replicaset.Controller) *Controller { return &Controller{w: w, rsc: rsc} }

// of returns the state of wl, made at its first use.
func (c *Controller) of(wl *model.Workload) *state {
	for wl.ID() >= len(c.deps) {
		c.deps = append(c.deps, nil)
	}
	d := c.deps[wl.ID()]
	if d == nil {
		d = &state{w: c.w, rsc: c.rsc, wl: wl, rc: wl.ReplicaControl()}
		d.availTimer.Init(d.sync)
		d.progressTimer.Init(d.sync)
		c.deps[wl.ID()] = d
	}
	return d
}

// WorkloadAdded makes a new Deployment's first ReplicaSet at once ("Scaled
// up replica set D-H from 0 to N"), unless it was restored from a
// snapshot (AdoptSnapshot).
func (c *Controller) WorkloadAdded(wl *model.Workload) {
	d := c.of(wl)
	if len(d.rc.Sets) > 0 {
		return
	}
	d.current = replicaSetName(wl.Spec.Name, wl.Spec.Template)
	d.syncDeployment()
}

// Sync is the sync of a Deployment: each of its ReplicaSets creates or
// deletes pods for its replicas (replicaset.Controller.Manage) and counts its status;
// then the deployment controller acts on those counts, and while it
// changes a ReplicaSet's replicas, the ReplicaSets act again, all at this
// instant.
func (c *Controller) Sync(wl *model.Workload) { c.of(wl).sync() }

func (d *state) sync() {
	defer d.wl.ReplicasWritten()
	for {
		d.rsc.ManageAll(d.wl, d.rc.Sets, &d.availTimer)
		if !d.syncDeployment() {
			return
		}
	}
}

// Scale scales the ReplicaSets at once for the Deployment's new replicas.
func (c *Controller) Scale(wl *model.Workload) { c.of(wl).syncDeployment() }

// Rollout gives the Deployment the new pod template t: a ReplicaSet for it
// is made (or the one made for an earlier template alike taken back) and
// the pods move to it by the strategy. A template whose containers have
// the same images as the current one changes nothing.
func (c *Controller) Rollout(wl *model.Workload, t *model.PodSpec) {
	d := c.of(wl)
	name := replicaSetName(wl.Spec.Name, t)
	if name == d.current {
		return
	}
	wl.Spec.Template, d.current = t, name
	d.rc.Rollouts++
	d.syncDeployment()
	wl.RequestSync()
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
func replicaSetName(deployment string, t *model.PodSpec) string {
	h := fnv.New32a()
	for _, list := range [][]model.ContainerSpec{t.InitContainers, t.Containers} {
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

// AdoptSnapshot makes the Deployment's ReplicaSets of its snapshot. The
// one whose template is the Deployment's is its current one; with none
// such, the controller makes one at its first sync (a rollout).
func (c *Controller) AdoptSnapshot(wl *model.Workload) {
	d := c.of(wl)
	s := &wl.Spec
	want := replicaSetName(s.Name, s.Template)
	d.current = want
	for i := range s.Snapshot.ReplicaSets {
		r := &s.Snapshot.ReplicaSets[i]
		rev := r.Revision
		if rev == 0 {
			rev = i + 1
		}
		rs := &model.ReplicaSet{Name: r.Name, Template: r.Template, Replicas: r.Replicas, Created: r.Created,
			Desired: s.Replicas, MaxReplicas: s.Replicas + maxSurge(s), Revision: rev}
		if replicaSetName(s.Name, r.Template) == want {
			d.current, rs.Template = r.Name, s.Template
		}
		d.rc.Sets = append(d.rc.Sets, rs)
		d.rc.Revision = max(d.rc.Revision, rev)
	}
}

// AdoptTemplate is the template of the ReplicaSet a snapshot's pod names,
// or of the current one, made (named as the pod says, if it does) when
// the snapshot does not hold it.
func (c *Controller) AdoptTemplate(wl *model.Workload, ps *model.PodSnapshot) *model.PodSpec {
	d := c.of(wl)
	if d.adopting = d.replicaSetNamed(ps.ReplicaSet); d.adopting == nil {
		d.adopting = d.currentReplicaSet(ps.ReplicaSet, wl.Spec.Snapshot.Created)
	}
	return d.adopting.Template
}

// PodAdopted files a snapshot's pod under its ReplicaSet.
func (c *Controller) PodAdopted(wl *model.Workload, p *model.Pod) {
	d := c.of(wl)
	d.adopting.Pods = append(d.adopting.Pods, p)
	d.adopting = nil
}

// currentReplicaSet is the Deployment's current ReplicaSet, made (named
// name, if not "") for a pod whose ReplicaSet the snapshot does not hold.
func (d *state) currentReplicaSet(name string, created time.Duration) *model.ReplicaSet {
	if rs := d.findNewReplicaSet(); rs != nil {
		return rs
	}
	s := &d.wl.Spec
	if name != "" {
		d.current = name
	}
	rs := &model.ReplicaSet{Name: d.current, Template: s.Template, Replicas: s.Replicas, Created: created,
		Desired: s.Replicas, MaxReplicas: s.Replicas + maxSurge(s), Revision: d.rc.Revision + 1}
	d.rc.Revision = rs.Revision
	d.rc.Sets = append(d.rc.Sets, rs)
	return rs
}

func (d *state) replicaSetNamed(name string) *model.ReplicaSet {
	for _, rs := range d.rc.Sets {
		if rs.Name == name {
			return rs
		}
	}
	return nil
}
