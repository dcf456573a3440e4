package podgc_test

import (
	"testing"
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/model/cluster"
)

// stsWorld is a cluster of two nodes with a StatefulSet "db" of two pods
// that take 10s to shut down, checked by the invariants.
func stsWorld(t *testing.T) *model.World {
	t.Helper()
	w := cluster.New(1, model.DefaultSettings())
	inv := model.NewInvariants(w)
	t.Cleanup(func() {
		if err := inv.Err(); err != nil {
			t.Error(err)
		}
	})
	for _, n := range []string{"a", "b"} {
		w.AddNode(model.NodeSpec{Name: n, Capacity: model.Resources{MilliCPU: 4000, Memory: 8 << 30, Pods: 110}})
	}
	spec := &model.PodSpec{RestartPolicy: model.RestartAlways, TerminationGracePeriod: 30 * time.Second,
		Containers: []model.ContainerSpec{{Name: "app", Image: "img", PullPolicy: model.PullIfNotPresent,
			Behavior: &model.Behavior{ShutdownTime: 10 * time.Second}, Requests: model.Resources{MilliCPU: 100, Memory: 64 << 20},
			Readiness: &model.ProbeSpec{Handler: "exec", Period: 5 * time.Second, Timeout: time.Second, SuccessThreshold: 1, FailureThreshold: 3}}}}
	w.AddWorkload(model.WorkloadSpec{Kind: model.KindStatefulSet, Name: "db", Replicas: 2, PodManagement: model.OrderedReady,
		Template: spec, Options: model.PodOptions{Labels: map[string]string{"app": "db"}}})
	return w
}

// A pod left Terminating on an unreachable node keeps its ordinal: no
// replacement while it exists, one as soon as PodGC removes it.
func TestStatefulSetNoReplacementWhileTerminating(t *testing.T) {
	w := stsWorld(t)
	w.Run(time.Minute)
	old := w.Pod("db-0")
	n := old.Node
	w.Schedule(61*time.Second, func() { n.Partition(nil) })
	w.Run(10 * time.Minute)
	if !old.Terminating() || old.Deleted() || w.Pod("db-0") != old {
		t.Fatalf("db-0: terminating %v, deleted %v, replaced %v", old.Terminating(), old.Deleted(), w.Pod("db-0") != old)
	}
	w.Schedule(10*time.Minute+time.Second, n.Delete)
	w.Run(12 * time.Minute)
	p := w.Pod("db-0")
	if p == old || p.Phase() != model.Running || p.Node == n {
		t.Errorf("db-0 after the node's deletion: replaced %v, %s", p != old, p.Phase())
	}
}

// Past TerminatedPodGCThreshold, the oldest finished pods are deleted at
// the next pass.
func TestTerminatedThreshold(t *testing.T) {
	s := model.DefaultSettings()
	s.TerminatedPodGCThreshold = 2
	w := cluster.New(1, s)
	w.AddNode(model.NodeSpec{Name: "n", Capacity: model.Resources{MilliCPU: 4000, Memory: 8 << 30, Pods: 110}})
	spec := &model.PodSpec{RestartPolicy: model.RestartNever, TerminationGracePeriod: 30 * time.Second,
		Containers: []model.ContainerSpec{{Name: "app", Image: "img", PullPolicy: model.PullIfNotPresent,
			Behavior: &model.Behavior{Runs: []model.RunSpec{{ExitAfter: 5 * time.Second, Times: 1}}}}}}
	for _, name := range []string{"p0", "p1", "p2", "p3"} {
		w.AddPod(name, spec, model.PodOptions{})
	}
	w.Run(time.Minute)
	for i, want := range []bool{true, true, false, false} {
		p := w.Pods()[i]
		if p.Phase() != model.Succeeded || p.Deleted() != want {
			t.Errorf("%s: %s, deleted %v, want Succeeded, deleted %v", p.Name, p.Phase(), p.Deleted(), want)
		}
	}
}
