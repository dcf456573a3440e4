package serve

import (
	"fmt"
	"strings"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestJobKeepsItsCountWhenItsPodGoes: a Job whose finished pod was deleted
// (report) or drained away (export) is still Complete 1/1 with
// status.succeeded 1, as the Job controller counted the pod before its
// tracking finalizer let it go.
func TestJobKeepsItsCountWhenItsPodGoes(t *testing.T) {
	at := 150 * time.Second
	p := play(t, "../scenarios/jobs/finished-pod-deleted.yaml", Options{At: at})
	p.freeze(t)
	u := p.http.URL

	var table metav1.Table
	if code := call(t, "GET", u+"/apis/batch/v1/namespaces/default/jobs", tableAccept, nil, &table); code != 200 {
		t.Fatalf("jobs: %d", code)
	}
	var rows []string
	for _, r := range table.Rows {
		rows = append(rows, fmt.Sprintf("%v %v %v", r.Cells[0], r.Cells[1], r.Cells[2]))
	}
	if got, want := strings.Join(rows, "\n"), "export Complete 1/1\nreport Complete 1/1"; got != want {
		t.Errorf("kubectl get jobs rows\n%s\nwant\n%s", got, want)
	}
	for _, name := range []string{"report", "export"} {
		var j batchv1.Job
		call(t, "GET", u+"/apis/batch/v1/namespaces/default/jobs/"+name, "", nil, &j)
		st := j.Status
		if st.Succeeded != 1 || st.Failed != 0 || st.Active != 0 || st.Terminating == nil || *st.Terminating != 0 || st.CompletionTime == nil {
			t.Errorf("job %s status %+v, want succeeded 1, failed 0, none active or terminating, a completion time", name, st)
		}
		var types []string
		for _, c := range st.Conditions {
			types = append(types, string(c.Type)+"/"+c.Reason)
		}
		if got := strings.Join(types, ","); got != "SuccessCriteriaMet/CompletionsReached,Complete/CompletionsReached" {
			t.Errorf("job %s conditions %s", name, got)
		}
	}
	if out := kubectl(t, p, "get", "jobs"); !strings.Contains(out, "Complete   1/1") {
		t.Errorf("kubectl get jobs:\n%s", out)
	}
}

// TestIndexedJobStatus: an Indexed Job's spec and status as the API writes
// them (completionMode, backoffLimitPerIndex, completedIndexes and
// failedIndexes as intervals), and each pod's completion index label
// beside the Job's own labels.
func TestIndexedJobStatus(t *testing.T) {
	at := 2 * time.Minute
	p := play(t, "../scenarios/jobs/indexed-backoff-per-index.yaml", Options{At: at})
	p.freeze(t)
	u := p.http.URL
	var j batchv1.Job
	call(t, "GET", u+"/apis/batch/v1/namespaces/default/jobs/shard", "", nil, &j)
	sp, st := j.Spec, j.Status
	if sp.CompletionMode == nil || *sp.CompletionMode != batchv1.IndexedCompletion || sp.BackoffLimitPerIndex == nil || *sp.BackoffLimitPerIndex != 1 {
		t.Errorf("spec %+v", sp)
	}
	if st.CompletedIndexes != "0-3,5" || st.FailedIndexes == nil || *st.FailedIndexes != "4" || st.Succeeded != 5 || st.Failed != 4 {
		t.Errorf("status %+v, want indexes 0-3,5 completed and 4 failed", st)
	}
	var pod corev1.Pod
	call(t, "GET", u+"/api/v1/namespaces/default/pods/shard-4-7", "", nil, &pod)
	if pod.Labels["batch.kubernetes.io/job-completion-index"] != "4" || pod.Labels["job-name"] != "shard" {
		t.Errorf("shard-4-7 labels %v", pod.Labels)
	}
	if pod.Annotations["batch.kubernetes.io/job-completion-index"] != "4" || pod.Spec.Hostname != "shard-4" {
		t.Errorf("shard-4-7 annotations %v, hostname %q", pod.Annotations, pod.Spec.Hostname)
	}
}
