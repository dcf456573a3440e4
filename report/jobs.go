package report

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/podsim/podsim/model"
)

// WriteGetJobs prints `kubectl get jobs` for every Job in the API (a
// CronJob's deleted ones left out), sorted by namespace and name, with a
// NAMESPACE column (as -A) when a Job lives outside default: its STATUS,
// COMPLETIONS and DURATION as printJob (pkg/printers/internalversion)
// writes them, from the Job controller's status, so a finished pod that was
// deleted still counts. It writes nothing when there is no Job.
func WriteGetJobs(w io.Writer, world *model.World) error {
	now := world.Now()
	var jobs []*model.Workload
	all := false
	for _, wl := range world.Workloads() {
		if wl.Spec.Kind == model.KindJob && !wl.Deleted() {
			jobs = append(jobs, wl)
			all = all || wl.Namespace() != model.DefaultNamespace
		}
	}
	if len(jobs) == 0 {
		return nil
	}
	slices.SortFunc(jobs, func(a, b *model.Workload) int {
		return cmp.Or(strings.Compare(a.Namespace(), b.Namespace()), strings.Compare(a.Spec.Name, b.Spec.Name))
	})
	var rows [][]string
	for _, j := range jobs {
		st := j.JobStatus()
		end := now
		if st.Completed {
			end = st.CompletionTime
		}
		row := []string{j.Spec.Name, JobStatusColumn(j.Conditions), fmt.Sprintf("%d/%d", st.Succeeded, j.Spec.Completions),
			HumanDuration(end - j.Created()), HumanDuration(now - j.Created())}
		if all {
			row = append([]string{j.Namespace()}, row...)
		}
		rows = append(rows, row)
	}
	head := []string{"NAME", "STATUS", "COMPLETIONS", "DURATION", "AGE"}
	if all {
		head = append([]string{"NAMESPACE"}, head...)
	}
	return writeTable(w, head, rows)
}

// JobStatusColumn is printJob's STATUS: the first of Complete, Failed,
// FailureTarget and SuccessCriteriaMet the Job has True, else Running.
func JobStatusColumn(conds []model.Condition) string {
	for _, t := range []string{model.JobComplete, model.JobFailed, model.JobFailureTarget, model.JobSuccessCriteriaMet} {
		for _, c := range conds {
			if c.Type == t && c.Status == model.True {
				return t
			}
		}
	}
	return "Running"
}
