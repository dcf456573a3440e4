package serve

import (
	"cmp"
	"encoding/hex"
	"maps"
	"strings"
	"unsafe"

	"github.com/podsim/podsim/model"
)

// Events first seen while the store is dark (dark.go) stay dark once
// published: the store keeps a compact record of each (darkEvent) and
// renders its snapshot from the model's event, which the snapshot
// follows, when it is read, as a frozen store's lazy pods (lazy.go). A
// list names them once, at its first read (lazyEvent); a page, a watch's
// replay or a get renders only the events it shows. The first write
// renders them all (thawEvents) before it moves the world: from then on
// they are snapshots as any.

// darkEvent is an event first seen while the store is dark: the model's
// event and the store's own facts of it.
type darkEvent struct {
	e      *model.Event
	rv     uint64 // the version of its last occurrence that reached the API
	object string // the name of what it is about
	class  *eventClass
}

// eventClass is what the events of one object from one host share: the
// object's kind and namespace ("" for a node) and the node of a kubelet's
// event ("" if none). A store holds one of each.
type eventClass struct{ kind, ns, host string }

// classOf is the store's one eventClass of kind, ns and host: found
// first by the address of its host's bytes (a node's name), or its kind's
// if it has no host, without hashing the strings.
func (s *Store) classOf(kind, ns, host string) *eventClass {
	by := host
	if by == "" {
		by = kind
	}
	slot := &s.recentClasses[uintptr(unsafe.Pointer(unsafe.StringData(by)))>>4%uintptr(len(s.recentClasses))]
	if c := *slot; c != nil && c.kind == kind && c.ns == ns && c.host == host {
		return c
	}
	k := eventClass{kind, ns, host}
	c := s.eventClasses[k]
	if c == nil {
		if s.eventClasses == nil {
			s.eventClasses = map[eventClass]*eventClass{}
		}
		c = new(eventClass)
		*c = k
		s.eventClasses[k] = c
	}
	*slot = c
	return c
}

// darkClass is the class of event e, about the object of kind and name
// object in namespace ns. That of a kubelet's event about a pod is found
// first by the pod's node's ID (nodeClasses: the class that node's pods'
// events last had), as the events of one node's pods come between those
// of thousands of others.
func (s *Store) darkClass(e *model.Event, kind, object, ns string) *eventClass {
	if kind == "Pod" && e.Source() == "kubelet" {
		if n := s.podNode(ns, object); n != nil {
			id := n.ID()
			if id < len(s.nodeClasses) {
				if nc := &s.nodeClasses[id]; nc.c != nil && nc.ns == ns {
					return nc.c
				}
			}
			c := s.classOf(kind, ns, n.Name)
			for len(s.nodeClasses) <= id {
				s.nodeClasses = append(s.nodeClasses, nodeClass{})
			}
			s.nodeClasses[id] = nodeClass{ns: c.ns, c: c}
			return c
		}
	}
	return s.classOf(kind, ns, s.eventHost(e, kind, object, ns))
}

// nodeClass is the class of a node's pods' kubelet events, with its
// namespace beside it: matched without reading the class, which at
// thousands of nodes is seldom in the cache.
type nodeClass struct {
	ns string
	c  *eventClass
}

// darkEventLog is the dark events in the order they came. Once
// published, base is the store's count of events before its first, which
// names them (newEvent), and messages holds the message of a combined
// event as it last reached the API (its model event takes the message of
// every occurrence, those the spam filter dropped too), by its index.
type darkEventLog struct {
	chunked[darkEvent]
	base     int
	messages map[int32]string
}

// darkRepeat is a later occurrence of a dark event, at version rv, with
// its message.
type darkRepeat struct {
	e       *model.Event
	rv      uint64
	message string
}

// noteDarkEvent notes an event's occurrence while the store is dark: a new
// one as a compact record, a repeat as its version, an event seen before
// the store went dark in its snapshot, which nobody has seen yet.
func (s *Store) noteDarkEvent(e *model.Event, fresh bool, kind, object, ns string) {
	if fresh {
		// A namespace is served from its first object on: put here, as
		// the event's snapshot would have put it.
		s.serveNamespace(cmp.Or(ns, model.DefaultNamespace), s.now)
		if e.Combined {
			s.noteMessage(s.darkEvents.n, e.Message())
		}
		s.darkEvents.add(darkEvent{e: e, rv: s.rv, object: object, class: s.darkClass(e, kind, object, ns)})
		return
	}
	if old := s.events[e]; old != nil {
		old.follow(e)
		old.rv = s.rv
		return
	}
	s.darkRepeats = append(s.darkRepeats, darkRepeat{e: e, rv: s.rv, message: e.Message()})
}

// noteMessage records the message of dark event i (a combined one) as it
// reached the API.
func (s *Store) noteMessage(i int, msg string) {
	if s.darkEvents.messages == nil {
		s.darkEvents.messages = map[int32]string{}
	}
	s.darkEvents.messages[int32(i)] = msg
}

// publishEvents publishes the events first seen while the store was dark,
// dark (lazyEvents): each at the version of its last occurrence, named in
// the order they came.
func (s *Store) publishEvents() {
	if len(s.darkRepeats) > 0 {
		last := make(map[*model.Event]darkRepeat, len(s.darkRepeats))
		for _, r := range s.darkRepeats {
			last[r.e] = r
		}
		s.darkRepeats = nil
		for i := range s.darkEvents.n {
			d := s.darkEvents.at(i)
			if d.e.Count < 2 {
				continue // a repeat that reached the API counted it again: none
			}
			if r, ok := last[d.e]; ok {
				d.rv = r.rv
				if d.e.Combined {
					s.noteMessage(i, r.message)
				}
			}
		}
	}
	if s.darkEvents.n == 0 {
		return
	}
	s.lazyEvents, s.darkEvents = s.darkEvents, darkEventLog{}
	s.lazyEvents.base = s.eventNames
	s.eventNames += s.lazyEvents.n
}

// lazyEvent is a published dark event as a list holds it: its name, its
// namespace and its version, which sort, select and page it, and its
// record (i in the log), from which it is rendered when shown.
type lazyEvent struct {
	meta
	d *darkEvent
	i int32
}

// render is dark event i's snapshot, named name, as its model event is
// now. Call it with the lock held while the events are dark.
func (s *Store) renderEvent(i int, name string) *eventSnap {
	snap := &eventSnap{}
	s.fillEvent(snap, i, name)
	return snap
}

// fillEvent sets snap to dark event i's snapshot, named name.
func (s *Store) fillEvent(snap *eventSnap, i int, name string) {
	l := &s.lazyEvents
	d := l.at(i)
	eventIdentity(snap, d, name)
	snap.created, snap.rv = d.e.FirstSeen, d.rv
	snap.follow(d.e)
	if msg, ok := l.messages[int32(i)]; ok {
		snap.message = msg
	}
}

// eventIdentity sets what never changes of a dark event's snapshot: its
// name and namespace, its object, its host, its source, type and reason.
func eventIdentity(snap *eventSnap, d *darkEvent, name string) {
	c := d.class
	snap.meta = meta{name: name, namespace: cmp.Or(c.ns, model.DefaultNamespace)}
	snap.involved, snap.involvedNS, snap.host = eventRef{kind: c.kind, name: d.object}, c.ns, c.host
	snap.typ, snap.reason, snap.source = d.e.Type(), d.e.Reason(), d.e.Source()
}

// eventOf is the event snap shows: itself, or a lazy event's identity
// (eventIdentity), which is all that selects it.
func eventOf(snap snapshot) *eventSnap {
	if l, ok := snap.(*lazyEvent); ok {
		e := &eventSnap{}
		eventIdentity(e, l.d, l.name)
		return e
	}
	return snap.(*eventSnap)
}

// eventName is dark event i's name.
func (l *darkEventLog) name(i int) string {
	return l.at(i).object + "." + hex16(uint64(l.base+i+1))
}

// lazyList is the dark events as a list holds them, named in one string.
// Call it with the lock held.
func (s *Store) lazyList() []lazyEvent {
	l := &s.lazyEvents
	size := 0
	for i := range l.n {
		size += len(l.at(i).object) + 17
	}
	var b strings.Builder
	b.Grow(size)
	for i := range l.n {
		b.WriteString(l.at(i).object)
		b.WriteByte('.')
		b.WriteString(hex16(uint64(l.base + i + 1)))
	}
	names := b.String()
	out := make([]lazyEvent, l.n)
	at := 0
	for i := range out {
		d := l.at(i)
		n := len(d.object) + 17
		out[i] = lazyEvent{meta: meta{name: names[at : at+n], namespace: cmp.Or(d.class.ns, model.DefaultNamespace), rv: d.rv}, d: d, i: int32(i)}
		at += n
	}
	return out
}

// lazyEventByKey is the dark event of key rendered, if there is one. Call
// it with the lock held.
func (s *Store) lazyEventByKey(key string) (snapshot, bool) {
	l := &s.lazyEvents
	if l.n == 0 || len(key) < 17 || key[len(key)-17] != '.' {
		return nil, false
	}
	var seq [8]byte
	if _, err := hex.Decode(seq[:], []byte(key[len(key)-16:])); err != nil {
		return nil, false
	}
	i := int(uint64(seq[0])<<56|uint64(seq[1])<<48|uint64(seq[2])<<40|uint64(seq[3])<<32|
		uint64(seq[4])<<24|uint64(seq[5])<<16|uint64(seq[6])<<8|uint64(seq[7])) - l.base - 1
	if i < 0 || i >= l.n {
		return nil, false
	}
	d := l.at(i)
	name := l.name(i)
	if model.Key(cmp.Or(d.class.ns, model.DefaultNamespace), name) != key {
		return nil, false
	}
	return s.renderEvent(i, name), true
}

// thawEvents renders every dark event as the world is now, in one block,
// their keys and names in one string, before the run goroutine moves the
// world (a write to a frozen server). Call it with the write lock held.
func (s *Store) thawEvents() {
	l := &s.lazyEvents
	if l.n == 0 {
		return
	}
	// The keys, model.Key(namespace, name), and the names at their ends.
	var b strings.Builder
	size := 0
	for i := range l.n {
		d := l.at(i)
		size += len(d.class.ns) + 1 + len(d.object) + 17
	}
	b.Grow(size)
	for i := range l.n {
		d := l.at(i)
		if ns := cmp.Or(d.class.ns, model.DefaultNamespace); ns != model.DefaultNamespace {
			b.WriteString(ns)
			b.WriteByte('/')
		}
		b.WriteString(d.object)
		b.WriteByte('.')
		b.WriteString(hex16(uint64(l.base + i + 1)))
	}
	keys := b.String()
	events := s.objects[colEvents]
	// Made to size at once: the map does not grow through every power of two.
	events = make(map[string]snapshot, len(events)+l.n)
	maps.Copy(events, s.objects[colEvents])
	s.objects[colEvents] = events
	block := make([]eventSnap, l.n)
	s.published = make([]*model.Event, l.n)
	at := 0
	for i := range l.n {
		d, snap := l.at(i), &block[i]
		n := len(d.object) + 17
		if ns := cmp.Or(d.class.ns, model.DefaultNamespace); ns != model.DefaultNamespace {
			n += len(ns) + 1
		}
		key := keys[at : at+n]
		at += n
		s.fillEvent(snap, i, key[len(key)-len(d.object)-17:])
		events[key] = snap
		s.published[i] = d.e
	}
	s.publishedSnaps = block
	s.lazyEvents = darkEventLog{}
}

// publishedEvent is the snapshot of an event first seen while the store
// was dark (nil if none), found by an index made at the first look, once
// a write rendered them (thawEvents).
func (s *Store) publishedEvent(e *model.Event) *eventSnap {
	if s.publishedIdx == nil && len(s.published) > 0 {
		s.publishedIdx = make(map[*model.Event]int32, len(s.published))
		for i, pe := range s.published {
			s.publishedIdx[pe] = int32(i)
		}
	}
	if i, ok := s.publishedIdx[e]; ok {
		return &s.publishedSnaps[i]
	}
	return nil
}
