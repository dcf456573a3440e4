package scheduler

import (
	"bytes"
	"slices"
	"unsafe"

	"github.com/podsim/podsim/model"
)

// Scoring a window again. In a big cluster where most nodes fit, a try
// filters nodes from nextStartNodeIndex until numFeasibleNodesToFind
// passed, and the next starts after them: the tries scan the same few
// windows of nodes in turn (5,000 nodes, 500 a try: ten windows), and
// between two visits of a window only the nodes whose pods changed score
// differently, most often the one the try before took. A windowPick keeps what pickByResources
// computed over one window: each node's total and the nodes tying for the
// best. The next try over the same window, for a pod asking the same and
// spread by the same counter, rescores only the nodes the change log has
// named since. It picks as scoring every node would: the same best, the
// same ties in the same order, the same draw.

// changeLog lists, in order, the IDs of the nodes whose pods, pods'
// counts or views changed (a node may be listed more than once): what a
// windowPick catches up on. When long, it starts again empty, and every
// windowPick is then scored whole once.
type changeLog struct {
	ids  []int32
	base uint64 // the position of ids[0] among every change logged
}

// changeLogMax is the most changes the log holds.
const changeLogMax = 1 << 14

func (l *changeLog) add(id int) {
	if len(l.ids) == changeLogMax {
		l.base += uint64(len(l.ids))
		l.ids = l.ids[:0]
	}
	l.ids = append(l.ids, int32(id))
}

// end is the position after the last change logged.
func (l *changeLog) end() uint64 { return l.base + uint64(len(l.ids)) }

// since returns the changes logged from position at on, and false if some
// of them are no longer held.
func (l *changeLog) since(at uint64) ([]int32, bool) {
	if at < l.base {
		return nil, false
	}
	return l.ids[at-l.base:], true
}

// windowKey is what a window's scores depend on besides its nodes' pods:
// the first and the count of its feasible nodes (their IDs are kept in
// windowPick.ids), the pod's requests (their number, podSched.request, and
// the balanced score's weight), the counter of the hostname constraint if
// it scores, and specGen (the nodes, their specs and the nominations).
type windowKey struct {
	first, k int32
	req      int32
	balanced int64
	counter  *podCounter
	gen      uint64
}

// windowPick is a window's scores as the last try over it left them.
type windowPick struct {
	key        windowKey
	ids        []int32 // the feasible nodes' IDs, in the order scanned: increasing, then from 0 after wrap
	wrap       int     // the position of the first ID below ids[0], len(ids) if none
	whole      bool    // the nodes scanned were all feasible: ids are consecutive, wrapping at nodes
	nodes      int32   // the nodes in the cluster when kept
	logAt      uint64  // the change log's end when brought up to date
	lo, hi     int32   // the fewest and most pods counter counts on a node of the window
	atLo, atHi int32   // how many of its nodes have lo, and hi
	norm       []int64 // hostNorm(lo, hi)
	total      []int64 // each node's total, by position in the window
	hostK      []int32 // each node's count, by position
	best       int64
	tied       []int32 // the positions whose total is best, in order
	used       uint64  // the try that last used it: the least recent is replaced
}

// windowPicks is how many windows are kept.
const windowPicks = 16

// windowOf returns the kept scores of the window of feasible nodes ids
// for key, or nil.
func (s *Scheduler) windowOf(key windowKey, ids []int32) *windowPick {
	for i := range s.windows {
		if w := &s.windows[i]; w.key == key && sameIDs(w.ids, ids) {
			return w
		}
	}
	return nil
}

// sameIDs reports whether a and b list the same IDs. They are compared
// as bytes (the runtime's vectorised compare): a window's 500 IDs take a
// tenth of the time slices.Equal's loop does, on every try.
func sameIDs(a, b []int32) bool {
	return len(a) == len(b) && (len(a) == 0 ||
		bytes.Equal(unsafe.Slice((*byte)(unsafe.Pointer(&a[0])), 4*len(a)), unsafe.Slice((*byte)(unsafe.Pointer(&b[0])), 4*len(b))))
}

// position returns the position of the node with ID id in w, or -1.
func (w *windowPick) position(id int32) int32 {
	if w.whole {
		if pos := id - w.ids[0]; pos >= 0 && pos < int32(len(w.ids)) {
			return pos
		} else if pos += w.nodes; pos >= 0 && pos < int32(len(w.ids)) {
			return pos
		}
		return -1
	}
	run, off := w.ids[:w.wrap], 0
	if id < w.ids[0] {
		run, off = w.ids[w.wrap:], w.wrap
	}
	if i, found := slices.BinarySearch(run, id); found {
		return int32(off + i)
	}
	return -1
}

// pickFromWindow brings w up to date and picks from it as pickTop would,
// returning the position picked; false if w must be scored whole.
func (s *Scheduler) pickFromWindow(w *windowPick, hostCounts []int32) (int, bool) {
	changed, ok := s.changes.since(w.logAt)
	if !ok {
		return 0, false
	}
	if w.key.counter != nil && !slices.Equal(s.cy.spreadScore.hostNorm(w.lo, w.hi), w.norm) {
		return 0, false
	}
	for _, id := range changed {
		if pos := w.position(id); pos >= 0 && !s.rescore(w, pos, id, hostCounts) {
			return 0, false
		}
	}
	w.logAt = s.changes.end()
	r := 0
	if n := len(w.tied); n > 1 {
		r = s.rand.IntN(n)
	}
	return int(w.tied[r]), true
}

// rescore brings the node with ID id, at pos in w, up to date; false if
// w must be scored whole.
func (s *Scheduler) rescore(w *windowPick, pos, id int32, hostCounts []int32) bool {
	m := &s.memos[id]
	if m.request != w.key.req+1 {
		s.resourceScores(id, s.w.Nodes()[id], s.cy.p, w.key.req)
	}
	return w.update(pos, weightNodeResourcesFit*int64(m.fit)+w.key.balanced*int64(m.balanced), countAt(hostCounts, id))
}

// update sets the resource total of the node at pos to base and, if the
// window has a counter, its count to c, and updates the ties; false if the
// window's extreme counts changed, which changes the normalised spread
// score of every node.
func (w *windowPick) update(pos int32, base int64, c int32) bool {
	t := base
	if w.key.counter != nil {
		if old := w.hostK[pos]; c != old {
			if c < w.lo || c > w.hi {
				return false
			}
			w.atLo -= b2i(old == w.lo) - b2i(c == w.lo)
			w.atHi -= b2i(old == w.hi) - b2i(c == w.hi)
			if w.atLo == 0 || w.atHi == 0 {
				return false
			}
			w.hostK[pos] = c
		}
		t += w.norm[c-w.lo]
	}
	old := w.total[pos]
	if t == old {
		return true
	}
	w.total[pos] = t
	if old == w.best {
		if i, found := slices.BinarySearch(w.tied, pos); found {
			w.tied = slices.Delete(w.tied, i, i+1)
		}
	}
	switch {
	case t > w.best:
		w.best, w.tied = t, append(w.tied[:0], pos)
	case t == w.best:
		i, _ := slices.BinarySearch(w.tied, pos)
		w.tied = slices.Insert(w.tied, i, pos)
	case len(w.tied) == 0:
		w.findBest()
	}
	return true
}

// keepWindow keeps the scores just computed over the try's window of
// feasible nodes ids for key, in place of the same window's or the least
// recently used.
func (s *Scheduler) keepWindow(key windowKey, ids []int32, base []int64, hostK []int32, norm []int64, lo, hi int32) {
	w := s.windowOf(key, ids)
	if w == nil {
		w = &s.windows[0]
		for i := range s.windows {
			if s.windows[i].used < w.used {
				w = &s.windows[i]
			}
		}
	}
	w.fill(key, ids, base, hostK, norm, lo, hi)
	w.logAt, w.used = s.changes.end(), s.tries
	n := int32(len(s.w.Nodes()))
	w.nodes, w.whole = n, (ids[len(ids)-1]-ids[0]+n)%n == int32(len(ids)-1)
}

// rescanWindow is scan by the nodes' views, without filtering them, when
// the try's window was kept whole (every node scanned feasible, for the
// same requests, with the same specGen): unless a node of it changed
// since and its view no longer shows the pod fits, the scan would list
// the same nodes and count the same work. It returns the nodes processed,
// or 0 if the window must be scanned.
func (s *Scheduler) rescanWindow(nodes []*model.Node, want int) int {
	cy := &s.cy
	if s.fullScan || !s.viewable() || len(nodes) != s.w.NodesAdded() || len(nodes) != len(s.w.Nodes()) ||
		cy.spread.cons != nil || cy.interPod.active() {
		return 0
	}
	start, req, gen := int32(s.nextStartNodeIndex%len(nodes)), s.of(cy.p).request, s.specGen()
	var w *windowPick // the one brought up to date last: it has the fewest changes to check
	for i := range s.windows {
		if x := &s.windows[i]; x.whole && x.key.first == start && x.key.k == int32(want) && x.key.req == req && x.key.gen == gen &&
			(w == nil || x.logAt > w.logAt) {
			w = x
		}
	}
	if w == nil {
		return 0
	}
	changed, ok := s.changes.since(w.logAt)
	if !ok || len(changed) > want {
		return 0 // scanning costs less than checking the changes
	}
	s.syncViews()
	asked := cy.p.Requests()
	for _, id := range changed {
		if w.position(id) >= 0 && !s.viewOf(int(id), nodes[id]).fits(&asked) {
			return 0
		}
	}
	cy.feasibleIDs = append(cy.feasibleIDs[:0], w.ids...)
	s.filtered += uint64(want)
	s.nodesRead += uint64(want)
	s.windowScans++
	return want
}

// fill sets w to the scores of the feasible nodes ids for key: base holds
// each node's resource total and, if key.counter is not nil, hostK each
// node's count, between lo and hi, and norm is hostNorm(lo, hi).
func (w *windowPick) fill(key windowKey, ids []int32, base []int64, hostK []int32, norm []int64, lo, hi int32) {
	w.key = key
	w.ids, w.wrap = append(w.ids[:0], ids...), len(ids)
	for i, id := range ids {
		if id < ids[0] {
			w.wrap = i
			break
		}
	}
	w.total = append(w.total[:0], base...)
	w.hostK, w.norm = w.hostK[:0], w.norm[:0]
	if key.counter != nil {
		w.hostK, w.norm = append(w.hostK, hostK...), append(w.norm, norm...)
		w.lo, w.hi, w.atLo, w.atHi = lo, hi, 0, 0
		for i, c := range hostK {
			w.total[i] += norm[c-lo]
			w.atLo += b2i(c == lo)
			w.atHi += b2i(c == hi)
		}
	}
	w.findBest()
}

// findBest sets the best total of w and the positions that tie for it.
func (w *windowPick) findBest() {
	w.best, w.tied = w.total[0], w.tied[:0]
	for i, t := range w.total {
		if t > w.best {
			w.best, w.tied = t, w.tied[:0]
		}
		if t == w.best {
			w.tied = append(w.tied, int32(i))
		}
	}
}

func b2i(b bool) int32 {
	if b {
		return 1
	}
	return 0
}
