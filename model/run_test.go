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
