package serve

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
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
// allocates what nearly all stays live, about heap bytes (0: unknown): it
// collects first once the heap has grown to that (before, each collection
// would mark nearly all of a heap still growing, for little back), then
// at five times the live heap, and more often as the heap nears
// runUpMemoryLimit. It returns what sets it for serving: a collection
// each time reads have made a quarter of the live heap in garbage, so
// that the heap stays near what the frozen cluster holds however often it
// is read.
func tuneRunUpGC(heap int64) (frozen func()) {
	first := runUpGCPercent
	if live := liveHeap(); live > 0 && heap/live > 5 {
		first = int(heap * 100 / live)
	}
	var mu sync.Mutex
	serving := false
	percent := debug.SetGCPercent(first)
	limit := debug.SetMemoryLimit(runUpMemoryLimit)
	if first != runUpGCPercent {
		afterNextGC(func() {
			mu.Lock()
			defer mu.Unlock()
			if !serving {
				debug.SetGCPercent(runUpGCPercent)
			}
		})
	}
	return func() {
		mu.Lock()
		defer mu.Unlock()
		serving = true
		debug.SetMemoryLimit(limit)
		debug.SetGCPercent(min(percent, frozenGCPercent))
	}
}

// liveHeap is the heap the last collection found live, in bytes: what the
// collector's percent is of.
func liveHeap() int64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(s[0].Value.Uint64())
}

// sentinel is an object with a pointer, so that it has a block of its
// own, on which a finalizer runs once a collection found it unreachable.
type sentinel struct{ _ *byte }

// afterNextGC runs f (on the finalizers' goroutine) after the next
// collection.
func afterNextGC(f func()) {
	runtime.SetFinalizer(&sentinel{}, func(*sentinel) { f() })
}

// runUpHeap is about the heap a run-up to pods pods on nodes nodes takes,
// world and store (as scenarios' reserveHeap counts it: ~3 KB a pod on the
// 150k envelope).
func runUpHeap(pods, nodes int) int64 { return int64(pods)<<12 + int64(nodes)<<14 }

// giveBack collects the run-up's garbage and gives the free pages back to
// the system. The run-up makes little garbage (a dark store renders
// nothing per change): it waits until the cluster is served.
func giveBack() { debug.FreeOSMemory() }
