package kubelet

import (
	"math/rand/v2"
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/sim"
)

// The pod worker's timing: pkg/kubelet/kubelet.go (backOffPeriod; the
// resyncInterval is the kubelet's syncFrequency), pod_workers.go (the jitter
// factors of completeWork), the sync loop's syncTicker.
const (
	workerBackOffPeriod  = 10 * time.Second // after a sync that failed
	workerResyncInterval = time.Minute      // after one that did not
	workerJitter         = 0.5              // wait.Jitter's maxFactor: up to half again
	syncLoopTick         = time.Second      // the sync loop takes due pods off the work queue each tick
)

// podWorker is the realistic pod worker's state for one pod.
type podWorker struct {
	requeue sim.Timer  // the pod's entry in the kubelet's work queue
	rand    *rand.Rand // the jitter's stream, "podworker/<pod>"
	failed  bool       // the sync running failed: something is in backoff
}

// realistic reports whether the pod's kubelet runs the realistic pod worker.
func (p *podState) realistic() bool { return p.World().KubeletSyncMode() == model.SyncRealistic }

// workerState returns the pod's realistic pod worker, making it on first use.
func (p *podState) workerState() *podWorker {
	if p.worker == nil {
		p.worker = &podWorker{rand: p.World().Engine().Rand("podworker/" + p.Name)}
		p.worker.requeue.Init(p.queuedSync)
	}
	return p.worker
}

// beginSync starts a realistic sync: nothing has failed yet, and the status
// it generates first shows the waiting reasons the syncs before recorded.
func (p *podState) beginSync() {
	p.workerState().failed = false
	for _, c := range p.init {
		c.showReason()
	}
	for _, c := range p.regular {
		c.showReason()
	}
}

// syncFailed marks the running sync as failed: the pod is requeued after
// the worker's backoff period. (SyncPod's filter meant to spare failures
// that are only backoffs compares every result's error, the always-present
// ConfigPodSandbox result's nil among them, so every such sync fails.)
func (p *podState) syncFailed() { p.workerState().failed = true }

// requeue is the pod worker's completeWork: the pod goes back on the work
// queue after the backoff period or the resync interval, jittered
// (wait.Jitter: d + U*0.5*d, U uniform in [0, 1) from the pod's stream), and
// the sync loop takes it off at its first tick after that (GetWork takes the
// entries due before now).
func (p *podState) requeue() {
	pw := p.workerState()
	d := workerResyncInterval
	if pw.failed {
		d = workerBackOffPeriod
	}
	due := sim.AddSat(p.World().Now(), d+time.Duration(pw.rand.Float64()*workerJitter*float64(d)))
	p.World().Engine().Schedule(&pw.requeue, sim.AddSat(due-due%syncLoopTick, syncLoopTick), sim.Normal)
}

// queuedSync is the sync of a pod taken off the work queue; one already
// asked for at this instant stands for it.
func (p *podState) queuedSync() {
	if !p.syncTimer.Pending() {
		p.sync()
	}
}

// stopWorker takes the pod off the work queue.
func (p *podState) stopWorker() {
	if p.worker != nil {
		p.World().Engine().Stop(&p.worker.requeue)
	}
}

// syncReason is the kubelet's reasonCache entry for a container: why the
// last attempt to start it failed (CrashLoopBackOff, ErrImagePull, ...),
// recorded by a realistic sync and shown as the container's waiting state by
// the next one.
type syncReason struct {
	reason, message string
}

// setReason records why the sync could not start the container.
func (c *container) setReason(reason, msg string) {
	r := &c.procState().reason
	r.reason, r.message = reason, msg
}

// clearReason forgets the reason: the container started.
func (c *container) clearReason() {
	if s := c.proc; s != nil {
		s.reason.reason = ""
	}
}

// showReason is convertToAPIContainerStatuses for one container: if it
// should be (re)started and a sync recorded why it could not be, it shows as
// Waiting with that reason, its termination moving to lastState.
func (c *container) showReason() {
	st := c.Status
	if c.proc == nil || c.proc.reason.reason == "" || c.processRunning() || c.pod.Terminating() {
		return
	}
	if t, ok := st.Terminated(); ok && c.Run.Starts > 0 {
		if !c.shouldRestart(t.ExitCode) || !c.Spec.Sidecar && c.isInit() && t.ExitCode == 0 && st.State.Kind == model.StateTerminated {
			return
		}
	}
	r := &c.proc.reason
	if st.State.Kind == model.StateWaiting && st.State.Reason == r.reason && st.State.Message == r.message {
		return
	}
	if st.State.Kind == model.StateTerminated {
		c.setLastState(st.State)
	}
	c.setState(model.ContainerState{Kind: model.StateWaiting, Reason: r.reason, Message: r.message})
}

// isInit reports whether c is one of the pod's init containers.
func (c *container) isInit() bool {
	for _, x := range c.pod.init {
		if x == c {
			return true
		}
	}
	return false
}
