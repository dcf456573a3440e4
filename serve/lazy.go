package serve

import (
	"maps"

	"github.com/podsim/podsim/model"
)

// A frozen store that went dark publishes its marked pods unrendered: a
// lazyPod holds a pod's identity as its snapshot shows it and the model's
// pod, whose state is read each time the pod is read. That is sound while
// the world is still: from the frozen instant until the first write, which
// renders every lazy pod (thaw) before it moves the world. So a frozen
// cluster holds one copy of its pods' status, the model's, however often
// it is read: a read renders what it shows and keeps none of it.
//
// Handlers render lazy pods under the store's read lock, one goroutine at
// a time (renderMu), as the run goroutine, which holds the write lock to
// thaw, is the only one that moves the world. The lazy pods lie in one
// block beside the map of pods (Store.lazyPods), each found by key through
// the world's index and its key's entry (podEntry.lazy), which the world
// being still keeps still too.

// lazyPod is a pod published unrendered: its snapshot is podIdentity's
// with its state filled from p when read.
type lazyPod struct {
	meta
	p      *model.Pod
	owner  *owner
	index  string
	thawed *podSnap // as thaw rendered it; nil before
}

// render is the pod's snapshot as p is now.
func (l *lazyPod) render() *podSnap {
	snap := &podSnap{meta: l.meta, owner: l.owner, index: l.index}
	snap.fill(l.p)
	return snap
}

// resolve is o itself, or if o is a lazy pod its snapshot as rendered now.
// Call it with the lock held (read or write).
func (s *Store) resolve(o snapshot) snapshot {
	l, ok := o.(*lazyPod)
	if !ok {
		return o
	}
	s.renderMu.Lock()
	defer s.renderMu.Unlock()
	return l.render()
}

// resolveItem is o, an item of a list (Store.list), itself; or if o is a
// lazy pod or event its snapshot as of the list: rendered now, or as the
// first write rendered it since (thaw), which is the same, as the world
// had not moved. A list's items are resolved one at a time as they are
// written: a list of every pod holds none of their snapshots. Call it
// without the lock.
func (s *Store) resolveItem(o snapshot) snapshot {
	switch l := o.(type) {
	case *lazyPod:
		s.mu.RLock()
		defer s.mu.RUnlock()
		if l.thawed != nil {
			return l.thawed
		}
		s.renderMu.Lock()
		defer s.renderMu.Unlock()
		return l.render()
	case *lazyEvent:
		s.mu.RLock()
		defer s.mu.RUnlock()
		if s.lazyEvents.n > 0 {
			return s.renderEvent(int(l.i), l.name)
		}
		return &s.publishedSnaps[l.i]
	}
	return o
}

// storedPod is the pod snapshot the store holds under key, a lazy one
// rendered. For the run goroutine.
func (s *Store) storedPod(key string) (*podSnap, bool) {
	o, ok := s.objects[colPods][key]
	if !ok {
		if l := s.lazyPodOf(key); l != nil {
			o = l
		}
	}
	snap, ok := s.resolve(o).(*podSnap)
	return snap, ok
}

// lazyPodOf is the lazy pod of key, nil if it has none: through the
// world's pod of the key and its entry. Call it with the lock held (read
// or write).
func (s *Store) lazyPodOf(key string) *lazyPod {
	if len(s.lazyPods) == 0 {
		return nil
	}
	p := s.w.Pod(key)
	if p == nil {
		return nil
	}
	ent := s.byID(p)
	if ent == nil || ent.lazy == 0 || int(ent.lazy) > len(s.lazyPods) {
		return nil
	}
	if l := &s.lazyPods[ent.lazy-1]; l.key() == key {
		return l
	}
	return nil
}

// publishPods publishes the pods marked while the store was dark, each at
// the version of its last change, unrendered (lazyPod), in one block
// beside objects: a frozen envelope's 150,000 pods cost no map insert (50
// ms) and no map. A key's snapshot stored while lit gives way to its lazy
// pod. Called by publish.
func (s *Store) publishPods() {
	block := make([]lazyPod, 0, s.darkList.n)
	pods := s.objects[colPods]
	for i := range s.darkList.n {
		ent := *s.darkList.at(i)
		ent.dark = 0
		p := ent.marked
		k := p.Key()
		if ent.deleted {
			delete(pods, k)
			continue
		}
		var old *podSnap
		if ent.lit {
			old, _ = s.storedPod(k)
			delete(pods, k)
		}
		var skel podSnap
		s.podIdentity(&skel, p, old)
		block = append(block, lazyPod{meta: skel.meta, p: p, owner: skel.owner, index: skel.index})
		l := &block[len(block)-1]
		l.rv = min(ent.markedRV, s.rv)
		ent.lazy = int32(len(block))
		s.serveNamespace(l.namespace, l.created)
	}
	s.lazyPods = block
}

// thaw renders every lazy pod and dark event as the world is now, before
// the run goroutine moves the world (a write to a frozen server), into
// objects.
func (s *Store) thaw() {
	if len(s.lazyPods) == 0 && s.lazyEvents.n == 0 { // written only by the run goroutine, the caller
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lazyEvents.n > 0 {
		s.thawEvents()
		s.sortedMu.Lock()
		s.sorted[colEvents] = sortedList{}
		s.sortedMu.Unlock()
	}
	if len(s.lazyPods) == 0 {
		return
	}
	pods := s.objects[colPods]
	if len(pods) < len(s.lazyPods) && s.podRoom < len(pods)+len(s.lazyPods) {
		// Made to size at once: the map does not grow through every power
		// of two.
		pods = make(map[string]snapshot, len(pods)+len(s.lazyPods))
		maps.Copy(pods, s.objects[colPods])
		s.objects[colPods] = pods
	}
	for i := range s.lazyPods {
		l := &s.lazyPods[i]
		l.thawed = l.render() // for lists taken before, still being written
		pods[l.key()] = l.thawed
	}
	s.lazyPods = nil // the entries' lazy is read only while there are lazy pods
	s.sortedMu.Lock()
	s.sorted[colPods] = sortedList{}
	s.sortedMu.Unlock()
}
