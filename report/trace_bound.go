package report

import (
	"strconv"
	"time"
)

// What a trace writes is bounded, so that a run that changes something at
// nearly every event (a crash loop of centuries, stopped by its event
// budget) gives a file a trace viewer opens:
//   - a lane (a thread, or the counters of one process) keeps its first
//     traceLaneEvents events; past them its events are counted, not
//     written, and Close writes one note on the lane: a complete event
//     "trace truncated: N events not written" from the first it left out
//     to the last (on a thread), or an instant event of the process at
//     the first (for counters);
//   - the whole trace keeps traceTotalEvents events; past them no event is
//     written, and Close writes one global instant event at the first it
//     left out.
//
// An event counts when it is written: an instant at its time, a state
// (a complete event) when it ends.
//
// Names ("M" events) and notes are not counted: there are at most a few
// per object. The bounds sit above what a library scenario writes, so a
// normal run's trace is whole.
var (
	traceLaneEvents  = 50_000
	traceTotalEvents = 4_000_000
)

// traceLane counts what one lane wrote and left out: when, and in which
// process (a pod's thread moves to its node's).
type traceLane struct {
	written, dropped int
	from, to         time.Duration
	pid              int
}

// lane is the lane of thread tid, or of pid's counters when tid is 0.
func (t *Trace) lane(pid, tid int) *traceLane {
	lanes, i := &t.threadLanes, tid
	if tid == 0 {
		lanes, i = &t.procLanes, pid
	}
	if i >= len(*lanes) {
		*lanes = append(*lanes, make([]traceLane, i+1-len(*lanes))...)
	}
	return &(*lanes)[i]
}

// admit says whether an event of lane (pid, tid) is written, and counts
// it either way; at is when it is written (an instant's time, a state's
// end).
func (t *Trace) admit(pid, tid int, at time.Duration) bool {
	l := t.lane(pid, tid)
	switch {
	case l.written < traceLaneEvents && t.written < traceTotalEvents:
		l.written++
		t.written++
		return true
	case l.written < traceLaneEvents: // the trace's bound
		if t.dropped == 0 {
			t.droppedFrom = at
		}
		t.dropped++
		return false
	}
	if l.dropped == 0 {
		l.from = at
	}
	l.to = max(l.to, at)
	l.dropped++
	l.pid = pid
	return false
}

// notes writes the notes of the lanes that left events out, threads in
// order of tid, then processes in order of pid, then the trace's own.
func (t *Trace) notes() {
	for tid := range t.threadLanes {
		if l := &t.threadLanes[tid]; l.dropped > 0 {
			b := t.note(l, 'X', tid)
			b = append(b, `,"dur":`...)
			b = appendMicros(b, l.to-l.from)
			t.write(t.noteArgs(b, l.dropped))
		}
	}
	for pid := range t.procLanes {
		if l := &t.procLanes[pid]; l.dropped > 0 {
			l.pid = pid
			b := append(t.note(l, 'i', 0), `,"s":"p"`...)
			t.write(t.noteArgs(b, l.dropped))
		}
	}
	if t.dropped > 0 {
		g := traceLane{pid: t.cluster.pid, from: t.droppedFrom, dropped: t.dropped}
		b := append(t.note(&g, 'i', 0), `,"s":"g"`...)
		t.write(t.noteArgs(b, t.dropped))
	}
}

// note starts the note of lane l: its name, phase, pid, tid and ts.
func (t *Trace) note(l *traceLane, ph byte, tid int) []byte {
	b := t.head("trace truncated: "+strconv.Itoa(l.dropped)+" events not written", "podsim", ph, l.pid, tid)
	return appendTS(b, l.from)
}

// noteArgs closes a note with the count it left out and the bounds.
func (t *Trace) noteArgs(b []byte, dropped int) []byte {
	b = append(b, `,"args":{"dropped":`...)
	b = strconv.AppendInt(b, int64(dropped), 10)
	b = append(b, `,"laneEvents":`...)
	b = strconv.AppendInt(b, int64(traceLaneEvents), 10)
	b = append(b, `,"totalEvents":`...)
	b = strconv.AppendInt(b, int64(traceTotalEvents), 10)
	return append(b, "}}"...)
}
