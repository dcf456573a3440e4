package replicaset

import (
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/sim"
)

// The controller keeps each ReplicaSet's counts up to date as its pods
// change, instead of counting all of its pods at every sync: a sync comes
// at every change of any of them, and a big ReplicaSet whose pods change
// at different instants (made at the API client's pace, say) would cost
// O(pods) per event. The counts are those of counting every pod at the
// same instant, pod for pod: a pod is looked at again only when it
// changes (PodChanged: its phase, readiness or deletion), when it is
// first seen in rs.Pods, or when it has been Ready for minReadySeconds,
// which time alone changes (the waiting pods are a heap by that time).

// tally is what the controller has counted of one ReplicaSet's pods.
type tally struct {
	seen                 int           // rs.Pods[:seen] are counted; those after came since
	dead                 int           // of rs.Pods[:seen], those finished or gone, dropped when they are half
	minReady             time.Duration // the minReadySeconds the counts are for
	active, ready, avail int
	waiting              []waiter // Ready pods not yet available, some stale: a min-heap by at
}

// waiter is a pod Ready but not available when it was last looked at, as
// of its record's generation gen: it is available once at is before now
// (Ready since at - minReady).
type waiter struct {
	p   *model.Pod
	gen uint32
	at  time.Duration
}

// podRecord is what a pod contributes to its ReplicaSet's tally (by
// Pod.ID; t nil: not counted in any).
type podRecord struct {
	t     *tally
	gen   uint32 // bumped each time the pod is counted anew; waiters of older generations are stale
	flags uint8
}

// podRecords are the pods' records by Pod.ID, in chunks of
// podRecordChunk made zero as the pods come: one per pod ever counted,
// allocated once, where a slice doubling to hold them would copy them and
// leave as much again behind as garbage.
type podRecords struct {
	chunks [][]podRecord
	n      int // the records below n exist (Pod.ID < n)
}

// podRecordChunk is how many pods' records are allocated at a time.
const podRecordChunk = 1024

// of returns the record of the pod with ID id (id < n).
func (rs *podRecords) of(id int) *podRecord { return &rs.chunks[id/podRecordChunk][id%podRecordChunk] }

// extend makes the records of the pods of IDs below n exist.
func (rs *podRecords) extend(n int) {
	for len(rs.chunks)*podRecordChunk < n {
		rs.chunks = append(rs.chunks, make([]podRecord, podRecordChunk))
	}
	rs.n = max(rs.n, n)
}

const (
	fActive uint8 = 1 << iota
	fReady
	fAvail
	fWaiting
	fDead  // finished or gone: never counted again
	fDirty // changed since it was last counted (in Controller.dirty)
)

// PodChanged notes that p changed: it is counted anew at its
// ReplicaSet's next count.
func (c *Controller) PodChanged(p *model.Pod) {
	if p.ID() >= c.pods.n {
		return // in no ReplicaSet's tally yet: counted when first seen
	}
	r := c.pods.of(p.ID())
	if r.t == nil || r.flags&(fDead|fDirty) != 0 {
		return
	}
	r.flags |= fDirty
	c.dirty = model.Grow(c.dirty, p)
}

// PodConditionAdded notes a pod's first Ready condition as a change (it
// may come True, from a snapshot).
func (c *Controller) PodConditionAdded(p *model.Pod, t string) {
	if t == model.Ready {
		c.PodChanged(p)
	}
}

// tallyOf returns rs's tally, made at its first use.
func (c *Controller) tallyOf(rs *model.ReplicaSet) *tally {
	t := c.tallies[rs]
	if t == nil {
		if c.tallies == nil {
			c.tallies = map[*model.ReplicaSet]*tally{}
		}
		t = &tally{}
		c.tallies[rs] = t
	}
	return t
}

// count is calculateStatus, from rs's tally: it counts anew the pods that
// changed since, those added to rs.Pods since, and those waiting to become
// available; it drops the finished and gone from rs.Pods once they are
// half of it.
func (c *Controller) count(rs *model.ReplicaSet, now, minReady time.Duration) (model.ReplicaCounts, time.Duration) {
	t := c.tallyOf(rs)
	if t.minReady != minReady {
		c.recount(t, rs, minReady)
	}
	for _, p := range c.dirty {
		r := c.pods.of(p.ID())
		r.flags &^= fDirty
		c.uncount(r)
		c.add(p, r, now)
	}
	clear(c.dirty)
	c.dirty = c.dirty[:0]
	for ; t.seen < len(rs.Pods); t.seen++ {
		p := rs.Pods[t.seen]
		c.pods.extend(p.ID() + 1)
		r := c.pods.of(p.ID())
		r.t = t
		c.add(p, r, now)
	}
	next := c.settle(t, now)
	if t.dead > 0 && 2*t.dead >= len(rs.Pods) {
		c.compact(t, rs)
	}
	st := model.ReplicaCounts{Replicas: t.active, Ready: t.ready, Available: t.avail}
	if checkCount != nil {
		checkCount(rs, now, minReady, st, next)
	}
	return st, next
}

// checkCount, set by tests, hears each count.
var checkCount func(rs *model.ReplicaSet, now, minReady time.Duration, st model.ReplicaCounts, next time.Duration)

// add counts p, its record r (just uncounted, or new) in r.t, at now.
func (c *Controller) add(p *model.Pod, r *podRecord, now time.Duration) {
	t := r.t
	c.looked++
	r.gen++
	if p.Deleted() || p.Phase().Terminal() {
		r.flags |= fDead
		t.dead++
		return
	}
	if !p.IsActive() {
		return
	}
	r.flags |= fActive
	t.active++
	if !p.IsReady() {
		return
	}
	r.flags |= fReady
	t.ready++
	if t.minReady != 0 { // else available at once: its Ready condition is not read
		if at := sim.AddSat(readySince(p), t.minReady); at >= now {
			r.flags |= fWaiting
			t.push(waiter{p, r.gen, at})
			return
		}
	}
	r.flags |= fAvail
	t.avail++
}

// uncount takes what r's pod counted out of its tally (a pod counted dead
// stays dead: it never runs again).
func (c *Controller) uncount(r *podRecord) {
	t := r.t
	if r.flags&fActive != 0 {
		t.active--
	}
	if r.flags&fReady != 0 {
		t.ready--
	}
	if r.flags&fAvail != 0 {
		t.avail--
	}
	r.flags &^= fActive | fReady | fAvail | fWaiting
}

// settle counts available the waiting pods Ready for longer than
// minReady by now, and returns when the controller is to look again: a
// second after the next of the others becomes available (0 if none
// waits).
func (c *Controller) settle(t *tally, now time.Duration) (next time.Duration) {
	for len(t.waiting) > 0 {
		w := t.waiting[0]
		r := c.pods.of(w.p.ID())
		c.looked++
		switch {
		case r.gen != w.gen || r.flags&fWaiting == 0: // counted anew since
		case w.at < now:
			r.flags = r.flags&^fWaiting | fAvail
			t.avail++
		default:
			return sim.AddSat(w.at, time.Second)
		}
		t.pop()
	}
	return 0
}

// push adds w to the heap of waiting pods.
func (t *tally) push(w waiter) {
	h := append(t.waiting, w)
	for i := len(h) - 1; i > 0; {
		up := (i - 1) / 2
		if h[up].at <= h[i].at {
			break
		}
		h[up], h[i] = h[i], h[up]
		i = up
	}
	t.waiting = h
}

// pop removes the first of the waiting pods.
func (t *tally) pop() {
	h := t.waiting
	last := len(h) - 1
	h[0] = h[last]
	h[last] = waiter{}
	h = h[:last]
	for i := 0; ; {
		first, l := i, 2*i+1
		if l < len(h) && h[l].at < h[first].at {
			first = l
		}
		if l+1 < len(h) && h[l+1].at < h[first].at {
			first = l + 1
		}
		if first == i {
			break
		}
		h[i], h[first] = h[first], h[i]
		i = first
	}
	t.waiting = h
}

// recount forgets rs's tally, to count all its pods again for minReady.
func (c *Controller) recount(t *tally, rs *model.ReplicaSet, minReady time.Duration) {
	for _, p := range rs.Pods[:t.seen] {
		r := c.pods.of(p.ID())
		if r.flags&fDirty != 0 {
			continue // counted anew from c.dirty, which is done first
		}
		c.uncount(r)
		if r.flags&fDead == 0 {
			r.flags |= fDirty
			c.dirty = model.Grow(c.dirty, p)
		}
	}
	clear(t.waiting)
	t.waiting = t.waiting[:0]
	t.minReady = minReady
}

// compact drops the finished and gone pods from rs.Pods, keeping the
// order of the others.
func (c *Controller) compact(t *tally, rs *model.ReplicaSet) {
	live := rs.Pods[:0]
	for _, p := range rs.Pods {
		if r := c.pods.of(p.ID()); r.flags&fDead != 0 {
			*r = podRecord{}
			continue
		}
		live = append(live, p)
	}
	clear(rs.Pods[len(live):])
	rs.Pods = live
	t.seen, t.dead = len(live), 0
}
