package serve

import (
	"runtime/debug"
	"testing"
	"time"
)

// TestTuneGCServesAtAQuarter: a frozen server that tunes the collector
// leaves it, once frozen, collecting at 25% growth under the memory limit
// it found (the run-up's batch settings are undone).
func TestTuneGCServesAtAQuarter(t *testing.T) {
	percent := debug.SetGCPercent(100)
	limit := debug.SetMemoryLimit(-1)
	defer func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	}()
	p := play(t, "../scenarios/demo.yaml", Options{At: time.Minute, TuneGC: true})
	p.freeze(t)
	if got := debug.SetGCPercent(100); got != frozenGCPercent {
		t.Errorf("GC percent once frozen: %d, want %d", got, frozenGCPercent)
	}
	if got := debug.SetMemoryLimit(-1); got != limit {
		t.Errorf("memory limit once frozen: %d, want the one before, %d", got, limit)
	}
}
