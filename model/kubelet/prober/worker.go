package prober

import (
	"math"
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/sim"
)

// result is a worker's published result for the current container
// (pkg/kubelet/prober/results).
type result uint8

const (
	resultUnknown result = iota
	resultSuccess
	resultFailure
)

// worker is one probe worker (pkg/kubelet/prober/worker.go): it ticks every
// period from the moment the kubelet set the pod up, probes the container's
// current run, and publishes a result only after FailureThreshold
// consecutive failures or SuccessThreshold consecutive successes. A fleet
// has a few of them per pod: keep it small.
type worker struct {
	c     *Container
	spec  *model.ProbeSpec
	timer sim.Timer

	// The worker's ticks: the first at `first`, then every period, each
	// ordered among the events at its instant as if scheduled at the tick
	// before by a Key of Seq chain (see tickKey). The first tick's Key is
	// the one startTicks got: {first - its delay, chain | sim.Scheduled}
	// (keyAt).
	first time.Duration
	chain uint64
	ticks int64 // ticks run, for World.BusiestSources

	streak int32 // how many times in a row `last` came (saturated)
	seen   int32 // the container run (Run.Starts) the worker last saw
	kind   model.ProbeKind
	result result // published, for the run `seen`
	last   result // the last raw result
	onHold bool   // a liveness/startup failure was published: wait for a new run
	done   bool
	state  tickState
}

// tickState is a worker's tick bookkeeping, as bits.
type tickState uint8

const (
	halted       tickState = 1 << iota // the ticks were stopped (node down, pod removed) until startTicks
	ticking                            // a tick probes: its next tick is due one period on, but not scheduled yet
	haltedInTick                       // a halt came while ticking
	firstDelayed                       // the first tick came a period after startTicks (else at once)
)

// is reports whether every bit of b is set.
func (pr *worker) is(b tickState) bool { return pr.state&b == b }

// set sets the bits of b to on.
func (pr *worker) set(b tickState, on bool) {
	if on {
		pr.state |= b
	} else {
		pr.state &^= b
	}
}

// Skipping ticks. Unless Settings.ProbeEveryTick, a worker runs only the
// ticks that can do something: after each tick it works out, from what
// doProbe reads (the pod's phase and deletion, the container's state, runs
// and start, the startup worker's result, its own streak, the behaviour's
// failure windows, startupTime and initialDelay), the first tick that is not
// a no-op and moves its timer there (or stops it: nothing will happen until
// something changes). Whatever changes one of those inputs wakes the worker
// (wake), which works the same out from the first tick of its grid that has
// not run yet and moves its timer there if that is sooner (or stops it if
// no tick can do anything); its own triggered probe replans it (replan). A
// tick's place among the events at its instant is fixed (tickKey), so a
// tick that was never scheduled runs where it would have.

// initial is the result a worker publishes for a new run before probing.
func (pr *worker) initial() result {
	switch pr.kind {
	case model.Readiness:
		return resultFailure
	case model.Liveness:
		return resultSuccess
	}
	return resultUnknown
}

// startTicks schedules the worker's first tick d from now, the origin of its
// tick grid (the kubelet sets a worker's ticker when it starts it, and again
// when a rebooted node's kubelet starts it anew).
func (pr *worker) startTicks(d time.Duration) {
	pr.c.pod.World().Engine().After(&pr.timer, d, sim.Normal)
	pr.first, pr.chain = pr.timer.When(), pr.timer.Key().Seq&^sim.Scheduled
	pr.set(firstDelayed, d != 0)
	pr.set(halted, false)
}

// tickKey is the place of the worker's tick at t (after its first) among
// the events at t: where it falls when the tick before it schedules it,
// except that it also comes before whatever the events ahead of that tick
// at its instant scheduled for t. Both modes (skipping or not) use it, so a
// tick that was never scheduled takes the same place when it is.
func (pr *worker) tickKey(t time.Duration) sim.Key {
	return sim.Key{At: t - pr.spec.Period, Seq: pr.chain}
}

func (pr *worker) tick() {
	if pr.done {
		return
	}
	pr.ticks++
	w := pr.c.pod.World()
	next := sim.AddSat(w.Now(), pr.spec.Period)
	// The next tick is due at next while the probe runs, but it is
	// scheduled once, where it ends up, after it: a wake finds it due
	// there (and does nothing), a halt takes it off.
	pr.state = pr.state&^haltedInTick | ticking
	ok := pr.doProbe()
	pr.set(ticking, false)
	at := next
	switch {
	case !ok:
		pr.done = true
		return
	case pr.is(haltedInTick):
		at = never
	}
	if !w.ProbeEveryTick() {
		switch t := pr.nextUseful(next); {
		case t == never:
			return
		case t > next:
			at = t
		}
	}
	if at != never {
		w.Engine().ScheduleKey(&pr.timer, at, sim.Normal, pr.tickKey(at))
	}
}

// never is "no tick": the time of a tick that is not planned.
const never = time.Duration(math.MaxInt64)

// halt stops the worker's ticks (its node lost power, its pod left the
// API); only startTicks starts them again.
func (pr *worker) halt() {
	pr.set(halted, true)
	pr.set(haltedInTick, pr.is(ticking))
	pr.c.pod.World().Engine().Stop(&pr.timer)
}

// wake tells the worker that something doProbe reads changed: its timer
// goes to the first tick of its grid that has not run and can do
// anything as things stand (nextUseful), if it was planned later or not
// at all, and stops if no tick can. A tick at Now has run if its place
// comes before the event running now.
func (pr *worker) wake() {
	if !pr.movable() {
		return
	}
	d := pr.due()
	if d == dueNever {
		pr.c.pod.World().Engine().Stop(&pr.timer)
		return
	}
	t := pr.firstNotRun()
	if pr.timer.Pending() && pr.timer.When() <= t {
		return
	}
	pr.planFrom(t, d)
}

// replan is wake after the worker's own probe (probeTriggered): what it
// read may have made the ticks planned before it no-ops, so its timer may
// also move later, or stop.
func (pr *worker) replan() {
	if pr.movable() {
		pr.planFrom(pr.firstNotRun(), pr.due())
	}
}

// movable reports whether wake or replan may move the worker's timer: it
// skips ticks, still probes, is neither halted nor ticking (then its next
// tick is due at the first not run), and its first tick, always
// scheduled, has come.
func (pr *worker) movable() bool {
	w := pr.c.pod.World()
	return !w.ProbeEveryTick() && !pr.done && pr.state&(halted|ticking) == 0 && w.Now() >= pr.first
}

// firstNotRun is the first tick of the worker's grid, from its first, that
// has not run.
func (pr *worker) firstNotRun() time.Duration {
	w := pr.c.pod.World()
	now, period := w.Now(), pr.spec.Period
	t := pr.first + (now-pr.first)/period*period
	if t < now || w.Engine().Passed(t, sim.Normal, pr.keyAt(t)) {
		t = sim.AddSat(t, period)
	}
	return t
}

// planFrom puts the worker's timer on nextUseful(t), t being the first
// tick not run and d what due answers, or stops it if that is never.
func (pr *worker) planFrom(t time.Duration, d dueKind) {
	u := t
	switch d {
	case dueNever:
		u = never
	case dueProbe:
		u = pr.nextProbe(t)
	}
	eng := pr.c.pod.World().Engine()
	switch {
	case u == never:
		eng.Stop(&pr.timer)
	case !pr.timer.Pending() || pr.timer.When() != u:
		eng.ScheduleKey(&pr.timer, u, sim.Normal, pr.keyAt(u))
	}
}

// keyAt is the place of the worker's tick at t, a time on its grid.
func (pr *worker) keyAt(t time.Duration) sim.Key {
	if t == pr.first {
		k := sim.Key{At: t, Seq: pr.chain | sim.Scheduled}
		if pr.is(firstDelayed) {
			k.At -= pr.spec.Period
		}
		return k
	}
	return pr.tickKey(t)
}

// gridCeil is the first tick of the worker's grid at or after x, and at or
// after from (a tick of the grid); never if there is none.
func (pr *worker) gridCeil(from, x time.Duration) time.Duration {
	if x <= from {
		return from
	}
	period := pr.spec.Period
	k := (x - from + period - 1) / period
	if x-from > math.MaxInt64-period || k > (math.MaxInt64-from)/period {
		return never
	}
	return from + k*period
}

// nextUseful is the first tick at or after from (a tick of the grid) at
// which doProbe may do anything but return true, as things stand: it reads
// what doProbe reads, in the same order. never means no tick will, until
// something wakes the worker.
func (pr *worker) nextUseful(from time.Duration) time.Duration {
	switch pr.due() {
	case dueNow:
		return from
	case dueNever:
		return never
	}
	return pr.nextProbe(from)
}

// dueKind is what nextUseful answers whatever its tick: from (dueNow),
// never (dueNever), or what nextProbe finds (dueProbe).
type dueKind uint8

const (
	dueProbe dueKind = iota
	dueNow
	dueNever
)

// due is the part of nextUseful that reads no time: the ticks that run
// and do nothing but return before probing.
func (pr *worker) due() dueKind {
	c, p := pr.c, pr.c.pod
	if p.Phase().Terminal() || p.Deleted() {
		return dueNow
	}
	if c.Run.Starts == 0 || c.Run.Unpublished {
		return dueNever
	}
	if pr.seen != c.Run.Starts {
		return dueNow
	}
	if pr.onHold {
		return dueNever
	}
	if c.Status.State.Kind != model.StateRunning {
		if pr.result != resultFailure || !c.probedAgain() {
			return dueNow
		}
		return dueNever
	}
	if p.Terminating() && pr.kind != model.Readiness {
		return dueNow
	}
	// The worker waits for the startup probe's success, or (the startup
	// worker) stops probing after it; either way until a wake.
	if c.started() == (pr.kind == model.Startup) {
		return dueNever
	}
	return dueProbe
}

// nextProbe is nextUseful of a worker that probes the running container
// (due is dueProbe).
func (pr *worker) nextProbe(from time.Duration) time.Duration {
	c := pr.c
	startedAt := c.Status.State.StartedAt
	// doProbe probes once whole seconds since the start reach initialDelay's.
	t := from
	if d := int64(pr.spec.InitialDelay / time.Second); d > 0 {
		if startedAt > math.MaxInt64-time.Duration(d)*time.Second {
			return never
		}
		t = pr.gridCeil(from, startedAt+time.Duration(d)*time.Second)
	}
	if t == never || pr.last != resultSuccess || pr.result != resultSuccess || int(pr.streak) < pr.spec.SuccessThreshold {
		return t
	}
	// Succeeding with the success published: only a failure does anything
	// (an Unhealthy event at least).
	b := c.Spec.Behavior
	if b == nil {
		return never
	}
	if t-startedAt < c.startupTime(b) {
		return t
	}
	return pr.firstTickIn(b.ProbeFailures[pr.kind], t, startedAt)
}

// firstTickIn is the first tick of the grid at or after t (a tick) that a
// window of normalized ws holds, for a process started at startedAt, or
// never: from the first window that ends after t (a binary search), the
// first whose span holds a tick.
func (pr *worker) firstTickIn(ws []model.Window, t, startedAt time.Duration) time.Duration {
	if len(ws) == 0 {
		return never
	}
	next := never
	abs, since := model.SplitWindows(ws)
	for _, g := range [2][]model.Window{abs, since} {
		for i := model.FirstEndingAfter(g, t, startedAt); i < len(g); i++ {
			from, to := g[i].Span(startedAt)
			f := pr.gridCeil(t, from)
			if f >= next {
				break
			}
			if to == 0 || f < to {
				next = f
				break
			}
		}
	}
	return next
}

// doProbe is one step of the worker; it reports whether to keep probing.
func (pr *worker) doProbe() bool {
	c, p := pr.c, pr.c.pod
	if p.Phase().Terminal() || p.Deleted() {
		return false
	}
	if c.Run.Starts == 0 || c.Run.Unpublished {
		return true // no container in the pod's status yet
	}
	if pr.seen != c.Run.Starts {
		pr.seen, pr.onHold = c.Run.Starts, false
		pr.publish(pr.initial())
	}
	if pr.onHold {
		return true
	}
	st := c.Status
	if st.State.Kind != model.StateRunning {
		pr.publish(resultFailure)
		return c.probedAgain()
	}
	if p.Terminating() && pr.kind != model.Readiness {
		pr.publish(resultSuccess)
		return false
	}
	now := p.World().Now()
	startedAt := st.State.StartedAt
	if int64((now-startedAt)/time.Second) < int64(pr.spec.InitialDelay/time.Second) {
		return true
	}
	if c.started() {
		if pr.kind == model.Startup {
			return true
		}
	} else if pr.kind != model.Startup {
		return true
	}
	res := resultSuccess
	if b := c.Spec.Behavior; b != nil { // a nil behaviour's probes never fail
		if startup := c.startupTime(b); b.ProbeFails(pr.kind, now, startedAt, startup) {
			res = resultFailure
			p.Eventf(model.EventWarning, "Unhealthy", "kubelet", "%s probe failed: %s",
				pr.kind, pr.output(now-startedAt < startup))
		}
	}
	if res != pr.last {
		pr.last, pr.streak = res, 1
	} else if pr.streak < math.MaxInt32 {
		pr.streak++
	}
	if res == resultFailure && int(pr.streak) < pr.spec.FailureThreshold ||
		res == resultSuccess && int(pr.streak) < pr.spec.SuccessThreshold {
		return true
	}
	pr.publish(res)
	if res == resultFailure && pr.kind != model.Readiness {
		pr.onHold, pr.streak = true, 0
	}
	return true
}

// publish sets the worker's result for the current run and lets the kubelet
// act on a change: readiness and startup move the container's Ready and
// Started; a liveness or startup failure gets the container killed.
func (pr *worker) publish(r result) {
	if pr.result == r {
		return
	}
	pr.result = r
	c, t := pr.c, pr.c.target
	if c.pod.World().KubeletSyncMode() == model.SyncRealistic && (pr.kind != model.Liveness || r == resultFailure) {
		t.RequestSync() // the sync loop syncs the pod on a probe result change (handleProbeSync)
	}
	if pr.kind == model.Startup {
		c.Probes.Wake() // started may change
	}
	if r == resultFailure && pr.kind != model.Readiness && c.Status.State.Kind == model.StateRunning {
		t.KillForProbe(pr.kind, pr.spec)
		return
	}
	t.UpdateReady()
	if pr.kind == model.Startup && r == resultSuccess {
		c.Probes.TriggerReadiness()
		t.RequestSync() // a started sidecar lets the next container start
	}
}

// probeTriggered is the probe TriggerReadiness asked for.
func (pr *worker) probeTriggered() {
	if !pr.done && pr.c.Status.State.Kind == model.StateRunning {
		pr.doProbe()
		pr.replan() // its streak and result may have changed
	}
}

// probedAgain is the worker's keepGoing for a container that does not run:
// it is not terminated, or it will run again.
func (c *Container) probedAgain() bool {
	st := c.Status
	if st.State.Kind != model.StateTerminated {
		return true
	}
	return c.target.WillRestart(st.State.ExitCode)
}
