package sim

import "math"

// Tickets tell a live item from a stale one (item.live). They are 32 bits
// to keep a Timer small, and are given anew when they run out.

// take gives t, which is not pending, the next ticket, and returns it as
// its item's tag.
func (q *queue) take(t *Timer) uint64 {
	if q.ticket == math.MaxUint32 {
		q.retick()
	}
	q.ticket++
	t.ticket = q.ticket
	return uint64(q.ticket)
}

// retick gives the live items new tickets from 1, once the tickets ran out
// (2^32 - 1 pushes): it first drops the stale items, whose tickets a new
// ticket could repeat, then numbers the rest, leaving q.ticket at the
// last given.
func (q *queue) retick() {
	q.compact()
	q.ticket = 0
	give := func(it *item) {
		if it.shot() == 0 {
			q.ticket++
			it.tag, it.t.ticket = uint64(q.ticket), q.ticket
		}
	}
	for _, x := range q.heap[root:] {
		if x.r < 0 {
			give(&q.one[^x.r])
			continue
		}
		r := &q.runs[x.r]
		for i := r.head; i < len(r.items); i++ {
			give(&r.items[i])
		}
	}
}
