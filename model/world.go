// Package model holds Kubernetes semantics as event handlers on the sim
// engine: the kubelet (containers, restarts, backoff, status), nodes, the
// scheduler and the control plane's reactions. It knows nothing of YAML,
// files or output formats: a World is built by calls, run, and read back.
package model

import (
	"fmt"
	"time"

	"github.com/podsim/podsim/sim"
)

// World is a simulated cluster: nodes, pods, the kubelets and control plane
// that act on them, and the record of what happened.
type World struct {
	eng      *sim.Engine
	settings Settings

	nodes   []*Node
	nodeIdx map[string]*Node
	pods    []*Pod
	podIdx  map[string]*Pod

	events   []*Event
	eventIdx map[eventKey]*Event

	sinks       []Sink
	current     Change // the change being handed to the sinks
	changeCount int

	sched scheduler
	gc    podGC

	workloads   []*Workload
	workloadIdx map[string]*Workload
}

type eventKey struct {
	kind, object, reason, message string
	typ                           EventType
}

// NewWorld returns an empty world whose random streams derive from seed.
func NewWorld(seed uint64, s Settings) *World {
	w := &World{
		eng:      sim.New(seed),
		settings: s,
		nodeIdx:  map[string]*Node{},
		podIdx:   map[string]*Pod{},
		eventIdx: map[eventKey]*Event{},

		workloadIdx: map[string]*Workload{},
	}
	w.sched.init(w)
	w.gc.init(w)
	return w
}

// Now is the current virtual time.
func (w *World) Now() time.Duration { return w.eng.Now() }

// Settings returns the world's settings.
func (w *World) Settings() Settings { return w.settings }

// Engine exposes the event engine (for statistics).
func (w *World) Engine() *sim.Engine { return w.eng }

// Run simulates until the virtual time until (inclusive).
func (w *World) Run(until time.Duration) { w.eng.Run(until) }

// Observe runs fn at time t after every change at or before t.
func (w *World) Observe(t time.Duration, fn func()) { w.eng.At(t, sim.Late, fn) }

// Schedule runs fn at time t, among the world's ordinary events (faults).
func (w *World) Schedule(t time.Duration, fn func()) { w.eng.At(t, sim.Normal, fn) }

// Nodes returns every node in the order added.
func (w *World) Nodes() []*Node { return w.nodes }

// Node returns the node called name, or nil.
func (w *World) Node(name string) *Node { return w.nodeIdx[name] }

// Pods returns every pod ever created, deleted ones included, in creation order.
func (w *World) Pods() []*Pod { return w.pods }

// Pod returns the pod called name (possibly deleted), or nil.
func (w *World) Pod(name string) *Pod { return w.podIdx[name] }

// Events returns the aggregated events, in order of first occurrence.
func (w *World) Events() []*Event { return w.events }

// event records a Kubernetes event about a pod or node.
func (w *World) event(kind, object string, typ EventType, reason, source, format string, args ...any) {
	msg := format
	if len(args) > 0 {
		msg = fmt.Sprintf(format, args...)
	}
	w.eventMsg(kind, object, typ, reason, source, msg)
}

// eventMsg records an event whose message is built already.
func (w *World) eventMsg(kind, object string, typ EventType, reason, source, msg string) {
	now := w.eng.Now()
	k := eventKey{kind, object, reason, msg, typ}
	if e := w.eventIdx[k]; e != nil {
		e.Count++
		e.LastSeen = now
	} else {
		e = &Event{Kind: kind, Object: object, Type: typ, Reason: reason, Message: msg, Source: source,
			FirstSeen: now, LastSeen: now, Count: 1}
		w.eventIdx[k] = e
		w.events = append(w.events, e)
	}
	c := Change{Kind: ChangeEvent, Type: string(typ), Reason: reason, Message: msg}
	switch kind {
	case "Node":
		c.Node = object
	case "Pod":
		c.Pod = object
	default:
		c.Workload, c.Object = object, kind
	}
	w.record(c)
}

// EventsFor returns the events about one object, in order of first occurrence.
func (w *World) EventsFor(kind, object string) []*Event {
	var out []*Event
	for _, e := range w.events {
		if e.Kind == kind && e.Object == object {
			out = append(out, e)
		}
	}
	return out
}

// podChanged tells the pod's controller and the pod garbage collector that
// its phase, readiness or existence changed.
func (w *World) podChanged(p *Pod) {
	if p.owner != nil {
		p.owner.requestSync()
	}
	if p.phase.Terminal() {
		w.gc.kick()
	}
}

// daemonSetsChanged tells DaemonSets that the set of eligible nodes may
// have changed.
func (w *World) daemonSetsChanged() {
	for _, wl := range w.workloads {
		if wl.Spec.Kind == KindDaemonSet {
			wl.requestSync()
		}
	}
}
