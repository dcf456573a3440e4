// Package kubelet is the kubelet of every node (pkg/kubelet): the pod
// worker, the prober, the status manager's generation of a pod's phase and
// conditions, termination, admission, in-place resize, the crash backoff.
// The core calls it through model.Kubelet (New); its parts (the OOM
// killers, the eviction and node shutdown managers) are packages below it.
package kubelet

import (
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/model/kubelet/prober"
	"github.com/podsim/podsim/sim"
)

// kubeletCore is the kubelet of every node (New), registered by
// cluster.New. Its state of each node and each pod is its own, by Node.ID
// and Pod.ID.
type kubeletCore struct {
	nodes      []nodeState           // by Node.ID, grown as nodes are first seen
	pods       []*podState           // by Pod.ID, made as pods are (PodCreated)
	states     model.Slab[podState]  // what pods holds
	stops      model.Slab[podStop]   // what podState.stop points to, once made
	containers model.Slab[container] // the pods' containers
	rares      model.Slab[rareState] // containers' rare state, made on first use
	procs      model.Slab[procState] // containers' process state, made on first use
	probes     prober.Manager        // the containers' probe workers
	// scratch builds a condition message without allocating (status.go).
	scratch []byte
	// The containers' messages by container spec (kubeletmessages.go),
	// made on first use.
	containerMsgs map[*model.ContainerSpec]*containerMessages
	// The condition messages listing containers built so far, shared by
	// every pod (a fleet's pods list the same names), at most
	// maxListMessages of them (status.go).
	listMsgs map[string]string
}

// New returns the kubelet of every node, for World.Register, before any
// pod is made.
func New() model.Kubelet { return &kubeletCore{} }

// PodsComing makes room for the state of n pods, each with a container,
// and of their probes' workers (model.Kubelet).
func (k *kubeletCore) PodsComing(n, probes int) {
	k.states.Reserve(n)
	k.containers.Reserve(n)
	k.procs.Reserve(n)
	k.probes.Reserve(probes)
}

// podState is the kubelet's state of one pod, made with it (PodCreated).
// The core reads none of it. It embeds the pod, so the kubelet's code on
// *podState reads the pod object's fields as its own; the timers call back
// into it, so the kubelet's hot paths never look it up.
type podState struct {
	*model.Pod
	k *kubeletCore // its kubelet

	init      []*container
	regular   []*container
	resize    *podResize // a resize not yet allocated or actuated (resize.go)
	stop      *podStop   // what the kubelet decided of its end; noStop until it decides anything (podState.stopping)
	syncTimer sim.Timer
	worker    *podWorker // the realistic pod worker (podworker.go); nil in exact mode
	messages  *[]string  // condition messages built so far, for reuse, made on first use (status.go)
	// What updateConditions last read (condInputs) and the count of
	// condition changes (ConditionGen) after it ran: while both hold,
	// running it again would change nothing.
	condSig uint64
	condSet uint32
	// The sync running (counted) and, when updateStatus last finished, the
	// world's change count and that sync: see podState.sync.
	syncs, statusSync uint32
	statusMark        int

	ownPolicies      bool // a regular container has its own restartPolicy (shouldRestart)
	sidecarsStopping bool // the kubelet is stopping the sidecars: none restarts
	busy             bool // the pod worker is blocked (pulling an image, running postStart)
	resandbox        bool // the sandbox died with its node: the next sync makes a new one
	terminated       bool // the pod's containers are all stopped for good (terminal or deleted)
	heardDelete      bool // the kubelet has seen the deletion (a cut-off one hears when its node is back)
}

// podStop is what the kubelet decided of a pod's end: most pods of a big
// fleet never need it, so it is made on first use (podState.stopping).
type podStop struct {
	killBy     time.Duration // while deleting: the end of the grace period as the kubelet counts it, from when it heard
	evictedMsg string        // being evicted with a grace period: the eviction message (evictionmanager.go)
	reason     string        // why the kubelet stops the pod for good ("": it does not); see stopForKubelet
	message    string        // the pod's status message once it is Failed for reason
	grace      time.Duration // the grace period its containers are killed with
}

// noStop is the podStop of every pod the kubelet decided nothing of
// yet: read only.
var noStop podStop

// stopping returns p's podStop to write, making it on first use.
func (p *podState) stopping() *podStop {
	if p.stop == &noStop {
		p.stop = p.k.stops.New()
	}
	return p.stop
}

// pod is k's state of p.
func (k *kubeletCore) pod(p *model.Pod) *podState { return k.pods[p.ID()] }

// container is one (init) container as the kubelet runs it. It embeds
// what its probe workers read of it (prober.Container: its spec, API
// status and run, and the workers).
type container struct {
	prober.Container
	pod       *podState
	startedAt time.Duration      // when the current process started
	proc      *procState         // made the first time its process may exit, or it restarts (container.procState)
	rare      *rareState         // made the first time it pulls an image, runs a hook or is killed (container.rareState)
	msgs      *containerMessages // shared with the containers of the same spec
	idx       int32              // its index in the pod's statuses: init containers first
	pid       int32              // its process's id on the node (Node.nextPID), for the kernel's OOM killer

	stopping      bool     // being killed (preStop, SIGTERM, SIGKILL)
	inHook        hookKind // which hook is running
	ordered       bool     // killed with its pod: as a sidecar it waits for its turn after preStop
	probeKilled   bool     // killed for a failed liveness or startup probe; restart decided in the next sync
	resizeRestart bool     // killed to apply a resize (resize.go): the next sync starts it again
	rerun         bool     // an init container that must run again in a new sandbox
}

// procState is what a container needs once its process may exit or it is
// restarted: the pods of a big fleet mostly run for good, so it is made on
// first use (container.procState), its timers armed then.
type procState struct {
	exitTimer    sim.Timer // the process exits on its own
	restartTimer sim.Timer // the crash backoff ends
	crash        backoff
	draws        draws           // what it drew from its random stream (kubeletdraws.go)
	backMsgs     backOffMessages // made at its first back-off (container.backOffMessages)
	reason       syncReason      // why a realistic sync could not start it (podworker.go)
}

// procState returns c's process state, making it on first use.
func (c *container) procState() *procState {
	if c.proc == nil {
		c.newProcState()
	}
	return c.proc
}

func (c *container) newProcState() {
	s := c.pod.k.procs.New()
	s.exitTimer.Init(c.exitOnItsOwn)
	s.restartTimer.Init(c.pod.requestSync)
	c.proc = s
}

// stopRestart stops c's crash backoff timer, if it has one.
func (c *container) stopRestart() {
	if s := c.proc; s != nil {
		c.pod.World().Engine().Stop(&s.restartTimer)
	}
}

type hookKind uint8

const (
	hookNone hookKind = iota
	hookPostStart
	hookPreStop
	hookTurn // not a hook: after its preStop, a sidecar waits for its turn (termination.go)
)

// nodeState is the kubelet's state of one node.
type nodeState struct {
	images                map[string]bool // images pulled onto the node, nil before the first
	deferredResizes       int             // its pods' resizes pending with reason Deferred (resize.go)
	reportedUnschedulable bool            // what the kubelet last saw of it (its NodeSchedulable events)
}

// node is k's state of n. Keep it no longer than the call: the slice
// grows.
func (k *kubeletCore) node(n *model.Node) *nodeState {
	for len(k.nodes) <= n.ID() {
		k.nodes = append(k.nodes, nodeState{})
	}
	return &k.nodes[n.ID()]
}

// hasImage reports whether img was pulled onto n.
func (ns *nodeState) hasImage(img string) bool { return ns.images[img] }

// addImage records that img is on the node.
func (ns *nodeState) addImage(img string) {
	if ns.images == nil {
		ns.images = map[string]bool{}
	}
	ns.images[img] = true
}

func (k *kubeletCore) PodCreated(pod *model.Pod) {
	p := k.states.New()
	p.Pod, p.k, p.stop = pod, k, &noStop
	k.pods = model.Extend(k.pods, pod.ID()+1)
	k.pods[pod.ID()] = p
	p.syncTimer.Init(p.sync)
	spec := p.Spec
	for i := range spec.InitContainers {
		p.init = append(p.init, p.newContainer(&spec.InitContainers[i], i))
	}
	for i := range spec.Containers {
		p.regular = append(p.regular, p.newContainer(&spec.Containers[i], len(spec.InitContainers)+i))
		p.ownPolicies = p.ownPolicies || spec.Containers[i].RestartPolicy != ""
	}
}

func (k *kubeletCore) Bound(pod *model.Pod) { k.pod(pod).requestSync() }

func (k *kubeletCore) PhaseSet(pod *model.Pod) { k.pod(pod).wakeProbers() }

func (k *kubeletCore) ConditionSetByUser(pod *model.Pod) {
	p := k.pod(pod)
	if p.Sandboxed() {
		p.updateStatus()
	}
}

func (k *kubeletCore) Released(n *model.Node, p *model.Pod) {
	if k.node(n).deferredResizes > 0 {
		k.retryResizes(n, p)
	}
}

func (k *kubeletCore) Removed(pod *model.Pod) {
	p := k.pod(pod)
	p.terminated = true
	p.stopWorker()
	for _, c := range p.all() {
		c.stopTimers()
		c.Probes.Halt()
	}
}

func (k *kubeletCore) Process(pod *model.Pod, i int) (bool, time.Duration) {
	p := k.pod(pod)
	c := p.containerAt(i)
	return c.processRunning(), c.startedAt
}

func (k *kubeletCore) PID(p *model.Pod, i int) int32 { return k.pod(p).containerAt(i).pid }

func (k *kubeletCore) Serving(pod *model.Pod, i int) bool {
	p := k.pod(pod)
	c := p.containerAt(i)
	return !c.stopping || c.inHook == hookPreStop
}

func (k *kubeletCore) ProbeTicks(pod *model.Pod, i int) [model.Startup + 1]int64 {
	return k.pod(pod).containerAt(i).Probes.Ticks()
}

func (k *kubeletCore) CheckContainer(v *model.Invariants, p *model.Pod, i int, where string) {
	c := k.pod(p).containerAt(i)
	if p.Node.PoweredOff() {
		var ts []*sim.Timer
		if s := c.proc; s != nil {
			ts = append(ts, &s.exitTimer)
		}
		if r := c.rare; r != nil {
			ts = append(ts, &r.hookTimer, &r.termTimer, &r.killTimer, &r.pullTimer)
		}
		for _, t := range ts {
			if t.Pending() {
				v.Fail(model.RuleRunning, "%s: a process is in flight on node %s, which is powered off", where, p.Node.Name)
				break
			}
		}
	} else if p.Phase().Terminal() && p.Node.Reachable() && c.processRunning() && !c.stopping {
		v.Fail(model.RuleRunning, "%s runs in a pod that is %s", where, p.Phase())
	}
}

// containerAt is p's i-th runtime container, the init ones first.
func (p *podState) containerAt(i int) *container {
	if i < len(p.init) {
		return p.init[i]
	}
	return p.regular[i-len(p.init)]
}

// newContainer makes the kubelet's runtime container of p for s, the i-th
// of its statuses (Pod.StatusOf), its timers armed with their callbacks.
func (p *podState) newContainer(s *model.ContainerSpec, i int) *container {
	c := p.k.containers.New()
	*c = container{Container: prober.Container{Spec: s, Status: p.StatusOf(i)}, pod: p, idx: int32(i)}
	return c
}

// rareState is what a container needs only when it pulls an image, runs a
// hook or is killed: most containers of a big fleet never do, so it is
// made on first use (container.rareState), its timers armed then.
type rareState struct {
	pullTimer   sim.Timer     // an image pull finishes
	hookTimer   sim.Timer     // a postStart or preStop hook finishes, or a sidecar's wait for its turn runs out
	termTimer   sim.Timer     // the process exits after SIGTERM
	killTimer   sim.Timer     // SIGKILL at the end of the grace period
	pullBackoff backoff       // the image pull backoff (per pod and image in the kubelet)
	pull        time.Duration // the running pull's duration
	hook        time.Duration // the running preStop hook's duration
	graceLeft   time.Duration // of the grace period: during preStop, what it started with; while waiting for its turn, what is left
	waitFrom    time.Duration // when it began to wait for its turn
	killedFor   string        // why the kubelet killed it: "", "FailedPostStartHook", ...
}

// rareState returns c's rare state, making it on first use.
func (c *container) rareState() *rareState {
	if c.rare == nil {
		r := c.pod.k.rares.New()
		r.pullTimer.Init(c.pulled)
		r.hookTimer.Init(c.hookDone)
		r.termTimer.Init(c.exitAfterSigterm)
		r.killTimer.Init(c.sigkill)
		c.rare = r
	}
	return c.rare
}

// killedFor is why the kubelet killed c: "", "FailedPostStartHook", ...
func (c *container) killedFor() string {
	if c.rare == nil {
		return ""
	}
	return c.rare.killedFor
}

// stopTimers stops every timer of c's process, pull, hooks and backoff.
func (c *container) stopTimers() {
	eng := c.pod.World().Engine()
	if s := c.proc; s != nil {
		eng.Stop(&s.exitTimer)
		eng.Stop(&s.restartTimer)
	}
	if r := c.rare; r != nil {
		for _, t := range [...]*sim.Timer{&r.pullTimer, &r.hookTimer, &r.termTimer, &r.killTimer} {
			eng.Stop(t)
		}
	}
}

// setState sets c's state in its status (the change is recorded) and
// wakes its probe workers.
func (c *container) setState(s model.ContainerState) {
	c.pod.SetContainerState(int(c.idx), s)
	c.Probes.Wake()
}

// setLastState sets c's lastState in its status.
func (c *container) setLastState(s model.ContainerState) {
	c.pod.SetContainerLastState(int(c.idx), s)
}
