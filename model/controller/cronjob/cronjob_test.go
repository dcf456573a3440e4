package cronjob_test

import (
	"strings"
	"testing"
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/model/cluster"
	"github.com/podsim/podsim/model/controller/cronjob"
)

func appSpec(cpu int64, b *model.Behavior, policy model.RestartPolicy) *model.PodSpec {
	return &model.PodSpec{RestartPolicy: policy, TerminationGracePeriod: 30 * time.Second,
		Containers: []model.ContainerSpec{{Name: "app", Image: "img", PullPolicy: model.PullIfNotPresent, Behavior: b,
			Requests: model.Resources{MilliCPU: cpu, Memory: 64 << 20}}}}
}

// period is a schedule that fires at every multiple of its period since
// the Unix epoch (as "*/N * * * *" does for minutes), or never if 0.
type period time.Duration

func (e period) Next(t time.Time) time.Time {
	if e == 0 {
		return time.Time{}
	}
	d := time.Duration(e)
	return t.Truncate(d).Add(d)
}

func TestMostRecentScheduleTime(t *testing.T) {
	epoch := time.Unix(0, 0).UTC()
	at := func(d time.Duration) time.Time { return epoch.Add(d) }
	dl := func(d time.Duration) *time.Duration { return &d }
	for _, tc := range []struct {
		name          string
		sched         period
		earliest, now time.Duration
		deadline      *time.Duration
		want          time.Duration // -1: none
		missed        int64
		err           bool
	}{
		{"before the first time", period(time.Minute), 0, 59 * time.Second, nil, -1, 0, false},
		{"at the first time", period(time.Minute), 0, time.Minute, nil, time.Minute, 0, false},
		{"between the first two", period(time.Minute), 0, 90 * time.Second, nil, time.Minute, 0, false},
		{"two missed: the latest", period(time.Minute), 0, 150 * time.Second, nil, 2 * time.Minute, 2, false},
		{"after the last schedule time", period(time.Minute), 5 * time.Minute, 6*time.Minute + 100*time.Millisecond, nil, 6 * time.Minute, 0, false},
		{"many missed", period(time.Minute), 0, 150*time.Minute + time.Second, nil, 150 * time.Minute, 150, false},
		{"deadline skips the old times", period(time.Minute), 0, 190 * time.Second, dl(30 * time.Second), 3 * time.Minute, 0, false},
		{"deadline passed every time", period(time.Minute), 0, 150 * time.Second, dl(20 * time.Second), -1, 0, false},
		{"never fires", period(0), 0, time.Hour, nil, -1, 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, missed, err := cronjob.MostRecentScheduleTime(tc.sched, at(tc.earliest), at(tc.now), tc.deadline)
			if (err != "") != tc.err {
				t.Fatalf("error %q, want error %v", err, tc.err)
			}
			switch {
			case tc.want < 0 && !got.IsZero():
				t.Errorf("got %s, want none", got.Sub(epoch))
			case tc.want >= 0 && !got.Equal(at(tc.want)):
				t.Errorf("got %s, want %s", got.Sub(epoch), tc.want)
			}
			if missed != tc.missed {
				t.Errorf("missed %d, want %d", missed, tc.missed)
			}
		})
	}
}

// cronWorld is one node and a CronJob "cj" whose Job runs one pod for run
// (exit 0), or fails at once if fail.
func cronWorld(t *testing.T, s model.CronJobSpec, run time.Duration, code int32) (*model.World, *model.Timeline) {
	t.Helper()
	st := model.DefaultSettings()
	st.StartTime = time.Date(2024, 6, 1, 12, 0, 0, 0, time.UTC)
	w := cluster.New(1, st)
	tl := &model.Timeline{}
	w.Subscribe(tl)
	inv := model.NewInvariants(w)
	t.Cleanup(func() {
		if err := inv.Err(); err != nil {
			t.Error(err)
		}
	})
	w.AddNode(model.NodeSpec{Name: "a", Capacity: model.Resources{MilliCPU: 64000, Memory: 64 << 30, Pods: 110}})
	spec := appSpec(100, &model.Behavior{Runs: []model.RunSpec{{ExitAfter: run, ExitCode: code, Times: 1}}}, model.RestartNever)
	s.Job = model.WorkloadSpec{Kind: model.KindJob, Template: spec, Completions: 1, Parallelism: 1}
	w.AddWorkload(model.WorkloadSpec{Kind: model.KindCronJob, Name: "cj", Template: spec, CronJob: &s})
	return w, tl
}

// cronEvents lists the CronJob's events as "T reason message".
func cronEvents(tl *model.Timeline) string {
	var out []string
	for _, c := range tl.Changes {
		if c.Kind == model.ChangeEvent && c.Object == model.KindCronJob {
			out = append(out, c.T.String()+" "+c.Reason+" "+c.Message)
		}
	}
	return strings.Join(out, "\n")
}

func TestCronJobAllowRunsSideBySide(t *testing.T) {
	w, tl := cronWorld(t, model.CronJobSpec{Schedule: period(time.Minute), SuccessfulJobsHistoryLimit: 3, FailedJobsHistoryLimit: 1},
		150*time.Second, 0)
	w.Run(3*time.Minute + time.Second)
	// 12:01 is minute 28620721 since the epoch.
	want := "1m0.1s SuccessfulCreate Created job cj-28620721\n" +
		"2m0.1s SuccessfulCreate Created job cj-28620722\n" +
		"3m0.1s SuccessfulCreate Created job cj-28620723"
	if got := cronEvents(tl); got != want {
		t.Errorf("events:\n%s\nwant:\n%s", got, want)
	}
	cj := w.Workload("cj")
	if cj.ActiveJobs() != 3 || len(cj.Jobs()) != 3 || len(cj.Pods()) != 3 {
		t.Errorf("active %d, jobs %d, pods %d; want 3 each", cj.ActiveJobs(), len(cj.Jobs()), len(cj.Pods()))
	}
	if j := w.Workload("cj-28620722"); j == nil || j.Parent() != cj || w.Pod("cj-28620722-0") == nil {
		t.Errorf("job cj-28620722 or its pod cj-28620722-0 is missing")
	}
}

func TestCronJobForbidStartsTheMissedTimeLate(t *testing.T) {
	w, tl := cronWorld(t, model.CronJobSpec{Schedule: period(time.Minute), ConcurrencyPolicy: model.ForbidConcurrent,
		SuccessfulJobsHistoryLimit: 3, FailedJobsHistoryLimit: 1}, 130*time.Second, 0)
	w.Run(4 * time.Minute)
	const skip = "Not starting job because prior execution is running and concurrency policy is Forbid"
	want := "1m0.1s SuccessfulCreate Created job cj-28620721\n" +
		"2m0.1s JobAlreadyActive " + skip + "\n" +
		"3m0.1s JobAlreadyActive " + skip + "\n" +
		"3m10.1s SawCompletedJob Saw completed job: cj-28620721, condition: Complete\n" +
		"3m10.1s SuccessfulCreate Created job cj-28620723"
	if got := cronEvents(tl); got != want {
		t.Errorf("events:\n%s\nwant:\n%s", got, want)
	}
}

func TestCronJobForbidWithDeadlineSkipsTheMissedTime(t *testing.T) {
	d := 5 * time.Second
	w, tl := cronWorld(t, model.CronJobSpec{Schedule: period(time.Minute), ConcurrencyPolicy: model.ForbidConcurrent, StartingDeadline: &d,
		SuccessfulJobsHistoryLimit: 3, FailedJobsHistoryLimit: 1}, 130*time.Second, 0)
	w.Run(4*time.Minute + time.Second)
	if got := cronEvents(tl); strings.Contains(got, "cj-28620723") || !strings.Contains(got, "4m0.1s SuccessfulCreate Created job cj-28620724") {
		t.Errorf("the 12:03 run should be skipped and 12:04 start on time:\n%s", got)
	}
}

func TestCronJobReplace(t *testing.T) {
	w, tl := cronWorld(t, model.CronJobSpec{Schedule: period(2 * time.Minute), ConcurrencyPolicy: model.ReplaceConcurrent,
		SuccessfulJobsHistoryLimit: 3, FailedJobsHistoryLimit: 1}, 3*time.Minute, 0)
	w.Run(5 * time.Minute)
	want := "2m0.1s SuccessfulCreate Created job cj-28620722\n" +
		"4m0.1s SuccessfulDelete Deleted job cj-28620722\n" +
		"4m0.1s SuccessfulCreate Created job cj-28620724"
	if got := cronEvents(tl); got != want {
		t.Errorf("events:\n%s\nwant:\n%s", got, want)
	}
	old := w.Workload("cj-28620722")
	if !old.Deleted() || !w.Pod("cj-28620722-0").Deleted() {
		t.Errorf("the replaced Job and its pod should be gone")
	}
}

func TestCronJobHistoryLimits(t *testing.T) {
	for _, tc := range []struct {
		name string
		code int32
		keep int
	}{{"successful", 0, 2}, {"failed", 1, 1}} {
		t.Run(tc.name, func(t *testing.T) {
			w, tl := cronWorld(t, model.CronJobSpec{Schedule: period(time.Minute), SuccessfulJobsHistoryLimit: 2, FailedJobsHistoryLimit: 1},
				10*time.Second, tc.code)
			w.Run(5*time.Minute + 20*time.Second)
			cj := w.Workload("cj")
			if len(cj.Jobs()) != tc.keep || cj.ActiveJobs() != 0 {
				t.Errorf("jobs %d, active %d; want %d, 0", len(cj.Jobs()), cj.ActiveJobs(), tc.keep)
			}
			deleted := strings.Count(cronEvents(tl), "SuccessfulDelete Deleted job")
			if deleted != 5-tc.keep {
				t.Errorf("%d Jobs deleted, want %d", deleted, 5-tc.keep)
			}
			if newest := w.Workload("cj-28620725"); newest.Deleted() {
				t.Errorf("the newest Job was deleted")
			}
			if oldest := w.Pod("cj-28620721-0"); !oldest.Deleted() {
				t.Errorf("the oldest Job's pod is still there")
			}
		})
	}
}

func TestCronJobSuspended(t *testing.T) {
	w, tl := cronWorld(t, model.CronJobSpec{Schedule: period(time.Minute), Suspend: true}, 10*time.Second, 0)
	w.Run(10 * time.Minute)
	if got := cronEvents(tl); got != "" {
		t.Errorf("a suspended CronJob logged:\n%s", got)
	}
}

func TestCronJobTooManyMissedTimes(t *testing.T) {
	w, tl := cronWorld(t, model.CronJobSpec{Schedule: period(time.Minute), ConcurrencyPolicy: model.ForbidConcurrent,
		SuccessfulJobsHistoryLimit: 3, FailedJobsHistoryLimit: 1}, 3*time.Hour, 0)
	w.Run(3*time.Hour + 2*time.Minute)
	got := cronEvents(tl)
	want := "3h1m0.1s TooManyMissedTimes too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew\n" +
		"3h1m0.1s SuccessfulCreate Created job cj-28620901"
	if !strings.Contains(got, want) {
		t.Errorf("events end:\n%s\nwant:\n%s", got[max(len(got)-400, 0):], want)
	}
}

func TestCronJobInvalidSchedule(t *testing.T) {
	w, tl := cronWorld(t, model.CronJobSpec{Schedule: period(0), ScheduleText: "0 0 31 2 *"}, 10*time.Second, 0)
	w.Run(time.Hour)
	want := "0s InvalidSchedule invalid schedule: 0 0 31 2 * : time difference between two schedules is less than 1 second"
	if got := cronEvents(tl); got != want {
		t.Errorf("events:\n%s\nwant:\n%s", got, want)
	}
}

// Under a schedule finer than a minute two scheduled times share a Job
// name. A Job deleted by the history limits leaves the name free, and the
// next time of that minute takes it again: the new Job's pods are numbered
// on from the old one's. (The old Job is Failed, and deleted, only once its
// pod has terminated: FailureTarget at 25.1s, the pod stops in 2s.)
func TestCronJobNameTakenAgainInAMinute(t *testing.T) {
	w, tl := cronWorld(t, model.CronJobSpec{Schedule: period(20 * time.Second)}, time.Minute, 0)
	deadline := 5 * time.Second
	s := w.Workload("cj").Spec.CronJob
	s.Job.ActiveDeadline = &deadline
	s.Job.Template.Containers[0].Behavior.ShutdownTime = 2 * time.Second
	w.Run(44 * time.Second)
	got := cronEvents(tl)
	want := "20.1s SuccessfulCreate Created job cj-28620720\n" +
		"27.1s SuccessfulDelete Deleted job cj-28620720\n" +
		"40.1s SuccessfulCreate Created job cj-28620720"
	if got != want {
		t.Errorf("events:\n%s\nwant:\n%s", got, want)
	}
	if p := w.Pod("cj-28620720-1"); p == nil || p.Owner() != w.Workload("cj-28620720") || p.Deleted() {
		t.Errorf("the second Job's pod should be cj-28620720-1, numbered on from the first's")
	}
}

// A Job of the minute that is kept (finished, within the history limits)
// is taken into the active list again rather than made a second time, as
// the controller does when the create finds it exists.
func TestCronJobAdoptsTheJobOfTheMinute(t *testing.T) {
	w, tl := cronWorld(t, model.CronJobSpec{Schedule: period(20 * time.Second), SuccessfulJobsHistoryLimit: 3, FailedJobsHistoryLimit: 1},
		5*time.Second, 0)
	w.Run(61 * time.Second)
	want := "20.1s SuccessfulCreate Created job cj-28620720\n" +
		"25.1s SawCompletedJob Saw completed job: cj-28620720, condition: Complete\n" +
		"1m0.1s SawCompletedJob Saw completed job: cj-28620720, condition: Complete\n" +
		"1m0.1s SuccessfulCreate Created job cj-28620721"
	if got := cronEvents(tl); got != want {
		t.Errorf("events:\n%s\nwant:\n%s", got, want)
	}
}
