package kubelet

import (
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/model/kubelet/prober"
)

// The kubelet's side of its containers' probes: the prober
// (model/kubelet/prober) makes a container's workers into its probes when
// the kubelet sets its pod up; they read its run (the kubelet writes it) and
// its API status directly, and reach the kubelet through prober.Target,
// which *container is.

var _ prober.Target = (*container)(nil)

// startProbers creates the container's probe workers when the kubelet sets
// the pod up, before any container runs.
func (c *container) startProbers() {
	c.pod.k.probes.AddContainer(&c.Container, c, c.pod.Pod)
}

// Prober is the kubelet's prober manager.
func (c *container) Prober() *prober.Manager { return &c.pod.k.probes }

// RequestSync asks the pod worker to sync the container's pod.
func (c *container) RequestSync() { c.pod.requestSync() }

// StartupTime is the current run's startupTime, as drawn (planRun).
func (c *container) StartupTime() time.Duration { return c.procState().draws.startup }

// wakeProbers wakes every probe worker of the pod.
func (p *podState) wakeProbers() {
	for _, c := range p.init {
		c.Probes.Wake()
	}
	for _, c := range p.regular {
		c.Probes.Wake()
	}
}

// WillRestart is the probe worker's keepGoing for a container terminated
// with code: with a container's own restartPolicy in the pod,
// ContainerShouldRestart on its exit code; else unless the pod's
// restartPolicy is Never.
func (c *container) WillRestart(code int32) bool {
	if c.pod.ownPolicies {
		return c.shouldRestart(code)
	}
	return c.pod.Spec.RestartPolicy != model.RestartNever
}

// KillForProbe kills a container that failed its liveness or startup
// probe, with the probe's terminationGracePeriodSeconds if it has one.
func (c *container) KillForProbe(k model.ProbeKind, probe *model.ProbeSpec) {
	p := c.pod
	grace := p.Spec.TerminationGracePeriod
	if g := probe.TerminationGracePeriod; g != nil {
		grace = *g
	}
	kind := map[model.ProbeKind]string{model.Liveness: "liveness", model.Startup: "startup"}[k]
	var msg string
	switch {
	case c.Spec.Sidecar:
		msg = "Init container " + c.Spec.Name + " failed " + kind + " probe"
	case c.restartsAfterProbeKill():
		msg = "Container " + c.Spec.Name + " failed " + kind + " probe, will be restarted"
	default:
		msg = "Container " + c.Spec.Name + " failed " + kind + " probe"
	}
	c.probeKilled = true
	c.stop(grace, msg)
	p.updateStatus()
}

// UpdateReady recomputes Started and Ready after a probe result changed,
// and the pod's status if they changed.
func (c *container) UpdateReady() {
	if c.updateReady() {
		c.pod.updateStatus()
	}
}

// updateReady recomputes Started and Ready; it reports whether they changed.
func (c *container) updateReady() bool {
	st := c.Status
	// A terminating pod keeps its readiness: the kubelet goes on probing it
	// and does not force Ready off (Services drop it by other means).
	started, ready := c.Probes.StartedReady(st.State.Kind == model.StateRunning, c.Run.Starts)
	changed := st.Started != started || st.Ready != ready
	c.setFlags(started, ready)
	return changed
}

// setFlags sets the container's started and ready flags, and tells the
// object sinks when they flip.
func (c *container) setFlags(started, ready bool) {
	c.pod.SetContainerFlags(int(c.idx), started, ready)
}
