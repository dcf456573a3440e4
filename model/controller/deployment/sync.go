package deployment

import (
	"fmt"
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/sim"
)

// syncDeployment is one sync of the deployment controller
// (pkg/controller/deployment/deployment_controller.go, syncDeployment): a
// change of replicas scales the ReplicaSets in proportion (sync.go);
// otherwise the strategy rolls the pods towards the current template's
// ReplicaSet (rolling.go, recreate.go). Each ends by writing the status
// and conditions. It reports whether it changed a ReplicaSet's replicas
// or made one.
func (d *state) syncDeployment() bool {
	if d.isScalingEvent() {
		newRS := d.findNewReplicaSet()
		changed := d.scaleReplicaSets(newRS, d.oldReplicaSets(newRS))
		d.writeStatus(newRS)
		return changed
	}
	if d.wl.Spec.Strategy == model.Recreate {
		return d.rolloutRecreate()
	}
	return d.rolloutRolling()
}

// findNewReplicaSet is FindNewReplicaSet: the ReplicaSet of the current
// template, or nil.
func (d *state) findNewReplicaSet() *model.ReplicaSet {
	for _, rs := range d.rc.Sets {
		if rs.Name == d.current {
			return rs
		}
	}
	return nil
}

// oldReplicaSets returns the ReplicaSets other than newRS, oldest first,
// in a slice reused by the next call.
func (d *state) oldReplicaSets(newRS *model.ReplicaSet) []*model.ReplicaSet {
	old := d.scratch[:0]
	for _, rs := range d.rc.Sets {
		if rs != newRS {
			old = append(old, rs)
		}
	}
	sortByCreation(old)
	d.scratch = old
	return old
}

// getNewReplicaSet is getNewReplicaSet: the current template's ReplicaSet,
// made if there is none ("Scaled up replica set D-H from 0 to N"; the
// Progressing condition NewReplicaSetCreated). made says it was.
func (d *state) getNewReplicaSet() (rs *model.ReplicaSet, made bool) {
	maxOld := 0 // MaxRevision of the others
	for _, old := range d.rc.Sets {
		if old.Name != d.current {
			maxOld = max(maxOld, old.Revision)
		}
	}
	if rs := d.findNewReplicaSet(); rs != nil {
		// A template taken back (a rollback) becomes the newest revision
		// (SetNewReplicaSetAnnotations).
		if rs.Revision <= maxOld {
			rs.History = append(rs.History, rs.Revision)
			rs.Revision = maxOld + 1
		}
		d.rc.Revision = rs.Revision
		return rs, false
	}
	total := 0
	for _, old := range d.rc.Sets {
		total += old.Replicas
	}
	s := &d.wl.Spec
	rs = &model.ReplicaSet{Name: d.current, Template: s.Template, Created: d.w.Now(),
		Replicas: newRSNewReplicas(s, total, 0), Desired: s.Replicas, MaxReplicas: s.Replicas + maxSurge(s), Revision: maxOld + 1}
	d.rc.Revision = rs.Revision
	d.rc.Sets = append(d.rc.Sets, rs)
	if rs.Replicas > 0 {
		d.wl.Event(model.EventNormal, "ScalingReplicaSet", source,
			fmt.Sprintf("Scaled up replica set %s from 0 to %d", rs.Name, rs.Replicas))
	}
	if s.ProgressDeadline != nil {
		d.setProgressing(model.True, model.ReasonNewReplicaSetCreated, fmt.Sprintf("Created new replica set %q", rs.Name), false)
	}
	return rs, true
}

// rolloutRolling is rolloutRolling (rolling.go): scale the new ReplicaSet
// up if it can, else the old ones down if it can, then write the status.
func (d *state) rolloutRolling() bool {
	newRS, made := d.getNewReplicaSet()
	old := d.oldReplicaSets(newRS)
	scaled := d.reconcileNewReplicaSet(newRS, old)
	if !scaled {
		scaled = d.reconcileOldReplicaSets(newRS, old)
	}
	d.syncRolloutStatus(newRS)
	return made || scaled
}

// reconcileNewReplicaSet is reconcileNewReplicaSet: the new ReplicaSet
// goes to the Deployment's replicas if it has more, else grows as far as
// maxSurge lets it (NewRSNewReplicas).
func (d *state) reconcileNewReplicaSet(newRS *model.ReplicaSet, old []*model.ReplicaSet) bool {
	want := d.wl.Spec.Replicas
	switch {
	case newRS.Replicas == want:
		return false
	case newRS.Replicas > want:
		return d.scaleReplicaSetAndRecordEvent(newRS, want)
	}
	total := newRS.Replicas
	for _, rs := range old {
		total += rs.Replicas
	}
	return d.scaleReplicaSetAndRecordEvent(newRS, newRSNewReplicas(&d.wl.Spec, total, newRS.Replicas))
}

// reconcileOldReplicaSets is reconcileOldReplicaSets: the old ReplicaSets
// may lose at most all pods - (replicas - maxUnavailable) - the new
// ReplicaSet's unavailable pods; their unavailable pods go first
// (cleanupUnhealthyReplicas), then as many as keep replicas -
// maxUnavailable pods available (scaleDownOldReplicaSetsForRollingUpdate).
func (d *state) reconcileOldReplicaSets(newRS *model.ReplicaSet, old []*model.ReplicaSet) bool {
	oldPods, allPods := 0, newRS.Replicas
	for _, rs := range old {
		oldPods += rs.Replicas
		allPods += rs.Replicas
	}
	if oldPods == 0 {
		return false
	}
	minAvailable := d.wl.Spec.Replicas - maxUnavailable(&d.wl.Spec)
	newUnavailable := newRS.Replicas - newRS.Status.Available
	maxScaledDown := allPods - minAvailable - newUnavailable
	if maxScaledDown <= 0 {
		return false
	}
	cleaned := d.cleanupUnhealthyReplicas(old, maxScaledDown)
	scaled := d.scaleDownOldReplicaSetsForRollingUpdate(newRS, old, minAvailable)
	return cleaned+scaled > 0
}

// cleanupUnhealthyReplicas is cleanupUnhealthyReplicas: oldest first, each
// old ReplicaSet loses its pods that are not available, at most
// maxCleanup in all. (Upstream refuses a cleanup that would grow a
// ReplicaSet; here available pods never outnumber replicas, since a
// ReplicaSet acts on its replicas before it counts its status.)
func (d *state) cleanupUnhealthyReplicas(old []*model.ReplicaSet, maxCleanup int) int {
	total := 0
	for _, rs := range old {
		if total >= maxCleanup {
			break
		}
		if rs.Replicas == 0 || rs.Replicas == rs.Status.Available {
			continue
		}
		n := min(maxCleanup-total, rs.Replicas-rs.Status.Available)
		d.scaleReplicaSetAndRecordEvent(rs, rs.Replicas-n)
		total += n
	}
	return total
}

// scaleDownOldReplicaSetsForRollingUpdate is
// scaleDownOldReplicaSetsForRollingUpdate: while more than minAvailable
// pods are available in all ReplicaSets, the old ones lose the difference,
// oldest first.
func (d *state) scaleDownOldReplicaSetsForRollingUpdate(newRS *model.ReplicaSet, old []*model.ReplicaSet, minAvailable int) int {
	available := newRS.Status.Available
	for _, rs := range old {
		available += rs.Status.Available
	}
	if available <= minAvailable {
		return 0
	}
	total, done := available-minAvailable, 0
	for _, rs := range old {
		if done >= total {
			break
		}
		if rs.Replicas == 0 {
			continue
		}
		n := min(rs.Replicas, total-done)
		d.scaleReplicaSetAndRecordEvent(rs, rs.Replicas-n)
		done += n
	}
	return done
}

// rolloutRecreate is rolloutRecreate (recreate.go): scale every old
// ReplicaSet to 0, wait until none of their pods runs (every one gone from
// the API, or Succeeded or Failed), then make the new ReplicaSet and scale
// it to the Deployment's replicas.
func (d *state) rolloutRecreate() bool {
	newRS := d.findNewReplicaSet()
	old := d.oldReplicaSets(newRS)
	scaled := false
	for _, rs := range old {
		if rs.Replicas > 0 && d.scaleReplicaSetAndRecordEvent(rs, 0) {
			scaled = true
		}
	}
	if scaled || oldPodsRunning(old) {
		d.syncRolloutStatus(newRS)
		return scaled
	}
	made := false
	if newRS == nil {
		newRS, made = d.getNewReplicaSet()
	}
	changed := d.scaleReplicaSetAndRecordEvent(newRS, d.wl.Spec.Replicas) || made
	d.syncRolloutStatus(newRS)
	return changed
}

// oldPodsRunning is oldPodsRunning: an old ReplicaSet counts active pods,
// or has a pod still in the API that is not Succeeded or Failed (a
// terminating one included).
func oldPodsRunning(old []*model.ReplicaSet) bool {
	for _, rs := range old {
		if rs.Status.Replicas > 0 {
			return true
		}
	}
	for _, rs := range old {
		for _, p := range rs.Pods {
			if !p.Deleted() && !p.Phase().Terminal() {
				return true
			}
		}
	}
	return false
}

// isScalingEvent is isScalingEvent: an active ReplicaSet (replicas > 0)
// was last scaled for other replicas than the Deployment's.
func (d *state) isScalingEvent() bool {
	for _, rs := range d.rc.Sets {
		if rs.Replicas > 0 && rs.Desired != d.wl.Spec.Replicas {
			return true
		}
	}
	return false
}

// scaleReplicaSets is scale (sync.go): with one active ReplicaSet (or
// none: the newest), it takes the Deployment's replicas; with a saturated
// new ReplicaSet, the old ones go to 0; otherwise a rolling Deployment
// shares out the change in proportion to each ReplicaSet's size, largest
// first, the rounding leftover to the first.
func (d *state) scaleReplicaSets(newRS *model.ReplicaSet, old []*model.ReplicaSet) bool {
	want := d.wl.Spec.Replicas
	if rs := activeOrLatest(newRS, old); rs != nil {
		return d.scaleReplicaSetAndRecordEvent(rs, want)
	}
	if newRS != nil && newRS.Replicas == want && newRS.Desired == want && newRS.Status.Available == want { // IsSaturated
		changed := false
		for i := len(old) - 1; i >= 0; i-- { // newest first, as FindActiveOrLatest left them
			if rs := old[i]; rs.Replicas > 0 && d.scaleReplicaSetAndRecordEvent(rs, 0) {
				changed = true
			}
		}
		return changed
	}
	if d.wl.Spec.Strategy != model.RollingUpdate {
		return false
	}
	var all []*model.ReplicaSet // FilterActiveReplicaSets
	total := 0
	for _, rs := range append(old, newRS) {
		if rs != nil && rs.Replicas > 0 {
			all = append(all, rs)
			total += rs.Replicas
		}
	}
	surge := maxSurge(&d.wl.Spec)
	allowed := 0
	if want > 0 {
		allowed = want + surge
	}
	toAdd := allowed - total
	op := ""
	switch {
	case toAdd > 0:
		sortBySize(all, true)
		op = "up"
	case toAdd < 0:
		sortBySize(all, false)
		op = "down"
	}
	sizes := make([]int, len(all))
	added := 0
	for i, rs := range all {
		sizes[i] = rs.Replicas
		if toAdd != 0 {
			p := proportion(rs.Replicas, rs.MaxReplicas, want, surge, d.rc.Status.Replicas, toAdd, added)
			sizes[i] += p
			added += p
		}
	}
	changed := false
	for i, rs := range all {
		if i == 0 && toAdd != 0 {
			sizes[0] = max(sizes[0]+toAdd-added, 0)
		}
		if d.scaleReplicaSet(rs, sizes[i], op) {
			changed = true
		}
	}
	return changed
}

// activeOrLatest is FindActiveOrLatest: the only ReplicaSet with replicas,
// or, when none has, the new one (else the newest old one); nil when
// several have replicas. old is oldest first.
func activeOrLatest(newRS *model.ReplicaSet, old []*model.ReplicaSet) *model.ReplicaSet {
	var active *model.ReplicaSet
	n := 0
	for _, rs := range append(old, newRS) {
		if rs != nil && rs.Replicas > 0 {
			active = rs
			n++
		}
	}
	switch {
	case n == 1:
		return active
	case n > 1:
		return nil
	case newRS != nil:
		return newRS
	case len(old) > 0:
		return old[len(old)-1]
	}
	return nil
}

// scaleReplicaSetAndRecordEvent is scaleReplicaSetAndRecordEvent: rs gets
// n replicas, if it has not.
func (d *state) scaleReplicaSetAndRecordEvent(rs *model.ReplicaSet, n int) bool {
	if rs.Replicas == n {
		return false
	}
	op := "down"
	if rs.Replicas < n {
		op = "up"
	}
	return d.scaleReplicaSet(rs, n, op)
}

// scaleReplicaSet is scaleReplicaSet: rs gets n replicas and the
// Deployment's desired and max replicas as annotations; a change of
// replicas logs ScalingReplicaSet ("Scaled up replica set D-H from 1 to
// 2"). It reports whether the replicas changed.
func (d *state) scaleReplicaSet(rs *model.ReplicaSet, n int, op string) bool {
	rs.Desired, rs.MaxReplicas = d.wl.Spec.Replicas, d.wl.Spec.Replicas+maxSurge(&d.wl.Spec)
	if rs.Replicas == n {
		return false
	}
	old := rs.Replicas
	rs.Replicas = n
	d.wl.Event(model.EventNormal, "ScalingReplicaSet", source,
		fmt.Sprintf("Scaled %s replica set %s from %d to %d", op, rs.Name, old, n))
	return true
}

// calculateStatus is calculateStatus: the Deployment's counts from its
// ReplicaSets' statuses, and the Available condition: model.True while at least
// replicas - maxUnavailable pods are available.
func (d *state) calculateStatus(newRS *model.ReplicaSet) model.ReplicaStatus {
	var st model.ReplicaStatus
	total := 0
	for _, rs := range d.rc.Sets {
		st.Replicas += rs.Status.Replicas
		st.ReadyReplicas += rs.Status.Ready
		st.AvailableReplicas += rs.Status.Available
		total += rs.Replicas
	}
	if newRS != nil {
		st.UpdatedReplicas = newRS.Status.Replicas
	}
	st.UnavailableReplicas = max(total-st.AvailableReplicas, 0)
	if st.AvailableReplicas >= d.wl.Spec.Replicas-maxUnavailable(&d.wl.Spec) {
		d.setCondition(model.DeploymentAvailable, model.True, model.ReasonMinimumReplicasAvailable, "Deployment has minimum availability.", false)
	} else {
		d.setCondition(model.DeploymentAvailable, model.False, model.ReasonMinimumReplicasUnavailable, "Deployment does not have minimum availability.", false)
	}
	return st
}

// writeStatus is syncDeploymentStatus: the status, without judging
// progress.
func (d *state) writeStatus(newRS *model.ReplicaSet) { d.rc.Status = d.calculateStatus(newRS) }

// complete is DeploymentComplete: every replica is of the current
// template and available, and there are no others.
func (d *state) complete(st model.ReplicaStatus) bool {
	want := d.wl.Spec.Replicas
	return st.UpdatedReplicas == want && st.Replicas == want && st.AvailableReplicas == want
}

// progressing is model.DeploymentProgressing: against the status last written,
// more pods of the current template, fewer others, more ready or more
// available.
func (d *state) progressing(st model.ReplicaStatus) bool {
	old := &d.rc.Status
	return st.UpdatedReplicas > old.UpdatedReplicas ||
		st.Replicas-st.UpdatedReplicas < old.Replicas-old.UpdatedReplicas ||
		st.ReadyReplicas > old.ReadyReplicas || st.AvailableReplicas > old.AvailableReplicas
}

// syncRolloutStatus is syncRolloutStatus (progress.go): the status, and
// the Progressing condition until the rollout completes:
// NewReplicaSetAvailable once it has, ReplicaSetUpdated at every sign of
// progress (which restarts the deadline), ProgressDeadlineExceeded once
// progressDeadlineSeconds passed since the last. A rollout under way is
// looked at again a second after its deadline (requeueStuckDeployment).
func (d *state) syncRolloutStatus(newRS *model.ReplicaSet) {
	st := d.calculateStatus(newRS)
	deadline := d.wl.Spec.ProgressDeadline
	cur, hasCur := d.wl.Condition(model.DeploymentProgressing)
	done := hasCur && st.Replicas == st.UpdatedReplicas && cur.Reason == model.ReasonNewReplicaSetAvailable
	if deadline != nil && !done {
		switch {
		case d.complete(st):
			d.setProgressing(model.True, model.ReasonNewReplicaSetAvailable, progressSubject(d.wl, newRS)+" has successfully progressed.", false)
		case d.progressing(st):
			d.setProgressing(model.True, model.ReasonReplicaSetUpdated, progressSubject(d.wl, newRS)+" is progressing.", true)
		case d.timedOut():
			d.setProgressing(model.False, model.ReasonProgressDeadlineExceeded, progressSubject(d.wl, newRS)+" has timed out progressing.", false)
		}
	}
	d.rc.Status = st
	t := &d.progressTimer
	cur, hasCur = d.wl.Condition(model.DeploymentProgressing)
	// Upstream also requeues a Deployment whose condition says it completed
	// (a pod failed since): its checks can change nothing, since such a
	// condition never times out.
	if deadline == nil || !hasCur || d.complete(st) || cur.Reason == model.ReasonProgressDeadlineExceeded ||
		cur.Reason == model.ReasonNewReplicaSetAvailable {
		d.w.Engine().Stop(t)
		return
	}
	if at := sim.AddSat(d.rc.ProgressUpdate, sim.AddSat(*deadline, time.Second)); !t.Pending() || t.When() != at {
		d.w.Engine().Schedule(t, at, sim.Normal)
	}
}

// progressSubject names what the Progressing condition's message is about:
// the new ReplicaSet, or the Deployment while it has none.
func progressSubject(wl *model.Workload, newRS *model.ReplicaSet) string {
	if newRS != nil {
		return fmt.Sprintf("ReplicaSet %q", newRS.Name)
	}
	return fmt.Sprintf("Deployment %q", wl.Spec.Name)
}

// timedOut is DeploymentTimedOut: the Progressing condition says the
// rollout timed out, or was last updated more than progressDeadlineSeconds
// ago (and does not say it completed).
func (d *state) timedOut() bool {
	c, ok := d.wl.Condition(model.DeploymentProgressing)
	switch {
	case !ok || c.Reason == model.ReasonNewReplicaSetAvailable:
		return false
	case c.Reason == model.ReasonProgressDeadlineExceeded:
		return true
	}
	return sim.AddSat(d.rc.ProgressUpdate, *d.wl.Spec.ProgressDeadline) < d.w.Now()
}

// setProgressing sets the Progressing condition, whose lastUpdateTime
// (when progress was last seen) the deadline counts from.
func (d *state) setProgressing(s model.ConditionStatus, reason, msg string, refresh bool) {
	last := d.rc.ProgressUpdate
	d.rc.ProgressUpdate = d.w.Now() // as the condition's change is recorded
	if !d.setCondition(model.DeploymentProgressing, s, reason, msg, refresh) {
		d.rc.ProgressUpdate = last
	}
}

// setCondition is SetDeploymentCondition: a condition with the status and
// reason it has already is left as it is, unless refresh (the Progressing
// condition's update at each sign of progress); otherwise it is replaced
// and goes last, keeping its lastTransitionTime if its status stays. A
// change of status or reason is recorded. It reports whether it set it.
func (d *state) setCondition(t string, s model.ConditionStatus, reason, msg string, refresh bool) bool {
	now := d.w.Now()
	c := model.Condition{Type: t, Status: s, Reason: reason, Message: msg, LastTransitionTime: now}
	for i, old := range d.wl.Conditions {
		if old.Type != t {
			continue
		}
		if old.Status == s && old.Reason == reason && !refresh {
			return false
		}
		if old.Status == s {
			c.LastTransitionTime = old.LastTransitionTime
		}
		d.wl.Conditions = append(d.wl.Conditions[:i], d.wl.Conditions[i+1:]...)
		d.wl.Conditions = append(d.wl.Conditions, c)
		if old.Status != s || old.Reason != reason {
			d.wl.RecordCondition(c)
		}
		return true
	}
	d.wl.Conditions = append(d.wl.Conditions, c)
	d.wl.RecordCondition(c)
	return true
}
