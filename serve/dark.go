package serve

import (
	"context"

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
	rv      uint64 // the version of its last change
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
		s.darkPods = map[string]int{}
	}
}

// markPod marks p as changed at the current version (deleted: its object
// is gone).
func (s *Store) markPod(p *model.Pod, deleted bool) {
	k := p.Key()
	rv := s.rv
	if i, ok := s.darkPods[k]; ok {
		s.darkList[i] = darkPod{p: p, rv: rv, deleted: deleted}
	} else {
		s.darkPods[k] = len(s.darkList)
		s.darkList = append(s.darkList, darkPod{p: p, rv: rv, deleted: deleted})
	}
	if wl := p.Owner(); wl != nil {
		if src := s.workloads[wl.Key()]; src != nil {
			s.markWorkload(src)
		}
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
	for _, d := range s.darkList {
		k := d.p.Key()
		if d.deleted {
			delete(s.objects[colPods], k)
			continue
		}
		old, _ := s.objects[colPods][k].(*podSnap)
		snap, _ := s.renderPod(d.p, old)
		snap.rv = min(d.rv, s.rv)
		s.objects[colPods][k] = snap
		if s.objects[colNamespaces][snap.namespace] == nil {
			s.put(colNamespaces, &namespaceSnap{meta{name: snap.namespace, uid: uid("Namespace", snap.namespace), created: snap.created}}, false)
		}
	}
	s.dark = false
	wls := s.darkWls
	s.darkPods, s.darkList, s.darkWls = nil, nil, nil
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
