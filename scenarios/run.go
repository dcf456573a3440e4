package scenarios

import (
	"errors"
	"fmt"
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/sim"
)

// RunOptions say how a run of a scenario is made: how far it goes and who
// watches it.
type RunOptions struct {
	// Until is the virtual time the run ends at.
	Until time.Duration
	// MaxEvents is the run's event budget (0: no limit).
	MaxEvents uint64
	// ProbeEveryTick runs every probe tick (model.Settings.ProbeEveryTick).
	ProbeEveryTick bool
	// Attach, if not nil, subscribes the run's sinks to its world and
	// schedules their observers while the world is empty: they see every
	// change.
	Attach func(w *model.World)
}

// A Runner is a scenario's world at time 0, with its sinks, ready to run to
// Until within MaxEvents events.
type Runner struct {
	Scenario  *Scenario
	World     *model.World
	Until     time.Duration
	MaxEvents uint64
}

// Start makes a run of s: its empty world (NewWorld), attached to as o
// says, then populated (Populate), on a heap readied for its size
// (reserveHeap), with room made for its pods (readyPods).
func (s *Scenario) Start(o RunOptions) *Runner {
	size := s.reserveHeap()
	w := s.NewWorld()
	if o.ProbeEveryTick {
		w.SetProbeEveryTick(true)
	}
	if o.Attach != nil {
		o.Attach(w)
	}
	s.Populate(w)
	readyPods(w, size)
	return &Runner{Scenario: s, World: w, Until: o.Until, MaxEvents: o.MaxEvents}
}

// Run runs the world to r.Until, as To does.
func (r *Runner) Run(interrupted func() bool) model.RunEnd { return r.To(r.Until, interrupted) }

// To runs the world up to t within r's budget, asking interrupted (if not
// nil) every few thousand events whether to stop. It ends as
// model.World.RunChecked does.
func (r *Runner) To(t time.Duration, interrupted func() bool) model.RunEnd {
	return r.World.RunChecked(t, r.MaxEvents, interrupted)
}

// Instants runs the world to r.Until one instant of virtual time at a
// time, calling after(t) (if not nil) once every event at t has run, and
// asking interrupted between instants too. It ends as Run does; the clock
// ends at r.Until when the run finishes.
func (r *Runner) Instants(interrupted func() bool, after func(time.Duration)) model.RunEnd {
	for {
		t, ok := r.World.Engine().Peek()
		if !ok || t > r.Until {
			return r.Run(interrupted)
		}
		if end := r.To(t, interrupted); end != model.Finished {
			return end
		}
		if after != nil {
			after(t)
		}
		if interrupted != nil && interrupted() {
			return model.Interrupted
		}
	}
}

// OverBudgetError explains a run that used up its event budget: where it
// stopped and what made the most events.
func (r *Runner) OverBudgetError() error {
	msg := fmt.Sprintf("%s: the run stopped at %s of %s of virtual time: %s (raise it with --max-events N, 0 for no limit)",
		r.Scenario.Path, sim.FormatTime(r.World.Now()), sim.FormatTime(r.Until), r.World.BudgetSpent(r.MaxEvents))
	for _, b := range r.World.BusiestSources(3) {
		msg += "\n  " + b
	}
	return errors.New(msg)
}
