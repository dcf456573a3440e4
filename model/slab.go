package model

// slab hands out zeroed values of T carved from arrays allocated a few at a
// time: one allocation for many objects that live as long as their world
// (pods, their statuses, events), so a fleet's setup mallocs and
// the collector tracks far fewer objects. An array stays live while any of
// its values does. Its first arrays are small, so a small world pays little.
type slab[T any] struct {
	free []T
	next int // the size of the next array
}

// slabMax bounds a slab's arrays.
const slabMax = 256

// new returns a zeroed *T of the slab's.
func (s *slab[T]) new() *T {
	if len(s.free) == 0 {
		s.next = min(max(2*s.next, 8), slabMax)
		s.free = make([]T, s.next)
	}
	v := &s.free[0]
	s.free = s.free[1:]
	return v
}

// reserve has the slab's next n values come from one array, allocated
// now: for that many objects about to be made at once.
func (s *slab[T]) reserve(n int) {
	if len(s.free) < n {
		s.next = min(max(s.next, n), slabMax)
		s.free = make([]T, n)
	}
}

// take returns an empty slice of capacity n carved from the slab: appending
// past n moves it to an array of its own, as for make([]T, 0, n).
func (s *slab[T]) take(n int) []T {
	if len(s.free) < n {
		s.next = min(max(2*s.next, 8*n), slabMax*n)
		s.free = make([]T, s.next)
	}
	v := s.free[:0:n]
	s.free = s.free[n:]
	return v
}

// Slab is a slab for the world's parts: its New returns a zeroed *T
// carved, as the core's own objects are, from arrays allocated a few at a
// time, for values that live as long as their world (the kubelet's pods,
// containers and probe workers).
type Slab[T any] struct{ s slab[T] }

// New returns a zeroed *T of the slab's.
func (s *Slab[T]) New() *T { return s.s.new() }

// Reserve has the slab's next n values come from one array, allocated now.
func (s *Slab[T]) Reserve(n int) { s.s.reserve(n) }

// worldSlabs are a world's slabs.
type worldSlabs struct {
	pods              slab[Pod]
	events            slab[Event]
	statuses          slab[statusBlock]     // each pod's conditions and its one container's status
	containerStatuses slab[ContainerStatus] // the statuses of pods of more than one container
	eventLists        slab[*Event]          // the first of each log's list
	condTexts         condTexts             // the texts of the pods' conditions (podconds.go)
	ips               podIPs                // the pods' addresses (podstatus.go)
}
