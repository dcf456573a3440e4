package model

import (
	"time"

	"github.com/podsim/podsim/sim"
)

// Kubelet is the kubelet of every node as the core calls it: what the
// core does to pods and nodes that the kubelet must act on at once, at
// the very point of the change (not through the ordered notification
// lists of parts.go, so its place among the parts decides nothing). Each
// method is called at exactly one kind of place in the core, synchronously;
// what it does may change the world. NewCore installs the kubelet of this
// package (kubeletCore); World.Register replaces it with a part that
// implements Kubelet.
//
// Not yet through it (the core still calls kubelet code of this package
// by name): a resize (Pod.Resize), the active deadline, and watchMemory
// at a bind or restore. Two methods are near
// twins of notifications (Released of PodReleased, DiskFailed of
// NodeDiskFailed, which comes after the node is NotReady): a kubelet that
// is also a registered part hears both.
type Kubelet interface {
	// PodCreated sets up p's runtime state (its containers and their
	// timers) as the pod object is made, before its priority is admitted
	// and before PodAdded.
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
}

// kubeletCore is the kubelet of package model, the Kubelet NewCore
// installs. It has no state of its own yet: that is on Pod, Node and
// container.
type kubeletCore struct{}

func (kubeletCore) PodCreated(p *Pod) {
	p.syncTimer.Init(p.sync)
	spec := p.Spec
	for i := range spec.InitContainers {
		p.init = append(p.init, p.newContainer(&spec.InitContainers[i]))
	}
	for i := range spec.Containers {
		p.regular = append(p.regular, p.newContainer(&spec.Containers[i]))
		p.ownPolicies = p.ownPolicies || spec.Containers[i].RestartPolicy != ""
	}
}

func (kubeletCore) Bound(p *Pod) { p.requestSync() }

func (kubeletCore) PhaseSet(p *Pod) { p.wakeProbers() }

func (kubeletCore) ConditionSetByUser(p *Pod) {
	if p.Sandboxed() {
		p.updateStatus()
	}
}

func (kubeletCore) Released(n *Node, p *Pod) {
	if n.deferredResizes > 0 {
		n.retryResizes(p)
	}
}

func (kubeletCore) Removed(p *Pod) {
	p.terminated = true
	p.stopWorker()
	for _, c := range p.all() {
		c.stopTimers()
		for _, pr := range c.probes {
			pr.halt()
		}
	}
}

// newContainer makes the kubelet's runtime container of p for s, its
// timers armed with their callbacks.
func (p *Pod) newContainer(s *ContainerSpec) *container {
	c := p.w.mem.containers.new()
	*c = container{pod: p, spec: s, status: ContainerStatus{Name: s.Name, Image: s.Image}}
	c.exitTimer.Init(c.exitOnItsOwn)
	c.restartTimer.Init(p.requestSync)
	c.pullTimer.Init(c.pulled)
	c.hookTimer.Init(c.hookDone)
	c.termTimer.Init(c.exitAfterSigterm)
	c.killTimer.Init(c.sigkill)
	return c
}

// stopTimers stops every timer of c's process, pull, hooks and backoff.
func (c *container) stopTimers() {
	for _, t := range [...]*sim.Timer{&c.exitTimer, &c.restartTimer, &c.pullTimer, &c.hookTimer, &c.termTimer, &c.killTimer} {
		c.pod.w.eng.Stop(t)
	}
}

// setState sets c's state in its status, records the change and wakes
// its probe workers.
func (c *container) setState(s ContainerState) {
	c.status.State = s
	ch := c.pod.w.begin(ChangeContainer)
	ch.Pod, ch.Namespace, ch.Container, ch.State = c.pod.Name, c.pod.Namespace, c.spec.Name, s.Kind
	ch.Reason, ch.RestartCount = s.Reason, c.status.RestartCount
	if s.Kind == StateTerminated {
		ch.ExitCode, ch.HasExitCode = s.ExitCode, true
	}
	c.pod.w.emit()
	c.wakeProbers()
}
