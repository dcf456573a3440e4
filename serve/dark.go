package serve

import (
	"cmp"
	"context"
	"maps"
	"strings"

	"github.com/podsim/podsim/model"
)

// A store that serves a frozen world (Options.At) is read only from the
// frozen instant on (handlers wait for ready), so of the versions the run
// to it makes, only those still in the history then can ever be read. As
// long as they all fit in the history, every change is rendered as usual
// and a watch can replay the whole run. Once they do not, the store goes
// dark: it renders nothing per change and keeps no history; pods and
// workloads that changed are marked (a pod at the version of its last
// change), and an event's one snapshot follows it. At the instant,
// publish renders each marked object once, and the history starts there:
// a watch from an earlier version is told 410 Gone, as from a version
// that has left the history.

// darkPod is a pod marked while the store is dark.
type darkPod struct {
	p       *model.Pod
	ent     *podEntry // its key's
	rv      uint64    // the version of its last change
	deleted bool
}

// holdReads makes handlers wait until the store is published (pause), and
// lets the store go dark when its history overflows. Call it before the
// world is populated.
func (s *Store) holdReads() {
	s.ready = make(chan struct{})
	s.held = true
}

// goDarkIfFull makes a held store dark once the run's versions no longer
// fit in its history.
func (s *Store) goDarkIfFull() {
	if s.held && !s.dark && s.n == len(s.ring) {
		s.dark = true
	}
}

// markPod marks p's key as changed at the current version (deleted: its
// object is gone); ent is p's key's entry, nil to look it up.
func (s *Store) markPod(p *model.Pod, deleted bool, ent *podEntry) {
	if ent == nil {
		ent = s.entryOf(p)
	}
	d := darkPod{p: p, ent: ent, rv: s.rv, deleted: deleted}
	if ent.dark > 0 {
		s.darkList[ent.dark-1] = d
	} else {
		s.darkList = append(s.darkList, d)
		ent.dark = int32(len(s.darkList))
	}
	if src := s.ownerSrc(p, ent); src != nil {
		s.markWorkload(src)
	}
}

// markWorkload marks src (and the CronJob of a CronJob's Job) as changed.
func (s *Store) markWorkload(src *workloadSrc) {
	for src != nil && !src.dirty {
		src.dirty = true
		s.darkWls = append(s.darkWls, src)
		var parent *workloadSrc
		if p := src.wl.Parent(); p != nil {
			parent = s.workloads[p.Key()]
		}
		src = parent
	}
}

// publish opens a held store to handlers, once. What was marked while it
// was dark is rendered at the current version, and its history starts
// here. Called with the lock held, by the run goroutine.
func (s *Store) publish() {
	if !s.held {
		return
	}
	s.held = false
	defer close(s.ready)
	if !s.dark {
		return
	}
	s.publishEvents()
	s.publishPods()
	s.dark = false
	wls := s.darkWls
	s.darkList, s.darkWls = nil, nil
	for _, src := range wls {
		src.dirty = false
		if src.col == colCronJobs {
			s.cronChanged(src)
		} else {
			s.workloadChanged(src)
		}
	}
	clear(s.ring)
	clear(s.ringRV)
	s.head, s.n, s.dropped = 0, 0, s.rv
}

// waitReady waits until handlers may read the store; false if ctx ended
// first.
func (s *Store) waitReady(ctx context.Context) bool {
	select {
	case <-s.ready:
		return true
	case <-ctx.Done():
		return false
	}
}

// darkEvent is an event first seen while the store is dark, as compact as
// its snapshot can be made from at the instant: the model's event, which
// the snapshot follows, and the store's own facts of it.
type darkEvent struct {
	e                *model.Event
	rv               uint64 // the version of its first occurrence
	kind, object, ns string // what it is about (ns "" for a node)
	host             string // the node of a kubelet's event
	// Its message as it reached the API: a combined event's model event
	// takes the message of every occurrence, those the spam filter
	// dropped too.
	message string
}

// darkEventLog is the dark events in the order they came, in chunks of
// darkEventChunk: it grows without copying what it holds.
type darkEventLog struct {
	chunks [][]darkEvent
	n      int
}

var darkEventChunk = 4096 // a variable for the tests

func (l *darkEventLog) add(d darkEvent) {
	if l.n%darkEventChunk == 0 {
		l.chunks = append(l.chunks, make([]darkEvent, 0, darkEventChunk))
	}
	c := &l.chunks[len(l.chunks)-1]
	*c = append(*c, d)
	l.n++
}

func (l *darkEventLog) at(i int) *darkEvent { return &l.chunks[i/darkEventChunk][i%darkEventChunk] }

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
		if n := cmp.Or(ns, model.DefaultNamespace); s.objects[colNamespaces][n] == nil {
			s.put(colNamespaces, &namespaceSnap{meta{name: n, uid: uid("Namespace", n), created: s.now}}, false)
		}
		s.darkEvents.add(darkEvent{e: e, rv: s.rv, kind: kind, object: object, ns: ns,
			host: s.eventHost(e, kind, object, ns), message: e.Message()})
		return
	}
	if old := s.events[e]; old != nil {
		old.follow(e)
		old.rv = s.rv
		return
	}
	s.darkRepeats = append(s.darkRepeats, darkRepeat{e: e, rv: s.rv, message: e.Message()})
}

// publishEvents renders the events first seen while the store was dark,
// in the order they came (which names them), each as its model event is
// now, at the version of its last occurrence: their snapshots in one
// block, their keys and names in one string.
func (s *Store) publishEvents() {
	ds := s.darkEvents
	s.darkEvents = darkEventLog{}
	if ds.n == 0 {
		return
	}
	var last map[*model.Event]darkRepeat
	if len(s.darkRepeats) > 0 {
		last = make(map[*model.Event]darkRepeat, len(s.darkRepeats))
		for _, r := range s.darkRepeats {
			last[r.e] = r
		}
		s.darkRepeats = nil
	}
	// The keys, model.Key(namespace, name), and the names at their ends.
	var b strings.Builder
	size := 0
	for i := range ds.n {
		d := ds.at(i)
		size += len(d.ns) + 1 + len(d.object) + 17
	}
	b.Grow(size)
	for i := range ds.n {
		d := ds.at(i)
		if ns := cmp.Or(d.ns, model.DefaultNamespace); ns != model.DefaultNamespace {
			b.WriteString(ns)
			b.WriteByte('/')
		}
		b.WriteString(d.object)
		b.WriteByte('.')
		b.WriteString(hex16(uint64(s.eventNames + i + 1)))
	}
	keys := b.String()
	events := s.objects[colEvents]
	if len(events) < ds.n {
		// Made to size at once: the map does not grow through every power of two.
		events = make(map[string]snapshot, len(events)+ds.n)
		maps.Copy(events, s.objects[colEvents])
		s.objects[colEvents] = events
	}
	block := make([]eventSnap, ds.n)
	s.published = make([]*model.Event, ds.n)
	at := 0
	for i := range ds.n {
		d, snap := ds.at(i), &block[i]
		n := len(d.object) + 17
		if ns := cmp.Or(d.ns, model.DefaultNamespace); ns != model.DefaultNamespace {
			n += len(ns) + 1
		}
		key := keys[at : at+n]
		at += n
		s.newEvent(snap, d.kind, d.object, d.ns, d.host, key)
		snap.created = d.e.FirstSeen
		snap.follow(d.e)
		snap.rv, snap.message = d.rv, d.message
		if r, ok := last[d.e]; ok {
			snap.rv, snap.message = r.rv, r.message
		}
		events[key] = snap
		s.published[i] = d.e
	}
	s.publishedSnaps = block
}

// publishedEvent is the snapshot of an event first seen while the store
// was dark (nil if none), found by an index made at the first look.
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
