package statefulset_test

import (
	"strings"
	"testing"
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/model/controller/statefulset"
	"github.com/podsim/podsim/model/kubelet"
	"github.com/podsim/podsim/model/scheduler"
)

// stsWorld is two nodes and a StatefulSet "db" of replicas pods whose
// process needs startup before its readiness probe (every 5s) passes and
// stops 10s after SIGTERM. It records every change.
func stsWorld(t *testing.T, replicas int, policy model.PodManagementPolicy, startup time.Duration) (*model.World, *model.Timeline) {
	w, _, tl := stsWorldWith(t, replicas, policy, startup)
	return w, tl
}

// stsWorldWith is stsWorld with its StatefulSet controller.
func stsWorldWith(t *testing.T, replicas int, policy model.PodManagementPolicy, startup time.Duration) (*model.World, *statefulset.Controller, *model.Timeline) {
	t.Helper()
	w := model.NewCore(1, model.DefaultSettings())
	w.Register(kubelet.New())
	w.Register(scheduler.New(w))
	w.RegisterCoreParts()
	c := statefulset.New(w)
	w.RegisterWorkloadController(model.KindStatefulSet, c)
	tl := &model.Timeline{}
	w.Subscribe(tl)
	inv := model.NewInvariants(w)
	t.Cleanup(func() {
		if err := inv.Err(); err != nil {
			t.Error(err)
		}
	})
	for _, n := range []string{"a", "b"} {
		w.AddNode(model.NodeSpec{Name: n, Capacity: model.Resources{MilliCPU: 4000, Memory: 8 << 30, Pods: 110}})
	}
	spec := appSpec(100, &model.Behavior{StartupTime: startup, ShutdownTime: 10 * time.Second}, model.RestartAlways)
	spec.Containers[0].Readiness = &model.ProbeSpec{Handler: "exec", Period: 5 * time.Second, Timeout: time.Second,
		SuccessThreshold: 1, FailureThreshold: 3}
	w.AddWorkload(model.WorkloadSpec{Kind: model.KindStatefulSet, Name: "db", Replicas: replicas, PodManagement: policy,
		Template: spec, Options: model.PodOptions{Labels: map[string]string{"app": "db"}}})
	return w, c, tl
}

func appSpec(cpu int64, b *model.Behavior, policy model.RestartPolicy) *model.PodSpec {
	return &model.PodSpec{RestartPolicy: policy, TerminationGracePeriod: 30 * time.Second,
		Containers: []model.ContainerSpec{{Name: "app", Image: "img", PullPolicy: model.PullIfNotPresent, Behavior: b,
			Requests: model.Resources{MilliCPU: cpu, Memory: 64 << 20}}}}
}

// stsEvents lists the StatefulSet's events as "T reason message".
func stsEvents(tl *model.Timeline) []string {
	var out []string
	for _, c := range tl.Changes {
		if c.Kind == model.ChangeEvent && c.Object == model.KindStatefulSet {
			out = append(out, c.T.String()+" "+c.Reason+" "+strings.Fields(c.Message)[2])
		}
	}
	return out
}

func TestStatefulSetOrderedReady(t *testing.T) {
	w, tl := stsWorld(t, 3, model.OrderedReady, 10*time.Second)
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
	if p.Labels[model.LabelStatefulSetPodName] != "db-0" || p.Labels[model.LabelPodIndex] != "0" || p.Labels["app"] != "db" {
		t.Errorf("db-0 labels %v", p.Labels)
	}
	if w.Pod("db-1").Labels[model.LabelPodIndex] != "1" {
		t.Errorf("db-1 labels %v", w.Pod("db-1").Labels)
	}
}

func TestStatefulSetParallel(t *testing.T) {
	w, tl := stsWorld(t, 3, model.Parallel, 10*time.Second)
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

// An model.OrderedReady scale-down waits while a replica is not ready: the
// condemned pods go only once every pod below them is model.Running and Ready.
func TestStatefulSetScaleDownWaitsForReadyReplicas(t *testing.T) {
	w, tl := stsWorld(t, 3, model.OrderedReady, 10*time.Second)
	// The pods fail their readiness probe from 1m to 1m30s: not ready
	// from the third failure, 1m10s, until 1m30s.
	w.Workload("db").Spec.Template.Containers[0].Behavior.ProbeFailures[model.Readiness] = []model.Window{{From: time.Minute, To: 90 * time.Second}}
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
	w, tl := stsWorld(t, 2, model.OrderedReady, 0)
	w.Run(time.Minute)
	old := w.Pod("db-1")
	w.Schedule(61*time.Second, func() { old.Node.DiskFailure() })
	w.Run(2 * time.Minute)
	p := w.Pod("db-1")
	if p == old || !old.Deleted() || old.Phase() != model.Failed {
		t.Fatalf("db-1 not replaced: same pod %v, old deleted %v phase %s", p == old, old.Deleted(), old.Phase())
	}
	if p.Phase() != model.Running || p.Node == old.Node {
		t.Errorf("new db-1 is %s on %s; want model.Running on the other node", p.Phase(), p.Node.Name)
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

// The controller's index of ordinals agrees with the pods
// at every instant of a run that scales up and down, fails readiness,
// deletes pods and kills a node, under both policies: a sync looks only at
// the ordinals the index names, so a stale bit would be a missed action.
func TestStatefulSetIndexAgreesWithPods(t *testing.T) {
	for _, policy := range []model.PodManagementPolicy{model.OrderedReady, model.Parallel} {
		w, c, _ := stsWorldWith(t, 5, policy, 10*time.Second)
		wl := w.Workload("db")
		wl.Spec.Template.Containers[0].Behavior.ProbeFailures[model.Readiness] = []model.Window{{From: 2 * time.Minute, To: 3 * time.Minute}}
		w.Schedule(time.Minute, func() { wl.Scale(40) })
		w.Schedule(150*time.Second, func() { w.Pod("db-1").Delete(nil) })
		w.Schedule(4*time.Minute, func() { w.Node("a").DiskFailure() })
		w.Schedule(6*time.Minute, func() { wl.Scale(3) })
		w.Schedule(8*time.Minute, func() { wl.Scale(70) })
		for at := time.Duration(0); at <= 12*time.Minute; at += 500 * time.Millisecond {
			w.Observe(at, func() {
				if err := statefulset.CheckIndex(c, wl); err != nil && !t.Failed() {
					t.Errorf("%s at %s: %v", policy, at, err)
				}
			})
		}
		w.Run(12 * time.Minute)
		if t.Failed() {
			return
		}
	}
}
