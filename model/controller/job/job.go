// Package job is the Job controller (pkg/controller/job/job_controller.go):
// it counts each finished pod once into the Job's status (the tracking
// finalizer holds a pod in the API until it is counted, so deleting or
// draining a finished pod never takes it off the count), applies the pod
// failure policy, runs Indexed Jobs with their per-index backoff limit,
// and ends a Job with an interim condition (FailureTarget,
// SuccessCriteriaMet) then, once none of its pods is terminating, the
// final one (Failed, Complete).
package job

import (
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/sim"
)

// Job failed-pod backoff (DefaultJobPodFailureBackOff,
// MaxJobPodFailureBackOff): 10s doubling per failure since the last
// success, capped at 10 minutes.
const (
	backoffInitial = 10 * time.Second
	backoffMax     = 10 * time.Minute
)

// Controller is the Job controller; register it with
// World.RegisterWorkloadController for model.KindJob. Its state of a Job
// is by Workload.ID.
type Controller struct {
	w    *model.World
	jobs []*state // by Workload.ID; nil: not a Job
}

// New returns the Job controller of w.
func New(w *model.World) *Controller { return &Controller{w: w} }

// jobPod is the Job controller's record of one of its pods.
type jobPod struct {
	index      int           // completion index; -1: none (NonIndexed)
	failures   int32         // job-index-failure-count: counted failures of its index before it
	ignored    int32         // job-index-ignored-failure-count
	counted    bool          // counted into the status (its tracking finalizer removed)
	finishedAt time.Duration // when it was counted
}

// state is what the controller keeps of a Job besides the counts of its
// status, which the object keeps (model.JobCounts).
type state struct {
	w    *model.World
	wl   *model.Workload
	st   *model.JobCounts
	pods []jobPod // by position in Workload.Pods

	// Indexed: completed and failed indexes, and the last failed pod of
	// each index (its position in Workload.Pods; -1: none).
	succeededIdx, failedIdx   []bool
	busyIdx                   []bool // scratch of manageJob: indexes with a pod
	nSucceededIdx, nFailedIdx int
	lastFailedOf              []int

	failuresSinceSuccess int // the backoff record: failures after the last success
	lastFailure          time.Duration

	target    *model.Condition // the interim FailureTarget or SuccessCriteriaMet, once set
	finished  bool             // Complete or Failed is set
	waitTimer sim.Timer        // the failed-pod backoff or the active deadline
}

// WorkloadAdded sets up the state of a new Job.
func (c *Controller) WorkloadAdded(wl *model.Workload) {
	s := &wl.Spec
	j := &state{w: c.w, wl: wl, st: wl.JobCounts()}
	if s.Indexed {
		j.succeededIdx, j.failedIdx = make([]bool, s.Completions), make([]bool, s.Completions)
		j.busyIdx = make([]bool, s.Completions)
		j.lastFailedOf = make([]int, s.Completions)
		for i := range j.lastFailedOf {
			j.lastFailedOf[i] = -1
		}
	}
	j.waitTimer.Init(j.sync)
	for wl.ID() >= len(c.jobs) {
		c.jobs = append(c.jobs, nil)
	}
	c.jobs[wl.ID()] = j
}

// WorkloadDeleted stops a deleted Job's backoff or deadline.
func (c *Controller) WorkloadDeleted(wl *model.Workload) {
	if j := c.of(wl); j != nil {
		c.w.Engine().Stop(&j.waitTimer)
	}
}

func (c *Controller) of(wl *model.Workload) *state {
	if id := wl.ID(); id < len(c.jobs) {
		return c.jobs[id]
	}
	return nil
}

// Sync is the Job controller's syncJob.
func (c *Controller) Sync(wl *model.Workload) { c.of(wl).sync() }

// succeeded is status.succeeded: the succeeded pods counted, or an Indexed
// Job's completed indexes.
func (j *state) succeeded() int { return j.st.Succeeded }

// terminating reports whether p is being deleted and has not finished
// (CountTerminatingPods).
func terminating(p *model.Pod) bool {
	return p.Terminating() && !p.Deleted() && !p.Phase().Terminal()
}

// podFailed is isPodFailed: Failed, or deleted (gone, or, unless only
// failed pods are replaced, being deleted) before it succeeded.
func (j *state) podFailed(p *model.Pod) bool {
	switch {
	case p.Phase() == model.Failed:
		return true
	case p.Phase() == model.Succeeded:
		return false
	case p.Deleted():
		return true // the tracking finalizer held it until the kubelet failed it
	}
	return p.Terminating() && !replaceFailedOnly(&j.wl.Spec)
}

// replaceFailedOnly is onlyReplaceFailedPods: podReplacementPolicy Failed,
// the only one a Job with a pod failure policy may have.
func replaceFailedOnly(s *model.WorkloadSpec) bool {
	return s.PodReplacementFailed || s.PodFailurePolicy != nil
}

// sync is syncJob.
func (j *state) sync() {
	if j.finished {
		return
	}
	wl, s := j.wl, &j.wl.Spec
	for len(j.pods) < len(wl.Pods()) { // made by another hand (CreatePod): no index
		j.pods = append(j.pods, jobPod{index: -1})
	}
	failJob, changed := j.countFinished()
	nActive, nTerminating, restarts := j.podCounts()
	if j.target == nil {
		j.decideTarget(failJob, restarts)
	}
	if j.target == nil {
		nActive += j.manage(nActive, nTerminating)
		if j.succeeded() >= s.Completions && nActive == 0 {
			j.target = &model.Condition{Type: model.JobSuccessCriteriaMet, Status: model.True, Reason: "CompletionsReached",
				Message: "Reached expected number of succeeded pods", LastTransitionTime: j.w.Now()}
		}
	}
	if j.target != nil {
		changed = j.finishing() || changed
	}
	if changed {
		wl.Updated()
	}
}

// countFinished counts the pods that finished since the last sync into the
// status and the backoff record, as trackJobStatusAndRemoveFinalizers
// does, and returns the message of the first FailJob rule a failed pod
// matched. It reports whether the status changed.
func (j *state) countFinished() (failJob string, changed bool) {
	s := &j.wl.Spec
	now := j.w.Now()
	newSucceeded, newFailed := 0, 0
	for i, p := range j.wl.Pods() {
		jp := &j.pods[i]
		if jp.counted {
			continue
		}
		switch {
		case p.Phase() == model.Succeeded:
			newSucceeded++
			if s.Indexed {
				j.indexSucceeded(jp.index)
			} else {
				j.st.Succeeded++
			}
		case j.podFailed(p):
			newFailed++
			m := matchPodFailurePolicy(s.PodFailurePolicy, p, s.BackoffLimitPerIndex != nil)
			if m.action == model.ActionFailJob && failJob == "" {
				failJob = m.failJobMessage(p)
			}
			j.podFailedCounted(i, m)
		default:
			continue
		}
		jp.counted, jp.finishedAt, changed = true, now, true
	}
	switch {
	case newSucceeded > 0:
		j.failuresSinceSuccess = 0 // every failure now is not after the success
	case newFailed > 0:
		j.failuresSinceSuccess += newFailed
		j.lastFailure = now
	}
	return failJob, changed
}

// podFailedCounted counts the failure of the pod at position i, as matched
// against the pod failure policy: into status.failed unless ignored, and
// into its index (isIndexFailed).
func (j *state) podFailedCounted(i int, m policyMatch) {
	s := &j.wl.Spec
	if m.count {
		j.st.Failed++
	}
	jp := &j.pods[i]
	if !s.Indexed || jp.index < 0 {
		return
	}
	j.lastFailedOf[jp.index] = i
	if s.BackoffLimitPerIndex == nil || j.failedIdx[jp.index] || j.succeededIdx[jp.index] {
		return
	}
	if m.action == model.ActionFailIndex || (m.count && int(jp.failures) >= *s.BackoffLimitPerIndex) {
		j.failedIdx[jp.index] = true
		j.nFailedIdx++
		j.st.FailedIndexes = formatIndexes(j.failedIdx)
	}
}

// indexSucceeded marks index ix completed.
func (j *state) indexSucceeded(ix int) {
	if ix < 0 || j.succeededIdx[ix] || j.failedIdx[ix] {
		return
	}
	j.succeededIdx[ix] = true
	j.nSucceededIdx++
	j.st.Succeeded = j.nSucceededIdx
	j.st.CompletedIndexes = formatIndexes(j.succeededIdx)
}

// podCounts counts the active and the terminating pods, and the restarts
// of the active ones' containers.
func (j *state) podCounts() (nActive, nTerminating, restarts int) {
	for _, p := range j.wl.Pods() {
		switch {
		case p.IsActive():
			nActive++
			restarts += p.Restarts()
		case terminating(p):
			nTerminating++
		}
	}
	return nActive, nTerminating, restarts
}

// decideTarget decides whether the Job ends, in syncJob's order: a FailJob
// rule, the backoff limit, the active deadline, then for an Indexed Job
// its failed indexes and its success policy. It sets the interim
// condition, or arms the deadline.
func (j *state) decideTarget(failJob string, restarts int) {
	s := &j.wl.Spec
	now := j.w.Now()
	fail := func(reason, msg string) {
		j.target = &model.Condition{Type: model.JobFailureTarget, Status: model.True, Reason: reason, Message: msg, LastTransitionTime: now}
	}
	switch {
	case failJob != "":
		fail("PodFailurePolicy", failJob)
	case j.st.Failed > s.BackoffLimit || j.pastBackoffLimitOnFailure(restarts):
		fail("BackoffLimitExceeded", "Job has reached the specified backoff limit")
	case s.ActiveDeadline != nil && now >= sim.AddSat(j.wl.Created(), *s.ActiveDeadline):
		fail("DeadlineExceeded", "Job was active longer than specified deadline")
	case s.ActiveDeadline != nil && !j.waitTimer.Pending():
		j.w.Engine().Schedule(&j.waitTimer, sim.AddSat(j.wl.Created(), *s.ActiveDeadline), sim.Normal)
	}
	if j.target != nil || !s.Indexed {
		return
	}
	if s.BackoffLimitPerIndex != nil {
		switch {
		case s.MaxFailedIndexes != nil && j.nFailedIdx > *s.MaxFailedIndexes:
			fail("MaxFailedIndexesExceeded", "Job has exceeded the specified maximal number of failed indexes")
			return
		case j.nFailedIdx > 0 && j.nFailedIdx+j.nSucceededIdx >= s.Completions:
			fail("FailedIndexes", "Job has failed indexes")
			return
		}
	}
	if msg, ok := matchSuccessPolicy(s.SuccessPolicy, j.succeededIdx, j.nSucceededIdx); ok {
		j.target = &model.Condition{Type: model.JobSuccessCriteriaMet, Status: model.True, Reason: "SuccessPolicy", Message: msg, LastTransitionTime: now}
	}
}

// pastBackoffLimitOnFailure is the job controller's check for pods that
// restart in place (restartPolicy OnFailure): their containers' restarts
// reach backoffLimit (any restart, if the limit is 0).
func (j *state) pastBackoffLimitOnFailure(restarts int) bool {
	s := &j.wl.Spec
	if s.Template.RestartPolicy != model.RestartOnFailure {
		return false
	}
	if s.BackoffLimit == 0 {
		return restarts > 0
	}
	return restarts >= s.BackoffLimit
}
