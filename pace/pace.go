// Package pace plays a run against the wall clock: a Pacer is a sink on a
// world's stream of changes that holds each change until its virtual time
// comes. The engine stays free of the wall clock; only the pacer reads it,
// through a clock.Clock, so tests drive it with clock.NewMock and never sleep.
//
// Subscribe a Pacer before the sinks that show the changes (run --follow,
// serve): they then receive each change at its moment.
package pace

import (
	"math"
	"time"

	"github.com/benbjohnson/clock"

	"github.com/podsim/podsim/model"
)

// Pacer maps virtual time t to the wall instant start + t/speed and waits
// for it. The zero of virtual time is the wall instant of New.
type Pacer struct {
	clk   clock.Clock
	speed float64
	start time.Time
	done  <-chan struct{}

	onWait func(due time.Time) // tests: called when a wait sets its timer
}

// New starts a pacer now on clk: speed is virtual seconds per wall second
// (60 plays a minute of cluster time per second) and must be > 0.
// done, if not nil, ends every wait at once when it is closed (SIGINT).
func New(clk clock.Clock, speed float64, done <-chan struct{}) *Pacer {
	if speed <= 0 {
		panic("pace: speed must be > 0")
	}
	return &Pacer{clk: clk, speed: speed, start: clk.Now(), done: done}
}

// Wall is the wall instant at which virtual time t is due; past about
// 292 years from the start, it saturates there.
func (p *Pacer) Wall(t time.Duration) time.Time {
	return p.start.Add(durationSat(float64(t) / p.speed))
}

// durationSat converts nanoseconds to a Duration, saturating at its
// bounds (a float64 past them converts to an undefined value).
func durationSat(ns float64) time.Duration {
	switch {
	case ns >= math.MaxInt64:
		return math.MaxInt64
	case ns <= math.MinInt64:
		return math.MinInt64
	}
	return time.Duration(ns)
}

// Virtual is the virtual time the wall clock has reached (0 before start).
func (p *Pacer) Virtual() time.Duration {
	d := p.clk.Since(p.start)
	if d < 0 {
		return 0
	}
	return durationSat(float64(d) * p.speed)
}

// Wait blocks until virtual time t is due on the wall clock, or done is
// closed. It reports false when done ended the wait.
func (p *Pacer) Wait(t time.Duration) bool {
	d := p.Wall(t).Sub(p.clk.Now())
	if d <= 0 {
		return !p.stopped()
	}
	timer := p.clk.Timer(d)
	defer timer.Stop()
	if p.onWait != nil {
		p.onWait(p.Wall(t))
	}
	select {
	case <-timer.C:
		return true
	case <-p.done:
		return false
	}
}

func (p *Pacer) stopped() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// Change waits for c's virtual time: the sinks subscribed after the pacer
// see c at its moment.
func (p *Pacer) Change(c *model.Change) { p.Wait(c.T) }
