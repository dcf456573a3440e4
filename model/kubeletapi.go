package model

import "time"

// The API's entries that act through the kubelet: each asks the world's
// Kubelet (kubelethook.go), so the kubelet's state of a pod stays its own.

// RequestSync asks p's pod worker to sync it now (the kubelet's parts: the
// node shutdown manager after a stop).
func (p *Pod) RequestSync() { p.w.kubelet.RequestSync(p) }

// ExitContainer makes a running container's process exit now with code
// (the scenario's exit fault). It reports whether the container was running.
func (p *Pod) ExitContainer(name string, code int32) bool {
	return p.w.kubelet.Kill(p, name, code, "")
}

// OOMKill has the OOM killer kill a running container now.
func (p *Pod) OOMKill(name string) bool { return p.w.kubelet.Kill(p, name, 137, ReasonOOMKilled) }

// Resize asks for new requests and limits of the container called name,
// as `kubectl patch --subresource resize` does. A pod not yet bound takes
// them at once (the scheduler places it with them); a bound pod's kubelet
// admits, defers or refuses them. It reports whether the pod took the
// request: false for no such container, an init container that is not a
// sidecar, or a pod that has finished or left the API.
func (p *Pod) Resize(name string, requests, limits Resources) bool {
	return p.w.kubelet.Resize(p, name, requests, limits)
}

// ContainerResources returns the desired requests and limits of p's
// container called name: a pending resize's, else its spec's.
func (p *Pod) ContainerResources(name string) (requests, limits Resources, ok bool) {
	return p.w.kubelet.ContainerResources(p, name)
}

// StopForKubelet is the kubelet deciding the pod must stop for good
// (reason and msg become the pod's once it is Failed), for the kubelet's
// parts (the node shutdown manager): every running container is killed
// within grace, nothing restarts, and the pod goes Failed when none runs.
func (p *Pod) StopForKubelet(reason, msg string, grace time.Duration) {
	p.w.kubelet.StopForKubelet(p, reason, msg, grace)
}

// KubeletStopReason is why the kubelet stops the pod for good ("": it
// does not), as StopForKubelet was given.
func (p *Pod) KubeletStopReason() string { return p.w.kubelet.StopReason(p) }

// EvictingForPressure reports whether the kubelet is evicting p with a
// grace period (EvictForPressure): its containers are stopping.
func (p *Pod) EvictingForPressure() bool { return p.w.kubelet.EvictingForPressure(p) }

// EvictForPressure is the kubelet's killing of a pod its eviction manager
// evicts (evictPod), with msg, upstream's message: the Evicted event and
// the condition DisruptionTarget; with grace 0 the pod's containers are
// killed at once, otherwise they are stopped within grace, and the pod
// goes Failed with reason Evicted once none runs.
func (p *Pod) EvictForPressure(msg string, grace time.Duration) {
	p.w.kubelet.EvictForPressure(p, msg, grace)
}
