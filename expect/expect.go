// Package expect checks a scenario's expectations online, against the
// stream of changes of a running world, and runs suites of scenarios:
// verdicts, JUnit reports and golden timelines.
package expect

import (
	"fmt"
	"slices"
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/scenarios"
	"github.com/podsim/podsim/sim"
)

// Verdict is the outcome of one expectation of a scenario.
type Verdict struct {
	Where    string        // FILE:LINE:COL of the expectation
	At       time.Duration // when it was checked; over a span: when it held (within) or first failed (always), else the span's end
	Subject  string        // "pod web", "node node-a", "events", "workload api"
	Failures []Failure     // empty when it held

	// Span is "within" or "always" for an expectation over a stretch of
	// time [From, To], "" for one checked at an instant.
	Span     string
	From, To time.Duration

	checked bool
}

// Passed reports whether every check of the expectation held.
func (v *Verdict) Passed() bool { return len(v.Failures) == 0 }

// Failure is one check of an expectation that did not hold.
type Failure struct {
	Field    string // "phase", "container app restartCount", ...
	Expected string
	Found    string
	Cause    string // the last change that led there, "" if none
}

// String formats a failure for a person:
// "at 2m0s pod web phase: expected Succeeded, found Failed (since 1m0s: ...)".
//
// An expectation over a span says so:
// "within [1m, 2m] pod web phase: expected Running at some moment, never held; at 2m found Pending (...)",
// "always [5m, 10m] pod web phase: expected Running throughout, first failed at 6m30s: found Failed (...)".
func (v *Verdict) String(f Failure) string {
	field := f.Field
	if field != "" {
		field = " " + field
	}
	var s string
	switch v.Span {
	case "within":
		s = fmt.Sprintf("within [%s, %s] %s%s: expected %s at some moment, never held; at %s found %s",
			sim.FormatTime(v.From), sim.FormatTime(v.To), v.Subject, field, f.Expected, sim.FormatTime(v.At), f.Found)
	case "always":
		s = fmt.Sprintf("always [%s, %s] %s%s: expected %s throughout, first failed at %s: found %s",
			sim.FormatTime(v.From), sim.FormatTime(v.To), v.Subject, field, f.Expected, sim.FormatTime(v.At), f.Found)
	default:
		s = fmt.Sprintf("at %s %s%s: expected %s, found %s", sim.FormatTime(v.At), v.Subject, field, f.Expected, f.Found)
	}
	if f.Cause != "" {
		s += " (" + f.Cause + ")"
	}
	return s
}

// Checks are a scenario's expectations, armed on a world. Checks is a
// model.Sink: it keeps, for the objects the expectations name, only what a
// check or the explanation of a failure needs (the last changes of a few
// kinds, transition counters), never the timeline.
type Checks struct {
	w        *model.World
	verdicts []Verdict
	spans    []*span // expectations over a span of time

	sampling   bool          // a sample is scheduled
	resampleAt time.Duration // the instant a sample was last put off to the end of, or -1

	pods        map[ref]*podHistory        // the pods expectations name
	nodes       map[nodeCond]*model.Change // the last change of each node condition named
	workloads   map[ref]*model.Change      // the last change that explains a named workload's pods
	transitions map[ref][]*transitionCount // by pod
	counters    map[*scenarios.Expect]*transitionCount
	events      []*eventCount // one per event expectation
	eventCounts map[*scenarios.EventCheck]*eventCount
}

// eventCount counts one event expectation's occurrences as they come:
// emitted counts every one the components recorded, whatever the event
// recorder's correlator then did with it (combined, dropped by the spam
// filter); api those that reached the API, as the API events' counts hold
// them: an occurrence the spam filter dropped counts once a later one of
// the same API event gets through (its count carries it).
type eventCount struct {
	check   *scenarios.EventCheck
	ns      string // of the check's pod or workload
	emitted int64
	api     int64
	held    []heldEvents // per API event matched, its occurrences not yet in the API
	last    *model.Change
}

// heldEvents are the occurrences of one API event that the spam filter kept
// from the API so far.
type heldEvents struct {
	ev *model.Event
	n  int64
}

// count adds the matching occurrence ch, which counted into the API event
// ev.
func (ec *eventCount) count(ch *model.Change, ev *model.Event) {
	ec.emitted++
	i := 0
	for i < len(ec.held) && ec.held[i].ev != ev {
		i++
	}
	if i == len(ec.held) {
		ec.held = append(ec.held, heldEvents{ev: ev})
	}
	ec.held[i].n++
	if !ch.Dropped {
		ec.api += ec.held[i].n
		ec.held[i].n = 0
	}
	keep(&ec.last, ch)
}

// span is an expectation that must hold at some moment (within) or at every
// moment (always) of [v.From, v.To].
type span struct {
	e          *scenarios.Expect
	v          *Verdict
	open, done bool
	last       []Failure // within: what failed at the latest instant looked at
	looked     bool
	seen       int // the world's ChangeCount when last looked at
}

// podHistory is what explains a named pod's state: its last changes.
type podHistory struct {
	last           *model.Change // of any kind but events
	phase          *model.Change
	beforePhase    *model.Change // the last container change before phase
	container      *model.Change // of any container
	byContainer    map[string]*model.Change
	conditions     map[string]*model.Change
	phaseOrContain *model.Change // the later of phase and container
}

type nodeCond struct{ node, typ string }

// ref names a pod or a workload: its namespace ("" is default) and name.
// Its zero value names nothing.
type ref struct{ ns, name string }

func refOf(ns, name string) ref {
	if ns == "" {
		ns = model.DefaultNamespace
	}
	return ref{ns, name}
}

// transitionCount counts one transition expectation's phase changes.
type transitionCount struct {
	from, to model.Phase
	n        int64
	times    []time.Duration // the first few
}

// keep stores a copy of c in *slot, reusing its memory.
func keep(slot **model.Change, c *model.Change) {
	if *slot == nil {
		*slot = new(model.Change)
	}
	**slot = *c
}

// Arm subscribes the expectations of s to w, a world from s.NewWorld that
// is not populated yet, and schedules each expectation at its time
// (default: the end of the run) after all changes at that instant. Call it
// once per world, then populate and run it, then read Verdicts.
//
// An expectation over a span (within, always) is looked at when the span
// starts, at every instant inside it at which an event runs (all the
// instants at which the state can change), and when it ends.
func Arm(s *scenarios.Scenario, w *model.World) *Checks {
	c := &Checks{w: w, verdicts: make([]Verdict, len(s.File.Spec.Expect)), resampleAt: -1,
		pods: map[ref]*podHistory{}, nodes: map[nodeCond]*model.Change{},
		workloads: map[ref]*model.Change{}, transitions: map[ref][]*transitionCount{},
		counters: map[*scenarios.Expect]*transitionCount{}, eventCounts: map[*scenarios.EventCheck]*eventCount{}}
	for i := range s.File.Spec.Expect {
		e := &s.File.Spec.Expect[i]
		c.watch(e)
		v := &c.verdicts[i]
		v.Where, v.Subject = s.Where(e), subject(e)
		var sp *scenarios.Span
		switch {
		case e.Within != nil:
			sp, v.Span = e.Within, "within"
		case e.Always != nil:
			sp, v.Span = e.Always, "always"
		}
		if sp != nil {
			v.From, v.To, v.At = sp.From(), sp.To(), sp.To()
			x := &span{e: e, v: v}
			c.spans = append(c.spans, x)
			w.Observe(v.From, func() { x.open = true; c.look(x); c.schedule() })
			w.Observe(v.To, func() { c.look(x); c.close(x) })
			continue
		}
		at := s.Duration
		if e.At != nil {
			at = e.At.D()
		}
		v.At = at
		w.Observe(at, func() { c.check(e, v); v.checked = true })
	}
	if len(c.events)+len(c.pods)+len(c.transitions)+len(c.nodes)+len(c.workloads) > 0 {
		w.Subscribe(c) // else Change would keep nothing: spare the sinks' loop its call
	}
	return c
}

// watch registers what e will need to explain itself.
func (c *Checks) watch(e *scenarios.Expect) {
	if e.Event != nil {
		ec := &eventCount{check: e.Event, ns: e.EventNamespace()}
		c.events = append(c.events, ec)
		c.eventCounts[e.Event] = ec
	}
	switch {
	case e.Pod != "":
		pod := refOf(e.Namespace, e.Pod)
		if c.pods[pod] == nil {
			c.pods[pod] = &podHistory{byContainer: map[string]*model.Change{}, conditions: map[string]*model.Change{}}
		}
		if tr := e.Transition; tr != nil {
			tc := &transitionCount{from: model.Phase(tr.From), to: model.Phase(tr.To)}
			c.transitions[pod] = append(c.transitions[pod], tc)
			c.counters[e] = tc
		}
	case e.Node != "" && e.Condition != nil:
		c.nodes[nodeCond{e.Node, e.Condition.Type}] = nil
	case e.Workload != "":
		c.workloads[refOf(e.Namespace, e.Workload)] = nil
	}
}

// Change keeps what the expectations need of ch (model.Sink).
func (c *Checks) Change(ch *model.Change) {
	if ch.Kind == model.ChangeEvent {
		for _, ec := range c.events {
			if EventMatches(ec.check, ec.ns, ch) {
				ec.count(ch, c.w.CurrentEvent())
			}
		}
	}
	if ch.Pod != "" && (len(c.pods) > 0 || len(c.transitions) > 0) {
		pod := refOf(ch.Namespace, ch.Pod)
		if h := c.pods[pod]; h != nil {
			h.record(ch)
		}
		if ch.Kind == model.ChangePhase {
			for _, tc := range c.transitions[pod] {
				if (tc.from == "" || ch.From == tc.from) && (tc.to == "" || ch.To == tc.to) {
					tc.n++
					if len(tc.times) < maxTimesShown {
						tc.times = append(tc.times, ch.T)
					}
				}
			}
		}
	}
	if ch.Kind == model.ChangeNode && len(c.nodes) > 0 {
		k := nodeCond{ch.Node, ch.Type}
		if last, ok := c.nodes[k]; ok {
			keep(&last, ch)
			c.nodes[k] = last
		}
	}
	if len(c.workloads) > 0 {
		c.workloadChange(ch)
	}
}

// workloadChange keeps ch as the last change explaining a named workload's
// pods: an event, phase, Ready condition or workload condition of the
// workload or of a pod it owns.
func (c *Checks) workloadChange(ch *model.Change) {
	switch {
	case ch.Kind == model.ChangeEvent, ch.Kind == model.ChangePhase, ch.Kind == model.ChangeWorkload,
		ch.Kind == model.ChangeCondition && ch.Type == model.Ready:
	default:
		return
	}
	var wl ref
	var owner *model.Workload
	switch {
	case ch.Owner != "": // a Deployment's ReplicaSet's event explains the Deployment
		wl = refOf(ch.Namespace, ch.Owner)
		owner = c.w.Workload(model.Key(ch.Namespace, ch.Owner))
	case ch.Workload != "":
		wl = refOf(ch.Namespace, ch.Workload)
		owner = c.w.Workload(model.Key(ch.Namespace, ch.Workload))
	case ch.Pod != "":
		if p := c.w.Pod(model.Key(ch.Namespace, ch.Pod)); p != nil && p.Owner() != nil {
			wl, owner = refOf(p.Namespace, p.Owner().Spec.Name), p.Owner()
		}
	}
	refs := [2]ref{wl}
	if owner != nil && owner.Parent() != nil { // a CronJob's Job: the change explains the CronJob too
		refs[1] = refOf(wl.ns, owner.Parent().Spec.Name)
	}
	for _, r := range refs {
		if last, ok := c.workloads[r]; ok && r.name != "" {
			keep(&last, ch)
			c.workloads[r] = last
		}
	}
}

func (h *podHistory) record(ch *model.Change) {
	if ch.Kind == model.ChangeEvent {
		return
	}
	keep(&h.last, ch)
	switch ch.Kind {
	case model.ChangePhase:
		keep(&h.phase, ch)
		h.beforePhase = nil
		if h.container != nil {
			keep(&h.beforePhase, h.container)
		}
		keep(&h.phaseOrContain, ch)
	case model.ChangeContainer:
		keep(&h.container, ch)
		slot := h.byContainer[ch.Container]
		keep(&slot, ch)
		h.byContainer[ch.Container] = slot
		keep(&h.phaseOrContain, ch)
	case model.ChangeCondition:
		slot := h.conditions[ch.Type]
		keep(&slot, ch)
		h.conditions[ch.Type] = slot
	}
}

// maxTimesShown is how many times of a transition a failure lists.
const maxTimesShown = 5

// look evaluates a span's expectation now, if it is still undecided and
// anything changed since it last looked: every change a check can see is a
// change of the world (model.World.ChangeCount), so the verdict cannot
// differ before the count grows.
func (c *Checks) look(x *span) {
	n := c.w.ChangeCount() + c.w.TrafficChanges()
	if x.done || (x.looked && n == x.seen) {
		return
	}
	x.looked, x.seen = true, n
	var tmp Verdict
	c.check(x.e, &tmp)
	x.v.Subject = tmp.Subject
	now := c.w.Now()
	switch {
	case x.v.Span == "within" && tmp.Passed():
		x.v.At, x.done = now, true // held at now
	case x.v.Span == "within":
		x.last = tmp.Failures
	case !tmp.Passed(): // always
		x.v.At, x.v.Failures, x.done = now, tmp.Failures, true
	}
}

// close ends a span at its last instant.
func (c *Checks) close(x *span) {
	if !x.done && x.v.Span == "within" {
		x.v.At, x.v.Failures = x.v.To, x.last
	}
	x.done, x.open, x.v.checked = true, false, true
}

// schedule arranges for sample to run after the next instant at which an
// event runs, while some span is open. Every state change happens in an
// event, so sampling there sees every state a span goes through.
func (c *Checks) schedule() {
	if c.sampling || !slices.ContainsFunc(c.spans, func(x *span) bool { return x.open && !x.done }) {
		return
	}
	eng := c.w.Engine()
	next, ok := eng.Peek()
	if !ok {
		return // nothing will change any more; each span's close still runs
	}
	now := eng.Now()
	if next <= now {
		// Other observers are still to run at this instant; look again
		// after them, or, should that not help, one nanosecond later.
		if c.resampleAt == now {
			next = now + 1
		}
		c.resampleAt = now
	}
	c.sampling = true
	c.w.Observe(next, c.sample)
}

// sample looks at every open span after the changes of this instant.
func (c *Checks) sample() {
	c.sampling = false
	for _, x := range c.spans {
		if x.open {
			c.look(x)
		}
	}
	c.schedule()
}

// Verdicts returns one verdict per expectation, in file order.
func (c *Checks) Verdicts() []Verdict { return c.verdicts }

// Failed counts the expectations that did not hold.
func (c *Checks) Failed() int {
	n := 0
	for i := range c.verdicts {
		if !c.verdicts[i].Passed() {
			n++
		}
	}
	return n
}

// Finish is called after the run: an expectation whose time never came
// (the run stopped before it) fails instead of passing unchecked.
func (c *Checks) Finish() {
	for i := range c.verdicts {
		v := &c.verdicts[i]
		if !v.checked {
			v.checked = true
			v.Failures = append(v.Failures, Failure{Expected: "to be checked", Found: "the run ended at " + sim.FormatTime(c.w.Now())})
		}
	}
}
