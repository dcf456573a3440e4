package chart

import (
	"math"
	"time"
)

// What a bounded recorder keeps. A picture needs no more points than it
// has pixels: a lane (a container's intervals, a pod's phases, Ready
// condition or events, a node's, a workload's, an autoscaler's, a
// Service's rates) keeps its first laneDetail items exactly; past them,
// an item that falls in the same column of the run as the lane's last
// (pictureColumns columns from 0 to the run's end) merges into it. When
// the recorder holds maxItems items in all, every lane merges from then
// on and the columns halve, again at every further itemsStep items: what
// it keeps is bounded whatever the run's length and event count.
const (
	laneDetail     = 2000
	pictureColumns = 4096
	maxItems       = 2_000_000
	itemsStep      = 500_000
)

// Bound makes the recorder keep a bounded picture of a run that ends at
// horizon (see laneDetail). Without it, a recorder keeps every item.
func (r *Recorder) Bound(horizon time.Duration) {
	r.quantum = max(horizon/pictureColumns, 1)
	r.detail = laneDetail
	r.nextCoarsen = maxItems
}

// Merged reports whether the recorder merged items (a lane past its
// detail), so the picture is coarser than the run.
func (r *Recorder) Merged() bool { return r.merged }

// merges reports whether an item at t on a lane of n items whose last
// begins at last merges into that last item.
func (r *Recorder) merges(n int, last, t time.Duration) bool {
	if r.quantum == 0 || n == 0 || n < r.detail || last/r.quantum != t/r.quantum {
		return false
	}
	r.merged = true
	return true
}

// kept counts an item kept; past maxItems every lane merges and the
// columns halve at every itemsStep more.
func (r *Recorder) kept() {
	r.items++
	if r.quantum == 0 || r.items < r.nextCoarsen {
		return
	}
	r.detail = 0
	if r.quantum < math.MaxInt64/2 {
		r.quantum *= 2
	}
	r.nextCoarsen += itemsStep
}

// step appends s to steps, as addStep does; on a lane past its detail, a
// step in the column of the last one replaces its value (the column shows
// the last value it held).
func (r *Recorder) step(steps []step, s step) []step {
	if n := len(steps); n > 0 && steps[n-1].t != s.t && r.merges(n, steps[n-1].t, s.t) {
		steps[n-1].v, steps[n-1].reason = s.v, s.reason
		return steps
	}
	n := len(steps)
	if steps = addStep(steps, s); len(steps) > n {
		r.kept()
	}
	return steps
}

// mark appends m to marks; on a lane past its detail, an event in the
// column of the last one merges into it (a Warning shows over a Normal).
func (r *Recorder) mark(marks []mark, m mark) []mark {
	if n := len(marks); n > 0 && r.merges(n, marks[n-1].t, m.t) {
		if last := &marks[n-1]; m.warning && !last.warning {
			last.warning, last.reason, last.message = true, m.reason, m.message
		}
		return marks
	}
	r.kept()
	return append(marks, m)
}

// seg appends s to a container's intervals, as addSeg does; on a lane
// past its detail, an interval that begins in the column where the last
// began merges into it: it takes the latest restart count and exit, and
// the style that matters most (terminated over waiting over running).
func (r *Recorder) seg(segs []seg, s seg) []seg {
	if n := len(segs); n > 0 && r.merges(n, segs[n-1].start, s.start) {
		last := &segs[n-1]
		if weight(last.style) > weight(s.style) {
			s.style, s.reason = last.style, last.reason
		}
		s.start = last.start
		*last = s
		return segs
	}
	n := len(segs)
	if segs = addSeg(segs, s); len(segs) > n {
		r.kept()
	}
	return segs
}

// weight orders styles for merging: a termination shows over a wait, a
// wait over running.
func weight(style uint8) int {
	switch styles[style].state {
	case "Terminated":
		return 2
	case "Waiting":
		return 1
	}
	return 0
}
