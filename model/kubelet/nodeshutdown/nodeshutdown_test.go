package nodeshutdown

import (
	"testing"
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/model/kubelet"
	"github.com/podsim/podsim/model/scheduler"
)

// newWorld is the core with the scheduler, the parts it holds and the
// shutdown managers (cluster.New, which adds every part, imports this
// package).
func newWorld() *model.World {
	w := model.NewCore(1, model.DefaultSettings())
	w.Register(kubelet.New())
	w.Register(scheduler.New(w))
	w.RegisterCoreParts()
	w.Register(New(w))
	return w
}

// A pod bound to a node that is shutting down is rejected at admission:
// model.Failed, reason model.NodeShutdown, rejectPod's message, and never started.
func TestShutdownRejectsNewPods(t *testing.T) {
	w := newWorld()
	w.Subscribe(&model.Timeline{})
	n := w.AddNode(model.NodeSpec{Name: "n", Capacity: model.Resources{MilliCPU: 4000, Memory: 1 << 34, Pods: 110},
		Shutdown: model.NodeShutdown{GracePeriod: 30 * time.Second}})
	spec := func() *model.PodSpec {
		return &model.PodSpec{NodeName: "n", RestartPolicy: model.RestartAlways, TerminationGracePeriod: 30 * time.Second,
			Containers: []model.ContainerSpec{{Name: "app", Image: "img", PullPolicy: model.PullIfNotPresent,
				Behavior: &model.Behavior{ShutdownTime: time.Hour}}}}
	}
	old := w.AddPod("old", spec(), model.PodOptions{})
	w.Run(10 * time.Second)
	n.Shutdown(nil)
	if !n.ShuttingDown() {
		t.Fatal("node not shutting down")
	}
	late := w.AddPod("late", spec(), model.PodOptions{})
	w.Run(11 * time.Second)
	st := late.Status()
	if late.Phase() != model.Failed || st.Reason != "NodeShutdown" || st.Message != "Pod was rejected: Pod was rejected as the node is shutting down." {
		t.Errorf("late pod: %s %q %q", late.Phase(), st.Reason, st.Message)
	}
	if cs, _ := st.Container("app"); cs.State.Kind == model.StateRunning {
		t.Error("late pod's container runs")
	}
	// old's grace: min(its 30s, the regular share 30s - 0s); SIGKILL at 40s,
	// then the node powers off.
	w.Run(39 * time.Second)
	if old.Phase() != model.Running || n.PoweredOff() {
		t.Errorf("at 39s: old %s, node down %v", old.Phase(), n.PoweredOff())
	}
	w.Run(40 * time.Second)
	if st := old.Status(); old.Phase() != model.Failed || st.Reason != "Terminated" || !n.PoweredOff() {
		t.Errorf("at 40s: old %s %q, node down %v", old.Phase(), st.Reason, n.PoweredOff())
	}
}

// With shutdownGracePeriod 0 the manager is off: a shutdown is a power-off.
func TestShutdownOffPowersOffAtOnce(t *testing.T) {
	w := newWorld()
	w.Subscribe(&model.Timeline{})
	n := w.AddNode(model.NodeSpec{Name: "n", Capacity: model.Resources{MilliCPU: 4000, Memory: 1 << 34, Pods: 110}})
	p := w.AddPod("p", &model.PodSpec{NodeName: "n", RestartPolicy: model.RestartAlways, TerminationGracePeriod: 30 * time.Second,
		Containers: []model.ContainerSpec{{Name: "app", Image: "img", PullPolicy: model.PullIfNotPresent}}}, model.PodOptions{})
	w.Run(time.Second)
	n.Shutdown(nil)
	if !n.PoweredOff() || n.ShuttingDown() || p.Phase() != model.Running {
		t.Errorf("down %v, shutting down %v, pod %s; want a power-off with the pod as it was", n.PoweredOff(), n.ShuttingDown(), p.Phase())
	}
}
