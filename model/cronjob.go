package model

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/podsim/podsim/sim"
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

// nextScheduleDelta is the padding the CronJob controller adds to each
// requeue, for clock skew (pkg/controller/cronjob/cronjob_controllerv2.go).
const nextScheduleDelta = 100 * time.Millisecond

// tooManyMissed is the count of missed schedules past which the controller
// warns (TooManyMissedTimes).
const tooManyMissed = 100

// cronJob is the CronJob controller's state of one CronJob.
type cronJob struct {
	timer        sim.Timer
	jobs         []*Workload // its Jobs in the API, in creation order
	made         []*Workload // every Job it created, deleted ones included
	active       []*Workload // status.active, in the order started
	lastSchedule time.Time   // status.lastScheduleTime; zero: never
	lastSuccess  time.Duration
	succeeded    bool // lastSuccess is status.lastSuccessfulTime; false: none yet
}

// WallTime is the wall-clock time of the virtual time t: Settings.StartTime
// (the Unix epoch if unset) plus t.
func (w *World) WallTime(t time.Duration) time.Time {
	start := w.settings.StartTime
	if start.IsZero() {
		start = time.Unix(0, 0)
	}
	return start.UTC().Add(t)
}

// virtualTime is the virtual time of the wall-clock time t, saturated at 0.
func (w *World) virtualTime(t time.Time) time.Duration {
	return max(t.Sub(w.WallTime(0)), 0)
}

// Jobs returns the Jobs of a CronJob that are in the API, oldest first.
func (wl *Workload) Jobs() []*Workload {
	if wl.cron == nil {
		return nil
	}
	return wl.cron.jobs
}

// ActiveJobs is the length of a CronJob's status.active: the Jobs it
// started that it has not seen finish.
func (wl *Workload) ActiveJobs() int {
	if wl.cron == nil {
		return 0
	}
	return len(wl.cron.active)
}

// ActiveJobList returns a CronJob's status.active, in the order started.
// It must not be changed.
func (wl *Workload) ActiveJobList() []*Workload {
	if wl.cron == nil {
		return nil
	}
	return wl.cron.active
}

// LastScheduleTime is a CronJob's status.lastScheduleTime (wall time, see
// WallTime); zero if it never scheduled a Job.
func (wl *Workload) LastScheduleTime() time.Time {
	if wl.cron == nil {
		return time.Time{}
	}
	return wl.cron.lastSchedule
}

// LastSuccessfulTime is a CronJob's status.lastSuccessfulTime: the latest
// completion time of the succeeded Jobs its controller has listed; ok is
// false before there is one.
func (wl *Workload) LastSuccessfulTime() (t time.Duration, ok bool) {
	if wl.cron == nil {
		return 0, false
	}
	return wl.cron.lastSuccess, wl.cron.succeeded
}

// Parent returns the CronJob that created a Job, or nil.
func (wl *Workload) Parent() *Workload { return wl.parent }

// Deleted reports whether the workload (a CronJob's Job) was deleted.
func (wl *Workload) Deleted() bool { return wl.gone }

// finished reports whether a Job has its Complete or Failed condition, and
// which.
func (wl *Workload) jobFinished() (bool, string) {
	for _, c := range wl.Conditions {
		if (c.Type == "Complete" || c.Type == "Failed") && c.Status == True {
			return true, c.Type
		}
	}
	return false, ""
}

// syncCronJob is the CronJob controller's sync
// (pkg/controller/cronjob/cronjob_controllerv2.go): cleanupFinishedJobs,
// then syncCronJob. It runs when the CronJob is created, when one of its
// Jobs finishes, and at each requeue: 100 ms after the next schedule time.
func (wl *Workload) syncCronJob() {
	c := wl.cron
	if c == nil {
		c = &cronJob{}
		c.timer.Init(wl.sync)
		wl.cron = c
	}
	jobs := slices.Clone(c.jobs) // the list as listed before the cleanup
	wl.cleanupFinishedJobs()
	for _, j := range jobs {
		if cc, ok := j.Condition("Complete"); ok && cc.Status == True && (!c.succeeded || cc.LastTransitionTime > c.lastSuccess) {
			c.lastSuccess, c.succeeded = cc.LastTransitionTime, true
			wl.w.object(ObjectChange{Kind: ObjectWorkload, Op: ObjectUpdated, Workload: wl})
		}
		if done, cond := j.jobFinished(); done && slices.Contains(c.active, j) {
			c.removeActive(j)
			wl.w.object(ObjectChange{Kind: ObjectWorkload, Op: ObjectUpdated, Workload: wl})
			wl.w.event(KindCronJob, wl.key, EventNormal, "SawCompletedJob", "cronjob-controller",
				"Saw completed job: %s, condition: %s", j.Spec.Name, cond)
		}
	}
	s := wl.Spec.CronJob
	if s.Suspend {
		return
	}
	now := wl.w.WallTime(wl.w.Now())
	scheduled, missed, err := wl.mostRecentScheduleTime(now, true)
	if err != "" {
		wl.w.event(KindCronJob, wl.key, EventWarning, "InvalidSchedule", "cronjob-controller",
			"invalid schedule: %s : %s", s.ScheduleText, err)
		return
	}
	if scheduled.IsZero() {
		wl.requeue(now)
		return
	}
	if missed > tooManyMissed {
		wl.w.event(KindCronJob, wl.key, EventWarning, "TooManyMissedTimes", "cronjob-controller",
			"too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew")
	}
	if d := s.StartingDeadline; d != nil && scheduled.Add(*d).Before(now) {
		wl.w.event(KindCronJob, wl.key, EventWarning, "MissSchedule", "cronjob-controller",
			"Missed scheduled time to start a job: %s", scheduled.UTC().Format(time.RFC1123Z))
		wl.requeue(now)
		return
	}
	name := jobName(wl.Spec.Name, scheduled)
	if c.activeNamed(name) || c.lastSchedule.Equal(scheduled) {
		wl.requeue(now)
		return
	}
	if s.ConcurrencyPolicy == ForbidConcurrent && len(c.active) > 0 {
		wl.w.event(KindCronJob, wl.key, EventNormal, "JobAlreadyActive", "cronjob-controller",
			"Not starting job because prior execution is running and concurrency policy is Forbid")
		wl.requeue(now)
		return
	}
	if s.ConcurrencyPolicy == ReplaceConcurrent {
		for _, j := range slices.Clone(c.active) {
			wl.deleteJob(j)
		}
	}
	if j := c.existing(name); j != nil {
		// The Job of this minute exists already (a schedule finer than a
		// minute): it is adopted into the active list, not made again.
		if !slices.Contains(c.active, j) {
			c.active = append(c.active, j)
			wl.w.object(ObjectChange{Kind: ObjectWorkload, Op: ObjectUpdated, Workload: wl})
		}
	} else {
		wl.w.event(KindCronJob, wl.key, EventNormal, "SuccessfulCreate", "cronjob-controller", "Created job %s", name)
		js := s.Job
		js.Name = name
		js.Options.Namespace = wl.Spec.Options.Namespace // its Jobs are in its namespace
		base := 0
		if old := wl.w.Workload(Key(wl.Namespace(), name)); old != nil {
			// A Job of this name was deleted (Replace, or the history
			// limits, under a schedule finer than a minute): the API takes
			// the name again. Its pods, which may still be terminating,
			// keep theirs; the new Job's are numbered on from them.
			base = old.podBase + len(old.pods)
		}
		j := wl.w.AddWorkload(js)
		j.parent, j.podBase = wl, base
		c.jobs = append(c.jobs, j)
		c.made = append(c.made, j)
		c.active = append(c.active, j)
	}
	c.lastSchedule = scheduled
	wl.w.object(ObjectChange{Kind: ObjectWorkload, Op: ObjectUpdated, Workload: wl})
	wl.requeue(now)
}

// jobName is getJobName: the CronJob's name and the scheduled time in
// minutes since the Unix epoch.
func jobName(cronJob string, scheduled time.Time) string {
	return cronJob + "-" + strconv.FormatInt(scheduled.Unix()/60, 10)
}

// earliest is where the search for schedule times starts: the last
// schedule time, else the CronJob's creation.
func (wl *Workload) earliest() time.Time {
	if t := wl.cron.lastSchedule; !t.IsZero() {
		return t
	}
	return wl.w.WallTime(wl.created)
}

// mostRecentScheduleTime applies the controller's function of that name to
// the CronJob now, with or without its starting deadline.
func (wl *Workload) mostRecentScheduleTime(now time.Time, withDeadline bool) (time.Time, int64, string) {
	s := wl.Spec.CronJob
	var deadline *time.Duration
	if withDeadline {
		deadline = s.StartingDeadline
	}
	return mostRecentScheduleTime(s.Schedule, wl.earliest(), now, deadline)
}

// mostRecentScheduleTime is the controller's function of that name
// (pkg/controller/cronjob/utils.go): the latest time of sched at or before
// now after earliest (or, with a starting deadline, after now less the
// deadline if that is later), zero if none; how many times were missed, as
// the controller estimates them; and an error for a schedule whose two next
// times are less than a second apart (or that never fires).
func mostRecentScheduleTime(sched CronSchedule, earliest, now time.Time, deadline *time.Duration) (time.Time, int64, string) {
	if deadline != nil {
		if d := now.Add(-*deadline); d.After(earliest) {
			earliest = d
		}
	}
	t1 := sched.Next(earliest)
	t2 := sched.Next(t1)
	if !t1.IsZero() && now.Before(t1) {
		return time.Time{}, 0, ""
	}
	if !t2.IsZero() && now.Before(t2) {
		return t1, 0, ""
	}
	between := int64(t2.Sub(t1).Round(time.Second).Seconds())
	if t1.IsZero() || t2.IsZero() || between < 1 {
		return time.Time{}, 0, "time difference between two schedules is less than 1 second"
	}
	// The controller estimates the missed times from the first interval,
	// then walks the schedule from one interval before the estimate.
	missed := int64(now.Sub(t1).Seconds())/between + 1
	var recent time.Time
	for t := sched.Next(t1.Add(time.Duration((missed-2)*between) * time.Second)); !t.IsZero() && !t.After(now); t = sched.Next(t) {
		recent = t
	}
	return recent, missed, ""
}

// requeue arms the controller's next sync of the CronJob
// (nextScheduleTimeDuration): 100 ms after the schedule time that follows
// the most recent one (or, when schedules were missed and none is found,
// the one after now).
func (wl *Workload) requeue(now time.Time) {
	recent, missed, err := wl.mostRecentScheduleTime(now, false)
	switch {
	case err != "":
		recent = now
	case recent.IsZero() && missed == 0:
		recent = wl.earliest()
	case recent.IsZero():
		recent = now
	}
	next := wl.Spec.CronJob.Schedule.Next(recent)
	if next.IsZero() {
		return
	}
	at := max(wl.w.virtualTime(next.Add(nextScheduleDelta)), wl.w.Now())
	t := &wl.cron.timer
	if !t.Pending() || t.When() > at {
		wl.w.eng.Schedule(t, at, sim.Normal)
	}
}

// cleanupFinishedJobs deletes the oldest finished Jobs (by start time,
// then name) past the history limits of each outcome.
func (wl *Workload) cleanupFinishedJobs() {
	var succeeded, failed []*Workload
	for _, j := range wl.cron.jobs {
		switch _, cond := j.jobFinished(); cond {
		case "Complete":
			succeeded = append(succeeded, j)
		case "Failed":
			failed = append(failed, j)
		}
	}
	s := wl.Spec.CronJob
	wl.removeOldestJobs(succeeded, s.SuccessfulJobsHistoryLimit)
	wl.removeOldestJobs(failed, s.FailedJobsHistoryLimit)
}

func (wl *Workload) removeOldestJobs(jobs []*Workload, limit int) {
	n := len(jobs) - limit
	if n <= 0 {
		return
	}
	slices.SortStableFunc(jobs, func(a, b *Workload) int {
		if c := cmp.Compare(a.created, b.created); c != 0 {
			return c
		}
		return strings.Compare(a.Spec.Name, b.Spec.Name)
	})
	for _, j := range jobs[:n] {
		wl.deleteJob(j)
	}
}

// deleteJob deletes a Job of the CronJob and its reference in the active
// list (deleteJob, with background propagation: the Job goes at once, the
// garbage collector then deletes its pods, gracefully).
func (wl *Workload) deleteJob(j *Workload) {
	c := wl.cron
	j.gone = true
	wl.w.eng.Stop(&j.syncTimer)
	wl.w.eng.Stop(&j.waitTimer)
	c.jobs = slices.DeleteFunc(c.jobs, func(x *Workload) bool { return x == j })
	c.removeActive(j)
	wl.w.object(ObjectChange{Kind: ObjectWorkload, Op: ObjectUpdated, Workload: wl})
	wl.w.event(KindCronJob, wl.key, EventNormal, "SuccessfulDelete", "cronjob-controller", "Deleted job %s", j.Spec.Name)
	for _, p := range j.pods {
		if !p.deleted {
			p.Delete(nil)
		}
	}
}

func (c *cronJob) removeActive(j *Workload) {
	c.active = slices.DeleteFunc(c.active, func(x *Workload) bool { return x == j })
}

// activeNamed reports whether a Job called name is in the active list.
func (c *cronJob) activeNamed(name string) bool {
	for _, j := range c.active {
		if j.Spec.Name == name {
			return true
		}
	}
	return false
}

// existing returns the Job called name that the CronJob made and that is
// still in the API, or nil.
func (c *cronJob) existing(name string) *Workload {
	for _, j := range c.jobs {
		if j.Spec.Name == name {
			return j
		}
	}
	return nil
}

// cronPods returns the pods of every Job a CronJob created, deleted ones
// included, Job by Job.
func (wl *Workload) cronPods() []*Pod {
	var out []*Pod
	for _, j := range wl.cron.made {
		out = append(out, j.pods...)
	}
	return out
}
