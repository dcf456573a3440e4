package main

import (
	"os"
	"runtime/debug"
	"testing"
)

// Batch commands collect at five times the live heap under a soft limit;
// serve keeps the runtime's settings, and so does a GOGC from the user.
func TestBatchGC(t *testing.T) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		t.Skip("GOGC or GOMEMLIMIT set")
	}
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	for _, tc := range []struct {
		cmd     string
		percent int
	}{{"serve", 100}, {"test", batchGCPercent}, {"run", batchGCPercent}} {
		debug.SetGCPercent(100)
		batchGC([]string{tc.cmd, "x.yaml"})
		if got := debug.SetGCPercent(100); got != tc.percent {
			t.Errorf("%s: GC percent %d, want %d", tc.cmd, got, tc.percent)
		}
	}
	if got := debug.SetMemoryLimit(-1); got != batchMemoryLimit {
		t.Errorf("memory limit %d, want %d", got, batchMemoryLimit)
	}
}
