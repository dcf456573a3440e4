package kubelet

import (
	"slices"
	"testing"
	"time"

	"github.com/podsim/podsim/model"
)

// TestDeleteKillsEveryContainerAtOnce: a deleted pod's containers all get
// Killing and start their preStop at the same instant; the sidecars then get
// SIGTERM in reverse order, each once the regular container and the sidecar
// declared after it have exited (killContainersWithSyncResult and
// kuberuntime_termination_order.go).
func TestDeleteKillsEveryContainerAtOnce(t *testing.T) {
	w := newWorld(1, model.DefaultSettings())
	tl := &model.Timeline{}
	w.Subscribe(tl)
	w.AddNode(model.NodeSpec{Name: "n", Capacity: model.Resources{MilliCPU: 4000, Memory: 1 << 34, Pods: 110}})
	hooked := &model.Behavior{ShutdownTime: 3 * time.Second, PreStop: model.HookBehavior{Duration: 2 * time.Second}}
	side := func(name string) model.ContainerSpec {
		return model.ContainerSpec{Name: name, Image: "img", PullPolicy: model.PullIfNotPresent, Sidecar: true, PreStop: "exec", Behavior: hooked}
	}
	p := w.AddPod("p", &model.PodSpec{RestartPolicy: model.RestartAlways, TerminationGracePeriod: 30 * time.Second,
		InitContainers: []model.ContainerSpec{side("s1"), side("s2")},
		Containers:     []model.ContainerSpec{{Name: "app", Image: "img", PullPolicy: model.PullIfNotPresent, PreStop: "exec", Behavior: hooked}},
	}, model.PodOptions{})
	w.Run(10 * time.Second)
	p.Delete(nil)
	w.Run(time.Minute)
	var killing []float64
	exits := map[string]float64{}
	for _, c := range tl.Changes {
		switch {
		case c.Kind == model.ChangeEvent && c.Reason == "Killing":
			killing = append(killing, c.T.Seconds())
		case c.Kind == model.ChangeContainer && c.State == model.StateTerminated:
			exits[c.Container] = c.T.Seconds()
		}
	}
	if want := []float64{10, 10, 10}; !slices.Equal(killing, want) {
		t.Errorf("Killing at %v, want %v", killing, want)
	}
	// preStop 10s-12s; app exits 3s after SIGTERM at 15s, s2 then gets
	// SIGTERM and exits at 18s, s1 at 21s.
	want := map[string]float64{"app": 15, "s2": 18, "s1": 21}
	for name, at := range want {
		if exits[name] != at {
			t.Errorf("%s exited at %vs, want %vs (all: %v)", name, exits[name], at, exits)
		}
	}
	if !p.Deleted() {
		t.Error("pod not deleted")
	}
}
