package endpointslice

import (
	"testing"
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/model/kubelet"
	"github.com/podsim/podsim/model/scheduler"
)

// watchCount counts the changes of slices it hears.
type watchCount struct{ n *int }

func (c watchCount) SlicesChanged(*model.Service) { *c.n++ }

// A Service's slices list the pods it selects in its namespace once they
// have an address; a terminating pod stays serving, not ready; a pod gone
// from the API leaves them; the watchers hear of each change.
func TestSliceEndpoints(t *testing.T) {
	w := model.NewCore(1, model.DefaultSettings())
	w.Register(kubelet.New())
	w.Register(scheduler.New(w))
	c := New(w)
	w.Register(c)
	changes := 0
	c.Watch(watchCount{&changes})
	w.AddNode(model.NodeSpec{Name: "n", Capacity: model.Resources{MilliCPU: 4000, Memory: 16 << 30, Pods: 110}})
	spec := func() *model.PodSpec {
		return &model.PodSpec{NodeName: "n", RestartPolicy: model.RestartAlways, TerminationGracePeriod: 30 * time.Second,
			Containers: []model.ContainerSpec{{Name: "app", Image: "i", PullPolicy: model.PullIfNotPresent,
				Behavior: &model.Behavior{ShutdownTime: time.Minute}}}}
	}
	web := map[string]string{"app": "web"}
	a := w.AddPod("a", spec(), model.PodOptions{Labels: web})
	s := w.AddService(model.ServiceSpec{Name: "web", Selector: web})
	b := w.AddPod("b", spec(), model.PodOptions{Labels: web})
	w.AddPod("other", spec(), model.PodOptions{Labels: map[string]string{"app": "db"}})
	w.AddPod("elsewhere", spec(), model.PodOptions{Namespace: "ns", Labels: web})
	if got := len(c.Pods(s)); got != 2 {
		t.Fatalf("selects %d pods, want a and b", got)
	}
	if r, sv, tot := c.SliceEndpoints(s); r != 0 || sv != 0 || tot != 0 {
		t.Errorf("before any sandbox: %d ready, %d serving, %d in all; want none", r, sv, tot)
	}
	w.Run(10 * time.Second)
	if r, sv, tot := c.SliceEndpoints(s); r != 2 || sv != 2 || tot != 2 {
		t.Fatalf("running: %d ready, %d serving, %d in all; want 2, 2, 2", r, sv, tot)
	}
	a.Delete(nil)
	w.Run(11 * time.Second)
	if r, sv, tot := c.SliceEndpoints(s); r != 1 || sv != 2 || tot != 2 {
		t.Errorf("a terminating: %d ready, %d serving, %d in all; want 1, 2, 2", r, sv, tot)
	}
	w.Run(2 * time.Minute)
	if got := c.Pods(s); len(got) != 1 || got[0] != b {
		t.Errorf("after a left the API the Service selects %v, want b alone", got)
	}
	if changes == 0 {
		t.Error("the watchers heard no change")
	}
}
