// Package prober is the kubelet's prober (pkg/kubelet/prober): one worker
// per container and probe kind, ticking every period from the pod's setup,
// whose published results make a container's Started and Ready and get it
// killed when its liveness or startup probe fails. The kubelet makes the
// workers of each of its containers (Manager.AddContainer) and hears their
// results through the container's Target.
package prober

import (
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/sim"
)

// Target is the kubelet's container as its probe workers reach it: what
// they read of it that its API status does not show, and what the kubelet
// does when a result changes (its sync loop's handleProbeSync).
type Target interface {
	// Run is the container's current run: how many times its process was
	// started (0: never), and whether that run is not in its API status
	// yet (its postStart hook runs).
	Run() (runs int32, unpublished bool)
	// StartupTime is how long the current run takes to start: its
	// behaviour's probes fail until then.
	StartupTime() time.Duration
	// WillRestart reports whether the container, terminated with exit
	// code, will run again: the worker goes on probing it while it will.
	WillRestart(code int32) bool
	// KillForProbe kills the running container whose liveness or startup
	// probe (kind, spec) published a failure.
	KillForProbe(kind model.ProbeKind, spec *model.ProbeSpec)
	// UpdateReady sets the container's Started and Ready from its
	// workers' results (Container.StartedReady) and, if they changed,
	// regenerates its pod's status.
	UpdateReady()
	// RequestSync asks the pod worker to sync the container's pod.
	RequestSync()
}

// Manager makes the probe workers of every node's kubelet (the prober
// manager, prober_manager.go), from slabs of its own. Its zero value is
// ready to use.
type Manager struct {
	containers model.Slab[Container]
	workers    model.Slab[worker]
}

// Container is the prober's state of one container that has probes: its
// workers by kind and what they read of it. A nil *Container is a
// container without probes: its methods do nothing.
type Container struct {
	workers [model.Startup + 1]*worker // by kind (liveness, readiness, startup), nil where none
	target  Target
	w       *model.World
	pod     *model.Pod
	spec    *model.ContainerSpec
	status  *model.ContainerStatus // its API status, in the pod's (Pod.StatusOf)
}

// AddContainer creates the probe workers of the container of pod with
// spec and status, reached through t, when the kubelet sets the pod up,
// before any container runs (AddPod). It returns c, made if nil for a
// container with probes (it stays nil for one without); called again
// for c, it makes new workers in place of the old.
func (m *Manager) AddContainer(c *Container, t Target, pod *model.Pod, spec *model.ContainerSpec, status *model.ContainerStatus) *Container {
	for kind, probe := range [...]*model.ProbeSpec{model.Liveness: spec.Liveness, model.Readiness: spec.Readiness, model.Startup: spec.Startup} {
		if probe == nil {
			continue
		}
		if c == nil {
			c = m.containers.New()
			*c = Container{target: t, w: pod.World(), pod: pod, spec: spec, status: status}
		}
		pr := m.workers.New()
		*pr = worker{c: c, kind: model.ProbeKind(kind), spec: probe}
		pr.timer.Init(pr.tick)
		pr.triggered = pr.probeTriggered
		c.workers[kind] = pr
		// The worker's first step comes before the container exists and
		// finds nothing to probe; the next is one period later.
		pr.doProbe()
		pr.startTicks(probe.Period)
	}
	return c
}

// Wake tells every worker of c that something it reads changed (wake).
func (c *Container) Wake() {
	if c == nil {
		return
	}
	for _, pr := range c.workers {
		if pr == nil {
			continue
		}
		pr.wake()
	}
}

// Halt stops the ticks of every worker of c (its node lost power, its pod
// left the API) until Restart.
func (c *Container) Halt() {
	if c == nil {
		return
	}
	for _, pr := range c.workers {
		if pr == nil {
			continue
		}
		pr.halt()
	}
}

// Restart starts the ticks of every worker of c that still probes anew,
// from now: a rebooted node's kubelet starts its workers again.
func (c *Container) Restart() {
	if c == nil {
		return
	}
	for _, pr := range c.workers {
		if pr == nil {
			continue
		}
		if !pr.done {
			pr.startTicks(0)
		}
	}
}

// Restore sets the results of c's workers for run runs from a snapshot
// that shows the container running, started or not and ready or not:
// liveness succeeded, startup as started shows, readiness as ready shows.
func (c *Container) Restore(runs int32, started, ready bool) {
	if c == nil {
		return
	}
	for _, pr := range c.workers {
		if pr == nil {
			continue
		}
		pr.seen = runs
		switch {
		case pr.kind == model.Liveness, pr.kind == model.Startup && started, pr.kind == model.Readiness && ready:
			pr.result, pr.last = resultSuccess, resultSuccess
		case pr.kind == model.Readiness:
			pr.result = resultFailure
		}
	}
}

// Ticks is how many ticks each worker of c ran, by kind, for
// World.BusiestSources.
func (c *Container) Ticks() (ticks [model.Startup + 1]int64) {
	if c == nil {
		return ticks
	}
	for _, pr := range c.workers {
		if pr == nil {
			continue
		}
		ticks[pr.kind] = pr.ticks
	}
	return ticks
}

// StartedReady is a container's Started and Ready as the prober manager's
// UpdatePodStatus makes them, for its run runs, running as its status
// shows: started once it runs and, with a startup probe, that probe's
// success was published for this run; ready once started and, with a
// readiness probe, its success was published for this run.
func (c *Container) StartedReady(running bool, runs int32) (started, ready bool) {
	if c == nil {
		return running, running
	}
	started = running && c.succeeded(model.Startup, runs)
	return started, started && c.succeeded(model.Readiness, runs)
}

// started reports whether the current run (runs) has started: it runs,
// with no startup probe or its success published for this run.
func (c *Container) started(runs int32) bool {
	return c.status.State.Kind == model.StateRunning && c.succeeded(model.Startup, runs)
}

// succeeded reports whether c has no probe of kind k, or its success was
// published for run runs.
func (c *Container) succeeded(k model.ProbeKind, runs int32) bool {
	pr := c.workers[k]
	return pr == nil || pr.seen == runs && pr.result == resultSuccess
}

// TriggerReadiness runs the readiness probe at once for a container whose
// readiness is not known yet, as the prober manager does when it sees a
// started container without a readiness result (UpdatePodStatus).
func (c *Container) TriggerReadiness() {
	if c == nil {
		return
	}
	if pr := c.workers[model.Readiness]; pr != nil && !pr.done {
		c.w.Engine().At(c.w.Now(), sim.Normal, pr.triggered)
	}
}
