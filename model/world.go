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

	events      []*Event // every event, in order of first occurrence
	otherEvents map[objectKey]*eventLog

	sinks         []Sink
	detailSinks   []DetailSink
	current       Change // the change being handed to the sinks
	currentDetail Detail // the detail being handed to the detail sinks
	changeCount   int

	sched scheduler
	gc    podGC

	workloads   []*Workload
	workloadIdx map[string]*Workload

	disruption disruptionController // PodDisruptionBudgets (disruption.go)
}

// objectKey names an object that has no list of events of its own.
type objectKey struct{ kind, object string }

// NewWorld returns an empty world whose random streams derive from seed.
func NewWorld(seed uint64, s Settings) *World {
	w := &World{
		eng:         sim.New(seed),
		settings:    s,
		nodeIdx:     map[string]*Node{},
		podIdx:      map[string]*Pod{},
		otherEvents: map[objectKey]*eventLog{},

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

// eventMsg records an event whose message is built already. Repeats are
// found in the object's own log of events, not in one world-wide index: a
// fleet's kubelets repeat a handful of events per pod.
func (w *World) eventMsg(kind, object string, typ EventType, reason, source, msg string) {
	now := w.eng.Now()
	log := w.eventLog(kind, object)
	if e := log.find(typ, reason, msg); e != nil {
		e.Count++
		e.LastSeen = now
	} else {
		e = &Event{Kind: kind, Object: object, Type: typ, Reason: reason, Message: msg, Source: source,
			FirstSeen: now, LastSeen: now, Count: 1}
		log.add(e)
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

// eventLog is the events about one object, in order of first occurrence,
// indexed once there are more than a few (a ReplicaSet logs one
// SuccessfulCreate per pod, each with its own message).
type eventLog struct {
	list []*Event
	idx  map[eventMsgKey]*Event
	next int // where find looks first: after the last event found
}

type eventMsgKey struct {
	typ             EventType
	reason, message string
}

// eventLogIndexAt is the length from which an eventLog is indexed.
const eventLogIndexAt = 16

func (l *eventLog) find(typ EventType, reason, msg string) *Event {
	if l.idx != nil {
		return l.idx[eventMsgKey{typ, reason, msg}]
	}
	// A kubelet repeats its events in a cycle (Pulled, Created, Started,
	// BackOff, ...): start after the last one found.
	n := len(l.list)
	for i := range n {
		j := l.next + i
		if j >= n {
			j -= n
		}
		if e := l.list[j]; e.Reason == reason && e.Type == typ && e.Message == msg {
			l.next = j + 1
			return e
		}
	}
	return nil
}

func (l *eventLog) add(e *Event) {
	l.list = append(l.list, e)
	switch {
	case l.idx != nil:
		l.idx[eventMsgKey{e.Type, e.Reason, e.Message}] = e
	case len(l.list) > eventLogIndexAt:
		l.idx = make(map[eventMsgKey]*Event, 2*len(l.list))
		for _, x := range l.list {
			l.idx[eventMsgKey{x.Type, x.Reason, x.Message}] = x
		}
	}
}

// eventLog returns the log of events about one object.
func (w *World) eventLog(kind, object string) *eventLog {
	switch kind {
	case "Pod":
		if p := w.podIdx[object]; p != nil {
			return &p.events
		}
	case "Node":
		if n := w.nodeIdx[object]; n != nil {
			return &n.events
		}
	default:
		if wl := w.workloadIdx[object]; wl != nil && wl.Spec.Kind == kind {
			return &wl.events
		}
	}
	k := objectKey{kind, object}
	l := w.otherEvents[k]
	if l == nil {
		l = new(eventLog)
		w.otherEvents[k] = l
	}
	return l
}

// EventsFor returns the events about one object, in order of first
// occurrence.
func (w *World) EventsFor(kind, object string) []*Event {
	return append([]*Event(nil), w.eventLog(kind, object).list...)
}

// podChanged tells the pod's controller, its disruption budgets and the pod
// garbage collector that its phase, readiness or existence changed.
func (w *World) podChanged(p *Pod) {
	p.updateBudgets()
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
