package model

import (
	"testing"
	"time"
)

// A pod bound to a node that is shutting down is rejected at admission:
// Failed, reason NodeShutdown, rejectPod's message, and never started.
func TestShutdownRejectsNewPods(t *testing.T) {
	w := newWorld(1, DefaultSettings())
	w.Subscribe(&Timeline{})
	n := w.AddNode(NodeSpec{Name: "n", Capacity: Resources{MilliCPU: 4000, Memory: 1 << 34, Pods: 110},
		Shutdown: NodeShutdown{GracePeriod: 30 * time.Second}})
	spec := func() *PodSpec {
		return &PodSpec{NodeName: "n", RestartPolicy: RestartAlways, TerminationGracePeriod: 30 * time.Second,
			Containers: []ContainerSpec{{Name: "app", Image: "img", PullPolicy: PullIfNotPresent,
				Behavior: &Behavior{ShutdownTime: time.Hour}}}}
	}
	old := w.AddPod("old", spec(), PodOptions{})
	w.Run(10 * time.Second)
	n.Shutdown(nil)
	if !n.ShuttingDown() {
		t.Fatal("node not shutting down")
	}
	late := w.AddPod("late", spec(), PodOptions{})
	w.Run(11 * time.Second)
	st := late.Status()
	if late.Phase() != Failed || st.Reason != "NodeShutdown" || st.Message != "Pod was rejected: Pod was rejected as the node is shutting down." {
		t.Errorf("late pod: %s %q %q", late.Phase(), st.Reason, st.Message)
	}
	if cs, _ := st.Container("app"); cs.State.Kind == StateRunning {
		t.Error("late pod's container runs")
	}
	// old's grace: min(its 30s, the regular share 30s - 0s); SIGKILL at 40s,
	// then the node powers off.
	w.Run(39 * time.Second)
	if old.Phase() != Running || n.down {
		t.Errorf("at 39s: old %s, node down %v", old.Phase(), n.down)
	}
	w.Run(40 * time.Second)
	if st := old.Status(); old.Phase() != Failed || st.Reason != "Terminated" || !n.down {
		t.Errorf("at 40s: old %s %q, node down %v", old.Phase(), st.Reason, n.down)
	}
}

// With shutdownGracePeriod 0 the manager is off: a shutdown is a power-off.
func TestShutdownOffPowersOffAtOnce(t *testing.T) {
	w := newWorld(1, DefaultSettings())
	w.Subscribe(&Timeline{})
	n := w.AddNode(NodeSpec{Name: "n", Capacity: Resources{MilliCPU: 4000, Memory: 1 << 34, Pods: 110}})
	p := w.AddPod("p", &PodSpec{NodeName: "n", RestartPolicy: RestartAlways, TerminationGracePeriod: 30 * time.Second,
		Containers: []ContainerSpec{{Name: "app", Image: "img", PullPolicy: PullIfNotPresent}}}, PodOptions{})
	w.Run(time.Second)
	n.Shutdown(nil)
	if !n.down || n.ShuttingDown() || p.Phase() != Running {
		t.Errorf("down %v, shutting down %v, pod %s; want a power-off with the pod as it was", n.down, n.ShuttingDown(), p.Phase())
	}
}
