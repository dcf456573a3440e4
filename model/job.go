package model

import (
	"strconv"
	"time"

	"github.com/podsim/podsim/sim"
)

// The Job controller (pkg/controller/job/job_controller.go): it counts
// each finished pod once into the Job's status (the tracking finalizer
// holds a pod in the API until it is counted, so deleting or draining a
// finished pod never takes it off the count), applies the pod failure
// policy, runs Indexed Jobs with their per-index backoff limit, and ends a
// Job with an interim condition (FailureTarget, SuccessCriteriaMet) then,
// once none of its pods is terminating, the final one (Failed, Complete).

// Job condition types and reasons (batch/v1).
const (
	JobComplete           = "Complete"
	JobFailed             = "Failed"
	JobFailureTarget      = "FailureTarget"
	JobSuccessCriteriaMet = "SuccessCriteriaMet"
)

// LabelCompletionIndex is the label and annotation that carries an Indexed
// Job's pod's completion index.
const LabelCompletionIndex = "batch.kubernetes.io/job-completion-index"

// Job failed-pod backoff (DefaultJobPodFailureBackOff,
// MaxJobPodFailureBackOff): 10s doubling per failure since the last
// success, capped at 10 minutes.
const (
	jobBackoffInitial = 10 * time.Second
	jobBackoffMax     = 10 * time.Minute
)

// jobPod is the Job controller's record of one of its pods.
type jobPod struct {
	index      int           // completion index; -1: none (NonIndexed)
	failures   int32         // job-index-failure-count: counted failures of its index before it
	ignored    int32         // job-index-ignored-failure-count
	counted    bool          // counted into the status (its tracking finalizer removed)
	finishedAt time.Duration // when it was counted
}

// jobState is a Job's status as its controller keeps it.
type jobState struct {
	pods              []jobPod // by position in Workload.pods
	succeeded, failed int      // status.succeeded (NonIndexed), status.failed

	// Indexed: completed and failed indexes, and the last failed pod of
	// each index (its position in Workload.pods; -1: none).
	succeededIdx, failedIdx   []bool
	busyIdx                   []bool // scratch of manageJob: indexes with a pod
	nSucceededIdx, nFailedIdx int
	lastFailedOf              []int
	completedIndexes          string // formatted (status.completedIndexes)
	failedIndexes             string // formatted (status.failedIndexes)

	failuresSinceSuccess int // the backoff record: failures after the last success
	lastFailure          time.Duration

	target   *Condition // the interim FailureTarget or SuccessCriteriaMet, once set
	finished bool       // Complete or Failed is set
}

// newJobState is the state of a new Job of spec s.
func newJobState(s *WorkloadSpec) *jobState {
	j := &jobState{}
	if s.Indexed {
		j.succeededIdx, j.failedIdx = make([]bool, s.Completions), make([]bool, s.Completions)
		j.busyIdx = make([]bool, s.Completions)
		j.lastFailedOf = make([]int, s.Completions)
		for i := range j.lastFailedOf {
			j.lastFailedOf[i] = -1
		}
	}
	return j
}

// JobStatus is a Job's status as its controller writes it.
type JobStatus struct {
	Active, Ready, Terminating int
	Succeeded, Failed          int
	CompletedIndexes           string // Indexed
	FailedIndexes              string // with backoffLimitPerIndex
	HasFailedIndexes           bool   // FailedIndexes is set (backoffLimitPerIndex)
	CompletionTime             time.Duration
	Completed                  bool // CompletionTime is set
}

// JobStatus returns the Job's status now; the zero status if wl is not a
// Job.
func (wl *Workload) JobStatus() JobStatus {
	j := wl.job
	if j == nil {
		return JobStatus{}
	}
	st := JobStatus{Succeeded: wl.jobSucceeded(), Failed: j.failed, CompletedIndexes: j.completedIndexes}
	if wl.Spec.BackoffLimitPerIndex != nil {
		st.FailedIndexes, st.HasFailedIndexes = j.failedIndexes, true
	}
	if c, ok := wl.Condition(JobComplete); ok {
		st.Completed, st.CompletionTime = true, c.LastTransitionTime
	}
	for _, p := range wl.pods {
		switch {
		case active(p):
			st.Active++
			if p.ready() {
				st.Ready++
			}
		case terminating(p):
			st.Terminating++
		}
	}
	return st
}

// jobSucceeded is status.succeeded: the succeeded pods counted, or an
// Indexed Job's completed indexes.
func (wl *Workload) jobSucceeded() int {
	if wl.Spec.Indexed {
		return wl.job.nSucceededIdx
	}
	return wl.job.succeeded
}

// terminating reports whether p is being deleted and has not finished
// (CountTerminatingPods).
func terminating(p *Pod) bool { return p.deleting && !p.deleted && !p.phase.Terminal() }

// CompletionIndex returns the completion index of an Indexed Job's pod
// (its label LabelCompletionIndex).
func (p *Pod) CompletionIndex() (int, bool) {
	v, ok := p.Labels[LabelCompletionIndex]
	if !ok || p.owner == nil || !p.owner.Spec.Indexed {
		return 0, false
	}
	i, err := strconv.Atoi(v)
	return i, err == nil
}

// podFailed is isPodFailed: Failed, or deleted (gone, or, unless only
// failed pods are replaced, being deleted) before it succeeded.
func (wl *Workload) podFailed(p *Pod) bool {
	switch {
	case p.phase == Failed:
		return true
	case p.phase == Succeeded:
		return false
	case p.deleted:
		return true // the tracking finalizer held it until the kubelet failed it
	}
	return p.deleting && !wl.Spec.replaceFailedOnly()
}

// replaceFailedOnly is onlyReplaceFailedPods: podReplacementPolicy Failed,
// the only one a Job with a pod failure policy may have.
func (s *WorkloadSpec) replaceFailedOnly() bool {
	return s.PodReplacementFailed || s.PodFailurePolicy != nil
}

// syncJob is the Job controller's syncJob.
func (wl *Workload) syncJob() {
	j := wl.job
	if j.finished {
		return
	}
	s := &wl.Spec
	for len(j.pods) < len(wl.pods) { // made by another hand (CreatePod): no index
		j.pods = append(j.pods, jobPod{index: -1})
	}
	failJob, changed := wl.countFinished()
	nActive, nTerminating, restarts := wl.jobPodCounts()
	if j.target == nil {
		wl.jobTarget(failJob, restarts)
	}
	if j.target == nil {
		nActive += wl.manageJob(nActive, nTerminating)
		if wl.jobSucceeded() >= s.Completions && nActive == 0 {
			j.target = &Condition{Type: JobSuccessCriteriaMet, Status: True, Reason: "CompletionsReached",
				Message: "Reached expected number of succeeded pods", LastTransitionTime: wl.w.Now()}
		}
	}
	if j.target != nil {
		changed = wl.jobFinishing() || changed
	}
	if changed {
		wl.Updated()
	}
}

// countFinished counts the pods that finished since the last sync into the
// status and the backoff record, as trackJobStatusAndRemoveFinalizers
// does, and returns the message of the first FailJob rule a failed pod
// matched. It reports whether the status changed.
func (wl *Workload) countFinished() (failJob string, changed bool) {
	j, s := wl.job, &wl.Spec
	now := wl.w.Now()
	newSucceeded, newFailed := 0, 0
	for i, p := range wl.pods {
		jp := &j.pods[i]
		if jp.counted {
			continue
		}
		switch {
		case p.phase == Succeeded:
			newSucceeded++
			if s.Indexed {
				wl.indexSucceeded(jp.index)
			} else {
				j.succeeded++
			}
		case wl.podFailed(p):
			newFailed++
			m := matchPodFailurePolicy(s.PodFailurePolicy, p, s.BackoffLimitPerIndex != nil)
			if m.action == ActionFailJob && failJob == "" {
				failJob = m.failJobMessage(p)
			}
			wl.podFailedCounted(i, m)
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
func (wl *Workload) podFailedCounted(i int, m policyMatch) {
	j, s := wl.job, &wl.Spec
	if m.count {
		j.failed++
	}
	jp := &j.pods[i]
	if !s.Indexed || jp.index < 0 {
		return
	}
	j.lastFailedOf[jp.index] = i
	if s.BackoffLimitPerIndex == nil || j.failedIdx[jp.index] || j.succeededIdx[jp.index] {
		return
	}
	if m.action == ActionFailIndex || (m.count && int(jp.failures) >= *s.BackoffLimitPerIndex) {
		j.failedIdx[jp.index] = true
		j.nFailedIdx++
		j.failedIndexes = formatIndexes(j.failedIdx)
	}
}

// indexSucceeded marks index ix completed.
func (wl *Workload) indexSucceeded(ix int) {
	j := wl.job
	if ix < 0 || j.succeededIdx[ix] || j.failedIdx[ix] {
		return
	}
	j.succeededIdx[ix] = true
	j.nSucceededIdx++
	j.completedIndexes = formatIndexes(j.succeededIdx)
}

// jobPodCounts counts the active and the terminating pods, and the
// restarts of the active ones' containers.
func (wl *Workload) jobPodCounts() (nActive, nTerminating, restarts int) {
	for _, p := range wl.pods {
		switch {
		case active(p):
			nActive++
			for _, cs := range [2][]*container{p.init, p.regular} {
				for _, c := range cs {
					restarts += int(c.status.RestartCount)
				}
			}
		case terminating(p):
			nTerminating++
		}
	}
	return nActive, nTerminating, restarts
}

// jobTarget decides whether the Job ends, in syncJob's order: a FailJob
// rule, the backoff limit, the active deadline, then for an Indexed Job
// its failed indexes and its success policy. It sets the interim
// condition, or arms the deadline.
func (wl *Workload) jobTarget(failJob string, restarts int) {
	j, s := wl.job, &wl.Spec
	now := wl.w.Now()
	fail := func(reason, msg string) {
		j.target = &Condition{Type: JobFailureTarget, Status: True, Reason: reason, Message: msg, LastTransitionTime: now}
	}
	switch {
	case failJob != "":
		fail("PodFailurePolicy", failJob)
	case j.failed > s.BackoffLimit || wl.pastBackoffLimitOnFailure(restarts):
		fail("BackoffLimitExceeded", "Job has reached the specified backoff limit")
	case s.ActiveDeadline != nil && now >= sim.AddSat(wl.created, *s.ActiveDeadline):
		fail("DeadlineExceeded", "Job was active longer than specified deadline")
	case s.ActiveDeadline != nil && !wl.waitTimer.Pending():
		wl.w.eng.Schedule(&wl.waitTimer, sim.AddSat(wl.created, *s.ActiveDeadline), sim.Normal)
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
		j.target = &Condition{Type: JobSuccessCriteriaMet, Status: True, Reason: "SuccessPolicy", Message: msg, LastTransitionTime: now}
	}
}

// pastBackoffLimitOnFailure is the job controller's check for pods that
// restart in place (restartPolicy OnFailure): their containers' restarts
// reach backoffLimit (any restart, if the limit is 0).
func (wl *Workload) pastBackoffLimitOnFailure(restarts int) bool {
	if wl.Spec.Template.RestartPolicy != RestartOnFailure {
		return false
	}
	if wl.Spec.BackoffLimit == 0 {
		return restarts > 0
	}
	return restarts >= wl.Spec.BackoffLimit
}

// jobFinishing acts on the interim condition: the first time, it records
// it, deletes the active pods and, for a failure, counts every pod not yet
// counted as failed; once no pod is terminating, it sets the final
// condition (enactJobFinished) with its event (recordJobFinished). It
// reports whether the status changed.
func (wl *Workload) jobFinishing() bool {
	j := wl.job
	changed := false
	if !wl.hasCondition(j.target.Type) {
		wl.setJobCondition(*j.target)
		for _, p := range wl.pods {
			if active(p) { // deleteActivePods, through podControl.DeletePod
				wl.w.event(KindJob, wl.key, EventNormal, "SuccessfulDelete", "job-controller", "Deleted pod: %s", p.Name)
				p.Delete(nil)
			}
		}
		if j.target.Type == JobFailureTarget {
			now := wl.w.Now()
			for i, p := range wl.pods {
				if jp := &j.pods[i]; !jp.counted && p.phase != Succeeded {
					wl.podFailedCounted(i, matchPodFailurePolicy(wl.Spec.PodFailurePolicy, p, wl.Spec.BackoffLimitPerIndex != nil))
					jp.counted, jp.finishedAt = true, now
				}
			}
		}
		changed = true
	}
	if _, n, _ := wl.jobPodCounts(); n > 0 {
		return changed
	}
	t := *j.target
	t.LastTransitionTime = wl.w.Now()
	j.finished = true
	wl.w.eng.Stop(&wl.waitTimer)
	if t.Type == JobSuccessCriteriaMet {
		t.Type = JobComplete
	} else {
		t.Type = JobFailed
	}
	wl.setJobCondition(t)
	if t.Type == JobComplete {
		if wl.jobSucceeded() > wl.Spec.Completions {
			wl.w.event(KindJob, wl.key, EventWarning, "TooManySucceededPods", "job-controller", "Too many succeeded pods running after completion count reached")
		}
		wl.w.event(KindJob, wl.key, EventNormal, "Completed", "job-controller", "Job completed")
	} else {
		wl.w.eventMsg(KindJob, wl.key, EventWarning, t.Reason, "job-controller", t.Message)
	}
	if wl.parent != nil {
		wl.parent.requestSync() // the CronJob controller watches its Jobs
	}
	return true
}

// hasCondition reports whether the workload has a condition of type t.
func (wl *Workload) hasCondition(t string) bool {
	_, ok := wl.Condition(t)
	return ok
}

// setJobCondition appends c to the Job's conditions and records it.
func (wl *Workload) setJobCondition(c Condition) {
	wl.Conditions = append(wl.Conditions, c)
	wl.w.record(Change{Kind: ChangeWorkload, Workload: wl.Spec.Name, Namespace: wl.Namespace(), Object: wl.Spec.Kind, Type: c.Type, Status: string(c.Status), Reason: c.Reason})
}

// manageJob creates the pods the Job lacks, as manageJob does: up to
// parallelism, no more than the completions left, after the failed-pod
// backoff (per index, with backoffLimitPerIndex); with podReplacementPolicy
// Failed, a terminating pod is not replaced until it has failed. It
// returns how many it created.
func (wl *Workload) manageJob(nActive, nTerminating int) int {
	j, s := wl.job, &wl.Spec
	now := wl.w.Now()
	want := max(min(s.Completions-wl.jobSucceeded(), s.Parallelism), 0)
	if !s.replaceFailedOnly() {
		nTerminating = 0
	}
	diff := want - nTerminating - nActive
	if diff <= 0 {
		return 0
	}
	if s.BackoffLimitPerIndex == nil && j.failuresSinceSuccess > 0 {
		if at := sim.AddSat(j.lastFailure, backoffDelay(j.failuresSinceSuccess)); at > now {
			wl.wakeAt(at)
			return 0
		}
	}
	if !s.Indexed {
		for range diff {
			wl.createJobPod(-1)
		}
		return diff
	}
	// The first diff pending indexes; of those, the ones past their
	// backoff get a pod (getPodCreationInfoForIndependentIndexes); if none
	// is, the Job syncs again when the first backoff ends.
	made, pending := 0, 0
	var wake time.Duration
	wl.markBusyIndexes()
	for ix := 0; ix < s.Completions && pending < diff; ix++ {
		if j.busyIdx[ix] || j.succeededIdx[ix] || j.failedIdx[ix] {
			continue
		}
		pending++
		if at := wl.indexBackoffEnd(ix); at > now {
			if wake == 0 || at < wake {
				wake = at
			}
			continue
		}
		wl.createJobPod(ix)
		made++
	}
	if made == 0 && wake > 0 {
		wl.wakeAt(wake)
	}
	return made
}

// wakeAt has the Job synced again at at, unless it already will be sooner.
func (wl *Workload) wakeAt(at time.Duration) {
	if !wl.waitTimer.Pending() || wl.waitTimer.When() > at {
		wl.w.eng.Schedule(&wl.waitTimer, at, sim.Normal)
	}
}

// backoffDelay is the failed-pod backoff after n failures
// (getRemainingTimeForFailuresCount).
func backoffDelay(n int) time.Duration {
	return min(jobBackoffInitial<<min(n-1, 16), jobBackoffMax)
}

// markBusyIndexes marks the indexes that have an active pod or, with
// podReplacementPolicy Failed, a terminating one: they need no new pod
// (firstPendingIndexes).
func (wl *Workload) markBusyIndexes() {
	j := wl.job
	clear(j.busyIdx)
	for i, p := range wl.pods {
		if ix := j.pods[i].index; ix >= 0 && (active(p) || (terminating(p) && wl.Spec.replaceFailedOnly())) {
			j.busyIdx[ix] = true
		}
	}
}

// indexBackoffEnd is when index ix may get a new pod, with
// backoffLimitPerIndex (getRemainingTimePerIndex): its last failed pod's
// failures (counted and ignored), plus one, set the delay. Zero: now.
func (wl *Workload) indexBackoffEnd(ix int) time.Duration {
	j := wl.job
	last := j.lastFailedOf[ix]
	if wl.Spec.BackoffLimitPerIndex == nil || last < 0 {
		return 0
	}
	jp := &j.pods[last]
	return sim.AddSat(jp.finishedAt, backoffDelay(int(jp.failures+jp.ignored)+1))
}

// createJobPod creates a pod of the Job; for an Indexed Job, of index ix,
// named <job>-<ix>-<n>, with its completion index label and its index's
// failure counts carried from the index's last failed pod
// (getNewIndexFailureCounts).
func (wl *Workload) createJobPod(ix int) {
	j, s := wl.job, &wl.Spec
	jp := jobPod{index: ix}
	if ix < 0 {
		wl.createPod(s.Template, "")
		j.pods = append(j.pods, jp)
		return
	}
	if last := j.lastFailedOf[ix]; last >= 0 {
		prev := &j.pods[last]
		jp.failures, jp.ignored = prev.failures, prev.ignored
		if matchPodFailurePolicy(s.PodFailurePolicy, wl.pods[last], s.BackoffLimitPerIndex != nil).count {
			jp.failures++
		} else {
			jp.ignored++
		}
	}
	o := s.Options
	o.Labels = make(map[string]string, len(s.Options.Labels)+1)
	for k, v := range s.Options.Labels {
		o.Labels[k] = v
	}
	o.Labels[LabelCompletionIndex] = strconv.Itoa(ix)
	name := s.Name + "-" + strconv.Itoa(ix) + "-" + strconv.Itoa(wl.podBase+len(wl.pods))
	wl.createNamedPod(s.Template, name, o)
	j.pods = append(j.pods, jp)
}
