package model

import (
	"testing"
	"time"
)

func resizeWorld(t *testing.T) (*World, *Node) {
	t.Helper()
	w := newWorld(1, DefaultSettings())
	w.Subscribe(&Timeline{})
	n := w.AddNode(NodeSpec{Name: "n", Capacity: Resources{MilliCPU: 2000, Memory: 4 << 30, Pods: 110}})
	return w, n
}

func resizeSpec(cpu int64, b *Behavior) *PodSpec {
	return &PodSpec{NodeName: "n", RestartPolicy: RestartAlways, TerminationGracePeriod: 30 * time.Second,
		Containers: []ContainerSpec{{Name: "app", Image: "img", PullPolicy: PullIfNotPresent,
			Requests: Resources{MilliCPU: cpu, Memory: 1 << 28}, Behavior: b}}}
}

func condition(p *Pod, typ string) (Condition, bool) { return p.Condition(typ) }

// A resize that does not fit beside the node's other pods is Deferred and
// takes effect when one of them ends; the node's running total follows.
// Pods of one shared spec: the resized pod gets its own copy.
func TestResizeDeferredThenAllocated(t *testing.T) {
	w, n := resizeWorld(t)
	shared := resizeSpec(500, nil)
	web := w.AddPod("web", shared, PodOptions{})
	twin := w.AddPod("twin", shared, PodOptions{})
	bs := resizeSpec(900, &Behavior{Runs: []RunSpec{{ExitAfter: time.Minute, Times: 1}}})
	bs.RestartPolicy = RestartNever
	w.AddPod("batch", bs, PodOptions{})
	w.Run(10 * time.Second)
	if !web.Resize("app", Resources{MilliCPU: 1000, Memory: 1 << 28}, Resources{}) {
		t.Fatal("resize refused")
	}
	c, ok := condition(web, PodResizePending)
	if !ok || c.Reason != ReasonDeferred || c.Message != "Node didn't have enough resource: cpu, requested: 1000, used: 1400, capacity: 2000" {
		t.Fatalf("PodResizePending = %+v, %v", c, ok)
	}
	if n.used.MilliCPU != 1900 || kubeletNode(n).deferredResizes != 1 {
		t.Fatalf("used %d, deferred %d; want 1900, 1", n.used.MilliCPU, kubeletNode(n).deferredResizes)
	}
	w.Run(2 * time.Minute)
	if _, ok := condition(web, PodResizePending); ok {
		t.Error("PodResizePending still set after batch ended")
	}
	if n.used.MilliCPU != 1500 || web.Spec.Containers[0].Requests.MilliCPU != 1000 || kubeletNode(n).deferredResizes != 0 {
		t.Errorf("used %d, web's request %d, deferred %d; want 1500, 1000, 0", n.used.MilliCPU, web.Spec.Containers[0].Requests.MilliCPU, kubeletNode(n).deferredResizes)
	}
	if twin.Spec != shared || shared.Containers[0].Requests.MilliCPU != 500 {
		t.Error("the resize changed the shared spec")
	}
	if cs := containerStatus(web); cs.RestartCount != 0 || cs.State.Kind != StateRunning {
		t.Errorf("web's container: %+v; want running, not restarted", cs)
	}
}

// More than the node's allocatable is Infeasible, and never applied.
func TestResizeInfeasible(t *testing.T) {
	w, n := resizeWorld(t)
	p := w.AddPod("p", resizeSpec(500, nil), PodOptions{})
	w.Run(time.Second)
	p.Resize("app", Resources{MilliCPU: 8000, Memory: 1 << 28}, Resources{})
	c, _ := condition(p, PodResizePending)
	if c.Reason != ReasonInfeasible || c.Message != "Node didn't have enough capacity: cpu, requested: 8000, capacity: 2000" {
		t.Errorf("PodResizePending = %+v", c)
	}
	if n.used.MilliCPU != 500 || kubeletNode(n).deferredResizes != 0 {
		t.Errorf("used %d, deferred %d", n.used.MilliCPU, kubeletNode(n).deferredResizes)
	}
}

// RestartContainer for memory restarts the container on a memory limit
// change; a NotRequired memory limit below use is refused (InProgress,
// Error) and applied once the container restarted with less in use.
func TestResizeRestartAndMemoryBelowUse(t *testing.T) {
	w, _ := resizeWorld(t)
	b := &Behavior{Usage: Resources{Memory: 300 << 20}}
	rs := resizeSpec(100, b)
	rs.Containers[0].ResizePolicy.Memory = ResizeRestartContainer
	rs.Containers[0].Limits.Memory = 512 << 20
	r := w.AddPod("r", rs, PodOptions{})
	ns := resizeSpec(100, b)
	ns.Containers[0].Limits.Memory = 512 << 20
	np := w.AddPod("np", ns, PodOptions{})
	w.EnableUsage()
	w.Run(time.Second)
	r.Resize("app", rs.Containers[0].Requests, Resources{Memory: 1 << 30})
	np.Resize("app", ns.Containers[0].Requests, Resources{Memory: 256 << 20})
	w.Run(2 * time.Second)
	if cs := containerStatus(r); cs.RestartCount != 1 || r.Spec.Containers[0].Limits.Memory != 1<<30 {
		t.Errorf("r: restarts %d, limit %d; want 1, 1Gi", cs.RestartCount, r.Spec.Containers[0].Limits.Memory)
	}
	c, ok := condition(np, PodResizeInProgress)
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

func containerStatus(p *Pod) ContainerStatus {
	st := p.Status()
	if cs, ok := st.Container("app"); ok {
		return *cs
	}
	return ContainerStatus{}
}
