package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// snapshotKinds is what a snapshot of a cluster reads with kubectl.
const snapshotKinds = "nodes,deployments,statefulsets,daemonsets,replicasets,jobs,cronjobs,pdb,pods"

// roundTrips are library scenarios served at an instant: each pod on its
// node, in its phase, with its restart count, a snapshot must restore.
var roundTrips = []struct{ file, at string }{
	{filepath.Join(root, "scenarios", "manifests", "shop-include.yaml"), "5m31s"}, // a restart, a StatefulSet, a CronJob's completed Job (a running one, with no behaviour in the snapshot, would complete at once)
	{filepath.Join(root, "scenarios", "disruption", "drain-with-pdb.yaml"), "4m"}, // two nodes, one cordoned, a DaemonSet
	{filepath.Join(root, "scenarios", "cluster", "out-of-capacity.yaml"), "1m"},   // a pod Pending, Unschedulable
	{filepath.Join(root, "scenarios", "rollouts", "stuck-crashloop.yaml"), "3m"},  // a rollout stuck: two ReplicaSets, a crash loop
}

// podColumns are the columns of kubectl get pods -o wide a snapshot keeps:
// NAMESPACE, NAME, READY, STATUS, RESTARTS (without "(Ns ago)"), NODE.
func podColumns(table string) [][]string {
	var out [][]string
	for _, r := range rows(table)[1:] {
		restarts, _, _ := strings.Cut(r[4], " ")
		out = append(out, []string{r[0], r[1], r[2], r[3], restarts, r[7]})
	}
	return out
}

// workloadColumns are NAMESPACE, NAME and the replica counts (READY and
// the like) of kubectl get of workloads: every column but AGE and those
// after it.
func workloadColumns(table string) [][]string {
	var out [][]string
	for _, r := range rows(table) {
		if len(r) < 2 || r[0] == "NAMESPACE" {
			continue
		}
		i := len(r)
		for j, c := range r {
			if strings.HasSuffix(c, "s") && strings.ContainsAny(c[:1], "0123456789") || strings.HasSuffix(c, "m") {
				i = j
				break
			}
		}
		out = append(out, r[:i])
	}
	return out
}

// sameAsServed serves file (a snapshot) at its start and checks that it
// shows the pods and workloads served before, and with ages their ages.
func sameAsServed(t *testing.T, file string, wantPods, wantWorkloads [][]string, ages bool) {
	t.Helper()
	again, _ := serving(t, "serve", file, "--at", "1ms")
	gotPods := podColumns(again("get", "pods", "-A", "-o", "wide"))
	if ages {
		gotPods = podAges(again("get", "pods", "-A", "-o", "wide"))
	}
	if !slices.EqualFunc(gotPods, wantPods, sameRow) {
		t.Errorf("pods from the snapshot:\n%v\nserved:\n%v", gotPods, wantPods)
	}
	gotWorkloads := workloadColumns(again("get", "deployments,statefulsets,daemonsets,replicasets", "-A"))
	if !slices.EqualFunc(gotWorkloads, wantWorkloads, slices.Equal) {
		t.Errorf("workloads from the snapshot:\n%v\nserved:\n%v", gotWorkloads, wantWorkloads)
	}
}

// sameRow compares two rows, ages within a second: the API's times are
// whole seconds, so a client's age of an instant is a second more once its
// clock has passed the next whole second.
func sameRow(a, b []string) bool {
	return slices.EqualFunc(a, b, sameCell)
}

// sameCell is a == b, or the two are ages within a second of each other:
// durations ("3m59s", "4m"), or cells whose seconds are and which are
// otherwise the same (an event's "11s (x2 over 16s)").
func sameCell(a, b string) bool {
	if a == b {
		return true
	}
	x, errx := time.ParseDuration(a)
	y, erry := time.ParseDuration(b)
	if errx == nil && erry == nil {
		return x-y <= time.Second && y-x <= time.Second
	}
	na, nb := ages.FindAllString(a, -1), ages.FindAllString(b, -1)
	if len(na) == 0 || len(na) != len(nb) || ages.ReplaceAllString(a, "0s") != ages.ReplaceAllString(b, "0s") {
		return false
	}
	for i := range na {
		m, _ := time.ParseDuration(na[i])
		n, _ := time.ParseDuration(nb[i])
		if m-n > time.Second || n-m > time.Second {
			return false
		}
	}
	return true
}

// ages matches the ages kubectl writes in minutes and seconds ("16s",
// "4m", "3m59s").
var ages = regexp.MustCompile(`\b[0-9]+(m[0-9]+s|[ms])\b`)

// podAges is podColumns with each pod's AGE.
func podAges(table string) [][]string {
	out := podColumns(table)
	for i, r := range rows(table)[1:] {
		out[i] = append(out[i], r[5])
	}
	return out
}

// TestSnapshotRoundTrip: kubectl get -o yaml of the objects of a served
// scenario, run again, has every pod on the node it was on, in its phase
// and readiness, with its restart count, and the workloads at their
// replica counts, with no pod made twice. `podsim run -` reads it too.
func TestSnapshotRoundTrip(t *testing.T) {
	for _, c := range roundTrips {
		t.Run(filepath.Base(c.file), func(t *testing.T) {
			kubectl, _ := serving(t, "serve", c.file, "--at", c.at)
			snap := kubectl("get", snapshotKinds, "-A", "-o", "yaml")
			wantPods := podColumns(kubectl("get", "pods", "-A", "-o", "wide"))
			wantWorkloads := workloadColumns(kubectl("get", "deployments,statefulsets,daemonsets,replicasets", "-A"))

			var out, errb bytes.Buffer
			m := &Main{Stdin: strings.NewReader(snap), Stdout: &out, Stderr: &errb}
			if code := m.Run(context.Background(), []string{"run", "-", "--duration", "1s", "-o", "text"}); code != exitOK {
				t.Fatalf("podsim run -: exit %d\n%s", code, errb.String())
			}

			file := filepath.Join(t.TempDir(), "snapshot.yaml")
			if err := os.WriteFile(file, []byte(snap), 0o644); err != nil {
				t.Fatal(err)
			}
			sameAsServed(t, file, wantPods, wantWorkloads, false)
		})
	}
}

// Every problem of a snapshot's pod status and of node selectors, with
// its place.
func TestSnapshotBadInput(t *testing.T) {
	_, errs, code := podsim(t, "validate", filepath.Join(root, "testdata", "invalid", "snapshot.yaml"))
	if code != exitBadInput {
		t.Errorf("exit %d, want %d", code, exitBadInput)
	}
	golden(t, "snapshot.txt", strings.ReplaceAll(errs, root+"/", ""))
}

// TestSnapshotCommand: podsim snapshot against podsim serve writes a file
// that runs from where the served cluster is: every pod on its node, in
// its phase, with its restart count and its age (the file is dated by the
// server's Date), the workloads at their replicas. -n and -l narrow what
// it reads; Nodes are read whole.
func TestSnapshotCommand(t *testing.T) {
	for _, c := range roundTrips {
		t.Run(filepath.Base(c.file), func(t *testing.T) {
			kubectl, _ := serving(t, "serve", c.file, "--at", c.at)
			dir := t.TempDir()
			kc, file := filepath.Join(dir, "kubeconfig"), filepath.Join(dir, "snapshot.yaml")
			if err := os.WriteFile(kc, []byte(kubectl("config", "view", "--raw")), 0o600); err != nil {
				t.Fatal(err)
			}
			if out, errs, code := podsim(t, "snapshot", "--kubeconfig", kc, "-A", "-o", file); code != exitOK || out != "" {
				t.Fatalf("podsim snapshot: exit %d\n%s%s", code, out, errs)
			}
			sameAsServed(t, file, podAges(kubectl("get", "pods", "-A", "-o", "wide")),
				workloadColumns(kubectl("get", "deployments,statefulsets,daemonsets,replicasets", "-A")), true)
		})
	}
	t.Run("namespace and selector", func(t *testing.T) {
		kubectl, _ := serving(t, "serve", roundTrips[0].file, "--at", roundTrips[0].at)
		kc := filepath.Join(t.TempDir(), "kubeconfig")
		if err := os.WriteFile(kc, []byte(kubectl("config", "view", "--raw")), 0o600); err != nil {
			t.Fatal(err)
		}
		out, errs, code := podsim(t, "snapshot", "--kubeconfig", kc, "-n", "shop", "-l", "app=db")
		if code != exitOK {
			t.Fatalf("podsim snapshot: exit %d\n%s", code, errs)
		}
		for _, want := range []string{"\n    kind: Node\n", "\n      name: db-0\n", "\n    kind: StatefulSet\n"} {
			if !strings.Contains(out, want) {
				t.Errorf("the snapshot lacks %q:\n%s", want, out)
			}
		}
		for _, not := range []string{"web-0", "kind: Deployment", "managedFields", "kind: Secret", "kind: ConfigMap"} {
			if strings.Contains(out, not) {
				t.Errorf("the snapshot has %q", not)
			}
		}
		if !strings.Contains(errs, "podsim snapshot: v1 services left out: the server does not serve it") {
			t.Errorf("stderr: %s", errs)
		}
		if _, errs, code := podsim(t, "snapshot", "--kubeconfig", kc, "-n", "shop", "-A"); code != exitBadInput || !strings.Contains(errs, "-n and -A") {
			t.Errorf("-n with -A: exit %d %s", code, errs)
		}
		if _, errs, code := podsim(t, "snapshot", "--kubeconfig", kc, "--context", "prod"); code != exitBadInput || !strings.Contains(errs, `no context "prod" (it has: podsim)`) {
			t.Errorf("--context prod: exit %d %s", code, errs)
		}
	})
}

// Ages may differ by a second, counts and words may not.
func TestSameCell(t *testing.T) {
	for _, c := range []struct {
		a, b string
		same bool
	}{
		{"11s (x2 over 16s)", "10s (x2 over 15s)", true},
		{"11s (x3 over 16s)", "10s (x2 over 15s)", false},
		{"12s (x2 over 16s)", "10s (x2 over 15s)", false},
		{"4m", "3m59s", true},
		{"Started", "Started", true},
		{"Pulled", "Pulling", false},
		{"in 5s", "in 6s", true},
		{"Back-off 10s", "Back-off 20s", false},
		{"3m59s (x2 over 4m)", "4m (x2 over 4m1s)", true},
		{"3m58s (x2 over 4m)", "4m (x2 over 4m1s)", false},
	} {
		if got := sameCell(c.a, c.b); got != c.same {
			t.Errorf("sameCell(%q, %q) = %v", c.a, c.b, got)
		}
	}
}
