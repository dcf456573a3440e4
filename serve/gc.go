package serve

import (
	"runtime/debug"
)

// The collector's settings of a frozen server (Options.TuneGC).
const (
	runUpGCPercent = 400 // during the run-up, as podsim's batch commands
	// A soft limit (the runtime collects harder near it, it never fails):
	// twice the batch commands', as a server holds its store beside the
	// model, about as much again.
	runUpMemoryLimit = 3 << 30
	frozenGCPercent  = 25 // once frozen: reads make only garbage
)

// tuneRunUpGC sets the collector for a frozen server's run-up, which
// allocates what nearly all stays live: it collects at five times the
// live heap, and more often as the heap nears runUpMemoryLimit. It
// returns what sets it for serving: a collection each time reads have
// made a quarter of the live heap in garbage, so that the heap stays near
// what the frozen cluster holds however often it is read.
func tuneRunUpGC() (frozen func()) {
	percent := debug.SetGCPercent(runUpGCPercent)
	limit := debug.SetMemoryLimit(runUpMemoryLimit)
	return func() {
		debug.SetMemoryLimit(limit)
		debug.SetGCPercent(min(percent, frozenGCPercent))
	}
}

// giveBack collects the run-up's garbage and gives the free pages back to
// the system. The run-up makes little garbage (a dark store renders
// nothing per change): it waits until the cluster is served.
func giveBack() { debug.FreeOSMemory() }
