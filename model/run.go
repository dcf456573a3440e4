package model

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
)

// DefaultMaxEvents is the budget of a run unless the user sets one: 4
// to 12 seconds of a busy model on one core, by the machine's speed,
// whatever its output (ChargeChanges). Kubernetes' scalability envelope
// (5,000 nodes, 150,000 probed pods for an hour, and its autoscaled
// variant) needs about two thirds of it, and four fifths written out or
// served.
const DefaultMaxEvents = 20_000_000

// NodeReadsPerEvent is how many of the scheduler's reads of a node count
// as one event against a run's budget (Used): a try reads up to thousands
// of nodes in one event, so that events alone do not bound the time of a
// run that schedules over a big cluster. A read costs about a sixth of
// an event (a zone spread over 50,000 nodes: 90 ns a read; a crash loop:
// 560 ns an event): the envelope spends about 13M of its budget this way
// (600k events, 76M reads).
const NodeReadsPerEvent = 6

// RunEnd says how a checked run ended.
type RunEnd uint8

const (
	Finished    RunEnd = iota // it reached its time
	OverBudget                // it ran out of events
	Interrupted               // the caller asked it to stop
)

// checkEvery is how many events a checked run fires between two looks at
// its budget and its interrupt.
const checkEvery = 1 << 8

// RunChecked is Run with a way out: it spends at most budget (0: no
// limit) of work, as Used counts it, and, every few hundred events, asks
// interrupted (if not nil) whether to stop. What the sinks got until then
// is complete up to Now. A run that does not finish leaves the world where
// it stopped.
//
// A run in which a part was told to stop (Interrupting or Spent said so)
// never ends Finished, even if it reaches until: that part left work
// undone.
func (w *World) RunChecked(until time.Duration, budget uint64, interrupted func() bool) RunEnd {
	w.ReservePods()
	w.interrupted, w.budget, w.cutShort = interrupted, budget, false
	defer func() { w.interrupted, w.budget = nil, 0 }()
	for {
		chunk := uint64(checkEvery)
		if budget > 0 {
			left := budget - min(budget, w.Used())
			if left == 0 {
				if w.nextAfter(until) {
					w.eng.Run(until) // nothing left before until: only the clock moves
					break
				}
				return OverBudget
			}
			chunk = min(chunk, left)
		}
		if w.eng.RunLimit(until, chunk) {
			break
		}
		if interrupted != nil && interrupted() {
			return Interrupted
		}
	}
	switch {
	case !w.cutShort:
		return Finished
	case budget > 0 && w.Used() >= budget:
		return OverBudget
	}
	return Interrupted
}

// Used is the work done so far, in events: the events fired, the reads
// of nodes by the scheduler (for filters, and for preemption's victims)
// and by the node autoscalers (Pass), NodeReadsPerEvent to an
// event, and the changes made since ChargeChanges,
// one to an event.
func (w *World) Used() uint64 {
	return w.eng.Fired() + (w.nodeReads()+w.partReads)/NodeReadsPerEvent + w.chargedChanges()
}

// A Pass is a part's long pass over many nodes within one event (a node
// autoscaler's simulation of where pods would go): it counts the nodes
// the pass reads against the run's budget, as the scheduler's reads are
// counted, and tells the pass when the run is to stop so that it can stop
// where it is. The zero Pass counts nothing and never stops.
type Pass struct {
	w   *World
	cut bool
}

// StartPass starts a pass of a part of w.
func (w *World) StartPass() Pass { return Pass{w: w} }

// Read charges n nodes read.
func (p *Pass) Read(n int) {
	if p.w != nil {
		p.w.partReads += uint64(n)
	}
}

// Stopping reports whether the run is to stop after this event
// (Interrupting); once it has said so, it keeps saying so. A pass told so
// stops where it is, before its decisions (it may have done part of its
// work: what it looked at, a nomination), and leaves itself to an event
// at this instant; the run ends over its budget or interrupted (RunChecked)
// and never fires it.
func (p *Pass) Stopping() bool {
	if p.w == nil {
		return false
	}
	if !p.cut && p.w.Interrupting() {
		p.cut = true
	}
	return p.cut
}

// Cut reports whether Stopping has said to stop.
func (p *Pass) Cut() bool { return p.cut }

// ChargeChanges makes each change from now on count as one event against
// the budget (Used): for a run whose output writes or draws every change,
// which costs about as much again as making it (a timeline's line or
// row, a trace's event, a picture's point), so that the budget bounds the
// time of every output as it does that of a run that writes none.
func (w *World) ChargeChanges() { w.chargedFrom = w.changeCount + 1 }

// chargedChanges is how many changes count against the budget.
func (w *World) chargedChanges() uint64 {
	if w.chargedFrom == 0 {
		return 0
	}
	return uint64(w.changeCount - (w.chargedFrom - 1))
}

// BudgetSpent says what a run that used up budget spent it on: "it used
// its budget of N events" and, when the scheduler's reads of nodes or the
// changes written out took a part of it, how many events, reads and
// changes.
func (w *World) BudgetSpent(budget uint64) string {
	msg := fmt.Sprintf("it used its budget of %d events", budget)
	reads, changes := w.nodeReads(), w.chargedChanges()
	var parts []string
	switch {
	case reads+w.partReads == 0 || reads+w.partReads < NodeReadsPerEvent*budget/10:
	case w.partReads > 0:
		parts = append(parts, fmt.Sprintf("%d reads of nodes by the scheduler and %d by the node autoscalers at %d to an event",
			reads, w.partReads, NodeReadsPerEvent))
	default:
		parts = append(parts, fmt.Sprintf("%d reads of nodes by the scheduler at %d to an event", reads, NodeReadsPerEvent))
	}
	if changes > 0 && changes >= budget/10 {
		parts = append(parts, fmt.Sprintf("%d changes written out or kept at one to an event", changes))
	}
	switch len(parts) {
	case 1:
		msg += fmt.Sprintf(": %d events and %s", w.eng.Fired(), parts[0])
	case 2:
		msg += fmt.Sprintf(": %d events, %s and %s", w.eng.Fired(), parts[0], parts[1])
	}
	return msg
}

// Interrupting reports whether the run should stop now: the caller of
// RunChecked asked to, or its budget is spent. A part whose one event may
// do long work (a scheduling pass over many pods) asks it as it goes and,
// asked to stop, leaves the rest for an event at the same instant: the run
// ends after this event anyway.
func (w *World) Interrupting() bool {
	if w.Spent() {
		return true
	}
	if w.interrupted != nil && w.interrupted() {
		w.cutShort = true
		return true
	}
	return false
}

// Spent reports whether the budget of the RunChecked running is used up.
// A part told so has left work undone (RunChecked).
func (w *World) Spent() bool {
	if w.budget > 0 && w.Used() >= w.budget {
		w.cutShort = true
		return true
	}
	return false
}

// nextAfter reports whether the next pending event comes after until.
func (w *World) nextAfter(until time.Duration) bool {
	at, ok := w.eng.Peek()
	return !ok || at > until
}

// BusiestSources names what made the most events of the run so far, for a
// run that ran out of its budget: the containers with the most restarts
// and the probe workers with the most ticks, busiest first, at most n, as
// "pod web container app: 1.2M restarts, one every 1ns".
func (w *World) BusiestSources(n int) []string {
	type source struct {
		what  string
		count int64
	}
	var all []source
	elapsed := w.Now()
	for _, p := range w.pods {
		for i := range p.Containers() {
			s := p.specAt(i)
			if r := int64(p.StatusOf(i).RestartCount); r > 0 {
				all = append(all, source{fmt.Sprintf("pod %s container %s: %s restarts, one every %s",
					p.Name, s.Name, count(r), every(elapsed, r)), r})
			}
			for k, ticks := range w.kubelet.ProbeTicks(p, i) {
				if ticks > 0 {
					all = append(all, source{fmt.Sprintf("pod %s container %s: %s %s probe ticks, one every %s",
						p.Name, s.Name, count(ticks), strings.ToLower(ProbeKind(k).String()), s.probe(ProbeKind(k)).Period), ticks})
				}
			}
		}
	}
	slices.SortStableFunc(all, func(a, b source) int { return int(min(max(b.count-a.count, -1), 1)) })
	out := make([]string, 0, n)
	for i := 0; i < len(all) && i < n; i++ {
		out = append(out, all[i].what)
	}
	return out
}

// every is the mean gap between n things in d: "1ns", "2m30s", "under 1ns".
func every(d time.Duration, n int64) string {
	gap := time.Duration(math.Round(float64(d) / float64(n)))
	if gap == 0 {
		return "under 1ns"
	}
	return gap.String()
}

// count formats a large count compactly: 950, 12k, 1.2M.
func count(n int64) string {
	switch {
	case n >= 1e9:
		return fmt.Sprintf("%.1fG", float64(n)/1e9)
	case n >= 1e6:
		return fmt.Sprintf("%.1fM", float64(n)/1e6)
	case n >= 1e4:
		return fmt.Sprintf("%dk", n/1000)
	}
	return fmt.Sprint(n)
}
