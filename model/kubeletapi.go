package model

import "time"

// The kubelet as the core sees it: the Kubelet hook (below), and the
// API's entries that act through the kubelet, each of which asks the
// world's Kubelet, so the kubelet's state of a pod stays its own.

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

// Kubelet is the kubelet of every node as the core calls it: what the
// core does to pods and nodes that the kubelet must act on at once, at
// the very point of the change (not through the ordered notification
// lists of parts.go, so its place among the parts decides nothing). Each
// method is called at exactly one kind of place in the core, synchronously;
// what it does may change the world. NewCore installs one that does nothing
// (kubeletnone.go); World.Register replaces it with a part that implements
// Kubelet (cluster.New: model/kubelet). The core reads the kubelet's containers only
// through it (Process, Serving, ProbeTicks, CheckContainer); the kubelet
// writes the pod's API status only through the writers of podstatus.go.
//
// The kubelet reaches the core only through exported names (most of its
// own in kubeletaccess.go). Two methods are near
// twins of notifications (Released of PodReleased, DiskFailed of
// NodeDiskFailed, which comes after the node is NotReady): a kubelet that
// is also a registered part hears both.
type Kubelet interface {
	// PodsComing hears that about n pods, with probes probes between
	// them, are to be made (World.ReservePods, before the world's first
	// run: its workloads' replicas): it may make room for its state of
	// them, and of their probe workers once they are set up on a node, in
	// one allocation each.
	PodsComing(n, probes int)
	// PodCreated sets up the kubelet's state of p (its containers and
	// their timers) as the pod object is made, after its
	// status has room for its containers and before its priority is
	// admitted and PodAdded.
	PodCreated(p *Pod)
	// Bound hears that p was bound to p.Node, after PodBound: its kubelet
	// syncs it.
	Bound(p *Pod)
	// PhaseSet hears that p's phase was set to a new one, after the change
	// is recorded and the node's totals follow it.
	PhaseSet(p *Pod)
	// ConditionSetByUser hears that a controller set a custom condition
	// of p (Pod.SetCondition), after it is set.
	ConditionSetByUser(p *Pod)
	// Released hears that p stopped holding its requests on n, after
	// PodReleased: room for the resizes n deferred.
	Released(n *Node, p *Pod)
	// NodePoweredOff hears that n lost power, before it loses contact:
	// what its kubelet had in flight stops.
	NodePoweredOff(n *Node)
	// NodePoweredOn hears that n, off since downAt, has power again,
	// before it is marked Ready: every container it had is gone.
	NodePoweredOn(n *Node, downAt time.Duration)
	// DiskFailed hears that n's disk failed, after its condition and
	// event and before it is marked NotReady: its pods' containers die
	// and the pods fail.
	DiskFailed(n *Node)
	// UnschedulableSet hears that n's spec.unschedulable was set anew
	// (Node.Cordon, Node.Uncordon), after its taint follows it.
	UnschedulableSet(n *Node)
	// Reconnected hears that n's kubelet reaches the control plane again,
	// after n is marked Ready: it reports its pods and sees what the API
	// decided meanwhile (deletions).
	Reconnected(n *Node)
	// RestoreContainers sets p's containers, p bound and started, as
	// its snapshot s has them, after p's sandbox, IP and start time are
	// set and before PodBound.
	RestoreContainers(p *Pod, s *PodSnapshot)
	// Restored hears that p, bound and started, was restored from s,
	// after PodBound and before its conditions are backdated and its
	// deletion is restored.
	Restored(p *Pod, s *PodSnapshot)
	// GraceShortened hears that a later delete of p, already being
	// deleted, brought its deadline (DeletionTimestamp) forward: a kubelet
	// that heard of the deletion kills by the new deadline.
	GraceShortened(p *Pod)
	// DeletionSet hears that p got its deletion timestamp, after
	// PodTerminating and before the change is recorded: its probe workers
	// see it.
	DeletionSet(p *Pod)
	// HeardDelete hears that p, on a node that reaches the control plane,
	// got its deletion timestamp, after PodChanged: its kubelet kills it.
	HeardDelete(p *Pod)
	// Removed hears that p left the API, whatever the way (a forced
	// delete, the end of its termination, a graceful delete of a pod
	// with nothing running), after it is marked deleted and before its node
	// forgets it: the kubelet stops everything it had in flight for p.
	Removed(p *Pod)

	// What the core reads of the process of p's i-th container (init
	// containers first, as Pod.StatusOf counts) as the kubelet runs it;
	// none changes anything.

	// Process reports whether the process runs (published Running, or
	// started and still in its postStart hook) and when it started.
	Process(p *Pod, i int) (running bool, startedAt time.Duration)
	// Serving reports whether the process, published Running, keeps its
	// listener open: it is not being stopped, or its preStop hook runs.
	Serving(p *Pod, i int) bool
	// ProbeTicks counts the ticks its probe workers ran, by kind.
	ProbeTicks(p *Pod, i int) [Startup + 1]int64
	// CheckContainer checks what the kubelet runs of it against the
	// invariants (nothing in flight on a node powered off, nothing running
	// in a finished pod); where names it in a failure. p is bound and not
	// deleted.
	CheckContainer(v *Invariants, p *Pod, i int, where string)
	// PID is the id on its node of the container's last process (0 if
	// none was counted; Node.nextPID).
	PID(p *Pod, i int) int32

	// What the API's entries that act through the kubelet ask of it
	// (kubeletapi.go: Pod.ExitContainer, Pod.Resize, ...), each for the
	// entry of its name.

	RequestSync(p *Pod)
	Kill(p *Pod, name string, code int32, reason string) bool
	Resize(p *Pod, name string, requests, limits Resources) bool
	ContainerResources(p *Pod, name string) (requests, limits Resources, ok bool)
	StopForKubelet(p *Pod, reason, msg string, grace time.Duration)
	StopReason(p *Pod) string
	EvictingForPressure(p *Pod) bool
	EvictForPressure(p *Pod, msg string, grace time.Duration)
}
