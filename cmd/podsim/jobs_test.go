package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestRunShowsJobsKeepingTheirCount: podsim run prints kubectl get jobs at
// the end, from the Job controller's status: a Job whose finished pod was
// deleted (report) or drained (export) is still Complete 1/1.
func TestRunShowsJobsKeepingTheirCount(t *testing.T) {
	out, stderr, code := podsim(t, "run", filepath.Join(root, "scenarios", "jobs", "finished-pod-deleted.yaml"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	_, jobs, ok := strings.Cut(out, "$ kubectl get jobs   # at 3m\n")
	if !ok {
		t.Fatalf("no kubectl get jobs in\n%s", out)
	}
	want := "NAME     STATUS     COMPLETIONS   DURATION   AGE\n" +
		"export   Complete   1/1           40s        3m\n" +
		"report   Complete   1/1           30s        3m\n"
	if !strings.HasPrefix(jobs, want) {
		t.Errorf("kubectl get jobs:\n%s\nwant\n%s", jobs, want)
	}
}
