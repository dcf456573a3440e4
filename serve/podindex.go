package serve

import (
	"maps"

	"github.com/podsim/podsim/model"
)

// The store finds a pod's entry by Pod.ID (entries): by the pod when it
// has it (the object stream, a change of the pod's own), and when only a
// change names it (an event) by the world's pod of that key (model.World.Pod):
// through the entry of the last pod named, as one pod's changes come in
// runs. A key's later pod (model.Pod.Supersedes) shares its entry. The
// entries lie in the order of the pods' IDs, each a slot of its own, so a
// change of a pod's own costs one cache miss on the store's side, not one
// for a pointer and one for what it points to; and the store keeps no map
// of its own by key: the world's index is compact, and a map of 150,000
// keys costs a cache miss or two a look-up.

// podEntry is the pod of a key, and its mark while the store is dark: in
// the slot of the key's first pod (the store's); a later pod's slot only
// points to it (key).
type podEntry struct {
	p   *model.Pod
	key *podEntry // a later pod's slot: its key's entry
	// The source of the controller of p (wl), as markPod last found it.
	wl  *model.Workload
	src *workloadSrc
	// The mark while dark: the pod marked, the version of its last change.
	marked   *model.Pod
	markedRV uint64
	dark     int32 // 1 + the key's index in Store.darkList once marked
	lazy     int32 // 1 + the index of its lazy pod in Store.lazyPods, while there are any (publishPods)
	deleted  bool  // the pod marked is deleted
	lit      bool  // a snapshot of the key's was stored while not dark
}

// lastNamed is the entry of the pod a change last named.
type lastNamed struct {
	namespace, name string
	ent             *podEntry
}

// maxReserve bounds the pods reservePods makes room for.
const maxReserve = 1 << 20

// reservePods makes room in the store's pods (their index, and the
// collection) for those of w, populated, and those its ReplicaSets,
// Deployments and StatefulSets will make, as the world makes room for
// them (model.World.ReservePods): the maps are not grown through every
// power of two. A dark store's collection gets none: it holds none of the
// pods made while dark (publishPods). Call it once w is populated, before
// it runs, after goDarkEarly.
func (s *Store) reservePods() {
	n := min(s.expectedPods(), maxReserve)
	if n <= s.entries.n+s.entries.n/4 {
		return // few to come: growing costs little
	}
	s.entries.grow(n)
	if s.dark {
		return
	}
	objects := make(map[string]snapshot, n)
	maps.Copy(objects, s.objects[colPods])
	s.objects[colPods] = objects
	s.podRoom = n
}

// expectedPods is how many pods the world has and its ReplicaSets,
// Deployments and StatefulSets will make.
func (s *Store) expectedPods() int {
	n := len(s.w.Pods())
	for _, wl := range s.w.Workloads() {
		switch wl.Spec.Kind {
		case model.KindReplicaSet, model.KindDeployment, model.KindStatefulSet:
			n += max(wl.Spec.Replicas, 0)
		}
	}
	return n
}

// addPod records p, added to the world, as its key's pod.
func (s *Store) addPod(p *model.Pod) {
	slot := s.slot(p)
	if ent := s.keyEntry(p); ent != nil {
		ent.p = p // a later pod of the key: it keeps the key's mark
		slot.key = ent
		return
	}
	slot.p = p
}

// slot is the slot of p's ID, made if need be.
func (s *Store) slot(p *model.Pod) *podEntry {
	id := p.ID()
	for s.entries.n <= id {
		s.entries.add(podEntry{})
	}
	return s.entries.at(id)
}

// byID is p's entry, found by its ID (nil if none).
func (s *Store) byID(p *model.Pod) *podEntry {
	id := p.ID()
	if id >= s.entries.n {
		return nil
	}
	switch e := s.entries.at(id); {
	case e.key != nil:
		return e.key
	case e.p != nil:
		return e
	}
	return nil
}

// keyEntry is the entry of p's key through the pods it took the key from
// (nil if none has one).
func (s *Store) keyEntry(p *model.Pod) *podEntry {
	for old := p.Supersedes(); old != nil; old = old.Supersedes() {
		if ent := s.byID(old); ent != nil {
			return ent
		}
	}
	return nil
}

// entryOf is p's key's entry, made (with p its pod) if the key has none.
func (s *Store) entryOf(p *model.Pod) *podEntry {
	if ent := s.byID(p); ent != nil {
		return ent
	}
	slot := s.slot(p)
	if ent := s.keyEntry(p); ent != nil {
		slot.key = ent
		return ent
	}
	slot.p = p
	return slot
}

// changedPod is the entry of the pod of c, a change of a pod's own (nil if
// none): found by the pod the world says it is (model.World.ChangePod),
// else by its names.
func (s *Store) changedPod(c *model.Change) *podEntry {
	if p := s.w.ChangePod(); p != nil {
		if ent := s.byID(p); ent != nil {
			s.lastNamed = lastNamed{namespace: c.Namespace, name: c.Pod, ent: ent}
			return ent
		}
	}
	return s.named(c.Namespace, c.Pod)
}

// named is the entry of the pod a change names (nil if none): namespace as
// the change has it.
func (s *Store) named(namespace, name string) *podEntry {
	if l := &s.lastNamed; l.ent != nil && l.name == name && l.namespace == namespace {
		return l.ent
	}
	p := s.w.Pod(model.Key(namespace, name))
	if p == nil {
		return nil
	}
	ent := s.byID(p)
	if ent != nil {
		s.lastNamed = lastNamed{namespace: namespace, name: name, ent: ent}
	}
	return ent
}

// ownerSrc is the source of p's controller (nil if none or unknown),
// remembered in its entry.
func (s *Store) ownerSrc(p *model.Pod, ent *podEntry) *workloadSrc {
	wl := p.Owner()
	if wl == nil {
		return nil
	}
	if ent.wl != wl || ent.src == nil {
		ent.wl, ent.src = wl, s.workloads[wl.Key()]
	}
	return ent.src
}
