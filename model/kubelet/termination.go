package kubelet

import (
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/sim"
)

// minimumGracePeriod is the shortest window the kubelet gives a container
// between SIGTERM and SIGKILL, whatever the preStop hook used up.
const minimumGracePeriod = 2 * time.Second

// The kubelet's killContainer (kuberuntime_container.go): event Killing,
// then the preStop hook (its time taken from the grace period); a sidecar
// killed with its pod then waits for its turn (kuberuntime_termination_order.go:
// every regular container and the next sidecar declared after it have
// exited), its wait taken from the grace period too; then SIGTERM, then
// SIGKILL (exit 137) once the rest of the grace period (at least 2s) has run
// out. killContainersWithSyncResult starts this for every container of the
// pod at once.

// stop kills the running container c gracefully within grace; msg is the
// Killing event's message. When the process has exited, c.terminate runs
// and the pod reacts (restart, or the next step of a deletion).
func (c *container) stop(grace time.Duration, msg string) {
	p := c.pod
	if !c.processRunning() || c.stopping {
		return
	}
	c.stopping = true
	p.Eventf(model.EventNormal, "Killing", "kubelet", "%s", msg)
	if c.Spec.PreStop != "" && grace > 0 {
		hook := c.hookTime(true)
		r := c.rareState()
		r.hook, r.graceLeft, c.inHook = hook, grace, hookPreStop
		p.World().Engine().Schedule(&r.hookTimer, sim.AddSat(p.World().Now(), min(hook, grace)), sim.Normal)
		return
	}
	c.awaitTurn(grace)
}

// stopWithPod is killContainer called by killContainersWithSyncResult: c
// is killed with the rest of its pod, under the termination ordering.
func (c *container) stopWithPod(grace time.Duration) {
	if c.stopping {
		return
	}
	c.ordered = c.Spec.Sidecar
	c.stop(grace, c.messages().stopping)
}

// preStopDone ends the preStop hook (or gives up on it when the grace
// period ran out); SIGTERM follows, with what is left of the grace period,
// when it is the container's turn.
func (c *container) preStopDone() {
	p := c.pod
	h := c.Spec.Behavior.Hook(true)
	r := c.rareState()
	if h.Fail && r.hook <= r.graceLeft {
		p.Eventf(model.EventWarning, "FailedPreStopHook", "kubelet", "PreStopHook failed")
	}
	// The kubelet counts the hook's time in whole seconds.
	used := min(r.hook, r.graceLeft).Truncate(time.Second)
	c.awaitTurn(r.graceLeft - used)
}

// awaitTurn is waitForTurn: a sidecar killed with its pod waits, while
// grace lasts, for its turn (turnReady); anything else gets SIGTERM now.
func (c *container) awaitTurn(grace time.Duration) {
	if !c.ordered || grace <= 0 || c.turnReady() {
		c.sigterm(grace)
		return
	}
	r := c.rareState()
	r.graceLeft, r.waitFrom, c.inHook = grace, c.pod.World().Now(), hookTurn
	c.pod.World().Engine().Schedule(&r.hookTimer, sim.AddSat(r.waitFrom, grace), sim.Normal)
}

// turnReady reports whether the sidecar c may get SIGTERM: no regular
// container runs, nor the next sidecar declared after it (which waits in
// turn for the one after it).
func (c *container) turnReady() bool {
	p := c.pod
	for _, r := range p.regular {
		if r.processRunning() {
			return false
		}
	}
	after := false
	for _, x := range p.init {
		switch {
		case x == c:
			after = true
		case after && x.Spec.Sidecar:
			return !x.processRunning()
		}
	}
	return true
}

// turnCame ends the sidecar's wait (its turn, or the grace period ran
// out): SIGTERM with what is left, the wait counted in whole seconds.
func (c *container) turnCame() {
	p := c.pod
	r := c.rareState()
	p.World().Engine().Stop(&r.hookTimer)
	c.inHook = hookNone
	waited := (p.World().Now() - r.waitFrom).Truncate(time.Second)
	c.sigterm(r.graceLeft - waited)
}

// turnsCame gives SIGTERM to every sidecar waiting for its turn whose
// turn has come; a container of the pod has just exited.
func (p *podState) turnsCame() {
	for i := len(p.init) - 1; i >= 0; i-- {
		if c := p.init[i]; c.inHook == hookTurn && c.turnReady() {
			c.turnCame()
		}
	}
}

// sigterm asks the process to stop: it exits after its shutdownTime, or is
// SIGKILLed when grace (at least 2s) runs out first.
func (c *container) sigterm(grace time.Duration) {
	if !c.processRunning() {
		return
	}
	c.pod.World().AnnounceListenerChanged(c.pod.Pod)
	grace = max(grace, minimumGracePeriod)
	shutdown := c.shutdownTime()
	if shutdown > grace {
		c.pod.World().Engine().Schedule(&c.rareState().killTimer, sim.AddSat(c.pod.World().Now(), grace), sim.Normal)
		return
	}
	c.pod.World().Engine().Schedule(&c.rareState().termTimer, sim.AddSat(c.pod.World().Now(), shutdown), sim.Normal)
}

// exitAfterSigterm is the process's graceful exit.
func (c *container) exitAfterSigterm() {
	_, code := c.Spec.Behavior.Shutdown()
	c.terminate(code, "")
}

// sigkill is the end of the grace period.
func (c *container) sigkill() { c.terminate(137, model.ReasonError) }

// hearDelete is the kubelet learning that the pod is being deleted: its
// grace period (deletionGracePeriodSeconds) runs from now, as
// calculateEffectiveGracePeriod takes it. A kubelet cut off when the pod was
// deleted hears when its node is back, and gives the pod the whole period.
func (p *podState) hearDelete() {
	if p.Terminating() && !p.heardDelete {
		_, grace, _ := p.DeletionTimestamp()
		p.heardDelete, p.stopping().killBy = true, sim.AddSat(p.World().Now(), grace)
	}
}

// all returns init and regular containers.
func (p *podState) all() []*container {
	out := make([]*container, 0, len(p.init)+len(p.regular))
	return append(append(out, p.init...), p.regular...)
}

// syncTerminating is the pod worker's sync for a pod being deleted: kill
// every running container at once (sidecars then wait for their turn), then
// finish. The grace period runs from when the kubelet heard of the deletion
// (hearDelete).
func (p *podState) syncTerminating() {
	if p.killAll(max(p.stop.killBy-p.World().Now(), 0)) {
		return
	}
	p.finishTermination()
}

// killAll is killContainersWithSyncResult: every running container is
// stopped within grace at once. It reports whether one still runs.
func (p *podState) killAll(grace time.Duration) bool {
	running := false
	for _, cs := range [...][]*container{p.init, p.regular} {
		for _, c := range cs {
			if c.Status.State.Kind == model.StateRunning {
				running = true
				c.stopWithPod(grace)
			}
		}
	}
	return running
}

// stopSidecars stops the running sidecars of a pod whose regular containers
// are done for good, all at once, each in its turn, last declared first.
// Once begun, no sidecar is started again.
func (p *podState) stopSidecars(grace time.Duration) {
	p.sidecarsStopping = true
	for _, c := range p.init {
		if c.Spec.Sidecar && c.Status.State.Kind == model.StateRunning {
			c.stopWithPod(grace)
		}
	}
}

// finishTermination settles the final status of a deleted pod and removes
// it from the API.
func (p *podState) finishTermination() {
	for _, c := range p.all() {
		st := c.Status
		switch {
		case st.State.Kind == model.StateWaiting && st.LastState.Kind == model.StateTerminated:
			// Nothing restarts in a pod being deleted: show the last exit.
			c.setState(st.LastState)
			c.setLastState(model.ContainerState{})
		case st.State.Kind == model.StateWaiting && c.Run.Starts == 0 && p.regularStarted():
			c.setState(model.ContainerState{Kind: model.StateTerminated, Reason: "ContainerStatusUnknown", ExitCode: 137,
				Message: "The container could not be located when the pod was terminated"})
		}
	}
	if !p.Phase().Terminal() {
		ph := model.Succeeded
		for _, c := range p.regular {
			if c.Status.State.Kind != model.StateTerminated || c.Status.State.ExitCode != 0 {
				ph = model.Failed
			}
		}
		p.SetPhase(ph)
	}
	p.updateConditions()
	p.FinishDeletion()
}

// GraceShortened is the kubelet's side of a later delete that brought the
// deadline of p forward: a kubelet that heard of the deletion kills by the
// new deadline, and SIGKILL comes forward.
func (k *kubeletCore) GraceShortened(pod *model.Pod) {
	p := k.pod(pod)
	deadline, _, _ := p.DeletionTimestamp()
	if p.heardDelete {
		p.stop.killBy = min(p.stop.killBy, deadline)
	}
	for _, c := range p.all() {
		r := c.rare
		if r == nil {
			continue // nothing of its stop is pending
		}
		// A shorter deadline brings SIGKILL forward.
		late := func(t *sim.Timer) bool { return t.Pending() && t.When() > deadline }
		if late(&r.termTimer) || late(&r.killTimer) || late(&r.hookTimer) && (c.inHook == hookPreStop || c.inHook == hookTurn) {
			p.World().Engine().Stop(&r.termTimer)
			p.World().Engine().Stop(&r.hookTimer)
			p.World().Engine().Schedule(&r.killTimer, deadline, sim.Normal)
		}
	}
}

func (k *kubeletCore) DeletionSet(pod *model.Pod) { k.pod(pod).wakeProbers() }

// HeardDelete is the kubelet of a reachable node hearing at once that p
// is being deleted: no crash backoff restarts a container, and the pod
// worker kills the pod.
func (k *kubeletCore) HeardDelete(pod *model.Pod) {
	p := k.pod(pod)
	p.hearDelete()
	for _, c := range p.all() {
		c.stopRestart()
	}
	p.updateStatus()
	p.requestSync()
}
