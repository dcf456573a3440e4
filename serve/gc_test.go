package serve

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// TestTuneGCServesAtAQuarter: a frozen server that tunes the collector
// leaves it, once frozen, collecting at 25% growth under the memory limit
// it found (the run-up's batch settings are undone).
func TestTuneGCServesAtAQuarter(t *testing.T) {
	limit := plainGC(t)
	p := play(t, "../scenarios/demo.yaml", Options{At: time.Minute, TuneGC: true})
	p.freeze(t)
	if got := debug.SetGCPercent(100); got != frozenGCPercent {
		t.Errorf("GC percent once frozen: %d, want %d", got, frozenGCPercent)
	}
	if got := debug.SetMemoryLimit(-1); got != limit {
		t.Errorf("memory limit once frozen: %d, want the one before, %d", got, limit)
	}
}

// TestRunUpGCWaitsForTheHeap: a run-up that will take far more heap than
// is live collects first once the heap has grown to about it, and once
// frozen at a quarter.
func TestRunUpGCWaitsForTheHeap(t *testing.T) {
	plainGC(t)
	runtime.GC()
	live := liveHeap()
	frozen := tuneRunUpGC(50 * live)
	if got := debug.SetGCPercent(runUpGCPercent); got < 4000 {
		t.Errorf("GC percent for a heap 50 times the live one: %d, want about 5000", got)
	}
	frozen()
	if got := debug.SetGCPercent(100); got != frozenGCPercent {
		t.Errorf("GC percent once frozen: %d, want %d", got, frozenGCPercent)
	}
}

// TestAfterNextGC: f runs once a collection has run.
func TestAfterNextGC(t *testing.T) {
	done := make(chan struct{})
	afterNextGC(func() { close(done) })
	runtime.GC()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("not run after a collection")
	}
}

// plainGC sets the collector to GOGC 100 and no memory limit for t, and
// back as it was when t ends; it returns the limit it found.
func plainGC(t *testing.T) int64 {
	percent := debug.SetGCPercent(100)
	limit := debug.SetMemoryLimit(-1)
	t.Cleanup(func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	})
	return limit
}
