package sim

import (
	"strings"
	"testing"
	"time"
)

// TestScheduleKey checks that an explicit Key places a Timer after the
// events scheduled before its instant and before those scheduled at or
// after it, that keyed Timers of one instant run in Seq order, and that the
// Key a Timer got from Schedule puts it back in the same place.
func TestScheduleKey(t *testing.T) {
	e := New(1)
	var got []string
	mk := func(name string) *Timer { return NewTimer(func() { got = append(got, name) }) }
	early := mk("early") // scheduled at 0 for 20
	e.Schedule(early, 20, Normal)
	again := mk("again") // its Key is taken, then it is stopped and put back
	e.Schedule(again, 20, Normal)
	k := again.Key()
	e.Stop(again)
	e.At(10, Normal, func() {
		e.Schedule(mk("at10"), 20, Normal) // scheduled at 10
		e.Schedule(mk("urgent"), 20, Urgent)
	})
	e.Run(5)
	e.Schedule(mk("at5"), 20, Normal) // scheduled at 5
	e.ScheduleKey(mk("k10b"), 20, Normal, Key{At: 10, Seq: 2})
	e.ScheduleKey(mk("k10a"), 20, Normal, Key{At: 10, Seq: 1})
	e.ScheduleKey(mk("k5"), 20, Normal, Key{At: 5, Seq: 9})
	e.ScheduleKey(again, 20, Normal, k)
	seq := e.seq
	e.Run(time.Minute)
	if e.seq != seq+2 {
		t.Errorf("ScheduleKey took sequence numbers: %d, want %d", e.seq, seq+2)
	}
	if s, want := strings.Join(got, " "), "urgent early again k5 at5 k10a k10b at10"; s != want {
		t.Errorf("order = %q, want %q", s, want)
	}
}

// TestPassed checks Passed inside handlers, after Step and after Run.
func TestPassed(t *testing.T) {
	e := New(1)
	if e.Passed(0, Urgent, Key{}) {
		t.Errorf("Passed before anything ran")
	}
	var a, b *Timer
	check := func(name string, at time.Duration, p Priority, k Key, want bool) {
		t.Helper()
		if got := e.Passed(at, p, k); got != want {
			t.Errorf("%s: Passed(%v, %v, %+v) = %v, want %v", name, at, p, k, got, want)
		}
	}
	a = NewTimer(func() {
		check("self", 10, Normal, a.Key(), true)
		check("b", 10, Normal, b.Key(), false)
		check("keyed before", 10, Normal, Key{At: 0, Seq: 0}, true)
		check("keyed after", 10, Normal, Key{At: 5}, false)
		check("urgent", 10, Urgent, Key{At: 9}, true)
		check("late", 10, Late, Key{}, false)
		check("earlier time", 9, Late, Key{At: 9}, true)
		check("later time", 11, Urgent, Key{}, false)
	})
	b = NewTimer(func() {})
	e.Schedule(a, 10, Normal)
	e.Schedule(b, 10, Normal)
	e.Step()
	check("after Step", 10, Normal, b.Key(), false)
	e.Run(10)
	check("after Run", 10, Late, Key{At: 10, Seq: 1 << 50}, true)
}
