package job_test

import (
	"testing"
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/model/cluster"
)

// jobWorld runs a Job of spec s (its pods exit with code after 5s) on one
// node for d.
func jobWorld(t *testing.T, s model.WorkloadSpec, code int32, d time.Duration) *model.Workload {
	t.Helper()
	w := cluster.New(1, model.DefaultSettings())
	w.AddNode(model.NodeSpec{Name: "a", Capacity: model.Resources{MilliCPU: 4000, Memory: 8 << 30, Pods: 110}})
	s.Kind, s.Name = model.KindJob, "batch"
	s.Template = &model.PodSpec{RestartPolicy: model.RestartNever, TerminationGracePeriod: time.Second,
		Containers: []model.ContainerSpec{{Name: "app", Image: "img", PullPolicy: model.PullIfNotPresent,
			Behavior: &model.Behavior{Runs: []model.RunSpec{{ExitAfter: 5 * time.Second, ExitCode: code}}}}}}
	wl := w.AddWorkload(s)
	w.Run(d)
	return wl
}

// The controller writes the counts of an Indexed Job's status into the
// object, where JobStatus reads them.
func TestIndexedJobCompletes(t *testing.T) {
	wl := jobWorld(t, model.WorkloadSpec{Completions: 3, Parallelism: 3, BackoffLimit: 6, Indexed: true}, 0, time.Minute)
	st := wl.JobStatus()
	if st.Succeeded != 3 || st.CompletedIndexes != "0-2" || !st.Completed || st.Active != 0 {
		t.Errorf("status %+v, want 3 succeeded, indexes 0-2, complete", st)
	}
	if c, _ := wl.Condition(model.JobComplete); c.Status != model.True {
		t.Errorf("Complete condition %+v", c)
	}
}

// Failed pods count into status.failed until the backoff limit fails the
// Job, with the backoff between them.
func TestJobBackoffLimit(t *testing.T) {
	wl := jobWorld(t, model.WorkloadSpec{Completions: 1, Parallelism: 1, BackoffLimit: 1}, 1, 10*time.Minute)
	st := wl.JobStatus()
	c, _ := wl.Condition(model.JobFailed)
	if st.Failed != 2 || c.Reason != "BackoffLimitExceeded" {
		t.Errorf("status %+v, Failed condition %+v; want 2 failed, BackoffLimitExceeded", st, c)
	}
	if n := len(wl.Pods()); n != 2 {
		t.Errorf("%d pods, want 2", n)
	}
}
