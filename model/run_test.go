package model

import (
	"testing"
	"time"
)

// RunChecked with its budget used up and nothing left before until still
// finishes: the clock moves to until.
func TestRunCheckedBudgetSpentButNothingLeft(t *testing.T) {
	w := newWorld(1, DefaultSettings())
	w.Schedule(time.Second, func() {})
	if end := w.RunChecked(2*time.Second, 1, nil); end != Finished || w.Now() != 2*time.Second {
		t.Fatalf("first run: %v at %v, want Finished at 2s", end, w.Now())
	}
	if end := w.RunChecked(5*time.Second, 1, nil); end != Finished || w.Now() != 5*time.Second {
		t.Fatalf("second run: %v at %v, want Finished at 5s", end, w.Now())
	}
	w.Schedule(6*time.Second, func() {})
	w.Schedule(20*time.Second, func() {}) // after until: the chunk ends at until
	if end := w.RunChecked(7*time.Second, 1, nil); end != OverBudget || w.Now() != 5*time.Second {
		t.Fatalf("third run: %v at %v, want OverBudget at 5s", end, w.Now())
	}
}

// RunChecked asks whether to stop every few hundred events, so that
// Ctrl-C ends even a run whose events are slow within a fraction of a
// second (it asked every 16,384).
func TestRunCheckedAsksOften(t *testing.T) {
	w := newWorld(1, DefaultSettings())
	for i := range 10_000 {
		w.Schedule(time.Duration(i)*time.Millisecond, func() {})
	}
	asked := 0
	w.RunChecked(time.Minute, 0, func() bool { asked++; return false })
	if fired := w.Engine().Fired(); asked < int(fired)/512 {
		t.Errorf("asked %d times in %d events, want at least every 512", asked, fired)
	}
}

// A run in which a part was told to stop never ends Finished, even when
// nothing is left before until: the part left work undone (a node
// autoscaler's pass cut short, whose re-run a new batch moved later).
func TestRunCheckedNeverFinishesAfterACut(t *testing.T) {
	// Ctrl-C, seen by the part at 5s; the rest of the chunk reaches until.
	w := newWorld(1, DefaultSettings())
	cut := false
	w.Schedule(5*time.Second, func() { cut = w.Interrupting() })
	w.Schedule(6*time.Second, func() {})
	w.Schedule(20*time.Second, func() {}) // after until: the chunk ends at until
	if end := w.RunChecked(10*time.Second, 0, func() bool { return w.Now() >= 5*time.Second }); end != Interrupted || !cut {
		t.Errorf("interrupted: ended %v (told to stop: %v), want Interrupted", end, cut)
	}
	// The budget, spent by the part's own reads in its only event.
	w = newWorld(1, DefaultSettings())
	cut = false
	w.Schedule(time.Second, func() {
		p := w.StartPass()
		p.Read(1000)
		cut = p.Stopping()
	})
	if end := w.RunChecked(10*time.Second, 10, nil); end != OverBudget || !cut {
		t.Errorf("over budget: ended %v (told to stop: %v), want OverBudget", end, cut)
	}
}
