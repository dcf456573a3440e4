package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// snapshotKinds is what a snapshot of a cluster reads with kubectl.
const snapshotKinds = "nodes,deployments,statefulsets,daemonsets,replicasets,jobs,cronjobs,pdb,pods"

// roundTrips are library scenarios served at an instant: each pod on its
// node, in its phase, with its restart count, a snapshot must restore.
var roundTrips = []struct{ file, at string }{
	{filepath.Join(root, "scenarios", "manifests", "shop-include.yaml"), "5m30s"}, // a restart, a StatefulSet, a CronJob's Job
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
			again, _ := serving(t, "serve", file, "--at", "1ms")
			gotPods := podColumns(again("get", "pods", "-A", "-o", "wide"))
			if !slices.EqualFunc(gotPods, wantPods, slices.Equal) {
				t.Errorf("pods from the snapshot:\n%v\nserved at %s:\n%v", gotPods, c.at, wantPods)
			}
			gotWorkloads := workloadColumns(again("get", "deployments,statefulsets,daemonsets,replicasets", "-A"))
			if !slices.EqualFunc(gotWorkloads, wantWorkloads, slices.Equal) {
				t.Errorf("workloads from the snapshot:\n%v\nserved at %s:\n%v", gotWorkloads, c.at, wantWorkloads)
			}
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
