package model

import (
	"strconv"
	"time"
)

// A Job's status and the names its controller (model/controller/job) uses.

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
	st := JobStatus{Succeeded: j.Succeeded, Failed: j.Failed, CompletedIndexes: j.CompletedIndexes}
	if wl.Spec.BackoffLimitPerIndex != nil {
		st.FailedIndexes, st.HasFailedIndexes = j.FailedIndexes, true
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

// terminating reports whether p is being deleted and has not finished
// (CountTerminatingPods).
func terminating(p *Pod) bool { return p.deleting && !p.deleted && !p.terminal() }

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
