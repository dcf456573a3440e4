package serve

import (
	"context"
	"fmt"
	"io"
	"sync/atomic"
	"time"

	"github.com/benbjohnson/clock"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/pace"
	"github.com/podsim/podsim/scenarios"
	"github.com/podsim/podsim/sim"
)

// Options say how a Server plays its scenario.
type Options struct {
	// Speed is virtual seconds per wall second: the run plays paced from
	// virtual time 0. Zero freezes the world at At instead: it is run to
	// At at once and stays there.
	Speed float64
	At    time.Duration
	// Until is where a paced run ends (the scenario's duration); the world
	// then stays as it is.
	Until time.Duration

	AllowWrites bool        // take the writes podsim models (writeRoutes); else every write is 405
	Clock       clock.Clock // the wall clock: clock.New(), or a mock in tests
	MaxEvents   uint64      // the run's event budget (0: none)
	History     int         // versions kept for watchers (0: DefaultHistory)
	Log         io.Writer   // the writes applied and how the run ended
	// TuneGC sets the process's garbage collector for a frozen server:
	// as a batch command's during the run-up, then collecting often
	// enough that reads leave the heap near the cluster's size (gc.go).
	// Leave it off where GOGC or GOMEMLIMIT is set, or in a library.
	TuneGC bool
}

// Server is one scenario's world behind the Kubernetes API. The world is
// run by Play alone; handlers read the store.
type Server struct {
	sc     *scenarios.Scenario
	run    *scenarios.Runner
	world  *model.World // run.World
	store  *Store
	clk    clock.Clock
	pacer  *pace.Pacer // nil when frozen
	log    io.Writer
	writes chan *writeReq // nil unless writes are allowed
	ended  atomic.Bool    // the world stopped moving
	tuneGC bool
	opts   Options
	ready  chan struct{} // closed once handlers may touch the store: at once if paced, at the frozen instant if not
	done   chan struct{} // closed when Play returns
}

// darkFromPods is how many pods a frozen scenario is to make (its pods and
// its workloads' replicas) for its store to go dark before its history
// overflows (Store.goDarkEarly): at four versions or more a pod made, as
// many as DefaultHistory keeps.
var darkFromPods = DefaultHistory / 4

// New builds the scenario's world and its store; Play runs it. A paced
// server's virtual time 0 is the wall instant of New.
func New(sc *scenarios.Scenario, o Options) *Server {
	s := &Server{sc: sc, clk: o.Clock, log: o.Log, done: make(chan struct{}), ready: make(chan struct{}), tuneGC: o.TuneGC && o.Speed <= 0, opts: o}
	if s.clk == nil {
		s.clk = clock.New()
	}
	if s.log == nil {
		s.log = io.Discard
	}
	if o.AllowWrites {
		s.writes = make(chan *writeReq)
	}
	s.start(o.Speed <= 0)
	if o.Speed > 0 {
		close(s.ready)
		s.pacer = pace.New(s.clk, o.Speed, s.done)
	}
	return s
}

// start builds the scenario's world and its store, held if the world is
// frozen; early lets a held store go dark early if the scenario makes many
// pods.
func (s *Server) start(early bool) {
	o := s.opts
	history := o.History
	if history == 0 {
		history = DefaultHistory
	}
	until := o.At
	if o.Speed > 0 {
		until = o.Until
	}
	s.run = s.sc.Start(scenarios.RunOptions{Until: until, MaxEvents: o.MaxEvents, Attach: func(w *model.World) {
		s.store = NewStore(w, history)
		w.ChargeChanges() // the store takes in every change
		if o.Speed <= 0 {
			s.store.holdReads() // nobody reads it before the frozen instant
		}
		if f := s.sc.File.Spec.Settings.NodeStatusUpdateFrequency; f != nil {
			// Set explicitly, it is nodeStatusReportFrequency's default too
			// (pkg/kubelet/apis/config/v1beta1/defaults.go).
			s.store.reportEvery = f.D()
		}
		w.Subscribe(s.store)
	}})
	s.world = s.run.World
	if early && s.store.expectedPods() >= darkFromPods {
		s.store.goDarkEarly()
	}
	s.store.reservePods() // the world is populated: its workloads say how many pods will come
}

// waitReady waits until handlers may touch the store; false if ctx ended
// first.
func (s *Server) waitReady(ctx context.Context) bool {
	select {
	case <-s.ready:
		return true
	case <-ctx.Done():
		return false
	}
}

// moment is the instant a response shows: the world's virtual time (where
// a paced run's wall clock has reached, short of the next change) at the
// wall clock's now.
func (s *Server) moment() moment {
	wall := s.clk.Now()
	_, now := s.store.state()
	if s.pacer != nil && !s.ended.Load() {
		now = min(max(now, s.pacer.Virtual()), s.run.Until)
	}
	return moment{now: now, wall: wall}
}

// Play runs the world until ctx is done: paced against the wall clock up
// to the end of the run, or at once to the frozen instant; then it holds
// the world where it is. Writes are applied between events, at the current
// virtual time. The world is touched by Play's goroutine alone.
func (s *Server) Play(ctx context.Context) {
	defer close(s.done)
	w := s.world
	interrupted := func() bool { return ctx.Err() != nil }
	stopped := model.Finished
	if s.pacer == nil {
		frozen := func() {}
		if s.tuneGC {
			frozen = tuneRunUpGC(runUpHeap(s.store.expectedPods(), len(w.Nodes())))
		}
		stopped = s.run.Run(interrupted)
		if stopped != model.Interrupted && s.store.keptEveryVersion() {
			// Dark early for nothing: a lit store keeps every version.
			s.start(false)
			w = s.world
			stopped = s.run.Run(interrupted)
		}
		s.store.pause(w.Now())
		frozen()
		close(s.ready)
	} else {
		for stopped == model.Finished && w.Now() < s.run.Until {
			next, ok := w.Engine().Peek()
			if !ok || next > s.run.Until {
				next = s.run.Until
			}
			due, alive := s.waitFor(ctx, next)
			if !alive {
				return
			}
			if !due {
				continue // a write came: it may have scheduled something sooner
			}
			stopped = s.run.To(next, interrupted)
			s.store.pause(w.Now())
		}
	}
	s.ended.Store(true)
	switch stopped {
	case model.OverBudget:
		fmt.Fprintf(s.log, "%s\npodsim serve: the cluster stays as it was at %s\n",
			s.run.OverBudgetError(), sim.FormatTime(w.Now()))
	case model.Interrupted:
		return
	default:
		if s.pacer == nil {
			fmt.Fprintf(s.log, "podsim serve: frozen at %s\n", sim.FormatTime(w.Now()))
		} else {
			fmt.Fprintf(s.log, "podsim serve: the run reached its end, %s; the cluster stays as it is\n", sim.FormatTime(w.Now()))
		}
	}
	if s.tuneGC {
		giveBack() // once the cluster is served: first writes wait, reads need not
	}
	for {
		select {
		case req := <-s.writes:
			if stopped == model.OverBudget {
				req.done <- overBudgetError(w.Now()) // a write would run the work the budget stopped
				continue
			}
			s.apply(req, w.Now())
		case <-ctx.Done():
			return
		}
	}
}

// waitFor waits until virtual time t is due on the wall clock (due), or
// until a write comes, which it applies at the current virtual time, to the
// millisecond (not due: the write may have scheduled events before t).
// alive is false if ctx ended first.
func (s *Server) waitFor(ctx context.Context, t time.Duration) (due, alive bool) {
	d := s.pacer.Wall(t).Sub(s.clk.Now())
	if d <= 0 {
		return true, true
	}
	timer := s.clk.Timer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return true, true
	case req := <-s.writes:
		// Now, to the millisecond: the log and the timeline stay legible.
		s.apply(req, min(max(s.pacer.Virtual().Truncate(time.Millisecond), s.world.Now()), t))
		return false, true
	case <-ctx.Done():
		return false, false
	}
}
