package model

import (
	"strings"
	"testing"
	"time"
)

// stsWorld is two nodes and a StatefulSet "db" of replicas pods whose
// process needs startup before its readiness probe (every 5s) passes and
// stops 10s after SIGTERM. It records every change.
func stsWorld(t *testing.T, replicas int, policy PodManagementPolicy, startup time.Duration) (*World, *Timeline) {
	t.Helper()
	w := newWorld(1, DefaultSettings())
	tl := &Timeline{}
	w.Subscribe(tl)
	inv := NewInvariants(w)
	t.Cleanup(func() {
		if err := inv.Err(); err != nil {
			t.Error(err)
		}
	})
	for _, n := range []string{"a", "b"} {
		w.AddNode(NodeSpec{Name: n, Capacity: Resources{MilliCPU: 4000, Memory: 8 << 30, Pods: 110}})
	}
	spec := appSpec(100, &Behavior{StartupTime: startup, ShutdownTime: 10 * time.Second}, RestartAlways)
	spec.Containers[0].Readiness = &ProbeSpec{Handler: "exec", Period: 5 * time.Second, Timeout: time.Second,
		SuccessThreshold: 1, FailureThreshold: 3}
	w.AddWorkload(WorkloadSpec{Kind: KindStatefulSet, Name: "db", Replicas: replicas, PodManagement: policy,
		Template: spec, Options: PodOptions{Labels: map[string]string{"app": "db"}}})
	return w, tl
}

// stsEvents lists the StatefulSet's events as "T reason message".
func stsEvents(tl *Timeline) []string {
	var out []string
	for _, c := range tl.Changes {
		if c.Kind == ChangeEvent && c.Object == KindStatefulSet {
			out = append(out, c.T.String()+" "+c.Reason+" "+strings.Fields(c.Message)[2])
		}
	}
	return out
}

func TestStatefulSetOrderedReady(t *testing.T) {
	w, tl := stsWorld(t, 3, OrderedReady, 10*time.Second)
	w.Run(time.Minute)
	w.Workload("db").Scale(1)
	w.Run(2 * time.Minute)
	want := []string{
		"0s SuccessfulCreate db-0", "10s SuccessfulCreate db-1", "20s SuccessfulCreate db-2",
		// Reverse order, each once the one above it is gone (10s shutdown).
		"1m0s SuccessfulDelete db-2", "1m10s SuccessfulDelete db-1",
	}
	if got := stsEvents(tl); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	p := w.Pod("db-0")
	if p.Labels[LabelStatefulSetPodName] != "db-0" || p.Labels[LabelPodIndex] != "0" || p.Labels["app"] != "db" {
		t.Errorf("db-0 labels %v", p.Labels)
	}
	if w.Pod("db-1").Labels[LabelPodIndex] != "1" {
		t.Errorf("db-1 labels %v", w.Pod("db-1").Labels)
	}
}

func TestStatefulSetParallel(t *testing.T) {
	w, tl := stsWorld(t, 3, Parallel, 10*time.Second)
	w.Run(time.Minute)
	w.Workload("db").Scale(0)
	w.Run(2 * time.Minute)
	want := []string{
		"0s SuccessfulCreate db-0", "0s SuccessfulCreate db-1", "0s SuccessfulCreate db-2",
		"1m0s SuccessfulDelete db-2", "1m0s SuccessfulDelete db-1", "1m0s SuccessfulDelete db-0",
	}
	if got := stsEvents(tl); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// An OrderedReady scale-down waits while a replica is not ready: the
// condemned pods go only once every pod below them is Running and Ready.
func TestStatefulSetScaleDownWaitsForReadyReplicas(t *testing.T) {
	w, tl := stsWorld(t, 3, OrderedReady, 10*time.Second)
	// The pods fail their readiness probe from 1m to 1m30s: not ready
	// from the third failure, 1m10s, until 1m30s.
	w.Workload("db").Spec.Template.Containers[0].Behavior.ProbeFailures[Readiness] = []Window{{From: time.Minute, To: 90 * time.Second}}
	w.Run(time.Minute)
	w.Schedule(75*time.Second, func() { w.Workload("db").Scale(2) })
	w.Run(2 * time.Minute)
	var deleted string
	for _, e := range stsEvents(tl) {
		if strings.Contains(e, "SuccessfulDelete") {
			deleted = e
		}
	}
	if deleted != "1m30s SuccessfulDelete db-2" {
		t.Errorf("last delete %q, want db-2 at 1m30s, when the pods are ready again", deleted)
	}
}

// A failed pod is deleted and made again under the same name once the old
// object is gone.
func TestStatefulSetReplacesFailedPodUnderItsName(t *testing.T) {
	w, tl := stsWorld(t, 2, OrderedReady, 0)
	w.Run(time.Minute)
	old := w.Pod("db-1")
	w.Schedule(61*time.Second, func() { old.Node.DiskFailure() })
	w.Run(2 * time.Minute)
	p := w.Pod("db-1")
	if p == old || !old.Deleted() || old.Phase() != Failed {
		t.Fatalf("db-1 not replaced: same pod %v, old deleted %v phase %s", p == old, old.Deleted(), old.Phase())
	}
	if p.Phase() != Running || p.Node == old.Node {
		t.Errorf("new db-1 is %s on %s; want Running on the other node", p.Phase(), p.Node.Name)
	}
	if got := len(w.Workload("db").Pods()); got != 3 {
		t.Errorf("%d pods made, want 3", got)
	}
	var created int
	for _, e := range stsEvents(tl) {
		if strings.HasSuffix(e, "SuccessfulCreate db-1") {
			created++
		}
	}
	if created != 2 {
		t.Errorf("db-1 created %d times, want 2", created)
	}
}

// The controller's index of ordinals (statefulState) agrees with the pods
// at every instant of a run that scales up and down, fails readiness,
// deletes pods and kills a node, under both policies: a sync looks only at
// the ordinals the index names, so a stale bit would be a missed action.
func TestStatefulSetIndexAgreesWithPods(t *testing.T) {
	for _, policy := range []PodManagementPolicy{OrderedReady, Parallel} {
		w, _ := stsWorld(t, 5, policy, 10*time.Second)
		wl := w.Workload("db")
		wl.Spec.Template.Containers[0].Behavior.ProbeFailures[Readiness] = []Window{{From: 2 * time.Minute, To: 3 * time.Minute}}
		w.Schedule(time.Minute, func() { wl.Scale(40) })
		w.Schedule(150*time.Second, func() { w.Pod("db-1").Delete(nil) })
		w.Schedule(4*time.Minute, func() { w.Node("a").DiskFailure() })
		w.Schedule(6*time.Minute, func() { wl.Scale(3) })
		w.Schedule(8*time.Minute, func() { wl.Scale(70) })
		for at := time.Duration(0); at <= 12*time.Minute; at += 500 * time.Millisecond {
			w.Observe(at, func() { checkStatefulIndex(t, wl, at) })
		}
		w.Run(12 * time.Minute)
		if t.Failed() {
			return
		}
	}
}

func checkStatefulIndex(t *testing.T, wl *Workload, at time.Duration) {
	t.Helper()
	st := wl.statefulState()
	for ord := range max(st.room, len(wl.ordinals)) {
		p := wl.podAt(ord)
		has := p != nil
		bad := !has || unavailable(p)
		got := [5]bool{st.unhealthy.next(ord) == ord, st.actionable.next(ord) == ord, st.present.next(ord) == ord,
			st.presentUnhealthy.next(ord) == ord, st.live.next(ord) == ord}
		want := [5]bool{bad, !has || (p.phase.Terminal() && !p.deleting), has, has && bad, has && !p.deleting}
		if got != want {
			t.Errorf("%s at %s ordinal %d: index %v, pods say %v", wl.Spec.PodManagement, at, ord, got, want)
			return
		}
	}
}
