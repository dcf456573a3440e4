package kubelet

import (
	"fmt"
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/sim"
)

// The kubelet's pod worker. Every change to a pod (a process exits, a
// backoff ends, a pull finishes) asks for a sync; syncs at one instant
// coalesce. A sync does what kuberuntime's computePodActions would: set up
// the sandbox, run init containers in order, start or restart containers as
// the restart policy and the crash backoff allow; then the status is
// regenerated (phase by getPhase, conditions by status/generate.go). With
// Settings.KubeletSync realistic, the pod worker also requeues the pod after
// each sync, and restarts wait for those syncs (podworker.go).

func (k *kubeletCore) RequestSync(p *model.Pod) { k.pod(p).requestSync() }

// requestSync asks the pod worker to sync the pod now.
func (p *podState) requestSync() {
	if !p.syncTimer.Pending() {
		p.World().Engine().Schedule(&p.syncTimer, p.World().Now(), sim.Normal)
	}
}

func (p *podState) sync() {
	if p.Node == nil || p.busy || p.terminated || p.Node.PoweredOff() {
		return
	}
	if !p.Sandboxed() {
		switch {
		case p.Phase().Terminal(): // rejected at admission, or failed before it ran
			return
		case !p.admit(): // admission.go
			return
		case !p.Terminating() && !p.World().AskAdmission(p.Pod): // a handler that refuses has rejected it
			return
		}
		p.setupSandbox()
	}
	if p.resandbox {
		p.resandbox = false
		p.AssignIP() // a new sandbox, a new address
		p.SetKubeletCondition(model.PodReadyToStartContainers, model.True, "", "")
	}
	if p.Terminating() && p.Node.Reachable() {
		p.syncTerminating()
		return
	}
	if p.stop.evictedMsg != "" {
		p.syncEvicted()
		return
	}
	if p.Phase().Terminal() {
		p.stopSidecars(p.Spec.TerminationGracePeriod)
		return
	}
	if p.stop.reason == "" && p.pastActiveDeadline() {
		p.Event(model.EventNormal, model.ReasonDeadlineExceeded, "kubelet", msgDeadlineExceeded)
		p.stopForKubelet(model.ReasonDeadlineExceeded, msgDeadlineExceeded, p.Spec.TerminationGracePeriod)
	}
	if p.stop.reason != "" {
		p.syncStopping()
		return
	}
	p.syncs++
	realistic := p.realistic()
	if realistic {
		p.beginSync()
	}
	if p.resize != nil {
		p.retryActuation()
	}
	if p.syncInit() {
		for _, c := range p.regular {
			if p.syncContainer(c) {
				break
			}
		}
		if p.regularDone() {
			p.stopSidecars(p.Spec.TerminationGracePeriod)
		}
	}
	// A container this sync started published its status (showRunning);
	// if nothing was recorded since, nothing the status reads changed, and
	// generating it again would tell the API and the parts nothing new.
	if p.statusSync != p.syncs || p.statusMark != p.World().ChangeCount() {
		p.updateStatus()
	}
	if realistic {
		p.requeue()
	}
}

// regularDone reports whether every regular container has exited for good
// (none will restart): then the kubelet stops the sidecars.
func (p *podState) regularDone() bool {
	if p.Spec.RestartPolicy == model.RestartAlways && !p.ownPolicies {
		return false
	}
	for _, c := range p.regular {
		t, ok := c.Status.Terminated()
		if c.Status.State.Kind == model.StateRunning || !ok || c.shouldRestart(t.ExitCode) {
			return false
		}
	}
	return true
}

// setupSandbox is the kubelet's first sync of a pod: the sandbox is ready
// and every container gets its default waiting status.
func (p *podState) setupSandbox() {
	p.SetSandboxed(true)
	p.AssignIP()
	p.SetStartTime(p.World().Now())
	p.SetKubeletCondition(model.PodReadyToStartContainers, model.True, "", "")
	reason := model.ReasonContainerCreating
	if len(p.init) > 0 {
		reason = model.ReasonPodInitializing
	}
	for _, c := range p.init {
		c.setState(model.ContainerState{Kind: model.StateWaiting, Reason: reason})
	}
	for _, c := range p.regular {
		c.setState(model.ContainerState{Kind: model.StateWaiting, Reason: reason})
	}
	for _, cs := range [...][]*container{p.init, p.regular} {
		for _, c := range cs {
			c.startProbers()
		}
	}
	p.armActiveDeadline()
}

// syncInit runs init containers in order; it reports whether the pod is
// initialized, so that regular containers may run. Sidecars must have
// started before the next init container runs, and are kept running.
func (p *podState) syncInit() bool {
	for _, c := range p.init {
		st := c.Status
		if c.Spec.Sidecar {
			if st.State.Kind == model.StateRunning && st.Started || p.sidecarsStopping {
				continue
			}
			if st.State.Kind != model.StateRunning {
				p.syncContainer(c)
				if p.busy {
					return false // in its postStart hook (or a pull): nothing else starts
				}
			}
			if st.State.Kind == model.StateRunning && st.Started || p.regularStarted() {
				continue // initialized before; a restarting sidecar holds nothing up
			}
			return false
		}
		switch {
		case st.State.Kind == model.StateTerminated && st.State.ExitCode == 0 && !c.rerun:
			continue
		case st.State.Kind == model.StateRunning:
			return false
		default:
			p.syncContainer(c)
			return false
		}
	}
	return true
}

// regularStarted is kubecontainer.HasAnyRegularContainerStarted.
func (p *podState) regularStarted() bool {
	for _, c := range p.regular {
		if c.Run.Starts > 0 {
			return true
		}
	}
	return false
}

// syncContainer starts a container that never ran, or restarts a stopped
// one if its policy says so and its backoff allows. It reports whether the
// pod worker is now blocked (pulling an image).
func (p *podState) syncContainer(c *container) bool {
	st := c.Status
	switch {
	case c.processRunning() || c.rare != nil && c.rare.pullTimer.Pending():
		// Its process runs: published, or not yet (postStart, or being
		// killed after a failed postStart). The runtime shows the kubelet
		// a running container, which it does not start again.
		return false
	case c.Run.Starts == 0:
		return p.startContainer(c)
	case c.rerun: // a new sandbox: the init container runs again
		c.rerun = false
		return p.startContainer(c)
	case c.resizeRestart: // computePodResizeAction starts it in the sync that killed it
		c.resizeRestart = false
		return p.startContainer(c)
	}
	last, _ := st.Terminated()
	cfg := p.World().CrashLoopBackOff()
	now := p.World().Now()
	if c.probeKilled {
		// The kubelet kills and restarts in one sync; its backoff check sees
		// the pod as it was before the kill, so it weighs the run before
		// this one, and restarts whatever the exit code unless Never.
		c.probeKilled = false
		if !c.restartsAfterProbeKill() {
			return false
		}
		prev := st.LastState
		switch {
		case prev.Kind != model.StateTerminated:
			return p.startContainer(c)
		case !c.procState().crash.inBackoffSince(cfg, prev.FinishedAt, now):
			c.proc.crash.next(cfg, prev.FinishedAt, now)
			return p.startContainer(c)
		}
		// Refused by the backoff: from here on the ordinary rules apply.
		if c.shouldRestart(last.ExitCode) {
			c.waitBackoff(last)
		}
		return false
	}
	if !c.shouldRestart(last.ExitCode) {
		return false
	}
	s := c.procState()
	if s.crash.inBackoffSince(cfg, last.FinishedAt, now) {
		c.waitBackoff(last)
		return false
	}
	s.crash.next(cfg, last.FinishedAt, now)
	return p.startContainer(c)
}

// waitBackoff is doBackOff refusing a restart: in exact mode the container
// shows CrashLoopBackOff until its backoff ends, then asks for a sync; in
// realistic mode every sync in backoff logs BackOff and records the reason,
// shown from the next sync, and fails.
func (c *container) waitBackoff(last model.ContainerState) {
	p := c.pod
	if p.realistic() {
		p.Event(model.EventWarning, "BackOff", "kubelet", c.backOffMessages().backOff)
		c.setReason(model.ReasonCrashLoopBackOff, c.backOffWaiting())
		p.syncFailed()
		return
	}
	s := c.procState()
	if s.restartTimer.Pending() {
		return
	}
	if st := c.Status; st.State.Kind == model.StateTerminated {
		c.setLastState(st.State)
	}
	c.setState(model.ContainerState{Kind: model.StateWaiting, Reason: model.ReasonCrashLoopBackOff, Message: c.backOffWaiting()})
	p.Event(model.EventWarning, "BackOff", "kubelet", c.backOffMessages().backOff)
	p.World().Engine().Schedule(&s.restartTimer, sim.AddSat(last.FinishedAt, s.crash.delay), sim.Normal)
}

// backOffWaiting is the CrashLoopBackOff state's message for the current
// delay, built once per delay.
func (c *container) backOffWaiting() string {
	m, delay := c.backOffMessages(), c.proc.crash.delay
	if m.backOffDelay != delay || m.backOffWaiting == "" {
		m.backOffDelay = delay
		m.backOffWaiting = "back-off " + delay.String() + " restarting failed container=" + c.Spec.Name + " pod=" + c.pod.String()
	}
	return m.backOffWaiting
}

// startContainer pulls the image as the policy says, then creates and starts
// the container. It reports whether the pod worker is blocked: by a pull, or
// by the postStart hook, which upstream's startContainer runs before it
// returns (kuberuntime_container.go), so the pod's next container starts
// only after it.
func (p *podState) startContainer(c *container) bool {
	img := c.Spec.Image
	spec, listed := p.World().Image(img)
	present := !listed || p.k.node(p.Node).hasImage(img)
	if !present && c.Spec.PullPolicy == model.PullNever {
		msg := fmt.Sprintf("Container image %q is not present with pull policy of Never", img)
		switch {
		case p.realistic(): // every sync fails again
			p.Eventf(model.EventWarning, model.ReasonErrImageNeverPull, "kubelet", "%s", msg)
			c.setReason(model.ReasonErrImageNeverPull, msg)
			p.syncFailed()
		case c.Status.State.Reason != model.ReasonErrImageNeverPull:
			p.Eventf(model.EventWarning, model.ReasonErrImageNeverPull, "kubelet", "%s", msg)
			c.setState(model.ContainerState{Kind: model.StateWaiting, Reason: model.ReasonErrImageNeverPull, Message: msg})
		}
		return false
	}
	if listed && spec.Missing {
		c.pullFailed()
		return false
	}
	if present && c.Spec.PullPolicy != model.PullAlways {
		p.Event(model.EventNormal, "Pulled", "kubelet", c.messages().present)
		p.run(c)
		return p.busy
	}
	p.Eventf(model.EventNormal, "Pulling", "kubelet", "Pulling image %q", img)
	var d time.Duration
	if !present {
		d = c.pullTime(spec)
	}
	c.rareState().pull = d
	if d == 0 {
		p.busy = true // pulled() then starts the container, as after a timed pull
		c.pulled()
		return false
	}
	p.busy = true
	p.World().Engine().After(&c.rareState().pullTimer, d, sim.Normal)
	return true
}

// pullFailed is a pull of an image the registry does not have: ErrImagePull
// now, ImagePullBackOff from the kubelet's next sync (a second later) until
// the next attempt, which waits for the image pull backoff. In realistic
// mode each sync tries (EnsureImageExists): within the backoff it logs
// BackOff and fails with ImagePullBackOff, after it pulls and fails with
// ErrImagePull; either reason shows from the next sync.
func (c *container) pullFailed() {
	p := c.pod
	img := c.Spec.Image
	cfg := p.World().ImagePullBackOff()
	now := p.World().Now()
	r := c.rareState()
	if r.pullBackoff.set && now-r.pullBackoff.lastUpdate < r.pullBackoff.delay {
		if p.realistic() {
			p.Eventf(model.EventNormal, "BackOff", "kubelet", "Back-off pulling image %q", img)
			p.Eventf(model.EventWarning, "Failed", "kubelet", "Error: %s", model.ReasonImagePullBackOff)
			c.setReason(model.ReasonImagePullBackOff, fmt.Sprintf("Back-off pulling image %q", img))
			p.syncFailed()
			return
		}
		c.showImagePullBackOff()
		return
	}
	r.pullBackoff.next(cfg, now, now)
	p.Eventf(model.EventNormal, "Pulling", "kubelet", "Pulling image %q", img)
	p.Eventf(model.EventWarning, "Failed", "kubelet",
		"Failed to pull image %q: rpc error: code = NotFound desc = failed to pull and unpack image %q: not found", img, img)
	p.Eventf(model.EventWarning, "Failed", "kubelet", "Error: %s", model.ReasonErrImagePull)
	msg := fmt.Sprintf("failed to pull and unpack image %q: not found", img)
	if p.realistic() {
		c.setReason(model.ReasonErrImagePull, msg)
		p.syncFailed()
		return
	}
	c.setState(model.ContainerState{Kind: model.StateWaiting, Reason: model.ReasonErrImagePull, Message: msg})
	p.World().Engine().At(sim.AddSat(now, imagePullResync), sim.Normal, c.showImagePullBackOff)
	p.World().Engine().Schedule(&c.procState().restartTimer, sim.AddSat(now, r.pullBackoff.delay), sim.Normal)
}

// imagePullResync is when the kubelet syncs a pod again after a failed pull.
const imagePullResync = time.Second

func (c *container) showImagePullBackOff() {
	p := c.pod
	if c.Status.State.Reason != model.ReasonErrImagePull || p.Terminating() || p.terminated {
		return
	}
	img := c.Spec.Image
	p.Eventf(model.EventNormal, "BackOff", "kubelet", "Back-off pulling image %q", img)
	p.Eventf(model.EventWarning, "Failed", "kubelet", "Error: %s", model.ReasonImagePullBackOff)
	c.setState(model.ContainerState{Kind: model.StateWaiting, Reason: model.ReasonImagePullBackOff,
		Message: fmt.Sprintf("Back-off pulling image %q", img)})
	p.updateStatus()
}

// pulled finishes an image pull that started pullTime ago.
func (c *container) pulled() {
	p := c.pod
	img := c.Spec.Image
	d := c.rareState().pull
	ns := p.k.node(p.Node)
	if ns.hasImage(img) {
		d = 0
	}
	ns.addImage(img)
	p.Eventf(model.EventNormal, "Pulled", "kubelet",
		"Successfully pulled image %q in %s (%s including waiting)", img, d, d)
	if p.busy {
		p.busy = false
		p.run(c)
		p.requestSync()
	}
}

// run creates and starts the container's next process.
func (p *podState) run(c *container) {
	st := c.Status
	if st.State.Kind == model.StateTerminated {
		c.setLastState(st.State)
	}
	if c.Run.Starts > 0 {
		p.SetContainerRestarts(int(c.idx), st.RestartCount+1)
	}
	c.clearReason()
	now := p.World().Now()
	m := c.messages()
	p.Event(model.EventNormal, "Created", "kubelet", m.created)
	p.Event(model.EventNormal, "Started", "kubelet", m.started)
	r := c.Spec.Behavior.NthRun(c.Run.Starts)
	after, exits := c.planRun(r)
	c.Run.Starts++
	c.startedAt = now
	c.pid = p.Node.NextPID()
	// (Its probe workers hear of the new run when it shows Running: until
	// then, during postStart, no tick of theirs does anything.)
	if exits {
		p.World().Engine().After(&c.procState().exitTimer, after, sim.Normal)
	}
	if c.Spec.PostStart != "" {
		// The kubelet runs postStart inside startContainer: the pod worker
		// waits, and the API keeps showing the container as it was (Waiting)
		// until the hook returns.
		p.busy, c.inHook, c.Run.Unpublished = true, hookPostStart, true
		p.World().UseChanged(p.Pod)
		p.World().Engine().After(&c.rareState().hookTimer, c.hookTime(false), sim.Normal)
		return
	}
	c.showRunning()
	if p.realistic() {
		p.requestSync() // PLEG's ContainerStarted
	}
}

// processRunning reports whether the container's process runs, published
// as Running or not yet (during postStart).
func (c *container) processRunning() bool {
	return c.Status.State.Kind == model.StateRunning || c.Run.Unpublished
}

// showRunning publishes the started process: state Running.
func (c *container) showRunning() {
	c.Run.Unpublished = false
	c.setState(model.ContainerState{Kind: model.StateRunning, StartedAt: c.startedAt})
	c.pod.World().AnnounceListenerChanged(c.pod.Pod)
	c.updateReady()
	if c.Status.Started {
		c.Probes.TriggerReadiness()
	}
	c.pod.updateStatus()
}

// hookDone ends the running postStart or preStop hook.
func (c *container) hookDone() {
	switch c.inHook {
	case hookPreStop:
		c.inHook = hookNone
		c.preStopDone()
	case hookPostStart:
		c.inHook = hookNone
		c.postStartDone()
	case hookTurn:
		c.turnCame()
	}
}

// postStartDone: a failed postStart gets the container killed, then it
// restarts by its policy through the crash backoff.
func (c *container) postStartDone() {
	p := c.pod
	p.busy = false
	if c.Spec.Behavior.Hook(false).Fail {
		// Killed before the kubelet ever reports it Running.
		p.Eventf(model.EventWarning, "FailedPostStartHook", "kubelet", "PostStartHook failed")
		c.rareState().killedFor = model.ReasonPostStartHookError
		c.stop(p.Spec.TerminationGracePeriod, "FailedPostStartHook")
	} else {
		c.showRunning()
	}
	p.requestSync()
}

// exitOnItsOwn ends the current run as its RunSpec says.
func (c *container) exitOnItsOwn() {
	r := c.Spec.Behavior.NthRun(c.Run.Starts - 1)
	if c.proc.draws.crashed {
		c.terminate(1, "")
		return
	}
	if r.OOM {
		c.terminate(137, model.ReasonOOMKilled)
		return
	}
	c.terminate(r.ExitCode, "")
}

// terminate records the running process's exit with code; reason "" means
// the runtime's own: Completed for 0, Error otherwise.
func (c *container) terminate(code int32, reason string) {
	st := c.Status
	if !c.processRunning() {
		return
	}
	if reason == "" {
		reason = model.ReasonError
		if code == 0 {
			reason = model.ReasonCompleted
		}
	}
	p := c.pod
	if s := c.proc; s != nil {
		p.World().Engine().Stop(&s.exitTimer)
	}
	if r := c.rare; r != nil {
		for _, t := range [...]*sim.Timer{&r.hookTimer, &r.termTimer, &r.killTimer} {
			p.World().Engine().Stop(t)
		}
	}
	if c.inHook == hookPostStart {
		p.busy = false
	}
	c.stopping, c.inHook, c.Run.Unpublished = false, hookNone, false
	c.setFlags(false, false)
	c.setState(model.ContainerState{Kind: model.StateTerminated, Reason: reason, ExitCode: code,
		StartedAt: c.startedAt, FinishedAt: p.World().Now()})
	p.World().AnnounceListenerChanged(p.Pod)
	if why := c.killedFor(); why != "" && !p.Terminating() {
		c.setLastState(st.State)
		c.setState(model.ContainerState{Kind: model.StateWaiting, Reason: why})
	}
	if c.rare != nil {
		c.rare.killedFor = ""
	}
	c.ordered = false
	p.turnsCame()
	if !c.probeKilled || p.Terminating() || !c.restartsAfterProbeKill() {
		// (After a probe kill the kubelet restarts in the same sync, with
		// no status published in between.)
		p.updateStatus()
	}
	p.requestSync()
}

func (k *kubeletCore) Kill(pod *model.Pod, name string, code int32, reason string) bool {
	c := k.pod(pod).container(name)
	if c == nil || c.Status.State.Kind != model.StateRunning {
		return false
	}
	c.terminate(code, reason)
	return true
}

func (p *podState) container(name string) *container {
	for _, c := range p.init {
		if c.Spec.Name == name {
			return c
		}
	}
	for _, c := range p.regular {
		if c.Spec.Name == name {
			return c
		}
	}
	return nil
}
