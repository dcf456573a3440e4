package main

import (
	"bufio"
	"fmt"
	"strconv"
	"time"

	"github.com/benbjohnson/clock"

	"github.com/podsim/podsim/expect"
	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/pace"
	"github.com/podsim/podsim/report"
	"github.com/podsim/podsim/scenarios"
)

// Speeds a live replay takes: slower, a second of virtual time would
// take weeks; faster, there is nothing left to pace.
const (
	minSpeed = 1e-6
	maxSpeed = 1e9
)

// speedFlag is --speed: virtual seconds played per wall second, in
// [minSpeed, maxSpeed] (NaN and infinities refused).
type speedFlag struct {
	x   float64
	set bool
}

func (f *speedFlag) String() string { return strconv.FormatFloat(f.x, 'g', -1, 64) }
func (f *speedFlag) Set(s string) error {
	x, err := strconv.ParseFloat(s, 64)
	if err != nil || !(x >= minSpeed && x <= maxSpeed) {
		return fmt.Errorf("want a speed from %g to %g such as 1, 60 or 0.5, not %q", minSpeed, maxSpeed, s)
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

// follow is `run --follow`: it plays s against the wall clock, each change
// at its virtual time (speed virtual seconds per wall second), and prints
// `kubectl get pods -w` rows (text) or the timeline's JSON lines (jsonl),
// each written out as it comes. Ctrl-C stops it at once, the output
// complete up to the instant it reached.
func (m *Main) follow(s *scenarios.Scenario, opt runOptions) (int, error) {
	o := scenarios.RunOptions{Until: opt.until, MaxEvents: opt.maxEvents, ProbeEveryTick: opt.everyTick}
	bw := bufio.NewWriterSize(m.Stdout, 64<<10) // flushed before each wait (pacedFlush)
	defer bw.Flush()
	var done <-chan struct{}
	if m.ctx != nil {
		done = m.ctx.Done()
	}
	var checks *expect.Checks
	var pacer *pace.Pacer
	var after func(time.Duration)
	var failed func() error
	o.Attach = func(w *model.World) {
		checks = expect.Arm(s, w)
		w.ChargeChanges() // each change is written, or looked at for a row
		clk := m.clock()
		pacer = pace.New(clk, opt.speed, done)
		w.Subscribe(&pacedFlush{pacer: pacer, clk: clk, bw: bw}) // before the sinks that print
		if opt.out == "jsonl" {
			lines := report.NewJSONL(bw)
			w.Subscribe(untilDone{done, lines})
			failed = lines.Err
		} else {
			rows := report.NewWatch(bw, w)
			w.Subscribe(rows)
			after = func(t time.Duration) {
				if !m.interrupted() { // an instant cut short by Ctrl-C is not shown
					rows.Flush(t) // written out before the next wait (pacedFlush)
				}
			}
			failed = rows.Err
		}
		bw.Flush()
	}
	r := s.Start(o)
	end := r.Instants(m.interrupted, after)
	bw.Flush()
	if end == model.Finished && !pacer.Wait(opt.until) {
		end = model.Interrupted // the replay lasts until the run's end, not its last change
	}
	if end == model.Finished && !opt.atSet {
		checks.Finish()
	}
	code := m.runEnd(r, end)
	if code == exitOK && opt.strict && end == model.Finished && !opt.atSet && checks.Failed() > 0 {
		code = exitFailed
	}
	return code, failed()
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

// pacedFlush is the pacer as a replay's output sees it: before it waits
// for a change whose moment has not come, what was written is flushed, so
// the reader has every line due by now; a replay behind the wall clock (a
// speed the run cannot keep up with) flushes every flushEvery of wall
// time instead of at every line, and reads the clock once in clockEvery
// changes that the clock as last read already makes due.
type pacedFlush struct {
	pacer     *pace.Pacer
	clk       clock.Clock
	bw        *bufio.Writer
	now, last time.Time // the wall clock as last read, and at the last flush
	n         int       // changes since the clock was read
}

const (
	flushEvery = 50 * time.Millisecond
	clockEvery = 256
)

func (f *pacedFlush) Change(c *model.Change) {
	due := f.pacer.Wall(c.T)
	if f.n++; !due.After(f.now) && f.n < clockEvery {
		return
	}
	f.n, f.now = 0, f.clk.Now()
	if due.After(f.now) {
		f.bw.Flush()
		f.pacer.Change(c)
		f.now, f.last = due, due
		return
	}
	if f.now.Sub(f.last) >= flushEvery {
		f.bw.Flush()
		f.last = f.now
	}
}
