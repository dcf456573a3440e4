package main

import (
	"bufio"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/benbjohnson/clock"

	"github.com/podsim/podsim/expect"
	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/pace"
	"github.com/podsim/podsim/report"
	"github.com/podsim/podsim/scenarios"
)

// speedFlag is --speed: virtual seconds played per wall second.
type speedFlag struct {
	x   float64
	set bool
}

func (f *speedFlag) String() string { return strconv.FormatFloat(f.x, 'g', -1, 64) }
func (f *speedFlag) Set(s string) error {
	x, err := strconv.ParseFloat(s, 64)
	if err != nil || !(x > 0) || math.IsInf(x, 0) {
		return fmt.Errorf("want a speed above 0 such as 1, 60 or 0.5, not %q", s)
	}
	f.x, f.set = x, true
	return nil
}

// clock is the wall clock of live replays: Main.Clock, or the real one.
func (m *Main) clock() clock.Clock {
	if m.Clock != nil {
		return m.Clock
	}
	return clock.New()
}

// followOptions are the flags of `run` a live replay uses.
type followOptions struct {
	out       string // text or jsonl
	speed     float64
	until     time.Duration
	atSet     bool
	everyTick bool
	maxEvents uint64
	strict    bool
}

// follow is `run --follow`: it plays s against the wall clock, each change
// at its virtual time (speed virtual seconds per wall second), and prints
// `kubectl get pods -w` rows (text) or the timeline's JSON lines (jsonl),
// each written out as it comes. Ctrl-C stops it at once, the output
// complete up to the instant it reached.
func (m *Main) follow(s *scenarios.Scenario, o followOptions) (int, error) {
	var widths report.WatchWidths
	if o.out == "text" {
		// Columns as wide as their widest cell: a first run, unpaced,
		// measures them.
		first := s.NewWorld()
		first.SetProbeEveryTick(o.everyTick)
		measure := report.MeasureWatch(first, &widths)
		first.Subscribe(measure)
		s.Populate(first)
		runInstants(first, o.until, o.maxEvents, m.interrupted, measure.Flush) // a run that stops early stops again below, and says why
	}
	bw := bufio.NewWriter(m.Stdout)
	defer bw.Flush()
	w := s.NewWorld()
	w.SetProbeEveryTick(o.everyTick)
	checks := expect.Arm(s, w)
	var done <-chan struct{}
	if m.ctx != nil {
		done = m.ctx.Done()
	}
	pacer := pace.New(m.clock(), o.speed, done)
	w.Subscribe(pacer) // before the sinks that print
	var after func(time.Duration)
	var failed func() error
	if o.out == "jsonl" {
		lines := report.NewJSONL(flushEach{bw})
		w.Subscribe(untilDone{done, lines})
		failed = lines.Err
	} else {
		rows := report.NewWatch(bw, w, widths)
		w.Subscribe(rows)
		after = func(t time.Duration) {
			if !m.interrupted() { // an instant cut short by Ctrl-C is not shown
				rows.Flush(t)
				bw.Flush()
			}
		}
		failed = rows.Err
	}
	bw.Flush()
	s.Populate(w)
	end := runInstants(w, o.until, o.maxEvents, m.interrupted, after)
	if end == model.Finished && !pacer.Wait(o.until) {
		end = model.Interrupted // the replay lasts until the run's end, not its last change
	}
	if end == model.Finished && !o.atSet {
		checks.Finish()
	}
	code := m.runEnd(s, w, end, o.until, o.maxEvents)
	if code == exitOK && o.strict && end == model.Finished && !o.atSet && checks.Failed() > 0 {
		code = exitFailed
	}
	return code, failed()
}

// runInstants runs w up to until one instant of virtual time at a time,
// calling after(t) (if not nil) once every event at t has run, and asking
// interrupted between instants. It ends as RunChecked does; the clock ends
// at until when the run finishes.
func runInstants(w *model.World, until time.Duration, budget uint64, interrupted func() bool, after func(time.Duration)) model.RunEnd {
	for {
		t, ok := w.Engine().Peek()
		if !ok || t > until {
			return w.RunChecked(until, budget, interrupted)
		}
		if end := w.RunChecked(t, budget, interrupted); end != model.Finished {
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

// untilDone hands changes on to a sink until done is closed: a change the
// pacer let through early because of Ctrl-C is not shown.
type untilDone struct {
	done <-chan struct{}
	sink model.Sink
}

func (u untilDone) Change(c *model.Change) {
	select {
	case <-u.done:
	default:
		u.sink.Change(c)
	}
}

// flushEach writes through a buffered writer and flushes after every
// write: the JSONL sink writes a line at a time.
type flushEach struct{ w *bufio.Writer }

func (f flushEach) Write(p []byte) (int, error) {
	n, err := f.w.Write(p)
	if err == nil {
		err = f.w.Flush()
	}
	return n, err
}
