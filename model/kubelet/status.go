package kubelet

import (
	"strings"

	"github.com/podsim/podsim/model"
)

// updateStatus regenerates the pod's phase and conditions from its
// containers, as the kubelet's generateAPIPodStatus does.
func (p *podState) updateStatus() {
	if !p.Sandboxed() || !p.Node.Reachable() {
		return // nothing the kubelet reports gets through
	}
	was := p.Phase()
	switch {
	case p.Phase().Terminal():
	case p.stop.reason != "":
		p.stoppedPhase()
	default:
		if ph := p.computePhase(); !ph.Terminal() || !p.processRuns() {
			p.SetPhase(ph)
		}
	}
	p.updateConditions()
	p.World().AnnouncePodStatusUpdated(p.Pod)
	if p.stop.reason != "" && p.Phase() != was {
		p.World().AnnouncePodStopped(p.Pod)
	}
	if p.Phase() != was {
		p.World().AnnouncePodChanged(p.Pod)
	}
	p.statusSync, p.statusMark = p.syncs, p.World().ChangeCount()
}

// processRuns reports whether any container's process runs (published or
// still in postStart). The status manager's mergePodStatus holds a terminal
// phase back while the pod could have running containers: a container
// restarted after a probe kill from a state that alone would make the pod
// Succeeded, and still in its postStart hook, keeps the pod's phase.
func (p *podState) processRuns() bool {
	for _, c := range p.init {
		if c.processRunning() {
			return true
		}
	}
	for _, c := range p.regular {
		if c.processRunning() {
			return true
		}
	}
	return false
}

// computePhase is the kubelet's getPhase.
func (p *podState) computePhase() model.Phase {
	var pendingInit, failedInit, pendingSidecar, running, waiting, stopped, succeeded, unknown int
	for _, c := range p.init {
		st := c.Status
		lastFailed := st.LastState.Kind == model.StateTerminated
		if c.Spec.Sidecar {
			switch st.State.Kind {
			case model.StateRunning:
				if !st.Started {
					pendingSidecar++
				}
				running++
			case model.StateWaiting:
				if !lastFailed {
					pendingSidecar++
					waiting++
				}
			case model.StateNone:
				unknown++
			}
			continue
		}
		switch st.State.Kind {
		case model.StateNone, model.StateRunning:
			pendingInit++
		case model.StateTerminated:
			if st.State.ExitCode != 0 {
				failedInit++
			}
		case model.StateWaiting:
			switch {
			case !lastFailed:
				pendingInit++
			case st.LastState.ExitCode != 0:
				failedInit++
			}
		}
	}
	for _, c := range p.regular {
		st := c.Status
		switch st.State.Kind {
		case model.StateRunning:
			running++
		case model.StateTerminated:
			stopped++
			if st.State.ExitCode == 0 {
				succeeded++
			}
		case model.StateWaiting:
			if st.LastState.Kind == model.StateTerminated {
				stopped++
			} else {
				waiting++
			}
		default:
			unknown++
		}
	}
	if failedInit > 0 && p.Spec.RestartPolicy == model.RestartNever {
		return model.Failed
	}
	switch {
	case pendingInit > 0 || (!p.regularStatusStarted() && pendingSidecar > 0) || waiting > 0:
		return model.Pending
	case running > 0 && unknown == 0:
		return model.Running
	case running == 0 && stopped > 0 && unknown == 0:
		if p.Terminating() {
			if stopped == succeeded {
				return model.Succeeded
			}
			return model.Failed
		}
		if p.ownPolicies {
			return p.phaseByOwnPolicies(stopped == succeeded)
		}
		if p.Spec.RestartPolicy == model.RestartAlways {
			return model.Running
		}
		if stopped == succeeded {
			return model.Succeeded
		}
		if p.Spec.RestartPolicy == model.RestartNever {
			return model.Failed
		}
		return model.Running
	}
	return model.Pending
}

// regularStatusStarted is kubecontainer.HasAnyRegularContainerStarted: a
// regular container's status is Running or Terminated.
func (p *podState) regularStatusStarted() bool {
	for _, c := range p.regular {
		if k := c.Status.State.Kind; k == model.StateRunning || k == model.StateTerminated {
			return true
		}
	}
	return false
}

// updateConditions regenerates Initialized, ContainersReady and Ready,
// unless nothing it reads changed since it last ran and no condition
// changed after it.
func (p *podState) updateConditions() {
	sig, ok := p.condInputs()
	kept := ok && p.condSig != 0 && p.condSet == p.ConditionGen() // as the last run left them
	if kept && sig == p.condSig {
		return
	}
	p.generateConditions(kept && (sig^p.condSig)&initInputs(len(p.init)) == 0)
	if ok {
		p.condSig, p.condSet = sig, p.ConditionGen()
	} else {
		p.condSig = 0 // no signature is 0: the next call runs
	}
}

// condInputs packs what generateConditions reads: whether the phase is
// Succeeded or Failed, and each container's state as it reads it. ok is false when they do not fit in 64
// bits or the pod has readiness gates (they read other conditions).
func (p *podState) condInputs() (sig uint64, ok bool) {
	if len(p.Spec.ReadinessGates) > 0 || len(p.init) > 8 || len(p.regular) > 16 {
		return 0, false
	}
	sig = 1<<63 | uint64(len(p.init))<<4 | uint64(len(p.regular))<<8
	switch p.Phase() { // the only phases it tells apart
	case model.Succeeded:
		sig |= 1
	case model.Failed:
		sig |= 2
	}
	if len(p.init) > 0 && p.regularStatusStarted() { // read for init containers only
		sig |= 1 << 13
	}
	sh := 14
	for _, c := range p.init {
		st := c.Status
		if st.State.Kind == model.StateTerminated && st.State.ExitCode == 0 {
			sig |= 1 << sh
		}
		if st.Started {
			sig |= 2 << sh
		}
		if st.Ready {
			sig |= 4 << sh
		}
		sh += 3
	}
	for _, c := range p.regular {
		if c.Status.Ready {
			sig |= 1 << sh
		}
		sh++
	}
	return sig, true
}

// initInputs are the bits of condInputs' signature that Initialized reads,
// for a pod of n init containers: Succeeded, the counts, whether a regular
// container started, and the init containers' states.
func initInputs(n int) uint64 { return 1 | (1<<(14+3*n)-1)&^(1<<4-1) }

// generateConditions sets Initialized, ContainersReady and Ready from the
// pod's phase and containers, as status/generate.go does. With
// initKnown, Initialized is left as it is: it holds what it would be set
// to (what it reads and the conditions are as the last run left them).
func (p *podState) generateConditions(initKnown bool) {
	if !initKnown {
		p.generateInitialized()
	}
	p.generateReady()
}

// generateInitialized sets Initialized.
func (p *podState) generateInitialized() {
	incomplete := 0
	for _, c := range p.init {
		st := c.Status
		done := st.State.Kind == model.StateTerminated && st.State.ExitCode == 0
		if c.Spec.Sidecar {
			done = st.Started
		}
		if !done && !p.regularStatusStarted() {
			incomplete = p.addToList(incomplete, incompletePrefix, c.Spec.Name)
		}
	}
	switch {
	case p.Phase() == model.Succeeded:
		p.SetKnownCondition(model.CondInitialized, model.CondTrue, model.CondPodCompleted, "")
	case incomplete > 0:
		p.SetKnownCondition(model.CondInitialized, model.CondFalse, model.CondContainersNotInitialized, p.listMessage())
	default:
		p.SetKnownCondition(model.CondInitialized, model.CondTrue, model.CondNone, "")
	}
}

// generateReady sets ContainersReady, then Ready mirroring it and the
// readiness gates.
func (p *podState) generateReady() {
	status, reason, msg := model.CondTrue, model.CondNone, ""
	switch p.Phase() {
	case model.Succeeded:
		status, reason = model.CondFalse, model.CondPodCompleted
	case model.Failed:
		status, reason = model.CondFalse, model.CondPodFailed
	default:
		var first *container // the first container not ready
		unready := 0
		for _, c := range p.init {
			if c.Spec.Sidecar && !c.Status.Ready {
				if unready == 0 {
					first = c
				}
				unready = p.addToList(unready, unreadyPrefix, c.Spec.Name)
			}
		}
		for _, c := range p.regular {
			if !c.Status.Ready {
				if unready == 0 {
					first = c
				}
				unready = p.addToList(unready, unreadyPrefix, c.Spec.Name)
			}
		}
		if unready > 0 {
			status, reason = model.CondFalse, model.CondContainersNotReady
			if unready == 1 { // the list of one, which its container keeps: no look-up
				msg = first.messages().unready
			} else {
				msg = p.listMessage()
			}
		}
	}
	p.SetKnownCondition(model.CondContainersReady, status, reason, msg)
	if status == model.CondTrue {
		status, reason, msg = p.readinessGates()
	}
	p.SetKnownCondition(model.CondReady, status, reason, msg)
}

// readinessGates checks every readiness gate's condition, as
// status/generate.go does.
func (p *podState) readinessGates() (status, reason model.CondText, msg string) {
	var msgs []string
	for _, g := range p.Spec.ReadinessGates {
		c, ok := p.Condition(g)
		switch {
		case !ok:
			msgs = append(msgs, "corresponding condition of pod readiness gate \""+g+"\" does not exist.")
		case c.Status != model.True:
			msgs = append(msgs, "the status of pod readiness gate \""+g+"\" is not \"True\", but "+string(c.Status))
		}
	}
	if len(msgs) > 0 {
		return model.CondFalse, model.CondReadinessGatesNotReady, strings.Join(msgs, ", ")
	}
	return model.CondTrue, model.CondNone, ""
}

// The prefixes of the condition messages that list containers.
const (
	incompletePrefix = "containers with incomplete status: ["
	unreadyPrefix    = "containers with unready status: ["
)

// addToList adds a container name to a condition message listing
// containers, built in the kubelet's scratch: prefix and the first name (n, the count
// so far, is 0), then a name per call, then listMessage. A list with no
// name costs nothing.
func (p *podState) addToList(n int, prefix, name string) int {
	if n == 0 {
		p.k.scratch = append(p.k.scratch[:0], prefix...)
	} else {
		p.k.scratch = append(p.k.scratch, ' ')
	}
	p.k.scratch = append(p.k.scratch, name...)
	return n + 1
}

// listMessage closes the list and returns it as a string, reusing one
// built before if it is the same: the kubelet shares the messages it built
// among its pods (a fleet's pods list the same containers), and a pod whose
// message is not among them keeps its own, as its status flips between a
// few: an update that changes nothing allocates nothing.
func (p *podState) listMessage() string {
	k := p.k
	k.scratch = append(k.scratch, ']')
	if m, ok := k.listMsgs[string(k.scratch)]; ok {
		return m
	}
	if p.messages != nil {
		for _, m := range *p.messages {
			if m == string(k.scratch) {
				return m
			}
		}
	}
	m := string(k.scratch)
	if len(k.listMsgs) < maxListMessages {
		if k.listMsgs == nil {
			k.listMsgs = make(map[string]string)
		}
		k.listMsgs[m] = m
	} else {
		if p.messages == nil {
			p.messages = new([]string)
		}
		if len(*p.messages) < maxPodMessages {
			*p.messages = append(*p.messages, m)
		}
	}
	return m
}

// maxListMessages bounds the condition messages the kubelet shares, and
// maxPodMessages those a pod keeps for reuse once the shared ones are full.
const (
	maxListMessages = 4096
	maxPodMessages  = 8
)

// phaseByOwnPolicies is getPhase for a pod whose every regular container
// has stopped, when some container has its own restartPolicy: Running while
// one of them will restart (shouldRestart on its last exit), else Succeeded
// if all exited 0, else Failed.
func (p *podState) phaseByOwnPolicies(allSucceeded bool) model.Phase {
	for _, c := range p.regular {
		if t, ok := c.Status.Terminated(); ok && c.shouldRestart(t.ExitCode) {
			return model.Running
		}
	}
	if allSucceeded {
		return model.Succeeded
	}
	return model.Failed
}
