package proxy

import (
	"math"
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/sim"
)

// Traffic (docs/kubernetes-rules.md, Services): requests offered to a
// Service at a rate that changes in steps, split evenly over the endpoints
// of kube-proxy's view. Counting is exact on piecewise-constant rates: the
// counts grow between changes by rate times time, and nothing runs per
// request or per second.
//
// An endpoint serves its share up to its pod's MaxRPS; a request beyond
// it, to a pod that is not listening (exited, past SIGTERM, gone from the
// API), or to a Service with no endpoint in the view, fails.

// flow is a Service's traffic: its rate steps and what was offered and
// served so far, in billionths of a request.
type flow struct {
	px    *Proxy
	sv    *service
	steps []model.RateStep
	next  int // the step the timer brings
	timer sim.Timer

	mrps    int64   // offered now
	n       int64   // endpoints in the view
	servedN int64   // the rate served now, times n
	contrib []int64 // each endpoint's part of servedN, as the view lists them
	last    time.Duration

	offered, served int64
}

// SetTraffic sends requests to s at the rates of steps (sorted by At; 0
// before the first) from now on.
func (px *Proxy) SetTraffic(s *model.Service, steps []model.RateStep) {
	sv := px.services[s.ID()]
	f := &flow{px: px, sv: sv, steps: steps, last: px.w.Now()}
	f.timer.Init(f.step)
	sv.flow = f
	f.step()
}

// step applies every step that is due and arms the timer for the next.
func (f *flow) step() {
	now := f.px.w.Now()
	f.sv.flushFlow(now)
	for f.next < len(f.steps) && f.steps[f.next].At <= now {
		f.mrps = f.steps[f.next].MilliRPS
		f.next++
	}
	f.px.rateFlow(f.sv)
	f.px.changes++
	if f.next < len(f.steps) {
		f.px.w.Engine().Schedule(&f.timer, f.steps[f.next].At, sim.Normal)
	}
}

// flushFlow counts the requests offered and served since the last change,
// at the rates that held since then.
func (sv *service) flushFlow(now time.Duration) {
	f := sv.flow
	if f == nil || now <= f.last {
		return
	}
	dt := uint64(now - f.last)
	f.last = now
	f.offered = sim.AddSatInt(f.offered, sim.MulDivSat(dt, uint64(f.mrps), 1000))
	if f.n > 0 {
		f.served = sim.AddSatInt(f.served, sim.MulDivSat(dt, uint64(f.servedN), 1000*uint64(f.n)))
	}
}

// rateFlow sets sv's rates from the view and the endpoints' state now.
func (px *Proxy) rateFlow(sv *service) {
	f := sv.flow
	if f == nil {
		return
	}
	f.n = int64(len(sv.view))
	f.servedN, f.contrib = 0, f.contrib[:0]
	for _, p := range sv.view {
		c := f.rateOf(p)
		f.contrib = append(f.contrib, c)
		f.servedN += c
		px.w.UseChanged(p)
	}
	px.w.RatesChanged(sv.s)
}

// rateOf is what endpoint p serves now, times n: its share (mrps/n) up to
// its capacity if it listens, else nothing.
func (f *flow) rateOf(p *model.Pod) int64 {
	if !p.Listening() {
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
func (px *Proxy) endpointChanged(sv *service, i int) {
	f := sv.flow
	p := sv.view[i]
	c := f.rateOf(p)
	f.servedN += c - f.contrib[i]
	f.contrib[i] = c
	px.w.UseChanged(p)
	px.w.RatesChanged(sv.s)
}

// maxMilliRPS is what p can serve, in thousandths of a request per second:
// the least MaxRPS of its containers' behaviours; 0 for no limit.
func maxMilliRPS(p *model.Pod) int64 {
	var out int64
	cs := p.Spec.Containers
	for i := range cs {
		if b := cs[i].Behavior; b != nil && b.MaxRPS > 0 && (out == 0 || b.MaxRPS*1000 < out) {
			out = b.MaxRPS * 1000
		}
	}
	return out
}

// ServedMilliRPS is the rate p serves now, over every Service whose view
// holds it, in thousandths of a request per second.
func (px *Proxy) ServedMilliRPS(p *model.Pod) int64 {
	views := px.viewOf(p)
	if len(views) == 0 || !p.Listening() {
		return 0
	}
	var out int64
	for _, sv := range views {
		f := sv.flow
		if f == nil {
			continue
		}
		share := f.mrps / f.n
		if c := maxMilliRPS(p); c > 0 && c < share {
			share = c
		}
		out += share
	}
	return out
}

// HasTraffic reports whether s is sent requests (SetTraffic).
func (px *Proxy) HasTraffic(s *model.Service) bool { return px.services[s.ID()].flow != nil }

// Requests returns the requests offered to s and served by its endpoints
// from the start up to now, rounded to whole requests.
func (px *Proxy) Requests(s *model.Service) (offered, served int64) {
	sv := px.services[s.ID()]
	if sv.flow == nil {
		return 0, 0
	}
	sv.flushFlow(px.w.Now())
	return roundNano(sv.flow.offered), roundNano(sv.flow.served)
}

// Offered is the requests offered to s from the start up to now, in
// billionths of a request (what metrics-server's scrape reads); ok is
// false if s has no traffic.
func (px *Proxy) Offered(s *model.Service) (int64, bool) {
	sv := px.services[s.ID()]
	if sv.flow == nil {
		return 0, false
	}
	sv.flushFlow(px.w.Now())
	return sv.flow.offered, true
}

// Rates returns the requests per second offered to s now and those its
// endpoints serve, in thousandths.
func (px *Proxy) Rates(s *model.Service) (offered, served int64) {
	f := px.services[s.ID()].flow
	if f == nil {
		return 0, 0
	}
	if f.n > 0 {
		served = f.servedN / f.n
	}
	return f.mrps, served
}

func roundNano(n int64) int64 { return (n + 500_000_000) / 1_000_000_000 }
