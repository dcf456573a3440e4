package scheduler

import (
	"time"

	"github.com/podsim/podsim/model"
)

// The scheduling queue follows kube-scheduler's PriorityQueue
// (pkg/scheduler/backend/queue/scheduling_queue.go) with queueing hints and
// SchedulerPopFromBackoffQ on, as they are by default:
//
//   - activeQ holds pods to try, ordered as the PrioritySort plugin does:
//     by priority, highest first, then by the time the pod was added or
//     last found unschedulable; ties go to the pod queued first.
//   - backoffQ holds pods a cluster event made worth trying again while
//     their backoff is still running, ordered by when it ends. The backoff
//     is podInitialBackoff (1s) doubled for every attempt after the first,
//     at most podMaxBackoff (10s), from the last attempt. A scheduler with
//     an empty activeQ pops the head of backoffQ at once rather than idle
//     (SchedulerPopFromBackoffQ); podsim's scheduling cycles take no time,
//     so a pass drains activeQ, then backoffQ, and backoffQ never outlives
//     a pass: it only orders the retries after activeQ.
//   - unschedulablePods (parked here) holds pods found unschedulable. They
//     are not tried again until a cluster event that one of the plugins
//     that rejected them cares about (its queueing hint) moves them to
//     activeQ or backoffQ, or until they have waited longer than
//     podMaxInUnschedulablePodsDuration (5m), which a flush every 30s
//     checks.
//
// Gated pods (scheduling gates) wait apart: podsim has no way to remove a
// gate, so nothing ever moves them.

// Upstream's defaults (scheduling_queue.go and its flush loop).
const (
	podInitialBackoff                 = 1 * time.Second
	podMaxBackoff                     = 10 * time.Second
	podMaxInUnschedulablePodsDuration = 5 * time.Minute
	unschedulableFlushPeriod          = 30 * time.Second
)

// plugins is a set of the scheduler's filter plugins, as a bit mask: the
// plugins that rejected a pod, or those a cluster event concerns.
type plugins uint8

const (
	pluginNodeUnschedulable plugins = 1 << iota // spec.unschedulable, and podsim's failed-disk check
	pluginNodeAffinity                          // nodeSelector and node affinity
	pluginTaintToleration
	pluginNodeResourcesFit
	pluginPodTopologySpread
	pluginInterPodAffinity

	allPlugins = pluginNodeUnschedulable | pluginNodeAffinity | pluginTaintToleration | pluginNodeResourcesFit |
		pluginPodTopologySpread | pluginInterPodAffinity
)

// The cluster events that can make a parked pod schedulable, as the sets of
// plugins whose queueing hints answer Queue for them (each plugin's
// EventsToRegister). Hints here are coarse: every pod one of those plugins
// rejected is tried again.
const (
	// A pod entered the cache: bound to a node (AssignedPodAdd;
	// PodTopologySpread and InterPodAffinity).
	eventAssignedPodAdded = pluginPodTopologySpread | pluginInterPodAffinity
	// An assigned pod was deleted or reached a terminal phase: its
	// resources are free (AssignedPodDelete; NodeResourcesFit,
	// PodTopologySpread, InterPodAffinity).
	eventAssignedPodFreed = pluginNodeResourcesFit | pluginPodTopologySpread | pluginInterPodAffinity
	// An assigned pod got a deletionTimestamp (AssignedPodUpdate;
	// PodTopologySpread stops counting it).
	eventAssignedPodUpdated = pluginPodTopologySpread | pluginInterPodAffinity
	// A node was added (NodeAdd; every filter plugin).
	eventNodeAdded = allPlugins
	// A node was deleted (NodeDelete; PodTopologySpread).
	eventNodeDeleted = pluginPodTopologySpread
	// A node lost taints (NodeTaintChange; TaintToleration).
	eventNodeTaintsRemoved = pluginTaintToleration
	// A node was uncordoned: spec.unschedulable and its taint went
	// (NodeUnschedulable and TaintToleration).
	eventNodeSchedulable = pluginNodeUnschedulable | pluginTaintToleration
)

// queueState is where a pod waiting for the scheduler is.
type queueState uint8

const (
	notQueued queueState = iota // bound, deleted, or never given to the scheduler
	inActiveQ
	inBackoffQ
	inUnschedulable
	inGated
)

// podBackoff is the backoff after the given number of attempts: 1s doubled
// per attempt after the first, capped at 10s; 0 before any attempt.
func podBackoff(attempts uint8) time.Duration {
	if attempts == 0 {
		return 0
	}
	d := podInitialBackoff
	for i := uint8(1); i < attempts; i++ {
		if d > podMaxBackoff-d {
			return podMaxBackoff
		}
		d += d
	}
	return min(d, podMaxBackoff)
}

// queueEntry is a pod in one of the queue's heaps with its sort key, so
// that a sift reads no pod and writes nothing back into it: prio is the
// pod's priority in activeQ and 0 in backoffQ, at its timestamp in
// activeQ and the end of its backoff in backoffQ, order its podState's
// order (unique among queued pods), id its Pod.ID (an index of
// World.Pods). The entry holds no pointer: the garbage collector does not
// scan a heap of 150,000 of them.
type queueEntry struct {
	at    time.Duration
	order uint32
	prio  int32
	id    int32
}

// before orders the entries of a heap: the higher prio first, then the
// earlier at, then the pod queued first. In activeQ that is PrioritySort
// (by priority, then timestamp); in backoffQ, where prio is 0, the
// earlier end of backoff first.
func (e *queueEntry) before(o *queueEntry) bool {
	if e.prio != o.prio {
		return e.prio > o.prio
	}
	if e.at != o.at {
		return e.at < o.at
	}
	return e.order < o.order
}

// podHeap is a 4-ary min-heap of queueEntry under before, beside a run:
// the entries pushed each after the one pushed before it (a burst of pods
// made at one instant, the backoffs of pods tried in turn) wait in a FIFO,
// and a pop takes the lesser of the run's head and the heap's. A pod
// taken out of the queue otherwise than by a pop (forget) leaves its
// entry behind, stale: popFrom drops the entries whose pod is no longer
// in the heap under their order (podState.state and order), and live
// counts the entries that are not stale. The order is total (order is
// unique), so the pods leave in one order whatever the heap's shape.
//
// The entries are kept in chunks of heapChunk, allocated as the heap
// grows and kept: a burst of 150,000 pods queued at once leaves no
// doubled arrays behind for a run that may not collect them again.
type podHeap struct {
	chunks [][]queueEntry // each heapChunk long
	n      int            // entries in the heap, stale ones included
	run    entryRun
	live   int
}

// heapChunk is how many entries a chunk of a podHeap holds.
const heapChunk = 1024

func (h *podHeap) len() int { return h.live }

// entries counts the entries held, stale ones included.
func (h *podHeap) entries() int { return h.n + h.run.len() }

// clear drops every entry: all were stale.
func (h *podHeap) clear() { h.n, h.run.head, h.run.tail = 0, 0, 0 }

// at is the entry at index i (< h.n).
func (h *podHeap) at(i int) *queueEntry { return &h.chunks[i/heapChunk][i%heapChunk] }

func (h *podHeap) push(e queueEntry) {
	h.live++
	if r := &h.run; r.len() == 0 || r.at(r.tail-1).before(&e) {
		r.push(e)
		return
	}
	if h.n == len(h.chunks)*heapChunk {
		h.chunks = append(h.chunks, make([]queueEntry, heapChunk))
	}
	h.n++
	h.up(h.n-1, e)
}

// popEntry removes and returns the least entry, stale or not; the heap
// and the run must not both be empty.
func (h *podHeap) popEntry() queueEntry {
	if r := &h.run; r.len() > 0 && (h.n == 0 || r.at(r.head).before(h.at(0))) {
		return r.pop()
	}
	top := *h.at(0)
	h.n--
	if h.n > 0 {
		h.down(*h.at(h.n))
	}
	return top
}

// entryRun is a FIFO of entries in chunks of heapChunk: those at head up
// to tail (indexes over its chunks). A chunk its head has left goes to
// the end, for the tail to fill again.
type entryRun struct {
	chunks     [][]queueEntry
	head, tail int
}

func (r *entryRun) len() int { return r.tail - r.head }

// at is the entry at index i (head <= i < tail).
func (r *entryRun) at(i int) *queueEntry { return &r.chunks[i/heapChunk][i%heapChunk] }

func (r *entryRun) push(e queueEntry) {
	if r.tail == len(r.chunks)*heapChunk {
		r.chunks = append(r.chunks, make([]queueEntry, heapChunk))
	}
	*r.at(r.tail) = e
	r.tail++
}

func (r *entryRun) pop() queueEntry {
	e := *r.at(r.head)
	r.head++
	switch {
	case r.head == r.tail:
		r.head, r.tail = 0, 0
	case r.head == heapChunk:
		r.chunks = append(r.chunks[1:], r.chunks[0])
		r.head, r.tail = 0, r.tail-heapChunk
	}
	return e
}

// up puts e in the hole at i and sifts it up.
func (h *podHeap) up(i int, e queueEntry) {
	for i > 0 {
		parent := (i - 1) / 4
		pe := h.at(parent)
		if !e.before(pe) {
			break
		}
		*h.at(i) = *pe
		i = parent
	}
	*h.at(i) = e
}

// down puts e, taken from the end, in the hole left at the root and sifts
// it down.
func (h *podHeap) down(e queueEntry) {
	n, i := h.n, 0
	for {
		c := 4*i + 1
		if c >= n {
			break
		}
		m, me := c, h.at(c)
		for k := c + 1; k < min(c+4, n); k++ {
			if ke := h.at(k); ke.before(me) {
				m, me = k, ke
			}
		}
		if !me.before(&e) {
			break
		}
		*h.at(i) = *me
		i = m
	}
	*h.at(i) = e
}

// schedQueue is the scheduling queue.
type schedQueue struct {
	active  podHeap
	backoff podHeap
	// unschedulable holds the parked pods, one bucket per set of rejecting
	// plugins, so that an event moves exactly the buckets it concerns.
	// Order within a bucket is meaningless: both heaps order totally.
	unschedulable [allPlugins + 1][]*model.Pod
	parked        int        // pods in unschedulable
	pending       plugins    // events since the last pass, as the plugins they concern
	seq           uint32     // pods queued so far: each once, when made (PodUnbound); fewer than 1<<31 (queueEntry.id)
	states        *podStates // the scheduler's, by Pod.ID
	w             *model.World
}

// init sets the queue up to keep its bookkeeping in states, for the pods
// of w.
func (q *schedQueue) init(w *model.World, states *podStates) { q.w, q.states = w, states }

// of is p's podState.
func (q *schedQueue) of(p *model.Pod) *podState { return q.states.of(p.ID()) }

// add puts a new pod in activeQ.
func (q *schedQueue) add(p *model.Pod, now time.Duration) {
	q.seq++
	qp := q.of(p)
	qp.order, qp.timestamp, qp.index, qp.attempts, qp.state, qp.rejectors = q.seq, now, 0, 0, inActiveQ, 0
	q.pushActive(p)
}

// pushActive puts p, whose podState is set, in activeQ.
func (q *schedQueue) pushActive(p *model.Pod) {
	qp := q.of(p)
	q.active.push(queueEntry{at: qp.timestamp, order: qp.order, prio: p.Priority(), id: int32(p.ID())})
}

// pop returns the next pod to try: the head of activeQ, else the head of
// backoffQ; nil if both are empty.
func (q *schedQueue) pop() *model.Pod {
	p := q.popFrom(&q.active, inActiveQ)
	if p == nil {
		p = q.popFrom(&q.backoff, inBackoffQ)
	}
	if p != nil {
		qp := q.of(p)
		qp.state = notQueued
		if qp.attempts < maxAttempts {
			qp.attempts++
		}
	}
	return p
}

// popFrom returns the pod of h's least entry that is not stale, h being
// the heap of the pods in state, dropping the stale entries before it;
// nil if h has none.
func (q *schedQueue) popFrom(h *podHeap, state queueState) *model.Pod {
	for h.live > 0 {
		e := h.popEntry()
		if qp := q.states.of(int(e.id)); qp.state == state && qp.order == e.order {
			h.live--
			return q.w.Pods()[e.id]
		}
	}
	h.clear() // only stale entries were left
	return nil
}

// park puts p, just found unschedulable at now by the plugins rejectors,
// among the unschedulable pods.
func (q *schedQueue) park(p *model.Pod, rejectors plugins, now time.Duration) {
	qp := q.of(p)
	qp.timestamp, qp.rejectors = now, rejectors
	b := &q.unschedulable[rejectors]
	qp.state, qp.index = inUnschedulable, int32(len(*b))
	*b = append(*b, p)
	q.parked++
}

// unpark takes p out of its unschedulable bucket.
func (q *schedQueue) unpark(p *model.Pod) {
	qp := q.of(p)
	b := &q.unschedulable[qp.rejectors]
	i, last := int(qp.index), len(*b)-1
	if i != last {
		(*b)[i] = (*b)[last]
		q.of((*b)[i]).index = int32(i)
	}
	(*b)[last] = nil
	*b = (*b)[:last]
	qp.state = notQueued
	q.parked--
}

// requeue moves p, taken out of the unschedulable pods, to backoffQ if its
// backoff, from when it was parked, is still running at now, else to
// activeQ.
func (q *schedQueue) requeue(p *model.Pod, now time.Duration) {
	qp := q.of(p)
	if backoff := qp.timestamp + podBackoff(qp.attempts); backoff > now {
		qp.state = inBackoffQ
		q.backoff.push(queueEntry{at: backoff, order: qp.order, id: int32(p.ID())})
		return
	}
	qp.state = inActiveQ
	q.pushActive(p)
}

// activate moves p, if it is parked, to activeQ or backoffQ (its
// nomination was cleared: a pod update).
func (q *schedQueue) activate(p *model.Pod, now time.Duration) {
	if q.of(p).state == inUnschedulable {
		q.unpark(p)
		q.requeue(p, now)
	}
}

// gate sets p apart for good: it has scheduling gates.
func (q *schedQueue) gate(p *model.Pod) { q.of(p).state = inGated }

// forget removes p from wherever it waits (it left the API).
func (q *schedQueue) forget(p *model.Pod) {
	qp := q.of(p)
	switch qp.state {
	case inActiveQ:
		q.active.live-- // its entry is now stale (popFrom)
	case inBackoffQ:
		q.backoff.live--
	case inUnschedulable:
		q.unpark(p)
	}
	qp.state = notQueued
}

// movable reports whether a pending event concerns some parked pod.
func (q *schedQueue) movable() bool {
	if q.pending == 0 || q.parked == 0 {
		return false
	}
	for m := plugins(0); m <= allPlugins; m++ {
		if (m&q.pending != 0 || m == 0) && len(q.unschedulable[m]) > 0 {
			return true
		}
	}
	return false
}

// movePending moves the parked pods that the events since the last pass
// concern to activeQ or backoffQ (MoveAllToActiveOrBackoffQueue).
func (q *schedQueue) movePending(now time.Duration) {
	ev := q.pending
	q.pending = 0
	if ev == 0 || q.parked == 0 {
		return
	}
	for m := plugins(0); m <= allPlugins; m++ {
		if m&ev == 0 && m != 0 {
			continue // pods no plugin rejected (no nodes at all) move on every event
		}
		b := q.unschedulable[m]
		for i, p := range b {
			b[i] = nil
			q.of(p).state = notQueued
			q.requeue(p, now)
		}
		q.parked -= len(b)
		q.unschedulable[m] = b[:0]
	}
}

// flushLeftover moves the pods parked for longer than
// podMaxInUnschedulablePodsDuration (flushUnschedulablePodsLeftover); it
// reports whether it moved any.
func (q *schedQueue) flushLeftover(now time.Duration) bool {
	moved := false
	for m := range q.unschedulable {
		b := q.unschedulable[m]
		for i := 0; i < len(b); {
			p := b[i]
			if now-q.of(p).timestamp <= podMaxInUnschedulablePodsDuration {
				i++
				continue
			}
			q.unpark(p)
			q.requeue(p, now)
			moved = true
			b = q.unschedulable[m]
		}
	}
	return moved
}

// waiting reports whether some pod is ready to be tried.
func (q *schedQueue) waiting() bool { return q.active.len() > 0 || q.backoff.len() > 0 }
