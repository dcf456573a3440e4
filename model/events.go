package model

import (
	"fmt"
	"math"
	"time"
	"unsafe"
)

// The event recorder. Every event a component records goes through a model
// of client-go's EventCorrelator (staging/src/k8s.io/client-go/tools/record/
// events_cache.go), as the recorders of the kubelet, the scheduler and the
// controllers do, in its order:
//
//  1. Aggregation: events about one object from one source with the same
//     type and reason but different messages are "similar". Once 10 distinct
//     messages were seen within 10 minutes of each other, each further event
//     whose message is not among the last 9 goes into one combined event,
//     "(combined from similar events): <message>".
//  2. Dedup: an event equal to an earlier one (source, object, type, reason,
//     message; the combined one by its aggregation key) counts into it: its
//     count grows, firstTimestamp stays, lastTimestamp moves.
//  3. Spam filter: a token bucket per source and object, 25 tokens refilled
//     at one per 5 minutes. An event finding no token never reaches the API;
//     the count of the cache it went through still grew, so the next one let
//     through carries every occurrence so far.
//
// An Event is the API object: what `kubectl describe` lists. Every
// occurrence is also a Change of the timeline with the component's own
// message, flagged when it went into a combined event (Change.Combined) and
// when the spam filter dropped it (Change.Dropped).

// The correlator's defaults (events_cache.go).
const (
	aggregateMaxEvents = 10                // distinct messages before similar events combine
	aggregateInterval  = 600 * time.Second // a quieter record starts over
	spamBurst          = 25                // events a source may send about an object at once
	spamRefill         = 300 * time.Second // then one more every this long
	combinedPrefix     = "(combined from similar events): "
)

// event records a Kubernetes event about a pod, node or workload; object is
// the node's name, or the pod's or workload's key (see Key). A pod's own
// events go through Pod.event, which needs no look-up.
func (w *World) event(kind, object string, typ EventType, reason, source, format string, args ...any) {
	msg := format
	if len(args) > 0 {
		msg = fmt.Sprintf(format, args...)
	}
	w.eventMsg(kind, object, typ, reason, source, msg)
}

// eventMsg records an event whose message is built already: it goes through
// the correlator into the object's log, and into the timeline.
func (w *World) eventMsg(kind, object string, typ EventType, reason, source, msg string) {
	c := w.begin(ChangeEvent)
	switch kind {
	case "Node":
		c.Node = object
	case "Pod":
		c.Pod, c.Namespace = object, DefaultNamespace
		if p := w.Pod(object); p != nil {
			c.Pod, c.Namespace = p.Name, p.Namespace
			w.changeNames = p
		}
	default:
		c.Workload, c.Object = object, kind
		if wl := w.workloadIdx[object]; wl != nil && wl.Spec.Kind == kind {
			c.Workload, c.Namespace = wl.Spec.Name, wl.Namespace()
		} else if b := w.budgets.byName[object]; b != nil && kind == KindPodDisruptionBudget {
			c.Workload, c.Namespace = b.Spec.Name, b.Spec.Namespace
		} else if a := w.Autoscaler(object); a != nil && kind == KindHorizontalPodAutoscaler {
			c.Workload, c.Namespace = a.Spec.Name, a.Spec.Namespace
		}
	}
	w.recordEvent(w.eventLog(kind, object), typ, reason, source, msg, c)
}

// event records a Kubernetes event about the pod (World.event without
// the look-ups by key: the hot path of a kubelet's events).
func (p *Pod) event(typ EventType, reason, source, format string, args ...any) {
	msg := format
	if len(args) > 0 {
		msg = fmt.Sprintf(format, args...)
	}
	p.eventMsg(typ, reason, source, msg)
}

// Event records a Kubernetes event about the pod from source (a
// controller's name), as its event recorder does: repeats are aggregated.
func (p *Pod) Event(typ EventType, reason, source, msg string) { p.eventMsg(typ, reason, source, msg) }

// eventMsg is Pod.event with the message built already.
func (p *Pod) eventMsg(typ EventType, reason, source, msg string) {
	c := p.w.begin(ChangeEvent)
	c.Pod, c.Namespace = p.Name, p.Namespace
	p.w.changeNames = p
	p.w.recordEvent(p.eventLog(), typ, reason, source, msg, c)
}

// eventLog is the log of events about the pod's key: its own, unless a
// later pod took the key (a StatefulSet's pod made again), whose log then
// holds them, as the look-up by key finds it.
func (p *Pod) eventLog() *eventLog {
	if p.superseded {
		return p.w.eventLog("Pod", p.Key())
	}
	return &p.events
}

// recordEvent puts an event through the correlator (aggregation, dedup,
// spam filter) into log, its object's, then completes c and hands it to
// the sinks; c is the world's current change (w.current), built in place
// with the names of the object. Repeats are found in the object's own
// log of events, not in one world-wide index: a fleet's kubelets
// repeat a handful of events per pod.
func (w *World) recordEvent(log *eventLog, typ EventType, reason, source, msg string, c *Change) {
	now := w.eng.Now()
	// In a short log (a pod's), an event seen before names its aggregation
	// record: no search. Only a new message looks its record up; a
	// kubelet's repeats none. A long log (a controller's, one message per
	// pod) finds its event once, by the key the aggregation decides. An
	// event of a group that has none yet is new: nothing to look up; only
	// it looks its origin up.
	var e, first *Event
	if log.index() == nil {
		if e = log.find(source, typ, reason, msg); e != nil {
			first = log.firstOf(e)
		}
	}
	if first == nil {
		first = log.group(source, typ, reason)
	}
	combined := first != nil && log.aggregate(first, msg, now)
	if first != nil && (combined || log.index() != nil) {
		e = log.lookup(first.origin, msg, combined)
	}
	if e == nil {
		e = w.mem.events.new()
		*e = Event{FirstSeen: now, Combined: combined, group: noSet}
		e.setText(msg)
		if first != nil { // a second message: the group has its set (aggregate)
			e.origin, e.group = first.origin, first.group
		} else {
			e.origin = w.origins.of(source, typ, reason)
		}
		if log.list == nil {
			log.list = w.mem.eventLists.take(eventLogRoom) // a pod's handful, in one allocation rather than three
		}
		log.add(e)
	}
	if combined {
		e.setText(msg) // the combined event shows its latest message (Event.Message)
	}
	e.Occurrences = min(e.Occurrences, math.MaxInt32-1) + 1 // saturates
	e.LastOccurred = now
	dropped := !log.spamAllows(e.origin.src, now)
	if !dropped {
		if e.Count == 0 {
			w.apiEvents++
		}
		e.Count, e.LastSeen = e.Occurrences, now
	}
	w.lastEvent = e
	c.Type, c.Reason, c.Message, c.Combined, c.Dropped = typ.String(), reason, msg, combined, dropped
	w.emit()
}

// same is a == b, without a call when both are the same bytes: the
// recorder's strings are the components' constants and interned messages,
// so a repeat finds its event by pointers, as a kubelet's events repeat.
func same(a, b string) bool {
	return len(a) == len(b) && (unsafe.StringData(a) == unsafe.StringData(b) || a == b)
}

// eventLog is the events about one object, in order of first occurrence,
// indexed once there are more than a few (a ReplicaSet logs one
// SuccessfulCreate per pod, each with its own message), with the
// correlator's state for the object: its aggregation records and its spam
// filter buckets, one per source. Every pod has one: what most pods' logs
// never need is in rare.
type eventLog struct {
	list []*Event
	rare *eventLogRare
	// The spam filter's buckets of the first two sources (a pod hears from
	// two: the scheduler and its kubelet): their sources' numbers
	// (eventOrigin.src, 0 for none) and their since (spamBucket).
	since [2]time.Duration
	src   [2]uint16
	next  int32 // where find looks first: after the last event found
}

// eventLogRare is the part of an eventLog that a long log, or one with
// similar events, makes when it first needs it.
type eventLogRare struct {
	idx  map[eventKey]*Event
	sets []aggregateSet // the aggregation records of the groups with more than one message
	more []spamBucket   // the buckets of further sources
}

// index is the log's index of its events, nil while it is short.
func (l *eventLog) index() map[eventKey]*Event {
	if l.rare == nil {
		return nil
	}
	return l.rare.idx
}

// rareState returns l.rare, made if l has none yet.
func (l *eventLog) rareState() *eventLogRare {
	if l.rare == nil {
		l.rare = new(eventLogRare)
	}
	return l.rare
}

// eventKey is an event's dedup key within its object's log (the message is
// empty for a combined event: its aggregation key has none).
type eventKey struct {
	origin   *eventOrigin
	message  string
	combined bool
}

func (e *Event) key() eventKey { return newEventKey(e.origin, e.text(), e.Combined) }

func newEventKey(o *eventOrigin, msg string, combined bool) eventKey {
	if combined {
		msg = ""
	}
	return eventKey{o, msg, combined}
}

// eventLogIndexAt is the length from which an eventLog is indexed.
const eventLogIndexAt = 16

// find returns the event of a short log (not indexed) that is not combined
// and has the source, type, reason and message, or nil. A kubelet repeats
// its events in a cycle (Pulled, Created, Started, BackOff, ...): find
// starts after the last one found.
func (l *eventLog) find(source string, typ EventType, reason, msg string) *Event {
	n := len(l.list)
	for i := range n {
		j := int(l.next) + i
		if j >= n {
			j -= n
		}
		if e := l.list[j]; same(e.origin.reason, reason) && e.origin.typ == typ && !e.Combined &&
			e.textIs(msg) && same(e.origin.source, source) {
			l.next = int32(j + 1)
			return e
		}
	}
	return nil
}

// lookup returns the event of origin o and message msg (combined: the
// group's combined event, whatever its message), or nil.
func (l *eventLog) lookup(o *eventOrigin, msg string, combined bool) *Event {
	if idx := l.index(); idx != nil {
		return idx[newEventKey(o, msg, combined)]
	}
	n := len(l.list)
	for i := range n {
		j := int(l.next) + i
		if j >= n {
			j -= n
		}
		if e := l.list[j]; e.origin == o && e.Combined == combined && (combined || e.textIs(msg)) {
			l.next = int32(j + 1)
			return e
		}
	}
	return nil
}

func (l *eventLog) add(e *Event) {
	l.list = append(l.list, e)
	switch idx := l.index(); {
	case idx != nil:
		idx[e.key()] = e
	case len(l.list) > eventLogIndexAt:
		idx = make(map[eventKey]*Event, 2*len(l.list))
		for _, x := range l.list {
			idx[x.key()] = x
		}
		l.rareState().idx = idx
	}
}

// eventOrigin is what the events of a group share: the component that
// records them, their type and their reason. A world keeps one of each
// (eventOrigins), so that an event holds one pointer for the three.
type eventOrigin struct {
	source, reason string
	typ            EventType
	src            uint16 // the source's number in its world, from 1 (its spam filter buckets')
}

// originKey is what an eventOrigin is found by.
type originKey struct {
	source, reason string
	typ            EventType
}

// eventOrigins are a world's event origins, each made once.
type eventOrigins struct {
	byKey   map[originKey]*eventOrigin
	sources map[string]uint16 // the sources' numbers (eventOrigin.src)
	// recent finds an origin by the address of its reason's bytes without
	// hashing the strings: the recorders' reasons are constants.
	recent [64]*eventOrigin
}

// of returns the origin of source, typ and reason.
func (t *eventOrigins) of(source string, typ EventType, reason string) *eventOrigin {
	h := (uintptr(unsafe.Pointer(unsafe.StringData(reason)))>>3 ^ uintptr(typ)) % uintptr(len(t.recent))
	if o := t.recent[h]; o != nil && same(o.reason, reason) && o.typ == typ && same(o.source, source) {
		return o
	}
	k := originKey{source, reason, typ}
	o := t.byKey[k]
	if o == nil {
		if t.byKey == nil {
			t.byKey, t.sources = map[originKey]*eventOrigin{}, map[string]uint16{}
		}
		src := t.sources[source]
		if src == 0 {
			if len(t.sources) >= 1<<16-1 {
				panic("model: more than 65535 event sources")
			}
			src = uint16(len(t.sources) + 1)
			t.sources[source] = src
		}
		o = &eventOrigin{source, reason, typ, src}
		t.byKey[k] = o
	}
	t.recent[h] = o
	return o
}

// The aggregator keeps a record of each group of similar events (one
// source, type and reason about the object): the group's first event,
// which names it, the set of distinct messages seen, oldest first, and
// when the last of them came. Most groups never have a second message:
// their record is their first event alone (its group is noSet), the set
// {first.Message} and the last time first.LastOccurred, since every
// occurrence of the group so far counted into it. A group's record is
// stored (aggregateSet, by Event.group in its log's sets) once a second
// message comes; every event of the group but the first comes after.

// noSet is Event.group of the first event of a group whose record is
// the event alone.
const noSet = -1

// aggregateSet is the record of a group with more than one message.
type aggregateSet struct {
	first *Event
	last  time.Duration
	msgs  []string
}

// firstOf returns the first event of e's group.
func (l *eventLog) firstOf(e *Event) *Event {
	if e.group == noSet {
		return e
	}
	return l.rare.sets[e.group].first
}

// group returns the first event of the group of source, typ and reason, or
// nil: the events of a group with a set are found by the set, that of a
// group without as the only one of its group in the list.
func (l *eventLog) group(source string, typ EventType, reason string) *Event {
	match := func(e *Event) bool {
		o := e.origin
		return same(o.reason, reason) && o.typ == typ && same(o.source, source)
	}
	if l.rare != nil {
		for i := range l.rare.sets {
			if e := l.rare.sets[i].first; match(e) {
				return e
			}
		}
	}
	for _, e := range l.list {
		if e.group == noSet && match(e) {
			return e
		}
	}
	return nil
}

// aggregate is EventAggregate for an event of first's group: it records
// msg among the group's similar events and reports whether the event goes
// into the combined one. client-go's record drops an arbitrary message (a
// map's PopAny) each time the set reaches 10; podsim drops the oldest, so
// that runs are reproducible. The caller counts an occurrence that is not
// combined and has first's message into first (its LastOccurred is the
// group's last time while it has no set).
func (l *eventLog) aggregate(first *Event, msg string, now time.Duration) bool {
	var r *aggregateSet
	if first.group == noSet {
		if first.textIs(msg) {
			return false // the set is {msg}, whether it starts over or not
		}
		stale := now-first.LastOccurred > aggregateInterval
		rare := l.rareState()
		if len(rare.sets) >= math.MaxInt16 {
			panic("model: more than 32767 groups of similar events about one object")
		}
		first.group = int16(len(rare.sets))
		rare.sets = append(rare.sets, aggregateSet{first: first})
		r = &rare.sets[first.group]
		if !stale {
			r.msgs = append(make([]string, 0, 2), first.text())
		}
	} else {
		r = &l.rare.sets[first.group]
		if now-r.last > aggregateInterval {
			r.msgs = r.msgs[:0]
		}
	}
	r.last = now
	for _, m := range r.msgs {
		if m == msg {
			return false // the set does not grow: still under the threshold
		}
	}
	r.msgs = append(r.msgs, msg)
	combined := len(r.msgs) >= aggregateMaxEvents
	if combined {
		r.msgs = r.msgs[:copy(r.msgs, r.msgs[1:])]
	}
	return combined
}

// spamBucket is the spam filter's token bucket for one source's events
// about the object. Its tokens, banked as refill time (spamRefill per
// token, at most spamBurst tokens), are the time since since: the bucket
// last took a token at some instant last, with b tokens' time banked after
// it, and since is last-b (the time the bucket would have been empty).
type spamBucket struct {
	src   uint16 // its source's number (eventOrigin.src)
	since time.Duration
}

// spamAllows is the spam filter (client-go's EventSourceObjectSpamFilter, a
// golang.org/x/time/rate limiter through flowcontrol's TryAccept): it takes
// a token from the source's bucket if there is one. client-go's rate is the
// float32 1/300, a refill a few microseconds under 5 minutes; podsim's is 5
// minutes exactly.
func (l *eventLog) spamAllows(src uint16, now time.Duration) bool {
	since := l.bucket(src, now)
	banked := min(now-*since, spamBurst*spamRefill)
	if banked < spamRefill {
		return false // the limiter moves nothing when it refuses
	}
	*since = now - (banked - spamRefill)
	return true
}

// bucket returns the since of the spam filter's bucket for the source
// numbered src (never 0), full if it is new.
func (l *eventLog) bucket(src uint16, now time.Duration) *time.Duration {
	for i := range l.src {
		switch l.src[i] {
		case src:
			return &l.since[i]
		case 0:
			l.src[i], l.since[i] = src, now-spamBurst*spamRefill
			return &l.since[i]
		}
	}
	rare := l.rareState()
	for i := range rare.more {
		if rare.more[i].src == src {
			return &rare.more[i].since
		}
	}
	rare.more = append(rare.more, spamBucket{src: src, since: now - spamBurst*spamRefill})
	return &rare.more[len(rare.more)-1].since
}

// eventLog returns the log of events about one object.
func (w *World) eventLog(kind, object string) *eventLog {
	switch kind {
	case "Pod":
		if p := w.Pod(object); p != nil {
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

// CurrentEvent is the API event that the event change being handed to the
// sinks counted into (its count, first and last timestamps as the API holds
// them; unchanged if the change was Dropped). Valid during a sink's call for
// a ChangeEvent.
func (w *World) CurrentEvent() *Event { return w.lastEvent }

// APIEventCount is how many events have reached the API so far: those the
// spam filter let through at least once.
func (w *World) APIEventCount() int { return w.apiEvents }

// EventsFor returns the events about one object, in order of first
// occurrence, those the spam filter never let through (Count 0) included.
func (w *World) EventsFor(kind, object string) []*Event {
	return append([]*Event(nil), w.eventLog(kind, object).list...)
}
