// Package sim is a deterministic discrete-event simulation engine.
//
// An Engine owns a virtual clock and a priority queue of pending Timers.
// Virtual time is a time.Duration (int64 nanoseconds) measured from the start
// of the simulation; it only moves when an event is run. Events are ordered by
// (time, Priority, Key): among events at the same instant the lower Priority
// runs first, and among events with the same time and Priority the one
// scheduled first runs first. Every Schedule, After or At call gives its
// Timer a fresh Key, so a run is fully determined by the seed and the order
// of calls. ScheduleKey sets a Key explicitly, for a periodic event whose
// place among its peers must not depend on when it was scheduled.
//
// The engine is single-threaded and not safe for concurrent use. It reads no
// wall clock and no global random source: all randomness comes from the
// per-component streams returned by Engine.Rand. Scheduling, cancelling and
// running events does not allocate in steady state.
package sim

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"
)

// Priority orders events that fall at the same instant: lower runs first.
type Priority int8

const (
	Urgent Priority = -10 // e.g. control work that must precede normal events at the same instant
	Normal Priority = 0
	Late   Priority = 10 // observers: run after every other event at the same instant
)

// Timer is a reusable, cancellable event. Its owner keeps it (by pointer or
// embedded by value in a larger struct) and schedules it on an Engine as often
// as needed; scheduling does not allocate.
//
// A Timer must be initialised with NewTimer or Init before it is scheduled,
// and must not be copied while it is pending. A Timer must only ever be
// scheduled and stopped on one Engine (a world's): it does not record which,
// so this is not checked.
//
// It is 40 bytes: a pod and its containers and probers hold about nine.
type Timer struct {
	fn     func()
	at     time.Duration
	tie    tie    // breaks ties on at: priority, then Key
	ticket uint32 // the ticket of its item in the queue; 0 means not pending
	alone  int32  // 1 + the index of its item in queue.one if it is alone
}

// tie packs (priority, Key.At, Key.Seq) into 128 bits that compare as one
// number: hi holds the priority (sign bit flipped) and At's upper 56 bits,
// lo At's lower 8 bits and the 56-bit Seq.
type tie struct{ hi, lo uint64 }

func packTie(p Priority, k Key) tie {
	return tie{hi: uint64(uint8(p)^0x80)<<56 | uint64(k.At)>>8, lo: uint64(k.At)<<56 | k.Seq}
}

func (a tie) less(b tie) bool { return a.hi < b.hi || a.hi == b.hi && a.lo < b.lo }

func (a tie) prio() Priority { return Priority(int8(uint8(a.hi>>56) ^ 0x80)) }

func (a tie) key() Key {
	return Key{At: time.Duration(a.hi<<8 | a.lo>>56), Seq: a.lo & seqMask}
}

// Key orders events that share a time and a Priority: the one with the
// earlier At runs first, then the one with the lower Seq.
//
// Schedule (and After and At) gives a Timer the Key {Now, Scheduled | n} for
// its n-th call, so ties resolve in scheduling order. A Key set with
// ScheduleKey and a Seq below Scheduled places its Timer after every event
// scheduled before the instant At and before every event scheduled at or
// after it; such Timers with the same At run in Seq order.
type Key struct {
	At  time.Duration
	Seq uint64
}

// Scheduled is the bit that Schedule sets in every Key.Seq it hands out.
// A Key's Seq is below 1<<56 and its At is not negative.
const Scheduled = 1 << 55

const seqMask = 1<<56 - 1

// Less reports whether k orders before o.
func (k Key) Less(o Key) bool { return k.At < o.At || k.At == o.At && k.Seq < o.Seq }

// NewTimer returns a Timer that calls fn, on the engine's (single) thread,
// each time it fires. fn must not be nil.
func NewTimer(fn func()) *Timer {
	t := new(Timer)
	t.Init(fn)
	return t
}

// Init sets the function t calls when it fires. It is meant for a Timer
// embedded by value; it must not be called while t is pending. fn must not be
// nil.
func (t *Timer) Init(fn func()) {
	if fn == nil {
		panic("sim: Timer.Init with nil func")
	}
	if t.ticket != 0 {
		panic("sim: Timer.Init on a pending Timer")
	}
	*t = Timer{fn: fn}
}

// Pending reports whether t is scheduled and has not yet fired or been
// stopped. A Timer is no longer pending when its function starts running.
func (t *Timer) Pending() bool { return t.ticket != 0 }

// When returns the virtual time t is (or was last) scheduled for. It is
// meaningful while t is pending; inside t's own function it equals the
// engine's Now.
func (t *Timer) When() time.Duration { return t.at }

// Priority returns the priority t is (or was last) scheduled with.
func (t *Timer) Priority() Priority { return t.tie.prio() }

// Key returns the Key t is (or was last) scheduled with.
func (t *Timer) Key() Key { return t.tie.key() }

// shotChunk is how many one-shot Timers for At are allocated at once.
const shotChunk = 256

// Engine is a discrete-event simulator: a virtual clock plus the set of
// pending Timers. The zero Engine is not usable; create one with New.
type Engine struct {
	queue
	now   time.Duration
	seq   uint64
	fired uint64
	// The place in the order of the event running (or last run): its
	// priority and key; after Run, past every event at Now.
	cur  tie
	seed uint64
	// The one-shot Timers of At, in chunks of shotChunk, reused through
	// a free list from freeShot: 1 + the index of a free one (0: none),
	// whose alone holds the next. Their ticket stays 0 (see item).
	shots    []*[shotChunk]Timer
	freeShot int32
	rands    map[string]*rand.Rand
}

// New returns an Engine at virtual time 0 with no pending events. seed is the
// scenario seed from which every stream returned by Rand is derived.
func New(seed uint64) *Engine {
	return &Engine{
		queue: newQueue(),
		seed:  seed,
		cur:   tie{}, // before everything: nothing has run
		rands: make(map[string]*rand.Rand),
	}
}

// Now returns the current virtual time: the time of the event being run, or
// of the last event run, or the until of the last Run, whichever is latest.
func (e *Engine) Now() time.Duration { return e.now }

// Seed returns the seed the Engine was created with.
func (e *Engine) Seed() uint64 { return e.seed }

// Pending returns the number of scheduled events.
func (e *Engine) Pending() int { return e.live }

// Fired returns the number of events run so far.
func (e *Engine) Fired() uint64 { return e.fired }

// Schedule arranges for t to fire at absolute virtual time at with priority p.
// If t is already pending it is moved rather than duplicated. Either way t
// takes a new Key, so it runs after every event already scheduled with the
// same time and priority.
//
// Schedule panics if at is before Now or if t was never initialised.
// Scheduling at Now from an event handler is allowed: the event runs later
// in the same Step/Run loop.
func (e *Engine) Schedule(t *Timer, at time.Duration, p Priority) {
	e.seq++
	if e.seq >= Scheduled {
		panic("sim: sequence number overflow")
	}
	e.schedule(t, at, p, packTie(p, Key{At: e.now, Seq: Scheduled | e.seq}))
}

// ScheduleKey is Schedule with the Key given rather than taken: t runs at
// at, among the events with priority p, in the place k gives it (see Key). It
// takes no sequence number, so it leaves the Keys of later Schedule calls
// unchanged; scheduling a Timer again with the Key it had puts it back in the
// same place. It panics as Schedule does.
func (e *Engine) ScheduleKey(t *Timer, at time.Duration, p Priority, k Key) {
	if k.At < 0 || k.Seq > seqMask {
		panic(fmt.Sprintf("sim: ScheduleKey with a Key out of range: %+v", k))
	}
	e.schedule(t, at, p, packTie(p, k))
}

func (e *Engine) schedule(t *Timer, at time.Duration, p Priority, k tie) {
	if at < e.now {
		panic(fmt.Sprintf("sim: Schedule at %v, before Now %v", at, e.now))
	}
	if t.fn == nil {
		panic("sim: Schedule of an uninitialised Timer (use NewTimer or Init)")
	}
	if t.ticket != 0 {
		// t is pending on e: a Timer is only ever scheduled on one
		// Engine (see Timer), which it does not record, to fit in 40
		// bytes.
		if t.alone != 0 {
			t.tie, t.at = k, at
			e.moveAlone(t, int64(at), k)
			e.settle()
			return
		}
		e.cancel(t)
		t.tie, t.at = k, at
		e.push(t, int64(at), k, e.take(t))
		e.settle()
		return
	}
	// A push leaves the first item first or puts itself, pending, there:
	// the queue needs no settling.
	t.tie, t.at = k, at
	e.push(t, int64(at), k, e.take(t))
}

// Passed reports whether an event at (at, p, k) would already have run: at
// is before Now, or at is Now and (p, k) orders before or equal to the event
// running now (outside a handler: the last event Step ran; after Run, every
// event at Now has run). A periodic event that was not scheduled uses it to
// tell whether its occurrence at Now is behind or ahead.
func (e *Engine) Passed(at time.Duration, p Priority, k Key) bool {
	if at != e.now {
		return at < e.now
	}
	if k.At < 0 || k.Seq > seqMask {
		return k.At < 0
	}
	return !e.cur.less(packTie(p, k))
}

// After is Schedule(t, e.Now()+d, p), the sum saturated at MaxDuration (a
// time no run reaches). It panics if d is negative.
func (e *Engine) After(t *Timer, d time.Duration, p Priority) {
	if d < 0 {
		panic(fmt.Sprintf("sim: After with a negative duration %v", d))
	}
	e.Schedule(t, AddSat(e.now, d), p)
}

// Stop cancels t. It reports whether t was pending; a false result means t
// had already fired, been stopped, or never been scheduled. After Stop, t
// does not fire unless it is scheduled again.
func (e *Engine) Stop(t *Timer) bool {
	if t.ticket == 0 {
		return false
	}
	// t is pending on e: a Timer is only ever scheduled on one
	// Engine (see Timer), which it does not record, to fit in 40
	// bytes.
	e.cancel(t)
	e.settle()
	return true
}

// At schedules fn to run once at absolute virtual time at with priority p.
// The event cannot be cancelled. At panics if at is before Now or fn is nil.
// The Timer behind it is recycled after it fires, so At does not allocate in
// steady state (beyond whatever the caller's closure allocates).
func (e *Engine) At(at time.Duration, p Priority, fn func()) {
	if fn == nil {
		panic("sim: At with nil func")
	}
	if at < e.now {
		panic(fmt.Sprintf("sim: At %v, before Now %v", at, e.now))
	}
	e.seq++
	if e.seq >= Scheduled {
		panic("sim: sequence number overflow")
	}
	if e.freeShot == 0 {
		e.growShots()
	}
	i := uint32(e.freeShot - 1)
	t := &e.shots[i/shotChunk][i%shotChunk]
	e.freeShot = t.alone
	k := packTie(p, Key{At: e.now, Seq: Scheduled | e.seq})
	t.fn, t.at, t.tie, t.alone = fn, at, k, 0
	e.push(t, int64(at), k, uint64(i+1)<<32)
}

// growShots adds a chunk of free one-shot Timers; none is free.
func (e *Engine) growShots() {
	if len(e.shots) >= math.MaxInt32/shotChunk-1 {
		panic("sim: too many pending events")
	}
	c := new([shotChunk]Timer)
	base := int32(len(e.shots) * shotChunk)
	for j := range c {
		c[j].alone = base + int32(j) + 2
	}
	c[shotChunk-1].alone = 0
	e.shots = append(e.shots, c)
	e.freeShot = base + 1
}

// recycle puts the one-shot Timer t, whose index is shot-1 and which
// fired, back on the free list.
func (e *Engine) recycle(t *Timer, shot int32) {
	t.fn, t.alone, e.freeShot = nil, e.freeShot, shot
}

// Peek returns the time of the next event; ok is false if none is pending.
func (e *Engine) Peek() (at time.Duration, ok bool) {
	if e.live == 0 {
		return 0, false
	}
	return time.Duration(e.heap[root].at), true
}

// Step removes the next event, advances Now to its time and runs it. It
// reports false, doing nothing, if no event is pending. Step must not be
// called from an event handler.
func (e *Engine) Step() bool {
	if e.live == 0 {
		return false
	}
	e.fire()
	return true
}

// Run runs, in order, every event whose time is at or before until, including
// events scheduled by handlers during the Run, then advances Now to until if
// it is later. Events after until stay pending. Run must not be called from
// an event handler.
func (e *Engine) Run(until time.Duration) {
	for len(e.heap) > root && e.heap[root].at <= int64(until) {
		e.fire()
	}
	if until > e.now {
		e.now = until
	}
	e.cur = tie{hi: math.MaxUint64, lo: math.MaxUint64}
}

// RunLimit is Run that fires at most max events. It reports whether it
// reached until; if not, events at or before until are still pending and
// Now is the time of the last event run.
func (e *Engine) RunLimit(until time.Duration, max uint64) bool {
	for n := uint64(0); len(e.heap) > root && e.heap[root].at <= int64(until); n++ {
		if n == max {
			return false
		}
		e.fire()
	}
	if until > e.now {
		e.now = until
	}
	e.cur = tie{hi: math.MaxUint64, lo: math.MaxUint64}
	return true
}

// fire removes the first event and runs its function. The queue is not
// empty.
func (e *Engine) fire() {
	at, it := e.pop()
	e.now = time.Duration(at)
	t := it.t
	e.cur = t.tie
	e.fired++
	fn := t.fn
	if shot := it.shot(); shot != 0 {
		e.recycle(t, shot)
	}
	fn()
}

// Rand returns the random stream for the component called name: a
// math/rand/v2 PCG seeded from the engine seed and the FNV-64a hash of name.
// The same name always returns the same *rand.Rand, so draws continue where
// the previous caller left off; different names give independent streams, and
// creating or using one stream never changes another's draws. Components
// should call Rand once and keep the result.
func (e *Engine) Rand(name string) *rand.Rand {
	if r, ok := e.rands[name]; ok {
		return r
	}
	s1, s2 := streamSeed(e.seed, name)
	r := rand.New(rand.NewPCG(s1, s2))
	e.rands[name] = r
	return r
}

// streamSeed derives the 128-bit PCG seed for a named stream. It is part of
// the reproducibility contract: changing it changes every simulation result.
func streamSeed(seed uint64, name string) (uint64, uint64) {
	const (
		offset64 = 14695981039346656037
		prime64  = 1099511628211
	)
	h := uint64(offset64)
	for i := 0; i < len(name); i++ {
		h ^= uint64(name[i])
		h *= prime64
	}
	return mix64(seed ^ mix64(h)), mix64(h ^ mix64(seed+0x9e3779b97f4a7c15))
}

// mix64 is the SplitMix64 finaliser, a bijection on uint64 with good
// avalanche.
func mix64(z uint64) uint64 {
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}
