package model

import (
	"math"
	"math/bits"
	"time"

	"github.com/podsim/podsim/sim"
)

// Traffic: requests offered to a Service at a rate that changes in steps,
// split evenly over the endpoints of kube-proxy's view. Counting is exact
// on piecewise-constant rates: the counts grow between changes by rate
// times time, and nothing runs per request or per second.
//
// An endpoint serves its share up to its pod's MaxRPS; a request beyond
// it, to a pod that is not listening (exited, past SIGTERM, gone from the
// API), or to a Service with no endpoint in the view, fails.

// RateStep is a request rate from At on, in thousandths of a request per
// second.
type RateStep struct {
	At       time.Duration
	MilliRPS int64
}

// flow is a Service's traffic: its rate steps and what was offered and
// served so far, in billionths of a request.
type flow struct {
	s     *Service
	steps []RateStep
	next  int // the step the timer brings
	timer sim.Timer

	mrps    int64   // offered now
	n       int64   // endpoints in the view
	servedN int64   // the rate served now, times n
	contrib []int64 // each endpoint's part of servedN, as s.view lists them
	last    time.Duration

	offered, served int64
}

// SetTraffic sends requests to s at the rates of steps (sorted by At; 0
// before the first) from now on.
func (s *Service) SetTraffic(steps []RateStep) {
	f := &flow{s: s, steps: steps, last: s.w.Now()}
	f.timer.Init(f.step)
	s.flow = f
	f.step()
}

// step applies every step that is due and arms the timer for the next.
func (f *flow) step() {
	now := f.s.w.Now()
	f.s.flushFlow(now)
	for f.next < len(f.steps) && f.steps[f.next].At <= now {
		f.mrps = f.steps[f.next].MilliRPS
		f.next++
	}
	f.s.rateFlow()
	f.s.w.services.changes++
	if f.next < len(f.steps) {
		f.s.w.eng.Schedule(&f.timer, f.steps[f.next].At, sim.Normal)
	}
}

// flushFlow counts the requests offered and served since the last change,
// at the rates that held since then.
func (s *Service) flushFlow(now time.Duration) {
	f := s.flow
	if f == nil || now <= f.last {
		return
	}
	dt := uint64(now - f.last)
	f.last = now
	f.offered = addSat(f.offered, mulDiv(dt, uint64(f.mrps), 1000))
	if f.n > 0 {
		f.served = addSat(f.served, mulDiv(dt, uint64(f.servedN), 1000*uint64(f.n)))
	}
}

// rateFlow sets the rates from the view and the endpoints' state now.
func (s *Service) rateFlow() {
	f := s.flow
	if f == nil {
		return
	}
	f.n = int64(len(s.view))
	f.servedN, f.contrib = 0, f.contrib[:0]
	for _, p := range s.view {
		c := f.rateOf(p)
		f.contrib = append(f.contrib, c)
		f.servedN += c
		s.w.useChanged(p)
	}
	s.w.trafficChanged(s)
}

// rateOf is what endpoint p serves now, times n: its share (mrps/n) up to
// its capacity if it listens, else nothing.
func (f *flow) rateOf(p *Pod) int64 {
	if !listening(p) {
		return 0
	}
	share := f.mrps // compare mrps with n times the pod's capacity
	if c := maxMilliRPS(p); c > 0 && c <= math.MaxInt64/max(f.n, 1) && c*f.n < share {
		share = c * f.n
	}
	return share
}

// endpointChanged updates the rate served after endpoint i of the view
// started or stopped listening: only its own part changes.
func (s *Service) endpointChanged(i int) {
	f := s.flow
	p := s.view[i]
	c := f.rateOf(p)
	f.servedN += c - f.contrib[i]
	f.contrib[i] = c
	s.w.useChanged(p)
	s.w.trafficChanged(s)
}

// maxMilliRPS is what p can serve, in thousandths of a request per second:
// the least MaxRPS of its containers' behaviours; 0 for no limit.
func maxMilliRPS(p *Pod) int64 {
	var out int64
	for _, c := range p.regular {
		if b := c.spec.Behavior; b != nil && b.MaxRPS > 0 && (out == 0 || b.MaxRPS*1000 < out) {
			out = b.MaxRPS * 1000
		}
	}
	return out
}

// Requests returns the requests offered to s and served by its endpoints
// from the start up to now, rounded to whole requests; failed ones are
// offered minus served.
func (s *Service) Requests() (offered, served int64) {
	f := s.flow
	if f == nil {
		return 0, 0
	}
	s.flushFlow(s.w.Now())
	return roundNano(f.offered), roundNano(f.served)
}

// HasTraffic reports whether s is sent requests (SetTraffic).
func (s *Service) HasTraffic() bool { return s.flow != nil }

// OfferedRate is the rate offered to s now, in thousandths of a request
// per second.
func (s *Service) OfferedRate() int64 {
	if s.flow == nil {
		return 0
	}
	return s.flow.mrps
}

func roundNano(n int64) int64 { return (n + 500_000_000) / 1_000_000_000 }

// mulDiv is a*b/c in 128 bits, saturated at MaxInt64.
func mulDiv(a, b, c uint64) int64 {
	hi, lo := bits.Mul64(a, b)
	if hi >= c {
		return math.MaxInt64
	}
	q, _ := bits.Div64(hi, lo, c)
	if q > math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(q)
}

func addSat(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}
