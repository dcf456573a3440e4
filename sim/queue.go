package sim

import (
	"math"
	"math/bits"
)

// The queue of pending events is a merge of sorted runs.
//
// A run holds items at one instant in increasing order of their tie-break
// (priority, then Key). A new item is appended to a recent run of its
// instant whose last item orders before it; else, if a recent item of its
// instant is alone and orders before it, it starts a run; else it stays
// alone, in the heap by itself (events at scattered times cost no run). In a fleet whose pods run in step (a thousand pods crash, restart and
// probe at the same instants) nearly every item is appended: the events of
// an instant come out of a run in order, one after the other, and the heap
// orders only the few runs, not every event.
//
// A 4-ary heap orders the runs by their first item. An item whose Timer was
// stopped or moved stays in its run (its ticket is no longer its Timer's)
// and is skipped when it comes first; compact drops such items when they
// outnumber the pending ones. An item keeps no tie-break: a live item's is
// its Timer's, and only live items' are read. Nothing in the queue points back into a run's
// or a Timer's memory, so neither is written when the heap moves a run.

// item is one scheduled event: its Timer and its tag: the ticket the Timer
// took when it was scheduled; or, for an event of Engine.At, 1 + the index
// of its one-shot Timer among the engine's shots, in the upper half, and
// ticket 0. The event's tie-break is its Timer's tie while it is live
// (only then is it read), which keeps an item in 16 bytes.
type item struct {
	t   *Timer
	tag uint64
}

// live reports whether the item is still its Timer's pending event. A
// one-shot Timer's ticket stays 0, as its item's does: it is always live.
func (it *item) live() bool { return it.t.ticket == uint32(it.tag) }

// shot is 1 + the index of the one-shot Timer of an event of Engine.At,
// or 0.
func (it item) shot() int32 { return int32(it.tag >> 32) }

// run is a sequence of items at one instant, in increasing tie order, of
// which items[head:] are still queued.
type run struct {
	at    int64
	head  int
	open  int // its slot in queue.openID plus one; 0 if not open
	items []item
	tail  tie // the tie of its last item, live or not
}

// entry is one heap slot: a run's instant and its first item's tie, and
// the run's index in queue.runs; or, for an item alone, its time and tie
// and ^i for its index i in queue.one.
//
// The heap is 4-ary and 32-byte entries put the four children of a node in
// two 64-byte cache lines. The root is at index root=3 (slots 0-2 are unused)
// so that every group of siblings starts at an index that is a multiple of
// four: the children of the node at index i are at 4i-8 .. 4i-5, and its
// parent is at i/4+2. With the slice's backing array 64-byte aligned (as the
// Go allocator makes large arrays) each group is exactly two cache lines.
type entry struct {
	at  int64
	tie tie
	r   int32
}

func (a *entry) less(b *entry) bool {
	return a.at < b.at || (a.at == b.at && a.tie.less(b.tie))
}

const (
	// root is the heap index of the minimum; see entry.
	root = 3
	// prefetchMin is the heap length from which down loads the next
	// level ahead of time; below it the heap is mostly in cache.
	prefetchMin = 1 << 15
	// openRuns is how many recently started runs a new item may be
	// appended to.
	openRuns = 8
	// compactMin is the number of skipped items below which compact does
	// not run.
	compactMin = 1024
	// smallRun is the capacity of a new run's item array.
	smallRun = 8
	// maxRun is the most items a run's array grows to: a new run continues
	// a full one (push), so an instant's 100,000 events copy no array.
	maxRun = 4096
	// none marks an empty slot of queue.openID.
	none = math.MaxInt32
)

// push reads exactly openRuns slots, and nextOpen wraps with a mask.
var _ = [1]int{}[openRuns-8]

// queue is the set of pending events; see the comment at the top.
type queue struct {
	heap     []entry // heap[root:] orders the runs and the items alone
	runs     []run
	freeRuns []int32 // indices of runs without items, for reuse
	one      []item  // the items alone
	onePos   []int32 // the heap index of each item alone
	oneOpen  []uint8 // the open slot each item alone was put in, plus one (see unopen)
	freeOnes []int32 // indices of free slots in one
	// Item arrays of freed runs, for reuse: those of at most smallRun
	// items, which new runs take, and larger ones, which runs take as
	// they grow. A long-lived run of a few items thus never keeps an
	// array that a large run left.
	small, big [][]item
	// The runs a new item may join, or items alone it may start a run
	// after (see openAt), in slots: a slot's instant, -1 if it is empty,
	// and its heap entry's r.
	openAt   [openRuns]int64
	openID   [openRuns]int32
	nextOpen int
	masks    slotMasks
	ticket   uint32 // the last ticket given
	live     int    // pending events
	stale    int    // queued items whose Timer is no longer theirs
	touch    int64  // sink for prefetching loads in down
	// kid is the least child of the heap's root, or an entry after every
	// other if it has none, while kidOK: a change to the heap other than
	// to the root's entry clears kidOK. Most pops change only the root.
	kid   entry
	kidOK bool
}

func newQueue() queue {
	q := queue{heap: make([]entry, root, 64)}
	for i := range q.openAt {
		q.closeSlot(i)
	}
	return q
}

// push queues t at (at, k) with the tag of its item (see item); t is not
// pending.
func (q *queue) push(t *Timer, at int64, k tie, tag uint64) {
	it := item{t: t, tag: tag}
	q.live++
	// Append to the open run of the instant whose last item is the
	// latest before it, keeping the runs few and long. The open slots
	// at the instant at, as bits, read one by one without a loop:
	var mask uint8
	switch c := &q.masks; at {
	case c.at[0]:
		mask = c.mask[0]
	case c.at[1]:
		mask = c.mask[1]
	case c.at[2]:
		mask = c.mask[2]
	default:
		a := &q.openAt
		mask = b2u(a[0] == at) | b2u(a[1] == at)<<1 | b2u(a[2] == at)<<2 | b2u(a[3] == at)<<3 |
			b2u(a[4] == at)<<4 | b2u(a[5] == at)<<5 | b2u(a[6] == at)<<6 | b2u(a[7] == at)<<7
		c.at[c.next], c.mask[c.next] = at, mask
		c.next = (c.next + 1) % uint8(len(c.at))
	}
	var br *run // the best run, in open slot best
	best, alone := -1, -1
	for m := mask; m != 0; m &= m - 1 {
		i := bits.TrailingZeros8(m)
		if id := q.openID[i]; id >= 0 {
			r := &q.runs[id]
			if r.tail.less(k) && (br == nil || br.tail.less(r.tail)) {
				br, best = r, i
			}
		} else if alone < 0 && q.one[^id].t.tie.less(k) {
			alone = i
		}
	}
	var ref int32
	if r := br; r != nil {
		if n := len(r.items); n < cap(r.items) {
			r.items = r.items[:n+1]
			r.items[n], r.tail = it, k
			return
		}
		if cap(r.items) < maxRun {
			q.appendItem(r, it)
			r.tail = k
			return
		}
		// Full: a new run continues it in its open slot, copying nothing.
		r.open = 0
		ref = q.newRun(at, maxRun)
		r = &q.runs[ref]
		r.items, r.tail = append(r.items, it), k
		q.openID[best], r.open = ref, best+1
	} else if alone >= 0 {
		// The instant's second item: it starts a run, which takes the
		// first's place among the open ones.
		ref = q.newRun(at, smallRun)
		r := &q.runs[ref]
		r.items, r.tail = append(r.items, it), k
		q.openID[alone], r.open = ref, alone+1
	} else {
		i := q.newOne(it)
		t.alone, ref = i+1, ^i
		if o := q.openID[q.nextOpen]; o >= 0 && o != none {
			q.runs[o].open = 0
		}
		q.openAt[q.nextOpen], q.openID[q.nextOpen] = at, ref
		q.masks = noMasks
		q.oneOpen[i] = uint8(q.nextOpen + 1)
		q.nextOpen = (q.nextOpen + 1) & (openRuns - 1)
	}
	x := entry{at: at, tie: k, r: ref}
	q.heap = append(q.heap, x)
	q.up(len(q.heap)-1, x)
}

// newOne stores an item alone and returns its index in q.one.
func (q *queue) newOne(it item) int32 {
	if n := len(q.freeOnes); n > 0 {
		i := q.freeOnes[n-1]
		q.freeOnes = q.freeOnes[:n-1]
		q.one[i] = it
		return i
	}
	if len(q.one) == math.MaxInt32 {
		panic("sim: too many pending events")
	}
	q.one = append(q.one, it)
	q.onePos = append(q.onePos, 0)
	q.oneOpen = append(q.oneOpen, 0)
	return int32(len(q.one) - 1)
}

// moveAlone moves t, whose item is alone and whose tie is k already, to
// (at, k) in place.
func (q *queue) moveAlone(t *Timer, at int64, k tie) {
	i := t.alone - 1
	q.unopen(i)
	j := int(q.onePos[i])
	q.heap[j].at, q.heap[j].tie = at, k
	q.fix(j)
}

// removeAlone takes t's item, which is alone, out of the queue.
func (q *queue) removeAlone(t *Timer) {
	i := t.alone - 1
	t.ticket, t.alone = 0, 0
	q.live--
	q.kidOK = false
	j := int(q.onePos[i])
	q.freeOne(i)
	n := len(q.heap) - 1
	last := q.heap[n]
	q.heap = q.heap[:n]
	if j != n {
		q.heap[j] = last
		q.fix(j)
	}
}

// fix restores heap order after the entry at index i changed.
func (q *queue) fix(i int) {
	x := q.heap[i]
	if i > root && x.less(&q.heap[i/4+2]) {
		q.up(i, x)
		return
	}
	q.down(i, x)
}

// freeOne frees the slot i of an item alone.
func (q *queue) freeOne(i int32) {
	q.one[i] = item{}
	q.freeOnes = append(q.freeOnes, i)
	q.unopen(i)
}

// pop takes the first item out of the queue; the queue is not empty.
func (q *queue) pop() (at int64, it item) {
	x := &q.heap[root]
	at = x.at
	if x.r < 0 {
		it = q.one[^x.r]
		it.t.alone = 0
		q.freeOne(^x.r)
		q.popRoot()
		it.t.ticket = 0
		q.live--
		q.settle()
		return at, it
	}
	r := &q.runs[x.r]
	it = r.items[r.head]
	r.items[r.head] = item{}
	r.head++
	it.t.ticket = 0
	q.live--
	// Most often the run's next item is pending: it becomes the root's
	// first, and stays first unless a child of the root orders before
	// it. Else the run moves down, and the new root settles.
	if r.head < len(r.items) && r.items[r.head].live() {
		x.tie = r.items[r.head].t.tie
		if q.kidOK && !q.kid.less(x) || !q.kidOK && q.findKid(x) { // rootFirst, inlined
			return at, it
		}
		q.down(root, *x)
	}
	q.settle()
	return at, it
}

// popRoot removes the heap's root entry.
func (q *queue) popRoot() {
	q.kidOK = false
	n := len(q.heap) - 1
	last := q.heap[n]
	q.heap = q.heap[:n]
	if n > root {
		q.down(root, last)
	}
}

// newRun returns the index of an empty run at at, with room for size items.
func (q *queue) newRun(at int64, size int) int32 {
	var id int32
	if n := len(q.freeRuns); n > 0 {
		id = q.freeRuns[n-1]
		q.freeRuns = q.freeRuns[:n-1]
	} else {
		if len(q.runs) == math.MaxInt32 {
			panic("sim: too many pending events")
		}
		id = int32(len(q.runs))
		q.runs = append(q.runs, run{})
	}
	r := &q.runs[id]
	r.at = at
	pool := &q.small
	if size > smallRun {
		pool = &q.big
	}
	if n := len(*pool); n > 0 && cap((*pool)[n-1]) >= size {
		r.items = (*pool)[n-1]
		(*pool)[n-1] = nil
		*pool = (*pool)[:n-1]
	} else {
		r.items = make([]item, 0, size)
	}
	return id
}

// appendItem appends it to r, moving r's items to a larger array from
// the pool when r's is full. Else the array doubles up to maxRun (append's
// growth of a quarter would leave about four times the final array behind
// while a fleet's setup fills a run with an instant's events).
func (q *queue) appendItem(r *run, it item) {
	if len(r.items) == cap(r.items) {
		if n := len(q.big); n > 0 && cap(q.big[n-1]) > len(r.items)-r.head {
			a := append(q.big[n-1], r.items[r.head:]...)
			q.big[n-1] = nil
			q.big = q.big[:n-1]
			clear(r.items[r.head:])
			q.pool(r.items[:0])
			r.items, r.head = a, 0
		} else {
			a := make([]item, len(r.items)-r.head, 2*cap(r.items))
			copy(a, r.items[r.head:])
			r.items, r.head = a, 0
		}
	}
	r.items = append(r.items, it)
}

// pool keeps an empty item array for reuse.
func (q *queue) pool(a []item) {
	if cap(a) <= smallRun {
		q.small = append(q.small, a)
	} else {
		q.big = append(q.big, a)
	}
}

// freeRun empties run id (its items are cleared) for reuse.
func (q *queue) freeRun(id int32) {
	r := &q.runs[id]
	clear(r.items[r.head:])
	q.pool(r.items[:0])
	r.items, r.head = nil, 0
	if r.open != 0 {
		q.closeSlot(r.open - 1)
		r.open = 0
	}
	q.freeRuns = append(q.freeRuns, id)
}

// cancel takes t's item out of the pending events; t is pending. An item
// in a run stays queued until settle or compact skips it.
func (q *queue) cancel(t *Timer) {
	if t.alone != 0 {
		q.removeAlone(t)
		return
	}
	t.ticket = 0
	q.live--
	q.stale++
	if q.stale >= compactMin && q.stale > q.live {
		q.compact()
	}
}

// settle restores the queue's invariant after its first item was taken or
// any item cancelled: the root run's first item is pending, and the root
// entry holds its tie.
func (q *queue) settle() {
	for len(q.heap) > root {
		x := q.heap[root]
		if x.r < 0 {
			if q.one[^x.r].live() {
				return
			}
			q.stale--
			q.freeOne(^x.r)
			q.popRoot()
			continue
		}
		r := &q.runs[x.r]
		for r.head < len(r.items) && !r.items[r.head].live() {
			r.items[r.head] = item{}
			r.head++
			q.stale--
		}
		if r.head == len(r.items) {
			q.freeRun(x.r)
			q.popRoot()
			continue
		}
		k := r.items[r.head].t.tie
		if k == x.tie {
			return
		}
		// The run's next item is later: it stays first unless a child
		// of the root orders before it (most often none does: the next
		// run is at a later instant).
		h := &q.heap[root]
		h.tie = k
		if q.rootFirst(h) {
			return
		}
		x.tie = k
		q.down(root, x)
	}
}

// rootFirst reports whether no child of the root x (&q.heap[root]) orders
// before it.
func (q *queue) rootFirst(x *entry) bool {
	if q.kidOK {
		return !q.kid.less(x)
	}
	return q.findKid(x)
}

// findKid sets q.kid to the least child of the root x, and is rootFirst.
func (q *queue) findKid(x *entry) bool {
	h := q.heap
	k := entry{at: math.MaxInt64, tie: tie{math.MaxUint64, math.MaxUint64}}
	for j := 4*root - 8; j < len(h) && j < 4*root-4; j++ {
		if h[j].less(&k) {
			k = h[j]
		}
	}
	q.kid, q.kidOK = k, true
	return !k.less(x)
}

// compact drops every cancelled item and every run left empty, and builds
// the heap anew.
func (q *queue) compact() {
	h := q.heap[:root]
	for _, x := range q.heap[root:] {
		if x.r < 0 {
			if q.one[^x.r].live() {
				h = append(h, x)
			} else {
				q.freeOne(^x.r)
			}
			continue
		}
		r := &q.runs[x.r]
		n := 0
		for _, it := range r.items[r.head:] {
			if it.live() {
				r.items[n] = it
				n++
			}
		}
		clear(r.items[n:])
		r.items, r.head = r.items[:n], 0
		if n == 0 {
			q.freeRun(x.r)
			continue
		}
		r.tail = r.items[n-1].t.tie
		h = append(h, entry{at: r.at, tie: r.items[0].t.tie, r: x.r})
	}
	clear(h[len(h):len(q.heap)])
	q.heap, q.kidOK = h, false
	q.stale = 0
	for i := len(h) - 1; i >= root; i-- {
		q.down(i, h[i])
	}
}

// up places x at index i or, moving parents down, above it.
func (q *queue) up(i int, x entry) {
	q.kidOK = false
	h := q.heap
	for i > root {
		p := i/4 + 2
		if !x.less(&h[p]) {
			break
		}
		h[i] = h[p]
		if r := h[i].r; r < 0 {
			q.onePos[^r] = int32(i)
		}
		i = p
	}
	h[i] = x
	if x.r < 0 {
		q.onePos[^x.r] = int32(i)
	}
}

// down places x at index i or, moving smallest children up, below it.
func (q *queue) down(i int, x entry) {
	q.kidOK = false
	h := q.heap
	n := len(h)
	var touch int64
	for {
		c := 4*i - 8
		var m int
		if c+3 < n {
			// The next level's group is one of the four groups (eight
			// consecutive cache lines) starting at 4c-8. In a heap too
			// big for the caches, load them now, so that fetching them
			// overlaps with choosing m.
			if g := 4*c - 8; n >= prefetchMin && g+15 < n {
				touch += h[g].at + h[g+2].at + h[g+4].at + h[g+6].at + h[g+8].at + h[g+10].at + h[g+12].at + h[g+14].at
			}
			m = c + minOf4((*[4]entry)(h[c:c+4]))
		} else if c < n {
			m = c
			for j := c + 1; j < n; j++ {
				if h[j].less(&h[m]) {
					m = j
				}
			}
		} else {
			break
		}
		if !h[m].less(&x) {
			break
		}
		h[i] = h[m]
		if r := h[i].r; r < 0 {
			q.onePos[^r] = int32(i)
		}
		i = m
	}
	h[i] = x
	if x.r < 0 {
		q.onePos[^x.r] = int32(i)
	}
	q.touch = touch
}
