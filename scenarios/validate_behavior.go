package scenarios

import (
	"time"

	"github.com/podsim/podsim/model"
)

func (v *validator) behavior(b *Behavior, earlier []Behavior) {
	if b.Pod == "" {
		v.at(b, "behavior: pod is required")
		return
	}
	v.namespace(&b.Namespace)
	key := model.Key(b.Namespace, b.Pod)
	if o := ownerOf(key, v.workloads); o != "" && v.pods[key] == nil && v.workloads[key] == nil {
		// Build gives a workload's behavior to every pod it makes: one
		// pod of it cannot have its own.
		name := v.workloads[o].Metadata.Name
		v.at(&b.Pod, "%q is a pod of workload %q, whose pods all behave alike: name the workload (pod: %s)", b.Pod, name, name)
		return
	}
	ps := v.podTemplate(&b.Pod, b.Namespace, true)
	v.containerRef(ps, b.Pod, &b.Container, b)
	if c := findContainer(ps, b.Container); c != nil {
		v.behaviorMatches(b, c)
	}
	for i := range earlier {
		if e := &earlier[i]; e.Pod == b.Pod && e.Container == b.Container && e.Image == b.Image &&
			namespaceOf(e.Namespace) == namespaceOf(b.Namespace) {
			what := b.Pod + "/" + b.Container
			if b.Image != "" {
				what += " with image " + b.Image
			}
			v.at(b, "a second behavior for %s (first at line %d)", what, v.s.pos.Of(e).Line)
		}
	}
	for i := range b.Runs {
		v.run(&b.Runs[i])
	}
	if c := b.ShutdownExitCode; c != nil && (*c < 0 || *c > 255) {
		v.at(c, "shutdownExitCode must be 0..255")
	}
	v.windows(b)
}

// run checks one run of a behaviour.
func (v *validator) run(r *Run) {
	if r.Times != nil && *r.Times < 1 {
		v.at(r.Times, "times must be at least 1")
	}
	if r.ExitCode != nil && (*r.ExitCode < 0 || *r.ExitCode > 255) {
		v.at(r.ExitCode, "exitCode must be 0..255")
	}
	if r.OOM && r.ExitCode != nil {
		v.at(r.ExitCode, "an OOM kill always exits 137; drop exitCode or oom")
	}
	if p := r.CrashProbability; p != nil {
		switch {
		case !(*p >= 0 && *p <= 1):
			v.at(p, "crashProbability must be between 0 and 1")
		case r.ExitAfter == nil:
			v.atKey(&r.CrashProbability, "crashProbability needs exitAfter: when the run crashes")
		}
	}
}

// windows checks a behaviour's failing windows of probes: each ends after
// it starts, and one counted from each start begins before every run ends.
func (v *validator) windows(b *Behavior) {
	lifetime, bounded := runsEnd(b.Runs)
	for _, ws := range [][]Window{b.Probes.Liveness, b.Probes.Readiness, b.Probes.Startup} {
		for i := range ws {
			w := &ws[i]
			switch {
			case w.To != nil && w.To.D() <= w.From.D() && w.SinceStart:
				v.at(w.To, "to (%s after each start) must be after from (%s after each start)", w.To, &w.From)
			case w.To != nil && w.To.D() <= w.From.D():
				v.at(w.To, "to (%s) must be after from (%s)", w.To, &w.From)
			case w.SinceStart && bounded && w.From.D() >= lifetime:
				var at any = &w.From
				if v.s.pos.Of(&w.From) == (Pos{}) {
					at = w // from not written
				}
				v.at(at, "from %s after each start: every run of container %s exits within %s of its start, so this window would change nothing",
					&w.From, b.Container, lifetime)
			}
		}
	}
}

// runsEnd is how long after its start the longest of the runs lasts, and
// whether every run ends on its own by a fixed time (none runs forever,
// none draws its end).
func runsEnd(runs []Run) (time.Duration, bool) {
	if len(runs) == 0 {
		return 0, false
	}
	var longest time.Duration
	for _, r := range runs {
		if r.ExitAfter == nil {
			if r.ExitCode == nil && !r.OOM {
				return 0, false // {} runs until stopped
			}
			continue // exits at once
		}
		at, fixed := r.ExitAfter.FixedValue()
		if !fixed || r.CrashProbability != nil && r.ExitCode == nil && !r.OOM {
			return 0, false // drawn, or may run on when it does not crash
		}
		longest = max(longest, at)
	}
	return longest, true
}

// behaviorMatches reports behavior that could never take effect: failing
// windows for a probe, or a hook outcome, the container does not declare.
func (v *validator) behaviorMatches(b *Behavior, c *Container) {
	probes := []struct {
		windows *[]Window
		probe   *Probe
		name    string
	}{{&b.Probes.Liveness, c.LivenessProbe, "livenessProbe"}, {&b.Probes.Readiness, c.ReadinessProbe, "readinessProbe"}, {&b.Probes.Startup, c.StartupProbe, "startupProbe"}}
	for _, p := range probes {
		if *p.windows != nil && p.probe == nil {
			v.atKey(p.windows, "container %s has no %s: these windows would change nothing", c.Name, p.name)
		}
	}
	var post, pre *Handler
	if c.Lifecycle != nil {
		post, pre = c.Lifecycle.PostStart, c.Lifecycle.PreStop
	}
	if b.Hooks.PostStart != nil && post == nil {
		v.atKey(b.Hooks.PostStart, "container %s has no lifecycle.postStart hook", c.Name)
	}
	if b.Hooks.PreStop != nil && pre == nil {
		v.atKey(b.Hooks.PreStop, "container %s has no lifecycle.preStop hook", c.Name)
	}
}
