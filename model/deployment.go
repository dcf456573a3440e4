package model

import (
	"fmt"
	"time"

	"github.com/podsim/podsim/sim"
)

// Deployment condition types and reasons (apps/v1,
// pkg/controller/deployment/util/deployment_util.go).
const (
	DeploymentAvailable   = "Available"
	DeploymentProgressing = "Progressing"

	ReasonNewReplicaSetCreated       = "NewReplicaSetCreated"
	ReasonReplicaSetUpdated          = "ReplicaSetUpdated"
	ReasonNewReplicaSetAvailable     = "NewReplicaSetAvailable"
	ReasonProgressDeadlineExceeded   = "ProgressDeadlineExceeded"
	ReasonMinimumReplicasAvailable   = "MinimumReplicasAvailable"
	ReasonMinimumReplicasUnavailable = "MinimumReplicasUnavailable"
)

// syncDeployment is one sync of the deployment controller
// (pkg/controller/deployment/deployment_controller.go, syncDeployment): a
// change of replicas scales the ReplicaSets in proportion (sync.go);
// otherwise the strategy rolls the pods towards the current template's
// ReplicaSet (rolling.go, recreate.go). Each ends by writing the status
// and conditions. It reports whether it changed a ReplicaSet's replicas
// or made one.
func (wl *Workload) syncDeployment() bool {
	if wl.isScalingEvent() {
		newRS := wl.findNewReplicaSet()
		changed := wl.scaleReplicaSets(newRS, wl.oldReplicaSets(newRS))
		wl.writeStatus(newRS)
		return changed
	}
	if wl.Spec.Strategy == Recreate {
		return wl.rolloutRecreate()
	}
	return wl.rolloutRolling()
}

// findNewReplicaSet is FindNewReplicaSet: the ReplicaSet of the current
// template, or nil.
func (wl *Workload) findNewReplicaSet() *replicaSet {
	for _, rs := range wl.rc.rss {
		if rs.name == wl.rc.current {
			return rs
		}
	}
	return nil
}

// oldReplicaSets returns the ReplicaSets other than newRS, oldest first,
// in a slice reused by the next call.
func (wl *Workload) oldReplicaSets(newRS *replicaSet) []*replicaSet {
	old := wl.rc.scratch[:0]
	for _, rs := range wl.rc.rss {
		if rs != newRS {
			old = append(old, rs)
		}
	}
	sortByCreation(old)
	wl.rc.scratch = old
	return old
}

// getNewReplicaSet is getNewReplicaSet: the current template's ReplicaSet,
// made if there is none ("Scaled up replica set D-H from 0 to N"; the
// Progressing condition NewReplicaSetCreated). made says it was.
func (wl *Workload) getNewReplicaSet() (rs *replicaSet, made bool) {
	maxOld := 0 // MaxRevision of the others
	for _, old := range wl.rc.rss {
		if old.name != wl.rc.current {
			maxOld = max(maxOld, old.revision)
		}
	}
	if rs := wl.findNewReplicaSet(); rs != nil {
		// A template taken back (a rollback) becomes the newest revision
		// (SetNewReplicaSetAnnotations).
		if rs.revision <= maxOld {
			rs.history = append(rs.history, rs.revision)
			rs.revision = maxOld + 1
		}
		wl.rc.revision = rs.revision
		return rs, false
	}
	total := 0
	for _, old := range wl.rc.rss {
		total += old.replicas
	}
	s := &wl.Spec
	rs = &replicaSet{name: wl.rc.current, template: s.Template, created: wl.w.Now(),
		replicas: s.newRSNewReplicas(total, 0), desired: s.Replicas, maxReplicas: s.Replicas + s.maxSurge(), revision: maxOld + 1}
	wl.rc.revision = rs.revision
	wl.rc.rss = append(wl.rc.rss, rs)
	if rs.replicas > 0 {
		wl.w.event(KindDeployment, wl.key, EventNormal, "ScalingReplicaSet", "deployment-controller",
			"Scaled up replica set %s from 0 to %d", rs.name, rs.replicas)
	}
	if s.ProgressDeadline != nil {
		wl.setProgressing(True, ReasonNewReplicaSetCreated, fmt.Sprintf("Created new replica set %q", rs.name), false)
	}
	return rs, true
}

// rolloutRolling is rolloutRolling (rolling.go): scale the new ReplicaSet
// up if it can, else the old ones down if it can, then write the status.
func (wl *Workload) rolloutRolling() bool {
	newRS, made := wl.getNewReplicaSet()
	old := wl.oldReplicaSets(newRS)
	scaled := wl.reconcileNewReplicaSet(newRS, old)
	if !scaled {
		scaled = wl.reconcileOldReplicaSets(newRS, old)
	}
	wl.syncRolloutStatus(newRS)
	return made || scaled
}

// reconcileNewReplicaSet is reconcileNewReplicaSet: the new ReplicaSet
// goes to the Deployment's replicas if it has more, else grows as far as
// maxSurge lets it (NewRSNewReplicas).
func (wl *Workload) reconcileNewReplicaSet(newRS *replicaSet, old []*replicaSet) bool {
	d := wl.Spec.Replicas
	switch {
	case newRS.replicas == d:
		return false
	case newRS.replicas > d:
		return wl.scaleReplicaSetAndRecordEvent(newRS, d)
	}
	total := newRS.replicas
	for _, rs := range old {
		total += rs.replicas
	}
	return wl.scaleReplicaSetAndRecordEvent(newRS, wl.Spec.newRSNewReplicas(total, newRS.replicas))
}

// reconcileOldReplicaSets is reconcileOldReplicaSets: the old ReplicaSets
// may lose at most all pods - (replicas - maxUnavailable) - the new
// ReplicaSet's unavailable pods; their unavailable pods go first
// (cleanupUnhealthyReplicas), then as many as keep replicas -
// maxUnavailable pods available (scaleDownOldReplicaSetsForRollingUpdate).
func (wl *Workload) reconcileOldReplicaSets(newRS *replicaSet, old []*replicaSet) bool {
	oldPods, allPods := 0, newRS.replicas
	for _, rs := range old {
		oldPods += rs.replicas
		allPods += rs.replicas
	}
	if oldPods == 0 {
		return false
	}
	minAvailable := wl.Spec.Replicas - wl.Spec.maxUnavailable()
	newUnavailable := newRS.replicas - newRS.status.available
	maxScaledDown := allPods - minAvailable - newUnavailable
	if maxScaledDown <= 0 {
		return false
	}
	cleaned := wl.cleanupUnhealthyReplicas(old, maxScaledDown)
	scaled := wl.scaleDownOldReplicaSetsForRollingUpdate(newRS, old, minAvailable)
	return cleaned+scaled > 0
}

// cleanupUnhealthyReplicas is cleanupUnhealthyReplicas: oldest first, each
// old ReplicaSet loses its pods that are not available, at most
// maxCleanup in all. (Upstream refuses a cleanup that would grow a
// ReplicaSet; here available pods never outnumber replicas, since a
// ReplicaSet acts on its replicas before it counts its status.)
func (wl *Workload) cleanupUnhealthyReplicas(old []*replicaSet, maxCleanup int) int {
	total := 0
	for _, rs := range old {
		if total >= maxCleanup {
			break
		}
		if rs.replicas == 0 || rs.replicas == rs.status.available {
			continue
		}
		n := min(maxCleanup-total, rs.replicas-rs.status.available)
		wl.scaleReplicaSetAndRecordEvent(rs, rs.replicas-n)
		total += n
	}
	return total
}

// scaleDownOldReplicaSetsForRollingUpdate is
// scaleDownOldReplicaSetsForRollingUpdate: while more than minAvailable
// pods are available in all ReplicaSets, the old ones lose the difference,
// oldest first.
func (wl *Workload) scaleDownOldReplicaSetsForRollingUpdate(newRS *replicaSet, old []*replicaSet, minAvailable int) int {
	available := newRS.status.available
	for _, rs := range old {
		available += rs.status.available
	}
	if available <= minAvailable {
		return 0
	}
	total, done := available-minAvailable, 0
	for _, rs := range old {
		if done >= total {
			break
		}
		if rs.replicas == 0 {
			continue
		}
		n := min(rs.replicas, total-done)
		wl.scaleReplicaSetAndRecordEvent(rs, rs.replicas-n)
		done += n
	}
	return done
}

// rolloutRecreate is rolloutRecreate (recreate.go): scale every old
// ReplicaSet to 0, wait until none of their pods runs (every one gone from
// the API, or Succeeded or Failed), then make the new ReplicaSet and scale
// it to the Deployment's replicas.
func (wl *Workload) rolloutRecreate() bool {
	newRS := wl.findNewReplicaSet()
	old := wl.oldReplicaSets(newRS)
	scaled := false
	for _, rs := range old {
		if rs.replicas > 0 && wl.scaleReplicaSetAndRecordEvent(rs, 0) {
			scaled = true
		}
	}
	if scaled || oldPodsRunning(old) {
		wl.syncRolloutStatus(newRS)
		return scaled
	}
	made := false
	if newRS == nil {
		newRS, made = wl.getNewReplicaSet()
	}
	changed := wl.scaleReplicaSetAndRecordEvent(newRS, wl.Spec.Replicas) || made
	wl.syncRolloutStatus(newRS)
	return changed
}

// oldPodsRunning is oldPodsRunning: an old ReplicaSet counts active pods,
// or has a pod still in the API that is not Succeeded or Failed (a
// terminating one included).
func oldPodsRunning(old []*replicaSet) bool {
	for _, rs := range old {
		if rs.status.replicas > 0 {
			return true
		}
	}
	for _, rs := range old {
		for _, p := range rs.pods {
			if !p.deleted && !p.phase.Terminal() {
				return true
			}
		}
	}
	return false
}

// isScalingEvent is isScalingEvent: an active ReplicaSet (replicas > 0)
// was last scaled for other replicas than the Deployment's.
func (wl *Workload) isScalingEvent() bool {
	for _, rs := range wl.rc.rss {
		if rs.replicas > 0 && rs.desired != wl.Spec.Replicas {
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
func (wl *Workload) scaleReplicaSets(newRS *replicaSet, old []*replicaSet) bool {
	d := wl.Spec.Replicas
	if rs := activeOrLatest(newRS, old); rs != nil {
		return wl.scaleReplicaSetAndRecordEvent(rs, d)
	}
	if newRS != nil && newRS.replicas == d && newRS.desired == d && newRS.status.available == d { // IsSaturated
		changed := false
		for i := len(old) - 1; i >= 0; i-- { // newest first, as FindActiveOrLatest left them
			if rs := old[i]; rs.replicas > 0 && wl.scaleReplicaSetAndRecordEvent(rs, 0) {
				changed = true
			}
		}
		return changed
	}
	if wl.Spec.Strategy != RollingUpdate {
		return false
	}
	var all []*replicaSet // FilterActiveReplicaSets
	total := 0
	for _, rs := range append(old, newRS) {
		if rs != nil && rs.replicas > 0 {
			all = append(all, rs)
			total += rs.replicas
		}
	}
	surge := wl.Spec.maxSurge()
	allowed := 0
	if d > 0 {
		allowed = d + surge
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
		sizes[i] = rs.replicas
		if toAdd != 0 {
			p := proportion(rs.replicas, rs.maxReplicas, d, surge, wl.rc.status.Replicas, toAdd, added)
			sizes[i] += p
			added += p
		}
	}
	changed := false
	for i, rs := range all {
		if i == 0 && toAdd != 0 {
			sizes[0] = max(sizes[0]+toAdd-added, 0)
		}
		if wl.scaleReplicaSet(rs, sizes[i], op) {
			changed = true
		}
	}
	return changed
}

// activeOrLatest is FindActiveOrLatest: the only ReplicaSet with replicas,
// or, when none has, the new one (else the newest old one); nil when
// several have replicas. old is oldest first.
func activeOrLatest(newRS *replicaSet, old []*replicaSet) *replicaSet {
	var active *replicaSet
	n := 0
	for _, rs := range append(old, newRS) {
		if rs != nil && rs.replicas > 0 {
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
func (wl *Workload) scaleReplicaSetAndRecordEvent(rs *replicaSet, n int) bool {
	if rs.replicas == n {
		return false
	}
	op := "down"
	if rs.replicas < n {
		op = "up"
	}
	return wl.scaleReplicaSet(rs, n, op)
}

// scaleReplicaSet is scaleReplicaSet: rs gets n replicas and the
// Deployment's desired and max replicas as annotations; a change of
// replicas logs ScalingReplicaSet ("Scaled up replica set D-H from 1 to
// 2"). It reports whether the replicas changed.
func (wl *Workload) scaleReplicaSet(rs *replicaSet, n int, op string) bool {
	rs.desired, rs.maxReplicas = wl.Spec.Replicas, wl.Spec.Replicas+wl.Spec.maxSurge()
	if rs.replicas == n {
		return false
	}
	old := rs.replicas
	rs.replicas = n
	wl.w.event(KindDeployment, wl.key, EventNormal, "ScalingReplicaSet", "deployment-controller",
		"Scaled %s replica set %s from %d to %d", op, rs.name, old, n)
	return true
}

// calculateStatus is calculateStatus: the Deployment's counts from its
// ReplicaSets' statuses, and the Available condition: True while at least
// replicas - maxUnavailable pods are available.
func (wl *Workload) calculateStatus(newRS *replicaSet) ReplicaStatus {
	var st ReplicaStatus
	total := 0
	for _, rs := range wl.rc.rss {
		st.Replicas += rs.status.replicas
		st.ReadyReplicas += rs.status.ready
		st.AvailableReplicas += rs.status.available
		total += rs.replicas
	}
	if newRS != nil {
		st.UpdatedReplicas = newRS.status.replicas
	}
	st.UnavailableReplicas = max(total-st.AvailableReplicas, 0)
	if st.AvailableReplicas >= wl.Spec.Replicas-wl.Spec.maxUnavailable() {
		wl.setCondition(DeploymentAvailable, True, ReasonMinimumReplicasAvailable, "Deployment has minimum availability.", false)
	} else {
		wl.setCondition(DeploymentAvailable, False, ReasonMinimumReplicasUnavailable, "Deployment does not have minimum availability.", false)
	}
	return st
}

// writeStatus is syncDeploymentStatus: the status, without judging
// progress.
func (wl *Workload) writeStatus(newRS *replicaSet) { wl.rc.status = wl.calculateStatus(newRS) }

// complete is DeploymentComplete: every replica is of the current
// template and available, and there are no others.
func (wl *Workload) complete(st ReplicaStatus) bool {
	d := wl.Spec.Replicas
	return st.UpdatedReplicas == d && st.Replicas == d && st.AvailableReplicas == d
}

// progressing is DeploymentProgressing: against the status last written,
// more pods of the current template, fewer others, more ready or more
// available.
func (wl *Workload) progressing(st ReplicaStatus) bool {
	old := &wl.rc.status
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
func (wl *Workload) syncRolloutStatus(newRS *replicaSet) {
	st := wl.calculateStatus(newRS)
	deadline := wl.Spec.ProgressDeadline
	cur, hasCur := wl.Condition(DeploymentProgressing)
	done := hasCur && st.Replicas == st.UpdatedReplicas && cur.Reason == ReasonNewReplicaSetAvailable
	if deadline != nil && !done {
		switch {
		case wl.complete(st):
			wl.setProgressing(True, ReasonNewReplicaSetAvailable, progressSubject(wl, newRS)+" has successfully progressed.", false)
		case wl.progressing(st):
			wl.setProgressing(True, ReasonReplicaSetUpdated, progressSubject(wl, newRS)+" is progressing.", true)
		case wl.timedOut():
			wl.setProgressing(False, ReasonProgressDeadlineExceeded, progressSubject(wl, newRS)+" has timed out progressing.", false)
		}
	}
	wl.rc.status = st
	t := &wl.rc.progressTimer
	cur, hasCur = wl.Condition(DeploymentProgressing)
	// Upstream also requeues a Deployment whose condition says it completed
	// (a pod failed since): its checks can change nothing, since such a
	// condition never times out.
	if deadline == nil || !hasCur || wl.complete(st) || cur.Reason == ReasonProgressDeadlineExceeded ||
		cur.Reason == ReasonNewReplicaSetAvailable {
		wl.w.eng.Stop(t)
		return
	}
	if at := sim.AddSat(wl.rc.progressUpdate, sim.AddSat(*deadline, time.Second)); !t.Pending() || t.When() != at {
		wl.w.eng.Schedule(t, at, sim.Normal)
	}
}

// progressSubject names what the Progressing condition's message is about:
// the new ReplicaSet, or the Deployment while it has none.
func progressSubject(wl *Workload, newRS *replicaSet) string {
	if newRS != nil {
		return fmt.Sprintf("ReplicaSet %q", newRS.name)
	}
	return fmt.Sprintf("Deployment %q", wl.Spec.Name)
}

// timedOut is DeploymentTimedOut: the Progressing condition says the
// rollout timed out, or was last updated more than progressDeadlineSeconds
// ago (and does not say it completed).
func (wl *Workload) timedOut() bool {
	c, ok := wl.Condition(DeploymentProgressing)
	switch {
	case !ok || c.Reason == ReasonNewReplicaSetAvailable:
		return false
	case c.Reason == ReasonProgressDeadlineExceeded:
		return true
	}
	return sim.AddSat(wl.rc.progressUpdate, *wl.Spec.ProgressDeadline) < wl.w.Now()
}

// setProgressing sets the Progressing condition, whose lastUpdateTime
// (when progress was last seen) the deadline counts from.
func (wl *Workload) setProgressing(s ConditionStatus, reason, msg string, refresh bool) {
	last := wl.rc.progressUpdate
	wl.rc.progressUpdate = wl.w.Now() // as the condition's change is recorded
	if !wl.setCondition(DeploymentProgressing, s, reason, msg, refresh) {
		wl.rc.progressUpdate = last
	}
}

// setCondition is SetDeploymentCondition: a condition with the status and
// reason it has already is left as it is, unless refresh (the Progressing
// condition's update at each sign of progress); otherwise it is replaced
// and goes last, keeping its lastTransitionTime if its status stays. A
// change of status or reason is recorded. It reports whether it set it.
func (wl *Workload) setCondition(t string, s ConditionStatus, reason, msg string, refresh bool) bool {
	now := wl.w.Now()
	c := Condition{Type: t, Status: s, Reason: reason, Message: msg, LastTransitionTime: now}
	for i, old := range wl.Conditions {
		if old.Type != t {
			continue
		}
		if old.Status == s && old.Reason == reason && !refresh {
			return false
		}
		if old.Status == s {
			c.LastTransitionTime = old.LastTransitionTime
		}
		wl.Conditions = append(wl.Conditions[:i], wl.Conditions[i+1:]...)
		wl.Conditions = append(wl.Conditions, c)
		if old.Status != s || old.Reason != reason {
			wl.recordCondition(c)
		}
		return true
	}
	wl.Conditions = append(wl.Conditions, c)
	wl.recordCondition(c)
	return true
}

func (wl *Workload) recordCondition(c Condition) {
	wl.w.record(Change{Kind: ChangeWorkload, Workload: wl.Spec.Name, Namespace: wl.Namespace(), Object: wl.Spec.Kind, Type: c.Type, Status: string(c.Status),
		Reason: c.Reason, Message: c.Message})
}
