package model

import (
	"time"

	"github.com/podsim/podsim/sim"
)

// Sinks of the use of resources and of traffic: what a picture or a trace
// of a run needs beyond the timeline, pushed as it changes. Subscribe
// hands a sink that implements them these notifications; neither makes a
// Change, so the timeline is the same with or without them.

// A UseSink hears that a pod's use of CPU or memory changed at this
// instant: a container started or stopped, or the rate its pod serves
// changed, or, for a container that leaks, at each metrics-server scrape
// (its use grows in between). It hears once per pod and instant, after
// every change of the instant (at a Late event): Pod.Usage then tells the
// use the instant leaves.
type UseSink interface {
	UseChanged(t time.Duration, p *Pod)
}

// A TrafficSink hears, as a UseSink does, that the rates offered to or
// served by a Service changed; Service.Rates tells them.
type TrafficSink interface {
	TrafficChanged(t time.Duration, s *Service)
}

// queueUse queues p for the use sinks, once per instant.
func (w *World) queueUse(p *Pod) {
	if len(w.useSinks) == 0 || p.useQueued {
		return
	}
	p.useQueued = true
	w.useQueue = append(w.useQueue, p)
	w.armSinkFlush()
}

// trafficChanged queues s for the traffic sinks, once per instant.
func (w *World) trafficChanged(s *Service) {
	if len(w.trafficSinks) == 0 || s.queued {
		return
	}
	s.queued = true
	w.trafficQueue = append(w.trafficQueue, s)
	w.armSinkFlush()
}

func (w *World) armSinkFlush() {
	if !w.sinkFlush.Pending() {
		w.eng.Schedule(&w.sinkFlush, w.Now(), sim.Late)
	}
}

// flushSinks tells the use and traffic sinks what changed this instant,
// in the order it changed.
func (w *World) flushSinks() {
	for i := 0; i < len(w.useQueue); i++ {
		p := w.useQueue[i]
		p.useQueued = false
		for _, s := range w.useSinks {
			s.UseChanged(w.Now(), p)
		}
	}
	w.useQueue = w.useQueue[:0]
	for i := 0; i < len(w.trafficQueue); i++ {
		sv := w.trafficQueue[i]
		sv.queued = false
		for _, s := range w.trafficSinks {
			s.TrafficChanged(w.Now(), sv)
		}
	}
	w.trafficQueue = w.trafficQueue[:0]
}

// leaks reports whether b's process leaks memory.
func (b *Behavior) leaks() bool { return b != nil && b.LeakMemory > 0 && b.LeakPer > 0 }
