package kubelet

import (
	"testing"
	"time"

	"github.com/podsim/podsim/model"
)

func resizeWorld(t *testing.T) (*model.World, *model.Node) {
	t.Helper()
	w := newWorld(1, model.DefaultSettings())
	w.Subscribe(&model.Timeline{})
	n := w.AddNode(model.NodeSpec{Name: "n", Capacity: model.Resources{MilliCPU: 2000, Memory: 4 << 30, Pods: 110}})
	return w, n
}

func resizeSpec(cpu int64, b *model.Behavior) *model.PodSpec {
	return &model.PodSpec{NodeName: "n", RestartPolicy: model.RestartAlways, TerminationGracePeriod: 30 * time.Second,
		Containers: []model.ContainerSpec{{Name: "app", Image: "img", PullPolicy: model.PullIfNotPresent,
			Requests: model.Resources{MilliCPU: cpu, Memory: 1 << 28}, Behavior: b}}}
}

func condition(p *model.Pod, typ string) (model.Condition, bool) { return p.Condition(typ) }

// A resize that does not fit beside the node's other pods is Deferred and
// takes effect when one of them ends; the node's running total follows.
// Pods of one shared spec: the resized pod gets its own copy.
func TestResizeDeferredThenAllocated(t *testing.T) {
	w, n := resizeWorld(t)
	shared := resizeSpec(500, nil)
	web := w.AddPod("web", shared, model.PodOptions{})
	twin := w.AddPod("twin", shared, model.PodOptions{})
	bs := resizeSpec(900, &model.Behavior{Runs: []model.RunSpec{{ExitAfter: time.Minute, Times: 1}}})
	bs.RestartPolicy = model.RestartNever
	w.AddPod("batch", bs, model.PodOptions{})
	w.Run(10 * time.Second)
	if !web.Resize("app", model.Resources{MilliCPU: 1000, Memory: 1 << 28}, model.Resources{}) {
		t.Fatal("resize refused")
	}
	c, ok := condition(web, model.PodResizePending)
	if !ok || c.Reason != model.ReasonDeferred || c.Message != "Node didn't have enough resource: cpu, requested: 1000, used: 1400, capacity: 2000" {
		t.Fatalf("PodResizePending = %+v, %v", c, ok)
	}
	if n.Allocated().MilliCPU != 1900 || kubeletNode(n).deferredResizes != 1 {
		t.Fatalf("used %d, deferred %d; want 1900, 1", n.Allocated().MilliCPU, kubeletNode(n).deferredResizes)
	}
	w.Run(2 * time.Minute)
	if _, ok := condition(web, model.PodResizePending); ok {
		t.Error("PodResizePending still set after batch ended")
	}
	if n.Allocated().MilliCPU != 1500 || web.Spec.Containers[0].Requests.MilliCPU != 1000 || kubeletNode(n).deferredResizes != 0 {
		t.Errorf("used %d, web's request %d, deferred %d; want 1500, 1000, 0", n.Allocated().MilliCPU, web.Spec.Containers[0].Requests.MilliCPU, kubeletNode(n).deferredResizes)
	}
	if twin.Spec != shared || shared.Containers[0].Requests.MilliCPU != 500 {
		t.Error("the resize changed the shared spec")
	}
	if cs := containerStatus(web); cs.RestartCount != 0 || cs.State.Kind != model.StateRunning {
		t.Errorf("web's container: %+v; want running, not restarted", cs)
	}
}

// More than the node's allocatable is Infeasible, and never applied.
func TestResizeInfeasible(t *testing.T) {
	w, n := resizeWorld(t)
	p := w.AddPod("p", resizeSpec(500, nil), model.PodOptions{})
	w.Run(time.Second)
	p.Resize("app", model.Resources{MilliCPU: 8000, Memory: 1 << 28}, model.Resources{})
	c, _ := condition(p, model.PodResizePending)
	if c.Reason != model.ReasonInfeasible || c.Message != "Node didn't have enough capacity: cpu, requested: 8000, capacity: 2000" {
		t.Errorf("PodResizePending = %+v", c)
	}
	if n.Allocated().MilliCPU != 500 || kubeletNode(n).deferredResizes != 0 {
		t.Errorf("used %d, deferred %d", n.Allocated().MilliCPU, kubeletNode(n).deferredResizes)
	}
}

// RestartContainer for memory restarts the container on a memory limit
// change; a NotRequired memory limit below use is refused (InProgress,
// Error) and applied once the container restarted with less in use.
func TestResizeRestartAndMemoryBelowUse(t *testing.T) {
	w, _ := resizeWorld(t)
	b := &model.Behavior{Usage: model.Resources{Memory: 300 << 20}}
	rs := resizeSpec(100, b)
	rs.Containers[0].ResizePolicy.Memory = model.ResizeRestartContainer
	rs.Containers[0].Limits.Memory = 512 << 20
	r := w.AddPod("r", rs, model.PodOptions{})
	ns := resizeSpec(100, b)
	ns.Containers[0].Limits.Memory = 512 << 20
	np := w.AddPod("np", ns, model.PodOptions{})
	w.EnableUsage()
	w.Run(time.Second)
	r.Resize("app", rs.Containers[0].Requests, model.Resources{Memory: 1 << 30})
	np.Resize("app", ns.Containers[0].Requests, model.Resources{Memory: 256 << 20})
	w.Run(2 * time.Second)
	if cs := containerStatus(r); cs.RestartCount != 1 || r.Spec.Containers[0].Limits.Memory != 1<<30 {
		t.Errorf("r: restarts %d, limit %d; want 1, 1Gi", cs.RestartCount, r.Spec.Containers[0].Limits.Memory)
	}
	c, ok := condition(np, model.PodResizeInProgress)
	if !ok || c.Reason != "Error" || c.Message != "Aborting attempt to set pod memory limit less than current memory usage for pod np" {
		t.Errorf("np PodResizeInProgress = %+v, %v", c, ok)
	}
	if np.Spec.Containers[0].Limits.Memory != 512<<20 {
		t.Errorf("np's limit %d applied", np.Spec.Containers[0].Limits.Memory)
	}
	if cs := containerStatus(np); cs.RestartCount != 0 {
		t.Errorf("np restarted %d times", cs.RestartCount)
	}
}

func containerStatus(p *model.Pod) model.ContainerStatus {
	st := p.Status()
	if cs, ok := st.Container("app"); ok {
		return *cs
	}
	return model.ContainerStatus{}
}
