package job

import (
	"strconv"
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/sim"
)

// finishing acts on the interim condition: the first time, it records it,
// deletes the active pods and, for a failure, counts every pod not yet
// counted as failed; once no pod is terminating, it sets the final
// condition (enactJobFinished) with its event (recordJobFinished). It
// reports whether the status changed.
func (j *state) finishing() bool {
	wl := j.wl
	changed := false
	if _, ok := wl.Condition(j.target.Type); !ok {
		wl.AppendCondition(*j.target)
		for _, p := range wl.Pods() {
			if p.IsActive() { // deleteActivePods, through podControl.DeletePod
				wl.Event(model.EventNormal, "SuccessfulDelete", "job-controller", "Deleted pod: "+p.Name)
				p.Delete(nil)
			}
		}
		if j.target.Type == model.JobFailureTarget {
			now := j.w.Now()
			for i, p := range wl.Pods() {
				if jp := &j.pods[i]; !jp.counted && p.Phase() != model.Succeeded {
					j.podFailedCounted(i, matchPodFailurePolicy(wl.Spec.PodFailurePolicy, p, wl.Spec.BackoffLimitPerIndex != nil))
					jp.counted, jp.finishedAt = true, now
				}
			}
		}
		changed = true
	}
	if _, n, _ := j.podCounts(); n > 0 {
		return changed
	}
	t := *j.target
	t.LastTransitionTime = j.w.Now()
	j.finished = true
	j.w.Engine().Stop(&j.waitTimer)
	if t.Type == model.JobSuccessCriteriaMet {
		t.Type = model.JobComplete
	} else {
		t.Type = model.JobFailed
	}
	wl.AppendCondition(t)
	if t.Type == model.JobComplete {
		if j.succeeded() > wl.Spec.Completions {
			wl.Event(model.EventWarning, "TooManySucceededPods", "job-controller", "Too many succeeded pods running after completion count reached")
		}
		wl.Event(model.EventNormal, "Completed", "job-controller", "Job completed")
	} else {
		wl.Event(model.EventWarning, t.Reason, "job-controller", t.Message)
	}
	if parent := wl.Parent(); parent != nil {
		parent.RequestSync() // the CronJob controller watches its Jobs
	}
	return true
}

// manage creates the pods the Job lacks, as manageJob does: up to
// parallelism, no more than the completions left, after the failed-pod
// backoff (per index, with backoffLimitPerIndex); with podReplacementPolicy
// Failed, a terminating pod is not replaced until it has failed. It
// returns how many it created.
func (j *state) manage(nActive, nTerminating int) int {
	s := &j.wl.Spec
	now := j.w.Now()
	want := max(min(s.Completions-j.succeeded(), s.Parallelism), 0)
	if !replaceFailedOnly(s) {
		nTerminating = 0
	}
	diff := want - nTerminating - nActive
	if diff <= 0 {
		return 0
	}
	if s.BackoffLimitPerIndex == nil && j.failuresSinceSuccess > 0 {
		if at := sim.AddSat(j.lastFailure, backoffDelay(j.failuresSinceSuccess)); at > now {
			j.wakeAt(at)
			return 0
		}
	}
	if !s.Indexed {
		for range diff {
			j.createPod(-1)
		}
		return diff
	}
	// The first diff pending indexes; of those, the ones past their
	// backoff get a pod (getPodCreationInfoForIndependentIndexes); if none
	// is, the Job syncs again when the first backoff ends.
	made, pending := 0, 0
	var wake time.Duration
	j.markBusyIndexes()
	for ix := 0; ix < s.Completions && pending < diff; ix++ {
		if j.busyIdx[ix] || j.succeededIdx[ix] || j.failedIdx[ix] {
			continue
		}
		pending++
		if at := j.indexBackoffEnd(ix); at > now {
			if wake == 0 || at < wake {
				wake = at
			}
			continue
		}
		j.createPod(ix)
		made++
	}
	if made == 0 && wake > 0 {
		j.wakeAt(wake)
	}
	return made
}

// wakeAt has the Job synced again at at, unless it already will be sooner.
func (j *state) wakeAt(at time.Duration) {
	if !j.waitTimer.Pending() || j.waitTimer.When() > at {
		j.w.Engine().Schedule(&j.waitTimer, at, sim.Normal)
	}
}

// backoffDelay is the failed-pod backoff after n failures
// (getRemainingTimeForFailuresCount).
func backoffDelay(n int) time.Duration {
	return min(backoffInitial<<min(n-1, 16), backoffMax)
}

// markBusyIndexes marks the indexes that have an active pod or, with
// podReplacementPolicy Failed, a terminating one: they need no new pod
// (firstPendingIndexes).
func (j *state) markBusyIndexes() {
	clear(j.busyIdx)
	for i, p := range j.wl.Pods() {
		if ix := j.pods[i].index; ix >= 0 && (p.IsActive() || (terminating(p) && replaceFailedOnly(&j.wl.Spec))) {
			j.busyIdx[ix] = true
		}
	}
}

// indexBackoffEnd is when index ix may get a new pod, with
// backoffLimitPerIndex (getRemainingTimePerIndex): its last failed pod's
// failures (counted and ignored), plus one, set the delay. Zero: now.
func (j *state) indexBackoffEnd(ix int) time.Duration {
	last := j.lastFailedOf[ix]
	if j.wl.Spec.BackoffLimitPerIndex == nil || last < 0 {
		return 0
	}
	jp := &j.pods[last]
	return sim.AddSat(jp.finishedAt, backoffDelay(int(jp.failures+jp.ignored)+1))
}

// createPod creates a pod of the Job; for an Indexed Job, of index ix,
// named <job>-<ix>-<n>, with its completion index label and its index's
// failure counts carried from the index's last failed pod
// (getNewIndexFailureCounts).
func (j *state) createPod(ix int) {
	wl, s := j.wl, &j.wl.Spec
	jp := jobPod{index: ix}
	if ix < 0 {
		wl.CreatePod(s.Template, "")
		j.pods = append(j.pods, jp)
		return
	}
	if last := j.lastFailedOf[ix]; last >= 0 {
		prev := &j.pods[last]
		jp.failures, jp.ignored = prev.failures, prev.ignored
		if matchPodFailurePolicy(s.PodFailurePolicy, wl.Pods()[last], s.BackoffLimitPerIndex != nil).count {
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
	o.Labels[model.LabelCompletionIndex] = strconv.Itoa(ix)
	name := s.Name + "-" + strconv.Itoa(ix) + "-" + strconv.Itoa(wl.PodSerial())
	wl.CreatePodNamed(s.Template, name, o)
	j.pods = append(j.pods, jp)
}
