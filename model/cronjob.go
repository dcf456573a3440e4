package model

import (
	"time"
)

// KindCronJob is the kind of a batch/v1 CronJob.
const KindCronJob = "CronJob"

// CronSchedule is a parsed cron schedule (robfig/cron's Schedule): Next
// returns the first activation strictly after t, or the zero time if there
// is none within five years.
type CronSchedule interface {
	Next(t time.Time) time.Time
}

// ConcurrencyPolicy is a CronJob's spec.concurrencyPolicy.
type ConcurrencyPolicy uint8

// Concurrency policies: Allow runs Jobs side by side, Forbid skips a
// scheduled time while a Job is active, Replace deletes the active Jobs
// and starts the new one.
const (
	AllowConcurrent ConcurrencyPolicy = iota
	ForbidConcurrent
	ReplaceConcurrent
)

func (c ConcurrencyPolicy) String() string {
	return [...]string{"Allow", "Forbid", "Replace"}[c]
}

// CronJobSpec is what a CronJob asks for, with Kubernetes' defaults
// applied. Job is the job template: a Job's spec (Kind Job, no Name).
type CronJobSpec struct {
	Schedule          CronSchedule
	ScheduleText      string // as written, for events
	ConcurrencyPolicy ConcurrencyPolicy
	StartingDeadline  *time.Duration
	Suspend           bool
	// History limits: how many finished Jobs of each outcome are kept
	// (defaults 3 and 1).
	SuccessfulJobsHistoryLimit, FailedJobsHistoryLimit int
	Job                                                WorkloadSpec
}

// WallTime is the wall-clock time of the virtual time t: Settings.StartTime
// (the Unix epoch if it is zero and not StartTimeSet) plus t.
func (w *World) WallTime(t time.Duration) time.Time {
	start := w.settings.StartTime
	if start.IsZero() && !w.settings.StartTimeSet {
		start = time.Unix(0, 0)
	}
	return start.UTC().Add(t)
}

// Jobs returns the Jobs of a CronJob that are in the API, oldest first.
func (wl *Workload) Jobs() []*Workload {
	if wl.cron == nil {
		return nil
	}
	return wl.cron.Jobs
}

// ActiveJobs is the length of a CronJob's status.active: the Jobs it
// started that it has not seen finish.
func (wl *Workload) ActiveJobs() int {
	if wl.cron == nil {
		return 0
	}
	return len(wl.cron.Active)
}

// ActiveJobList returns a CronJob's status.active, in the order started.
// It must not be changed.
func (wl *Workload) ActiveJobList() []*Workload {
	if wl.cron == nil {
		return nil
	}
	return wl.cron.Active
}

// LastScheduleTime is a CronJob's status.lastScheduleTime (wall time, see
// WallTime); zero if it never scheduled a Job.
func (wl *Workload) LastScheduleTime() time.Time {
	if wl.cron == nil {
		return time.Time{}
	}
	return wl.cron.LastSchedule
}

// LastSuccessfulTime is a CronJob's status.lastSuccessfulTime: the latest
// completion time of the succeeded Jobs its controller has listed; ok is
// false before there is one.
func (wl *Workload) LastSuccessfulTime() (t time.Duration, ok bool) {
	if wl.cron == nil {
		return 0, false
	}
	return wl.cron.LastSuccess, wl.cron.Succeeded
}

// Parent returns the CronJob that created a Job, or nil.
func (wl *Workload) Parent() *Workload { return wl.parent }

// Deleted reports whether the workload (a CronJob's Job) was deleted.
func (wl *Workload) Deleted() bool { return wl.gone }

// CronJobStatus is a CronJob's status and the Jobs it owns, as its
// controller keeps them (CronJobStatus): the controller changes them, then
// announces the CronJob's update (Workload.Updated).
type CronJobStatus struct {
	Jobs         []*Workload // its Jobs in the API, in creation order
	Made         []*Workload // every Job it created, deleted ones included
	Active       []*Workload // status.active, in the order started
	LastSchedule time.Time   // status.lastScheduleTime; zero: never
	LastSuccess  time.Duration
	Succeeded    bool // LastSuccess is status.lastSuccessfulTime; false: none yet
}

// CronJobStatus returns a CronJob's status for its controller to change
// (made empty at the first call), nil if wl is not a CronJob.
func (wl *Workload) CronJobStatus() *CronJobStatus {
	if wl.cron == nil && wl.Spec.Kind == KindCronJob {
		wl.cron = &CronJobStatus{}
	}
	return wl.cron
}

// AddJob creates a Job of the CronJob wl now, as AddWorkload does; a Job
// named as a deleted one (the API takes the name again) numbers its pods
// on from that one's, whose pods may still be terminating.
func (wl *Workload) AddJob(js WorkloadSpec) *Workload {
	base := 0
	if old := wl.w.Workload(Key(wl.Namespace(), js.Name)); old != nil {
		base = old.podBase + len(old.pods)
	}
	j := wl.w.AddWorkload(js)
	j.parent, j.podBase = wl, base
	return j
}

// Delete deletes a CronJob's Job from the API at once (Deleted): it syncs
// no more. Its pods stay, for the caller to delete.
func (wl *Workload) Delete() {
	wl.gone = true
	wl.w.eng.Stop(&wl.syncTimer)
	for _, h := range wl.w.parts.workloadDeleted {
		h.WorkloadDeleted(wl)
	}
}

// Updated announces an update of the workload's status (an ObjectUpdated
// object change) after its controller changed it.
func (wl *Workload) Updated() {
	wl.w.object(ObjectChange{Kind: ObjectWorkload, Op: ObjectUpdated, Workload: wl})
}

// Event records a Kubernetes event about the workload from source.
func (wl *Workload) Event(typ EventType, reason, source, msg string) {
	wl.w.eventMsg(wl.Spec.Kind, wl.key, typ, reason, source, msg)
}

// cronPods returns the pods of every Job a CronJob created, deleted ones
// included, Job by Job.
func (wl *Workload) cronPods() []*Pod {
	var out []*Pod
	for _, j := range wl.cron.Made {
		out = append(out, j.pods...)
	}
	return out
}
