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
// they ask of it beside its run (Run) and its API status, and what the
// kubelet does when a result changes (its sync loop's handleProbeSync).
type Target interface {
	// StartupTime is how long the current run takes to start, drawn from
	// its behaviour's startupTime distribution: its probes fail until
	// then. (Without a distribution the workers read the behaviour's
	// startupTime themselves.)
	StartupTime() time.Duration
	// WillRestart reports whether the container, terminated with exit
	// code, will run again: the worker goes on probing it while it will.
	WillRestart(code int32) bool
	// KillForProbe kills the running container whose liveness or startup
	// probe (kind, spec) published a failure.
	KillForProbe(kind model.ProbeKind, spec *model.ProbeSpec)
	// UpdateReady sets the container's Started and Ready from its
	// workers' results (Workers.StartedReady) and, if they changed,
	// regenerates its pod's status.
	UpdateReady()
	// RequestSync asks the pod worker to sync the container's pod.
	RequestSync()
	// Prober is the Manager that made the container's workers.
	Prober() *Manager
}

// Run is a container's current run as the kubelet keeps it and its probe
// workers read it on every tick, where upstream's worker reads the
// container's ID and state from the status manager. The kubelet writes it.
type Run struct {
	Starts      int32 // how many times the process was started (0: never): the run's ID
	Unpublished bool  // started, but not in the API status yet (its postStart hook runs)
}

// Container is a container as the kubelet keeps it and its probe workers
// read it, shared by them: the kubelet embeds it in its own, sets Spec and
// Status when it makes it and writes Run; AddContainer gives it its
// workers. It must not move once it has workers.
type Container struct {
	Spec   *model.ContainerSpec
	Status *model.ContainerStatus // its API status, in the pod's (Pod.StatusOf)
	Run    Run                    // its current run, read on every tick
	Probes Workers                // its probe workers by kind

	pod    *model.Pod // set by AddContainer, with target
	target Target
}

// Manager makes the probe workers of every node's kubelet (the prober
// manager, prober_manager.go), from a slab of its own. Its zero value is
// ready to use.
type Manager struct {
	workers model.Slab[worker]
	// The readiness workers TriggerReadiness asked to probe, in the
	// order asked: each trigger is an event of its own, all calling fire,
	// made once, and the events run in the order they were scheduled (all
	// at Now, with priority Normal).
	triggered triggers
	fire      func()
	// The refused connections' messages of the workers that reported one
	// (refusedOutput): few workers ever do.
	refused map[*worker]refusal
}

// Reserve has the next n workers come from one array, allocated now.
func (m *Manager) Reserve(n int) { m.workers.Reserve(n) }

// Workers are a container's probe workers by kind. The zero value has
// none: its methods do nothing.
type Workers struct {
	of [model.Startup + 1]*worker // by kind (liveness, readiness, startup), nil where none
}

// AddContainer creates c's probe workers, c being a container of pod
// reached through t, t.Prober() being m, when the kubelet sets the pod up,
// before any container runs (AddPod). Called again for c, it makes new
// workers in place of the old.
func (m *Manager) AddContainer(c *Container, t Target, pod *model.Pod) {
	if m.fire == nil {
		m.fire = m.fireTriggered
	}
	c.pod, c.target = pod, t
	for kind, probe := range [...]*model.ProbeSpec{model.Liveness: c.Spec.Liveness, model.Readiness: c.Spec.Readiness, model.Startup: c.Spec.Startup} {
		if probe == nil {
			continue
		}
		pr := m.workers.New()
		*pr = worker{c: c, kind: model.ProbeKind(kind), spec: probe}
		pr.timer.Init(pr.tick)
		c.Probes.of[kind] = pr
		// The worker's first step comes before the container exists and
		// finds nothing to probe; the next is one period later.
		pr.doProbe()
		pr.startTicks(probe.Period)
	}
}

// Wake tells every worker that something it reads changed (wake).
func (ws *Workers) Wake() {
	for _, pr := range ws.of {
		if pr == nil {
			continue
		}
		pr.wake()
	}
}

// Halt stops the ticks of every worker (its node lost power, its pod left
// the API) until Restart.
func (ws *Workers) Halt() {
	for _, pr := range ws.of {
		if pr == nil {
			continue
		}
		pr.halt()
	}
}

// Restart starts the ticks of every worker that still probes anew, from
// now: a rebooted node's kubelet starts its workers again.
func (ws *Workers) Restart() {
	for _, pr := range ws.of {
		if pr == nil {
			continue
		}
		if !pr.done {
			pr.startTicks(0)
		}
	}
}

// Restore sets the workers' results for the container's run runs from a
// snapshot that shows it running, started or not and ready or not:
// liveness succeeded, startup as started shows, readiness as ready shows.
func (ws *Workers) Restore(runs int32, started, ready bool) {
	for _, pr := range ws.of {
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

// Ticks is how many ticks each worker ran, by kind, for
// World.BusiestSources.
func (ws *Workers) Ticks() (ticks [model.Startup + 1]int64) {
	for _, pr := range ws.of {
		if pr == nil {
			continue
		}
		ticks[pr.kind] = pr.ticks
	}
	return ticks
}

// StartedReady is a container's Started and Ready as the prober manager's
// UpdatePodStatus makes them for its run runs, running as its status
// shows: started once it runs and, with a startup probe, that probe's
// success was published for this run; ready once started and, with a
// readiness probe, its success was published for this run.
func (ws *Workers) StartedReady(running bool, runs int32) (started, ready bool) {
	started = running && ws.succeeded(model.Startup, runs)
	return started, started && ws.succeeded(model.Readiness, runs)
}

// succeeded reports whether there is no worker of kind k, or its success
// was published for run runs.
func (ws *Workers) succeeded(k model.ProbeKind, runs int32) bool {
	pr := ws.of[k]
	return pr == nil || pr.seen == runs && pr.result == resultSuccess
}

// startupTime is how long the current run takes to start, b being the
// container's behaviour (not nil): its probes fail until then.
func (c *Container) startupTime(b *model.Behavior) time.Duration {
	if b.StartupTimeDist != nil {
		return c.target.StartupTime()
	}
	return b.StartupTime
}

// started reports whether the current run has started: it runs, with no
// startup probe or its success published for this run.
func (c *Container) started() bool {
	return c.Status.State.Kind == model.StateRunning && c.Probes.succeeded(model.Startup, c.Run.Starts)
}

// TriggerReadiness runs the readiness probe at once for a container whose
// readiness is not known yet, as the prober manager does when it sees a
// started container without a readiness result (UpdatePodStatus).
func (ws *Workers) TriggerReadiness() {
	if pr := ws.of[model.Readiness]; pr != nil && !pr.done {
		m, w := pr.c.target.Prober(), pr.c.pod.World()
		m.triggered.push(pr)
		w.Engine().At(w.Now(), sim.Normal, m.fire)
	}
}

// fireTriggered runs the probe of the first trigger not run yet.
func (m *Manager) fireTriggered() {
	m.triggered.pop().probeTriggered()
}
