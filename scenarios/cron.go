package scenarios

import (
	"strings"
	"time"

	"github.com/podsim/podsim/internal/yamlstrict"
	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/sim"
	"github.com/robfig/cron/v3"
)

// Workload kinds beyond the first four, as written in spec.workloads.
const (
	kindStatefulSet = "StatefulSet"
	kindCronJob     = "CronJob"
)

// maxCronJobName is the longest CronJob name the API server accepts: its
// Jobs append "-" and up to 11 digits (pkg/apis/batch/validation).
const maxCronJobName = 52

// parseSchedule parses a CronJob's schedule as the controller does
// (cron.ParseStandard: five fields, or a macro such as @hourly or
// @every 90m).
func parseSchedule(s string) (cron.Schedule, error) { return cron.ParseStandard(s) }

// startTime is the wall-clock time of virtual time 0: spec.startTime, or
// the Unix epoch.
func (s *Scenario) startTime() time.Time {
	if st := s.File.Spec.StartTime; st != "" {
		if t, err := time.Parse(time.RFC3339, st); err == nil {
			return t.UTC()
		}
	}
	if !s.instant.IsZero() {
		return s.instant // a snapshot's
	}
	return time.Unix(0, 0).UTC()
}

// templateOf is the pod template of a controller: a CronJob's is its job
// template's.
func templateOf(w *Workload) *PodTemplate {
	if w.Kind == kindCronJob && w.Spec.JobTemplate != nil {
		return &w.Spec.JobTemplate.Spec.Template
	}
	return &w.Spec.Template
}

// cronJobSpec converts a CronJob with Kubernetes' defaults: concurrency
// Allow, history limits 3 and 1; its job template is converted as a Job.
func cronJobSpec(wl *Workload, behaviors map[behaviorKey]*model.Behavior) model.WorkloadSpec {
	sp := &wl.Spec
	job := Workload{Kind: model.KindJob, Metadata: sp.JobTemplate.Metadata, Spec: sp.JobTemplate.Spec}
	job.Metadata.Namespace = wl.Metadata.Namespace // its Jobs are in its namespace
	sched, _ := parseSchedule(sp.Schedule)         // validated
	c := &model.CronJobSpec{
		Schedule:                   sched,
		ScheduleText:               sp.Schedule,
		ConcurrencyPolicy:          model.AllowConcurrent,
		Suspend:                    sp.Suspend != nil && *sp.Suspend,
		SuccessfulJobsHistoryLimit: 3,
		FailedJobsHistoryLimit:     1,
		Job:                        workloadSpec(&job, behaviors),
	}
	switch sp.ConcurrencyPolicy {
	case "Forbid":
		c.ConcurrencyPolicy = model.ForbidConcurrent
	case "Replace":
		c.ConcurrencyPolicy = model.ReplaceConcurrent
	}
	if d := sp.StartingDeadlineSeconds; d != nil {
		dl := sim.Seconds(*d)
		c.StartingDeadline = &dl
	}
	if n := sp.SuccessfulJobsHistoryLimit; n != nil {
		c.SuccessfulJobsHistoryLimit = int(*n)
	}
	if n := sp.FailedJobsHistoryLimit; n != nil {
		c.FailedJobsHistoryLimit = int(*n)
	}
	return model.WorkloadSpec{Kind: model.KindCronJob, Name: wl.Metadata.Name, Template: c.Job.Template,
		Options: c.Job.Options, CronJob: c}
}

// statefulSet checks what only a StatefulSet has.
func (v *validator) statefulSet(w *Workload) {
	switch p := w.Spec.PodManagementPolicy; {
	case p != "" && w.Kind != kindStatefulSet:
		v.atKey(&w.Spec.PodManagementPolicy, "only a StatefulSet has podManagementPolicy")
	case p != "" && p != "OrderedReady" && p != "Parallel":
		v.at(&w.Spec.PodManagementPolicy, "podManagementPolicy %q: want OrderedReady or Parallel", p)
	}
}

// cronJob checks a CronJob as the API server does: a name of at most 52
// characters, a schedule cron.ParseStandard reads (without TZ=), a known
// concurrency policy, deadlines and limits not negative, and a job
// template that is a valid Job; and that nothing else has CronJob fields.
func (v *validator) cronJob(w *Workload) {
	sp := &w.Spec
	if w.Kind != kindCronJob {
		v.cronJobFields(w)
		return
	}
	if len(w.Metadata.Name) > maxCronJobName {
		v.at(&w.Metadata.Name, "a CronJob's name is at most %d characters: its Jobs append the scheduled minute", maxCronJobName)
	}
	switch {
	case sp.Schedule == "":
		v.at(w, "a CronJob needs spec.schedule")
	case strings.Contains(sp.Schedule, "TZ"):
		v.at(&sp.Schedule, "cannot use TZ or CRON_TZ in schedule, use timeZone field instead")
	default:
		if _, err := parseSchedule(sp.Schedule); err != nil {
			v.at(&sp.Schedule, "schedule %q: %v", sp.Schedule, err)
		}
	}
	if tz := sp.TimeZone; tz != nil && *tz != "UTC" && *tz != "Etc/UTC" {
		v.at(tz, "timeZone %q: podsim runs schedules in UTC (UTC or Etc/UTC)", *tz)
	}
	if p := sp.ConcurrencyPolicy; p != "" && p != "Allow" && p != "Forbid" && p != "Replace" {
		v.at(&sp.ConcurrencyPolicy, "concurrencyPolicy %q: want Allow, Forbid or Replace", p)
	}
	if d := sp.StartingDeadlineSeconds; d != nil && *d < 0 {
		v.at(d, "startingDeadlineSeconds must not be negative")
	}
	for _, f := range []struct {
		n    *int32
		name string
	}{{sp.SuccessfulJobsHistoryLimit, "successfulJobsHistoryLimit"}, {sp.FailedJobsHistoryLimit, "failedJobsHistoryLimit"}} {
		if f.n != nil && *f.n < 0 {
			v.at(f.n, "%s must not be negative", f.name)
		}
	}
	if p := v.s.pos.Of(&sp.Template); !p.IsZero() {
		v.atKey(&sp.Template, "a CronJob's pods come from spec.jobTemplate.spec.template")
	}
	if sp.JobTemplate == nil {
		v.at(w, "a CronJob needs spec.jobTemplate")
		return
	}
	v.jobTemplate(w, sp.JobTemplate)
}

// cronJobFields reports the fields of a CronJob on w, which is not one.
func (v *validator) cronJobFields(w *Workload) {
	sp := &w.Spec
	if sp.Suspend != nil && *sp.Suspend { // read by CronJobs only; Kubernetes suspends a Job too
		v.warnSuspend(&sp.Suspend, "a suspended "+w.Kind+" runs all the same")
	}
	for _, f := range []any{sp.TimeZone, sp.StartingDeadlineSeconds, sp.SuccessfulJobsHistoryLimit, sp.FailedJobsHistoryLimit, sp.JobTemplate} {
		if !isNilPtr(f) {
			v.atKey(f, "only a CronJob has timeZone, startingDeadlineSeconds, successfulJobsHistoryLimit, failedJobsHistoryLimit and jobTemplate")
		}
	}
	for _, f := range []*string{&sp.Schedule, &sp.ConcurrencyPolicy} {
		if *f != "" {
			v.atKey(f, "only a CronJob has schedule and concurrencyPolicy")
		}
	}
}

// jobTemplate checks the job template jt of CronJob w: a valid Job's spec
// and nothing else, and counts the pods of its first Job.
func (v *validator) jobTemplate(w *Workload, jt *JobTemplate) {
	js := &jt.Spec
	if js.Suspend != nil && *js.Suspend { // Kubernetes creates the Jobs suspended
		v.warnSuspend(&js.Suspend, "a CronJob's Jobs run all the same, never suspended")
	}
	for _, f := range []any{js.Replicas, js.MinAvailable, js.MaxUnavailable, js.Selector, js.JobTemplate, js.TimeZone,
		js.StartingDeadlineSeconds, js.SuccessfulJobsHistoryLimit, js.FailedJobsHistoryLimit} {
		if !isNilPtr(f) {
			v.atKey(f, "a job template is a Job's spec")
		}
	}
	for _, f := range []*string{&js.Schedule, &js.ConcurrencyPolicy, &js.PodManagementPolicy, &js.UnhealthyPodEvictionPolicy} {
		if *f != "" {
			v.atKey(f, "a job template is a Job's spec")
		}
	}
	for _, n := range []*int32{js.Completions, js.Parallelism, js.BackoffLimit} {
		if n != nil && *n < 0 {
			v.at(n, "must not be negative")
		}
	}
	if d := js.ActiveDeadlineSeconds; d != nil && *d < 0 {
		v.at(d, "activeDeadlineSeconds must not be negative")
	}
	v.jobPolicies(js)
	if rp := js.Template.Spec.RestartPolicy; rp != "OnFailure" && rp != "Never" {
		v.at(&js.Template.Spec, "a Job's pod template needs restartPolicy OnFailure or Never")
	}
	if js.Completions == nil {
		v.addPods(jt, 1, &js.Template)
	} else {
		v.addPods(js.Completions, int(max(*js.Completions, 0)), &js.Template)
	}
	v.podSpec(&js.Template.Spec, &js.Template, "workload "+w.Metadata.Name)
	v.labels(&js.Template.Metadata.Labels)
}

// warnSuspend warns of suspend: true where podsim does not read it (a Job,
// a CronJob's job template): Kubernetes would hold the Job's pods back
// until it is resumed. suspend: false, as kubectl get -o yaml writes it,
// loses nothing.
func (v *validator) warnSuspend(at **bool, lost string) {
	file, p := v.s.locate(at, true)
	v.s.Warnings.Add(file, p, "%s", yamlstrict.UnmodelledMessage("suspend", lost))
}

// cronJobOf returns the CronJob whose Jobs are named like name
// (<cronjob>-<minutes>), or nil.
func (v *validator) cronJobOf(name string) *Workload {
	if o := ownerOf(name, v.workloads); o != "" && v.workloads[o].Kind == kindCronJob {
		return v.workloads[o]
	}
	return nil
}

// cronJobOfPod returns the CronJob whose Jobs' pods are named like pod
// (<cronjob>-<minutes>-<n>), or nil.
func (v *validator) cronJobOfPod(pod string) *Workload {
	i := strings.LastIndexByte(pod, '-')
	if i <= 0 || ownerOf(pod, map[string]*Workload{pod[:i]: nil}) == "" {
		return nil
	}
	return v.cronJobOf(pod[:i])
}
