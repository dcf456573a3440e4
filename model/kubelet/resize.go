package kubelet

import (
	"fmt"
	"slices"

	"github.com/podsim/podsim/model"
)

// In-place pod resize (KEP-1287, GA in 1.35), as the kubelet's allocation
// manager (pkg/kubelet/allocation/allocation_manager.go: canResizePod) and
// its runtime manager (pkg/kubelet/kuberuntime/kuberuntime_manager.go:
// computePodResizeAction, doPodResizeAction) do it:
//   - a resize bigger than the node's allocatable is Infeasible, one that
//     fits the node but not beside its other pods' requests is Deferred
//     (condition PodResizePending), retried when a pod on the node stops
//     holding resources or shrinks;
//   - an admitted resize is allocated at once (the node's and the
//     scheduler's accounting use the new requests) and actuated with zero
//     latency: PodResizeInProgress is set and cleared at the same instant;
//   - a container whose resizePolicy says RestartContainer for a changed
//     resource (CPU request or limit, memory limit) is killed ("Container
//     NAME resize requires restart") and started again at once;
//   - a memory limit lowered below what the container uses (NotRequired)
//     is not actuated: PodResizeInProgress stays True with reason Error,
//     and the kubelet tries again at each sync of the pod.

// reasonResizeError is PodResizeInProgress's reason while a memory limit
// waits for the container's use to fall below it.
const reasonResizeError = "Error"

// podResize is a container's desired resources the kubelet has not yet
// allocated (pending), or allocated but not actuated (a memory limit below
// use).
type podResize struct {
	c                *container
	requests, limits model.Resources
	deferred         bool // PodResizePending Deferred: counted in the kubelet's nodeState.deferredResizes
	actuating        bool // allocated; the limits wait for the next sync
}

// Resize: a pod not yet bound takes the new resources at once (the
// scheduler places it with them); a bound pod's kubelet admits, defers or
// refuses them.
func (k *kubeletCore) Resize(pod *model.Pod, name string, requests, limits model.Resources) bool {
	p := k.pod(pod)
	c := p.container(name)
	if c == nil || c.isInit() && !c.Spec.Sidecar || p.terminated || p.Deleted() || p.Phase().Terminal() {
		return false
	}
	if p.Node == nil {
		p.setResources(c, requests, limits)
		p.AllocateRequests(p.Spec.Requests(), false)
		return true
	}
	p.dropResize()
	p.resize = &podResize{c: c, requests: requests, limits: limits}
	p.tryResize()
	return true
}

// dropResize forgets p's pending resize, if any.
func (p *podState) dropResize() {
	if r := p.resize; r != nil && r.deferred {
		p.k.node(p.Node).deferredResizes--
	}
	p.resize = nil
}

// tryResize is the allocation manager's check of the pending resize:
// Infeasible, Deferred, or allocated and actuated.
func (p *podState) tryResize() {
	r, n := p.resize, p.Node
	want := p.specWith(r.c, r.requests, r.c.Spec.Limits).Requests()
	alloc := n.Capacity
	reason, msg := "", ""
	switch others := n.Allocated(); {
	case want.Memory > alloc.Memory:
		reason, msg = model.ReasonInfeasible, fmt.Sprintf("Node didn't have enough capacity: memory, requested: %d, capacity: %d", want.Memory, alloc.Memory)
	case want.MilliCPU > alloc.MilliCPU:
		reason, msg = model.ReasonInfeasible, fmt.Sprintf("Node didn't have enough capacity: cpu, requested: %d, capacity: %d", want.MilliCPU, alloc.MilliCPU)
	default:
		if p.holds() {
			others.Sub(p.Requests())
		}
		switch {
		case others.MilliCPU+want.MilliCPU > alloc.MilliCPU:
			reason, msg = model.ReasonDeferred, fmt.Sprintf("Node didn't have enough resource: cpu, requested: %d, used: %d, capacity: %d", want.MilliCPU, others.MilliCPU, alloc.MilliCPU)
		case others.Memory+want.Memory > alloc.Memory:
			reason, msg = model.ReasonDeferred, fmt.Sprintf("Node didn't have enough resource: memory, requested: %d, used: %d, capacity: %d", want.Memory, others.Memory, alloc.Memory)
		}
	}
	if reason != "" {
		if !r.deferred && reason == model.ReasonDeferred {
			p.k.node(n).deferredResizes++
		} else if r.deferred && reason != model.ReasonDeferred {
			p.k.node(n).deferredResizes--
		}
		r.deferred = reason == model.ReasonDeferred
		p.SetKubeletCondition(model.PodResizePending, model.True, reason, msg)
		return
	}
	p.dropResize()
	s := r.c.Spec
	restart := r.c.processRunning() &&
		(s.ResizePolicy.CPU == model.ResizeRestartContainer && (r.requests.MilliCPU != s.Requests.MilliCPU || r.limits.MilliCPU != s.Limits.MilliCPU) ||
			s.ResizePolicy.Memory == model.ResizeRestartContainer && r.limits.Memory != s.Limits.Memory)
	p.RemoveCondition(model.PodResizePending)
	p.allocate(r.c, r.requests, want)
	p.SetKubeletCondition(model.PodResizeInProgress, model.True, "", "")
	p.actuate(r, restart)
}

// allocate makes c's requests the allocated ones: the pod's, the node's
// and the scheduler's accounting change; a shrink lets deferred resizes
// of the node's pods try again.
func (p *podState) allocate(c *container, requests, podRequests model.Resources) {
	p.setResources(c, requests, c.Spec.Limits)
	old := p.Requests()
	n, shrunk, held := p.Node, podRequests.MilliCPU < old.MilliCPU || podRequests.Memory < old.Memory, p.holds()
	p.AllocateRequests(podRequests, held)
	if held && shrunk {
		p.k.retryResizes(n, p.Pod)
	}
}

// actuate applies r's limits to its container, allocated already: by a
// restart where the resize policy asks for one, else in place, unless a
// memory limit would fall below the container's use (then r waits for the
// pod's next sync).
func (p *podState) actuate(r *podResize, restart bool) {
	c, s := r.c, r.c.Spec
	if !restart && c.processRunning() && r.limits.Memory > 0 && (s.Limits.Memory == 0 || r.limits.Memory < s.Limits.Memory) {
		if p.UseAt(int(c.idx), p.ServedMilliRPS()).Memory >= r.limits.Memory {
			r.actuating, p.resize = true, r
			p.SetKubeletCondition(model.PodResizeInProgress, model.True, reasonResizeError,
				"Aborting attempt to set pod memory limit less than current memory usage for pod "+p.Name)
			return
		}
	}
	p.setResources(c, s.Requests, r.limits)
	p.World().MemoryChanged(p.Pod)
	if restart {
		c.resizeRestart = true
		c.stop(p.Spec.TerminationGracePeriod, "Container "+s.Name+" resize requires restart")
	}
	p.RemoveCondition(model.PodResizeInProgress)
	p.updateStatus()
}

// retryActuation is the pod sync's new attempt at limits that were left
// unactuated.
func (p *podState) retryActuation() {
	if r := p.resize; r != nil && r.actuating {
		p.resize = nil
		p.actuate(r, false)
	}
}

// retryResizes is the kubelet's RetryPendingResizes after freed released
// its resources (it gives its own resize up) or shrank: the node's
// deferred resizes try again, in the order their pods were bound.
func (k *kubeletCore) retryResizes(n *model.Node, freed *model.Pod) {
	for i := 0; k.node(n).deferredResizes > 0 && i < len(n.Pods()); i++ {
		switch p := k.pod(n.Pods()[i]); {
		case p.resize == nil || !p.resize.deferred:
		case p.Pod == freed:
			p.dropResize()
		default:
			p.tryResize()
		}
	}
}

// holds reports whether p's requests are in its node's running totals.
func (p *podState) holds() bool { return p.BoundNode() != nil && !p.Phase().Terminal() }

// setResources gives c these requests and limits. The pod gets a new
// spec: a spec is never changed once made, as it may be its template's
// and views taken of the pod hold it.
func (p *podState) setResources(c *container, requests, limits model.Resources) {
	p.Spec = p.specWith(c, requests, limits)
	for i, ic := range p.init {
		ic.Spec = &p.Spec.InitContainers[i]
	}
	for i, rc := range p.regular {
		rc.Spec = &p.Spec.Containers[i]
	}
}

// specWith is a copy of p's spec where c has these requests and limits.
func (p *podState) specWith(c *container, requests, limits model.Resources) *model.PodSpec {
	s := *p.Spec
	s.InitContainers = slices.Clone(s.InitContainers)
	s.Containers = slices.Clone(s.Containers)
	cs := &s.Containers
	i := slices.Index(p.regular, c)
	if i < 0 {
		cs, i = &s.InitContainers, slices.Index(p.init, c)
	}
	(*cs)[i].Requests, (*cs)[i].Limits = requests, limits
	return &s
}

// ContainerResources: a pending resize's, else its spec's.
func (k *kubeletCore) ContainerResources(pod *model.Pod, name string) (requests, limits model.Resources, ok bool) {
	p := k.pod(pod)
	c := p.container(name)
	switch {
	case c == nil:
		return model.Resources{}, model.Resources{}, false
	case p.resize != nil && p.resize.c == c:
		return p.resize.requests, p.resize.limits, true
	}
	return c.Spec.Requests, c.Spec.Limits, true
}
