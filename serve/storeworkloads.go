package serve

import (
	"slices"
	"strings"
	"time"

	"github.com/podsim/podsim/model"
)

func (s *Store) addWorkload(wl *model.Workload) {
	sp := &wl.Spec
	src := &workloadSrc{wl: wl}
	ns := wl.Namespace()
	src.self = s.ref(sp.Kind, ns, sp.Name)
	o := src.self
	src.owner = &o
	labels := sp.Options.Labels
	selector := labels
	switch sp.Kind {
	case model.KindDeployment:
		src.col = colDeployments
		src.owner = nil
		src.rss = map[string]*workloadSnap{}
	case model.KindReplicaSet:
		src.col = colReplicaSets
	case model.KindDaemonSet:
		src.col = colDaemonSets
	case model.KindStatefulSet:
		src.col = colStatefulSets
	case model.KindCronJob:
		src.col = colCronJobs
		labels = sp.CronJob.Job.Options.Labels
	case model.KindJob:
		src.col = colJobs
		selector = map[string]string{"batch.kubernetes.io/controller-uid": o.uid}
		labels = jobLabels(labels, sp.Name, o.uid)
	}
	src.obj = &workloadSnap{meta: meta{name: sp.Name, namespace: ns, uid: o.uid, labels: sp.Options.Labels, created: wl.Created()},
		spec: sp, tmpl: wl.Template(), generation: 1, replicas: sp.Replicas, selector: selector, template: labels,
		rs: wl.ReplicaStatus(), revision: wl.Revision(), progressUpdated: wl.ProgressUpdated()}
	src.pods = labels
	switch {
	case sp.Kind == model.KindDeployment:
		src.pods = nil // each pod has its ReplicaSet's
		src.obj.conditions = slices.Clone(wl.Conditions)
	case sp.Kind == model.KindStatefulSet:
		src.pods = nil // each pod has its own name and ordinal labels
	case sp.Kind == model.KindCronJob:
		src.obj.cron = &cronStatus{}
	}
	var parent *workloadSrc
	if p := wl.Parent(); p != nil {
		if parent = s.workloads[p.Key()]; parent != nil {
			src.obj.owner = parent.owner
			parent.jobs = append(parent.jobs, src)
		}
	}
	s.workloads[wl.Key()] = src
	s.put(src.col, src.obj, false)
	s.replicaSetsChanged(src)
	if parent != nil {
		s.cronChanged(parent)
	}
}

// cronChanged writes a new version of a CronJob whose status moved, and
// the deletion of its Jobs that its controller deleted (history limits,
// concurrencyPolicy Replace).
func (s *Store) cronChanged(src *workloadSrc) {
	keep := src.jobs[:0]
	for _, j := range src.jobs {
		if !j.wl.Deleted() {
			keep = append(keep, j)
			continue
		}
		j.gone = true
		snap := *j.obj
		s.put(colJobs, &snap, true)
	}
	clear(src.jobs[len(keep):])
	src.jobs = keep
	wl := src.wl
	st := &cronStatus{}
	for _, j := range wl.ActiveJobList() {
		st.active = append(st.active, s.ref(model.KindJob, j.Namespace(), j.Spec.Name))
	}
	if t := wl.LastScheduleTime(); !t.IsZero() {
		st.lastSchedule, st.scheduled = t.Sub(s.w.WallTime(0)), true
	}
	st.lastSuccess, st.succeeded = wl.LastSuccessfulTime()
	if st.equal(src.obj.cron) {
		return
	}
	obj := *src.obj
	obj.cron = st
	src.obj = &obj
	s.put(colCronJobs, src.obj, false)
}

// workloadChanged writes a new version of a workload's objects whose
// spec or status moved: a Deployment's or ReplicaSet's status as the
// model's controllers last wrote it, the others' counted from the store's
// snapshots of their pods. It reports whether it wrote any.
func (s *Store) workloadChanged(src *workloadSrc) bool {
	if src.gone || src.col == colCronJobs {
		return false // a CronJob's status is its Jobs' (cronChanged)
	}
	if s.dark {
		// Its spec is followed change by change (generation counts them);
		// its pods are counted once rendered (publish).
		s.markWorkload(src)
	}
	if p := src.wl.Parent(); p != nil {
		if parent := s.workloads[p.Key()]; parent != nil {
			defer s.cronChanged(parent)
		}
	}
	wl, old := src.wl, src.obj
	var st workloadStatus
	switch {
	case src.col == colDeployments || src.col == colReplicaSets:
	case s.dark:
		st = old.status
	default:
		st = s.countPods(src)
	}
	if src.col == colJobs {
		// The Job controller's own counts: a finished pod deleted or
		// drained stays counted, as its tracking finalizer keeps it.
		js := wl.JobStatus()
		st.active, st.ready, st.terminating, st.succeeded, st.failed = js.Active, js.Ready, js.Terminating, js.Succeeded, js.Failed
		st.completedIndexes, st.failedIndexes, st.hasFailedIndexes = js.CompletedIndexes, js.FailedIndexes, js.HasFailedIndexes
	}
	conds := wl.Conditions
	if c, ok := wl.Condition("Complete"); ok {
		st.completed, st.completedAt = true, c.LastTransitionTime
	}
	replicas, tmpl, rs := wl.Spec.Replicas, wl.Template(), wl.ReplicaStatus()
	rev, progress := wl.Revision(), wl.ProgressUpdated()
	changed := s.replicaSetsChanged(src)
	if st == old.status && slices.Equal(conds, old.conditions) && replicas == old.replicas && tmpl == old.tmpl &&
		rs == old.rs && rev == old.revision && progress == old.progressUpdated {
		return changed
	}
	obj := *old
	obj.status, obj.conditions, obj.replicas, obj.tmpl, obj.rs = st, slices.Clone(conds), replicas, tmpl, rs
	obj.revision, obj.progressUpdated = rev, progress
	if replicas != old.replicas {
		obj.generation++
	}
	if tmpl != old.tmpl {
		obj.generation++
	}
	src.obj = &obj
	s.put(src.col, src.obj, false)
	return true
}

// countPods counts a workload's pods from the store's snapshots of them.
func (s *Store) countPods(src *workloadSrc) workloadStatus {
	var st workloadStatus
	for _, p := range src.wl.Pods() {
		snap, ok := s.storedPod(p.Key())
		if !ok {
			continue
		}
		v := &snap.view
		switch v.Status.Phase {
		case model.Succeeded:
			st.succeeded++
			continue
		case model.Failed:
			st.failed++
			continue
		}
		if snap.deleting {
			continue
		}
		st.replicas++
		st.active++
		if v.Node != "" {
			st.scheduled++
		}
		if c, ok := v.Status.Condition(model.Ready); ok && c.Status == model.True {
			st.ready++
		}
	}
	return st
}

// replicaSetsChanged writes a new version of each of a Deployment's
// ReplicaSets whose spec, status or annotations moved, and the first of
// each new one. It reports whether it wrote any.
func (s *Store) replicaSetsChanged(src *workloadSrc) bool {
	if src.col != colDeployments {
		return false
	}
	changed := false
	s.rsScratch = src.wl.ReplicaSets(s.rsScratch)
	for _, st := range s.rsScratch {
		old := src.rss[st.Name]
		if old == nil {
			old = s.newReplicaSet(src, st.Name, st.Created)
		} else if old.rv != 0 && old.replicas == st.Replicas && old.rs == st.Status && old.revision == st.Revision &&
			old.desired == st.Desired && old.maxRepl == st.MaxReplicas {
			continue
		}
		rs := *old
		rs.replicas, rs.rs, rs.revision, rs.desired, rs.maxRepl, rs.tmpl = st.Replicas, st.Status, st.Revision, st.Desired, st.MaxReplicas, st.Template
		rs.history = st.RevisionHistory
		if rs.replicas != old.replicas && old.rv != 0 {
			rs.generation++
		}
		src.rss[st.Name] = &rs
		s.put(colReplicaSets, &rs, false)
		changed = true
	}
	return changed
}

// replicaSet returns a Deployment's ReplicaSet by name, made (not yet
// put) if the store has not seen it; nil for "".
func (s *Store) replicaSet(src *workloadSrc, name string) *workloadSnap {
	if name == "" {
		return nil
	}
	if rs := src.rss[name]; rs != nil {
		return rs
	}
	s.rsScratch = src.wl.ReplicaSets(s.rsScratch)
	for _, st := range s.rsScratch {
		if st.Name == name {
			return s.newReplicaSet(src, name, st.Created)
		}
	}
	return nil
}

// newReplicaSet makes the snapshot of a Deployment's ReplicaSet the store
// has not seen: named <deployment>-<pod-template-hash>, its selector and
// template labels the Deployment's and pod-template-hash. It is put by
// replicaSetsChanged.
func (s *Store) newReplicaSet(src *workloadSrc, name string, created time.Duration) *workloadSnap {
	d := src.obj
	hash := strings.TrimPrefix(name, d.name+"-")
	labels := withLabel(d.template, "pod-template-hash", hash)
	rs := &workloadSnap{meta: meta{name: name, namespace: d.namespace, uid: uid(model.KindReplicaSet, model.Key(d.namespace, name)),
		labels: labels, created: created}, spec: d.spec, generation: 1, owner: &src.self, selector: labels, template: labels}
	rs.podOwner = &owner{apiVersion: "apps/v1", kind: model.KindReplicaSet, name: name, uid: rs.uid}
	src.rss[name] = rs
	return rs
}
