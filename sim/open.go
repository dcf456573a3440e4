package sim

// The open slots: the runs a new item may join, or the items alone it may
// start a run after (see queue.openAt).

// unopen takes the item alone i out of the open runs. An item alone is
// open in at most one slot, the one push put it in, unless that slot was
// taken since (by a later item, or by the run it started).
func (q *queue) unopen(i int32) {
	if s := int(q.oneOpen[i]) - 1; s >= 0 {
		if q.openID[s] == ^i {
			q.closeSlot(s)
		}
		q.oneOpen[i] = 0
	}
}

// closeSlot empties slot i of the open runs.
func (q *queue) closeSlot(i int) {
	q.openAt[i], q.openID[i] = -1, none
	q.masks = noMasks
}

// slotMasks are the open slots at the instants of recent pushes, as push
// reads them from openAt: an instant's events are pushed in turn with
// those of a few others. Any change to openAt forgets them.
type slotMasks struct {
	at   [3]int64 // -1: none
	mask [3]uint8
	next uint8 // the entry the next instant takes
}

var noMasks = slotMasks{at: [3]int64{-1, -1, -1}}

// b2u is 1 if b, else 0 (a SETcc, no branch).
func b2u(b bool) uint8 {
	var u uint8
	if b {
		u = 1
	}
	return u
}
