package kubelet

import (
	"math/rand/v2"
	"time"

	"github.com/podsim/podsim/model"
)

// What a container of the kubelet draws from its random stream: the
// durations of its run, hooks, shutdown and pulls, by its behaviour's
// distributions (dist.go).

// draws holds a container's random stream and what it drew from it for
// its current run (in its procState; the preStop hook's and the pull's
// durations are in its rareState). A container without distributions never
// creates its stream.
type draws struct {
	r       *rand.Rand
	startup time.Duration // this run's startupTime
	crashed bool          // this run crashes at its exitAfter (crashProbability)
}

// rand returns the container's stream, "kubelet/<pod>/<container>".
func (c *container) rand() *rand.Rand {
	d := &c.procState().draws
	if d.r == nil {
		d.r = c.pod.World().Engine().Rand("kubelet/" + c.pod.Name + "/" + c.Spec.Name)
	}
	return d.r
}

// sample returns fixed when d is nil, else a draw from the container's stream.
func (c *container) sample(d model.Dist, fixed time.Duration) time.Duration {
	if d == nil {
		return fixed
	}
	return d.Sample(c.rand())
}

// planRun draws what the run about to start does: its startupTime, when it
// exits and whether it crashes. It reports when the process exits on its own
// and whether it does at all.
func (c *container) planRun(r model.RunSpec) (after time.Duration, exits bool) {
	if s := c.proc; s != nil {
		s.draws.crashed = false
	}
	if b := c.Spec.Behavior; b != nil && b.StartupTimeDist != nil {
		d := b.StartupTimeDist.Sample(c.rand())
		c.proc.draws.startup = d
	}
	after, exits = c.sample(r.ExitAfterDist, r.ExitAfter), !r.Forever
	if r.CrashProbability > 0 && c.rand().Float64() < r.CrashProbability {
		c.proc.draws.crashed, exits = true, true
	}
	return after, exits
}

// hookTime draws how long the postStart (or preStop) hook takes this time.
func (c *container) hookTime(preStop bool) time.Duration {
	h := c.Spec.Behavior.Hook(preStop)
	if h.Duration == 0 && h.DurationDist == nil {
		if preStop && c.Spec.PreStopSleep > 0 {
			return c.Spec.PreStopSleep
		} else if !preStop && c.Spec.PostStartSleep > 0 {
			return c.Spec.PostStartSleep
		}
	}
	return c.sample(h.DurationDist, h.Duration)
}

// shutdownTime draws how long the process takes to exit after SIGTERM.
func (c *container) shutdownTime() time.Duration {
	d, _ := c.Spec.Behavior.Shutdown()
	if b := c.Spec.Behavior; b != nil {
		return c.sample(b.ShutdownTimeDist, d)
	}
	return d
}

// pullTime draws how long pulling the container's image takes this time.
func (c *container) pullTime(s model.ImageSpec) time.Duration {
	return c.sample(s.PullTimeDist, s.PullTime)
}
