// Package cronjob is the CronJob controller
// (pkg/controller/cronjob/cronjob_controllerv2.go): at each schedule time
// it creates a Job from the CronJob's template, as its concurrency policy
// and starting deadline allow, keeps its status (active Jobs, last
// schedule and success) and deletes the finished Jobs past its history
// limits.
package cronjob

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/sim"
)

// nextScheduleDelta is the padding the controller adds to each requeue,
// for clock skew.
const nextScheduleDelta = 100 * time.Millisecond

// tooManyMissed is the count of missed schedules past which the controller
// warns (TooManyMissedTimes).
const tooManyMissed = 100

// source is the controller's name in its events.
const source = "cronjob-controller"

// Controller is the CronJob controller; register it with
// World.RegisterWorkloadController for model.KindCronJob.
type Controller struct {
	w      *model.World
	timers []*sim.Timer // by Workload.ID: the CronJob's requeue; nil until its first sync
}

// New returns the CronJob controller of w.
func New(w *model.World) *Controller { return &Controller{w: w} }

// Sync is the controller's sync of a CronJob: cleanupFinishedJobs, then
// syncCronJob. It runs when the CronJob is created, when one of its Jobs
// finishes, and at each requeue: 100 ms after the next schedule time.
func (c *Controller) Sync(wl *model.Workload) {
	if id := wl.ID(); id >= len(c.timers) || c.timers[id] == nil {
		if id >= len(c.timers) {
			c.timers = model.Extend(c.timers, id+1)
		}
		c.timers[id] = sim.NewTimer(func() { c.Sync(wl) })
	}
	st := wl.CronJobStatus()
	jobs := slices.Clone(st.Jobs) // the list as listed before the cleanup
	c.cleanupFinishedJobs(wl)
	for _, j := range jobs {
		if cc, ok := j.Condition("Complete"); ok && cc.Status == model.True && (!st.Succeeded || cc.LastTransitionTime > st.LastSuccess) {
			st.LastSuccess, st.Succeeded = cc.LastTransitionTime, true
			wl.Updated()
		}
		if done, cond := jobFinished(j); done && slices.Contains(st.Active, j) {
			removeActive(st, j)
			wl.Updated()
			wl.Event(model.EventNormal, "SawCompletedJob", source,
				fmt.Sprintf("Saw completed job: %s, condition: %s", j.Spec.Name, cond))
		}
	}
	if !wl.Spec.CronJob.Suspend {
		c.schedule(wl)
	}
}

// schedule creates the Job of the most recent schedule time, if it is due
// and the policies allow, and requeues.
func (c *Controller) schedule(wl *model.Workload) {
	st, s := wl.CronJobStatus(), wl.Spec.CronJob
	now := c.w.WallTime(c.w.Now())
	scheduled, missed, err := c.mostRecent(wl, now, true)
	if err != "" {
		wl.Event(model.EventWarning, "InvalidSchedule", source, fmt.Sprintf("invalid schedule: %s : %s", s.ScheduleText, err))
		return
	}
	if scheduled.IsZero() {
		c.requeue(wl, now)
		return
	}
	if missed > tooManyMissed {
		wl.Event(model.EventWarning, "TooManyMissedTimes", source,
			"too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew")
	}
	if d := s.StartingDeadline; d != nil && scheduled.Add(*d).Before(now) {
		wl.Event(model.EventWarning, "MissSchedule", source,
			fmt.Sprintf("Missed scheduled time to start a job: %s", scheduled.UTC().Format(time.RFC1123Z)))
		c.requeue(wl, now)
		return
	}
	name := jobName(wl.Spec.Name, scheduled)
	if activeNamed(st, name) || st.LastSchedule.Equal(scheduled) {
		c.requeue(wl, now)
		return
	}
	if s.ConcurrencyPolicy == model.ForbidConcurrent && len(st.Active) > 0 {
		wl.Event(model.EventNormal, "JobAlreadyActive", source,
			"Not starting job because prior execution is running and concurrency policy is Forbid")
		c.requeue(wl, now)
		return
	}
	if s.ConcurrencyPolicy == model.ReplaceConcurrent {
		for _, j := range slices.Clone(st.Active) {
			deleteJob(wl, j)
		}
	}
	if j := existing(st, name); j != nil {
		// The Job of this minute exists already (a schedule finer than a
		// minute): it is adopted into the active list, not made again.
		if !slices.Contains(st.Active, j) {
			st.Active = append(st.Active, j)
			wl.Updated()
		}
	} else {
		wl.Event(model.EventNormal, "SuccessfulCreate", source, "Created job "+name)
		js := s.Job
		js.Name = name
		js.Options.Namespace = wl.Spec.Options.Namespace // its Jobs are in its namespace
		j := wl.AddJob(js)
		st.Jobs = append(st.Jobs, j)
		st.Made = append(st.Made, j)
		st.Active = append(st.Active, j)
	}
	st.LastSchedule = scheduled
	wl.Updated()
	c.requeue(wl, now)
}

// jobFinished reports whether a Job has its Complete or Failed condition,
// and which.
func jobFinished(j *model.Workload) (bool, string) {
	for _, c := range j.Conditions {
		if (c.Type == "Complete" || c.Type == "Failed") && c.Status == model.True {
			return true, c.Type
		}
	}
	return false, ""
}

// jobName is getJobName: the CronJob's name and the scheduled time in
// minutes since the Unix epoch.
func jobName(cronJob string, scheduled time.Time) string {
	return cronJob + "-" + strconv.FormatInt(scheduled.Unix()/60, 10)
}

// earliest is where the search for schedule times starts: the last
// schedule time, else the CronJob's creation.
func (c *Controller) earliest(wl *model.Workload) time.Time {
	if t := wl.CronJobStatus().LastSchedule; !t.IsZero() {
		return t
	}
	return c.w.WallTime(wl.Created())
}

// mostRecent applies mostRecentScheduleTime to the CronJob now, with or
// without its starting deadline.
func (c *Controller) mostRecent(wl *model.Workload, now time.Time, withDeadline bool) (time.Time, int64, string) {
	s := wl.Spec.CronJob
	var deadline *time.Duration
	if withDeadline {
		deadline = s.StartingDeadline
	}
	return mostRecentScheduleTime(s.Schedule, c.earliest(wl), now, deadline)
}

// mostRecentScheduleTime is the controller's function of that name
// (pkg/controller/cronjob/utils.go): the latest time of sched at or before
// now after earliest (or, with a starting deadline, after now less the
// deadline if that is later), zero if none; how many times were missed, as
// the controller estimates them; and an error for a schedule whose two next
// times are less than a second apart (or that never fires).
func mostRecentScheduleTime(sched model.CronSchedule, earliest, now time.Time, deadline *time.Duration) (time.Time, int64, string) {
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
func (c *Controller) requeue(wl *model.Workload, now time.Time) {
	recent, missed, err := c.mostRecent(wl, now, false)
	switch {
	case err != "":
		recent = now
	case recent.IsZero() && missed == 0:
		recent = c.earliest(wl)
	case recent.IsZero():
		recent = now
	}
	next := wl.Spec.CronJob.Schedule.Next(recent)
	if next.IsZero() {
		return
	}
	at := max(max(next.Add(nextScheduleDelta).Sub(c.w.WallTime(0)), 0), c.w.Now())
	t := c.timers[wl.ID()]
	if !t.Pending() || t.When() > at {
		c.w.Engine().Schedule(t, at, sim.Normal)
	}
}

// cleanupFinishedJobs deletes the oldest finished Jobs (by start time,
// then name) past the history limits of each outcome.
func (c *Controller) cleanupFinishedJobs(wl *model.Workload) {
	var succeeded, failed []*model.Workload
	for _, j := range wl.CronJobStatus().Jobs {
		switch _, cond := jobFinished(j); cond {
		case "Complete":
			succeeded = append(succeeded, j)
		case "Failed":
			failed = append(failed, j)
		}
	}
	s := wl.Spec.CronJob
	removeOldestJobs(wl, succeeded, s.SuccessfulJobsHistoryLimit)
	removeOldestJobs(wl, failed, s.FailedJobsHistoryLimit)
}

func removeOldestJobs(wl *model.Workload, jobs []*model.Workload, limit int) {
	n := len(jobs) - limit
	if n <= 0 {
		return
	}
	slices.SortStableFunc(jobs, func(a, b *model.Workload) int {
		if c := cmp.Compare(a.Created(), b.Created()); c != 0 {
			return c
		}
		return strings.Compare(a.Spec.Name, b.Spec.Name)
	})
	for _, j := range jobs[:n] {
		deleteJob(wl, j)
	}
}

// deleteJob deletes a Job of the CronJob and its reference in the active
// list (deleteJob, with background propagation: the Job goes at once, the
// garbage collector then deletes its pods, gracefully).
func deleteJob(wl, j *model.Workload) {
	st := wl.CronJobStatus()
	j.Delete()
	st.Jobs = slices.DeleteFunc(st.Jobs, func(x *model.Workload) bool { return x == j })
	removeActive(st, j)
	wl.Updated()
	wl.Event(model.EventNormal, "SuccessfulDelete", source, "Deleted job "+j.Spec.Name)
	for _, p := range j.Pods() {
		if !p.Deleted() {
			p.Delete(nil)
		}
	}
}

func removeActive(st *model.CronJobStatus, j *model.Workload) {
	st.Active = slices.DeleteFunc(st.Active, func(x *model.Workload) bool { return x == j })
}

// activeNamed reports whether a Job called name is in the active list.
func activeNamed(st *model.CronJobStatus, name string) bool {
	for _, j := range st.Active {
		if j.Spec.Name == name {
			return true
		}
	}
	return false
}

// existing returns the Job called name that the CronJob made and that is
// still in the API, or nil.
func existing(st *model.CronJobStatus, name string) *model.Workload {
	for _, j := range st.Jobs {
		if j.Spec.Name == name {
			return j
		}
	}
	return nil
}
