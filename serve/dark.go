package serve

import "github.com/podsim/podsim/model"

// A store that serves a frozen world (Options.At) is read only from the
// frozen instant on (the server's handlers wait for it), so of the
// versions the run to it makes, only those still in the history then can
// ever be read. As long as they all fit in the history, every change is
// rendered as usual and a watch can replay the whole run. Once they do
// not (or from the start, for a scenario that makes many pods:
// goDarkEarly), the store goes dark: it renders nothing per change and
// keeps no history; pods and workloads that changed are marked (a pod at
// the version of its last change), and events are noted (darkevents.go).
// At the instant, publish renders each marked workload once, and
// publishes the pods and events unrendered, rendered when read (lazy.go,
// darkevents.go); the history starts there: a watch from an earlier
// version is told 410 Gone, as from a version that has left the history.

// holdReads says that nobody reads the store until it is published
// (pause; the server holds its handlers until then), and lets the store go
// dark when its history overflows. Until then the run goroutine alone
// touches the store: it takes no lock. Call it before the world is
// populated.
func (s *Store) holdReads() { s.held = true }

// goDarkEarly makes a held store dark before its history overflows, on
// the chance that it will: a run-up that makes many pods keeps none of its
// versions, and the versions it would render and drop cost it a tenth of
// its time. keptEveryVersion says, at the instant, whether the chance was
// lost.
func (s *Store) goDarkEarly() {
	if s.held && !s.dark {
		s.dark, s.early, s.keptEarly = true, true, s.n
	}
}

// keptEveryVersion reports whether a store that went dark early
// (goDarkEarly) would, lit, have kept every version of its run: then the
// run must be made again with a store that stays lit, for a watch from
// version 1 to replay it. It counts, of the versions made while dark, only
// those that wrote a pod or an event (darkPut): each is at least one more
// version in a lit store's history, which would have gone dark at the
// first change after it was full.
func (s *Store) keptEveryVersion() bool {
	return s.early && s.keptEarly+s.darkPuts <= len(s.ring)
}

// darkPut counts a version that writes a pod or an event while the store
// is dark early.
func (s *Store) darkPut() {
	if s.early && s.lastPutRV != s.rv {
		s.lastPutRV = s.rv
		s.darkPuts++
	}
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
	if ent.dark == 0 {
		s.darkList.add(ent)
		ent.dark = int32(s.darkList.n)
	}
	ent.marked, ent.markedRV, ent.deleted = p, s.rv, deleted
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
	if !s.dark {
		return
	}
	s.publishEvents()
	s.publishPods()
	s.dark = false
	wls := s.darkWls
	s.darkList, s.darkWls = chunked[*podEntry]{}, nil
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
