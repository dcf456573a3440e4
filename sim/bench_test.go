package sim

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"
)

// meanIncr is the mean scheduling increment used by the benchmarks.
const meanIncr = time.Millisecond

// holdSizes are the pending-event counts of the HOLD benchmarks.
var holdSizes = []int{1_000, 100_000, 1_000_000}

// incr draws an exponentially distributed increment with mean meanIncr.
func incr(r *rand.Rand) time.Duration {
	return time.Duration(r.ExpFloat64() * float64(meanIncr))
}

// holder is a HOLD-model event: each time it fires it reschedules itself at
// now + a random increment.
type holder struct {
	Timer
	e *Engine
	r *rand.Rand
}

func (h *holder) fire() { h.e.After(&h.Timer, incr(h.r), Normal) }

// settle finishes a benchmark's setup: it collects the setup's garbage, so
// that a GC cycle started by the setup does not run (with write barriers on)
// during the measurement, and turns on allocation reporting.
func settle(b *testing.B) {
	runtime.GC()
	b.ReportAllocs()
}

func reportRate(b *testing.B) {
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkHold is the classic HOLD model: n events are pending; each
// iteration pops the earliest one, whose handler schedules one new event.
func BenchmarkHold(b *testing.B) {
	for _, n := range holdSizes {
		b.Run(fmt.Sprintf("pending=%d", n), func(b *testing.B) {
			e := New(1)
			r := e.Rand("hold")
			hs := make([]holder, n)
			for i := range hs {
				h := &hs[i]
				h.e, h.r = e, r
				h.Init(h.fire)
				e.After(&h.Timer, incr(r), Normal)
			}
			settle(b)
			for b.Loop() {
				e.Step()
			}
			reportRate(b)
		})
	}
}

// BenchmarkAt is HOLD with one-shot events: each handler schedules the next
// event with At, so every iteration recycles a Timer through the free list.
func BenchmarkAt(b *testing.B) {
	for _, n := range holdSizes[:2] {
		b.Run(fmt.Sprintf("pending=%d", n), func(b *testing.B) {
			e := New(1)
			r := e.Rand("at")
			var fn func()
			fn = func() { e.At(e.Now()+incr(r), Normal, fn) }
			for range n {
				e.At(incr(r), Normal, fn)
			}
			settle(b)
			for b.Loop() {
				e.Step()
			}
			reportRate(b)
		})
	}
}

// BenchmarkStopReschedule measures cancelling a random pending timer and
// scheduling it again at a new random time (a timeout being reset), with n
// timers pending.
func BenchmarkStopReschedule(b *testing.B) {
	for _, n := range holdSizes {
		b.Run(fmt.Sprintf("pending=%d", n), func(b *testing.B) {
			e := New(1)
			r := e.Rand("stop")
			ts := make([]Timer, n)
			nop := func() {}
			for i := range ts {
				ts[i].Init(nop)
				e.After(&ts[i], incr(r), Normal)
			}
			settle(b)
			for b.Loop() {
				t := &ts[r.IntN(n)]
				e.Stop(t)
				e.After(t, incr(r), Normal)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "ops/s")
		})
	}
}

// BenchmarkReschedule measures moving a pending timer (Schedule on a pending
// Timer, a heap fix) with n timers pending.
func BenchmarkReschedule(b *testing.B) {
	for _, n := range holdSizes {
		b.Run(fmt.Sprintf("pending=%d", n), func(b *testing.B) {
			e := New(1)
			r := e.Rand("move")
			ts := make([]Timer, n)
			nop := func() {}
			for i := range ts {
				ts[i].Init(nop)
				e.After(&ts[i], incr(r), Normal)
			}
			settle(b)
			for b.Loop() {
				e.After(&ts[r.IntN(n)], incr(r), Normal)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "ops/s")
		})
	}
}
