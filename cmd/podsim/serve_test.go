package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/podsim/podsim/report"
	"github.com/podsim/podsim/scenarios"
	"github.com/podsim/podsim/sim"
)

// lockedBuffer is podsim serve's stderr, read while it runs.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// serving runs `podsim serve ARGS --addr 127.0.0.1:0 --kubeconfig K` until
// the test ends and returns a kubectl runner using K; the test is skipped
// where kubectl is not installed (Debian: kubernetes-client).
func serving(t *testing.T, args ...string) (kubectl func(args ...string) string, stderr *lockedBuffer) {
	t.Helper()
	bin, err := exec.LookPath("kubectl")
	if err != nil {
		t.Skip("kubectl is not installed (make kubectl installs Debian's kubernetes-client)")
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "kubeconfig")
	ctx, cancel := context.WithCancel(context.Background())
	stderr = &lockedBuffer{}
	done := make(chan int, 1)
	go func() {
		m := &Main{Stdout: stderr, Stderr: stderr}
		done <- m.Run(ctx, append(args, "--addr", "127.0.0.1:0", "--kubeconfig", cfg))
	}()
	t.Cleanup(func() {
		cancel()
		if code := <-done; code != exitOK {
			t.Errorf("podsim serve exited %d: %s", code, stderr)
		}
	})
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(cfg); err == nil && strings.Contains(stderr.String(), "podsim serve: frozen") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("podsim serve did not start: %s", stderr)
		}
	}
	return func(args ...string) string {
		t.Helper()
		cmd := exec.Command(bin, append([]string{"--kubeconfig", cfg, "--cache-dir", filepath.Join(dir, "cache")}, args...)...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("kubectl %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}, stderr
}

// rows splits a table into its lines' cells (runs of two or more spaces
// separate cells, as kubectl and podsim pad them), header first.
func rows(table string) [][]string {
	var out [][]string
	for _, line := range strings.Split(strings.TrimSpace(table), "\n") {
		var cells []string
		for _, c := range strings.Split(line, "  ") {
			if c = strings.TrimSpace(c); c != "" {
				cells = append(cells, c)
			}
		}
		out = append(out, cells)
	}
	return out
}

// byName sorts table rows after the header by their first cell, as the
// API server lists objects (podsim's view lists them in creation order).
func byName(t [][]string) [][]string {
	slices.SortFunc(t[1:], func(a, b []string) int { return strings.Compare(a[0], b[0]) })
	return t
}

// TestKubectlAgainstFrozenServe: kubectl get pods (and -o wide) against a
// server frozen at --at T print podsim's own view at T column for column,
// and describe pod shows podsim's events of the pod.
func TestKubectlAgainstFrozenServe(t *testing.T) {
	for _, c := range []struct{ file, at, pod string }{
		{demoFile, "4m", "web"},
		{filepath.Join(root, "scenarios", "cluster", "disk-failure-replicaset.yaml"), "3m", "api-2"},
		{filepath.Join(root, "scenarios", "init", "init-failure-always.yaml"), "15s", "job"},
		{filepath.Join(root, "scenarios", "init", "batch-job-sidecar.yaml"), "3m", ""},
	} {
		t.Run(filepath.Base(c.file), func(t *testing.T) {
			kubectl, _ := serving(t, "serve", c.file, "--at", c.at)
			run, errs, code := podsim(t, "run", c.file, "--at", c.at)
			if code != exitOK {
				t.Fatalf("podsim run: %d %s", code, errs)
			}
			at, _ := time.ParseDuration(c.at)
			_, view, _ := strings.Cut(run, "$ kubectl get pods   # at "+sim.FormatTime(at)+"\n")
			want := byName(rows(view))
			got := rows(kubectl("get", "pods"))
			if !slices.EqualFunc(got, want, sameRow) {
				t.Errorf("kubectl get pods:\n%v\npodsim run --at %s:\n%v", got, c.at, want)
			}

			s, err := scenarios.LoadFile(c.file)
			if err != nil {
				t.Fatal(err)
			}
			w := s.Build()
			w.Run(at)
			wide := rows(kubectl("get", "pods", "-o", "wide"))
			if h := strings.Join(wide[0], "|"); h != "NAME|READY|STATUS|RESTARTS|AGE|IP|NODE|NOMINATED NODE|READINESS GATES" {
				t.Errorf("wide header %s", h)
			}
			for i, r := range wide[1:] {
				if !sameRow(r[:5], want[i+1]) {
					t.Errorf("wide row %v, podsim's %v", r, want[i+1])
				}
				g := report.GetPod(w.Pod(r[0]), at)
				if r[5] != g.IP || r[6] != g.Node || r[8] != g.ReadinessGates {
					t.Errorf("wide row %v: IP %s, node %s, readiness gates %s in podsim's world", r, g.IP, g.Node, g.ReadinessGates)
				}
			}

			if c.pod == "" {
				return
			}
			desc, errs, code := podsim(t, "describe", c.file, c.pod, "--at", c.at)
			if code != exitOK {
				t.Fatalf("podsim describe: %d %s", code, errs)
			}
			_, wantEvents, _ := strings.Cut(desc, "\nEvents:\n")
			_, gotEvents, ok := strings.Cut(kubectl("describe", "pod", c.pod), "\nEvents:\n")
			if !ok || !slices.EqualFunc(rows(gotEvents), rows(wantEvents), sameRow) {
				t.Errorf("kubectl describe pod %s events:\n%s\npodsim describe:\n%s", c.pod, gotEvents, wantEvents)
			}
		})
	}
}

// TestKubectlDeleteIsAFault: with --allow-writes, kubectl delete pod is the
// delete fault at the current virtual time, and the ReplicaSet replaces
// the pod; without it, the delete is refused.
func TestKubectlDeleteIsAFault(t *testing.T) {
	file := filepath.Join(root, "scenarios", "cluster", "disk-failure-replicaset.yaml")
	kubectl, stderr := serving(t, "serve", file, "--at", "1m", "--allow-writes")
	if got := rows(kubectl("get", "pods")); len(got) != 3 || got[1][0] != "api-0" || got[2][0] != "api-1" {
		t.Fatalf("before: %v", got)
	}
	if out := kubectl("delete", "pod", "api-1", "--grace-period=5"); strings.TrimSpace(out) != `pod "api-1" deleted` {
		t.Errorf("kubectl delete said %q", out)
	}
	got := rows(kubectl("get", "pods"))
	if len(got) != 3 || got[1][0] != "api-0" || got[2][0] != "api-2" || got[2][2] != "Running" {
		t.Errorf("after the delete: %v, want api-0 and its ReplicaSet's replacement api-2", got)
	}
	if !strings.Contains(stderr.String(), "at 1m: kubectl delete pod api-1 --grace-period=5 (fault delete)") {
		t.Errorf("podsim serve's log: %s", stderr)
	}
	if ev := kubectl("get", "events", "--field-selector", "involvedObject.name=api-1"); !strings.Contains(ev, "Killing") {
		t.Errorf("api-1's events have no Killing:\n%s", ev)
	}
}

// TestKubectlCordon: with --allow-writes, kubectl cordon and uncordon are
// the cordon and uncordon faults; get nodes shows SchedulingDisabled, and
// kubectl sees a cordoned node as cordoned.
func TestKubectlCordon(t *testing.T) {
	file := filepath.Join(root, "serve", "testdata", "drain-with-pdb.yaml")
	kubectl, stderr := serving(t, "serve", file, "--at", "1m", "--allow-writes")
	if out := kubectl("cordon", "node-a"); strings.TrimSpace(out) != "node/node-a cordoned" {
		t.Errorf("kubectl cordon said %q", out)
	}
	if got := rows(kubectl("get", "nodes")); len(got) != 3 || got[1][0] != "node-a" || got[1][1] != "Ready,SchedulingDisabled" || got[2][1] != "Ready" {
		t.Errorf("get nodes after the cordon: %v", got)
	}
	if out := kubectl("cordon", "node-a"); strings.TrimSpace(out) != "node/node-a already cordoned" {
		t.Errorf("kubectl cordon again said %q", out)
	}
	if out := kubectl("uncordon", "node-a"); strings.TrimSpace(out) != "node/node-a uncordoned" {
		t.Errorf("kubectl uncordon said %q", out)
	}
	if got := rows(kubectl("get", "nodes")); len(got) != 3 || got[1][1] != "Ready" {
		t.Errorf("get nodes after the uncordon: %v", got)
	}
	for _, line := range []string{"at 1m: kubectl cordon node-a (fault cordon)", "at 1m: kubectl uncordon node-a (fault uncordon)"} {
		if !strings.Contains(stderr.String(), line) {
			t.Errorf("podsim serve's log has no %q: %s", line, stderr)
		}
	}
}

// TestKubectlScale: kubectl scale (a patch of the scale subresource, or
// with --current-replicas a get and a put) is the scale fault: get pods
// then lists podsim's own pods after the same fault, column for column.
func TestKubectlScale(t *testing.T) {
	file := filepath.Join(root, "scenarios", "disruption", "scale.yaml")
	kubectl, stderr := serving(t, "serve", file, "--at", "30s", "--allow-writes")
	s, err := scenarios.LoadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	w := s.Build()
	w.Run(30 * time.Second)
	for _, c := range []struct {
		args     []string
		replicas int
	}{
		{[]string{"scale", "deployment", "web", "--replicas=5"}, 5},
		{[]string{"scale", "deployment/web", "--current-replicas=5", "--replicas=2"}, 2},
	} {
		if out := kubectl(c.args...); strings.TrimSpace(out) != "deployment.apps/web scaled" {
			t.Errorf("kubectl %v said %q", c.args, out)
		}
		w.Workload("web").Scale(c.replicas)
		w.Run(30 * time.Second)
		var want [][]string
		for _, p := range w.Pods() {
			if !p.Deleted() {
				r := report.GetPod(p, w.Now())
				want = append(want, []string{r.Name, r.Ready, r.Status, r.Restarts, r.Age})
			}
		}
		got := rows(kubectl("get", "pods"))
		if !slices.EqualFunc(got[1:], byName(append([][]string{nil}, want...))[1:], slices.Equal) {
			t.Errorf("after kubectl %v, get pods:\n%v\npodsim's pods:\n%v", c.args, got, want)
		}
		if d := rows(kubectl("get", "deployment", "web")); !strings.HasSuffix(d[1][1], fmt.Sprintf("/%d", c.replicas)) {
			t.Errorf("get deployment after kubectl %v: %v", c.args, d)
		}
	}
	if !strings.Contains(stderr.String(), "at 30s: kubectl scale deployment web --replicas=5 (fault scale)") {
		t.Errorf("podsim serve's log: %s", stderr)
	}
}

// TestKubectlGetPDB: kubectl get pdb and describe pdb show the model's
// budget at the frozen instant.
func TestKubectlGetPDB(t *testing.T) {
	file := filepath.Join(root, "scenarios", "disruption", "drain-with-pdb.yaml")
	s, err := scenarios.LoadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, at := range []string{"59s", "1m10s"} {
		kubectl, _ := serving(t, "serve", file, "--at", at)
		d, _ := time.ParseDuration(at)
		w := s.Build()
		w.Run(d)
		st := w.DisruptionBudget("web-pdb").Status
		want := [][]string{{"NAME", "MIN AVAILABLE", "MAX UNAVAILABLE", "ALLOWED DISRUPTIONS", "AGE"},
			{"web-pdb", "N/A", "1", fmt.Sprint(st.DisruptionsAllowed), report.HumanDuration(d)}}
		if got := rows(kubectl("get", "pdb")); !slices.EqualFunc(got, want, slices.Equal) {
			t.Errorf("at %s: kubectl get pdb:\n%v\nwant\n%v", at, got, want)
		}
		desc := kubectl("describe", "pdb", "web-pdb")
		for _, line := range []string{fmt.Sprintf("Allowed disruptions:  %d", st.DisruptionsAllowed), fmt.Sprintf("Current:              %d", st.CurrentHealthy),
			fmt.Sprintf("Desired:              %d", st.DesiredHealthy), fmt.Sprintf("Total:                %d", st.ExpectedPods)} {
			if !strings.Contains(desc, line) {
				t.Errorf("at %s: kubectl describe pdb has no %q:\n%s", at, line, desc)
			}
		}
	}
}
