package serve

import (
	"os"
	"runtime/debug"
	"syscall"
	"testing"
	"time"

	"github.com/podsim/podsim/scenarios"
)

// BenchmarkStoreFleet: the crash-loop fleet of bench/ (1,000 pods) played
// for an hour with a store subscribed, as podsim serve --at 1h plays it:
// what the store costs on top of the run.
func BenchmarkStoreFleet(b *testing.B) {
	sc, err := scenarios.LoadFile("../bench/fleet.yaml")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	defer reportCPU(b)()
	for b.Loop() {
		s := New(sc, Options{At: time.Hour})
		s.world.Run(time.Hour)
	}
}

// BenchmarkScaleRunUp: podsim serve --at 1h of the 150k-pod envelope of
// bench/ run up to its frozen instant (the store published), with the
// collector as serve sets it (Options.TuneGC) unless GOGC or GOMEMLIMIT
// is set (GOGC=off: the run-up's own work, without the collector's, whose
// cycles fall where the scheduling of its workers puts them); beside
// BenchmarkScaleRun, the same run with no store, as podsim test runs it:
// what serve adds. Run them one at a time, once (-benchtime 1x): each
// allocates ~1 GB.
func BenchmarkScaleRunUp(b *testing.B) {
	sc := loadBench(b, "../bench/scale-150k.yaml")
	b.ReportAllocs()
	defer reportCPU(b)()
	for b.Loop() {
		s := New(sc, Options{At: time.Hour})
		frozen := func() {}
		if tuneGC() {
			frozen = tuneRunUpGC(runUpHeap(s.store.expectedPods(), len(s.world.Nodes())))
		}
		s.run.Run(nil)
		s.store.pause(s.world.Now())
		frozen()
	}
}

// BenchmarkScaleRun: the run of BenchmarkScaleRunUp with no store, with
// the collector as podsim's batch commands set it (unless GOGC or
// GOMEMLIMIT is set).
func BenchmarkScaleRun(b *testing.B) {
	sc := loadBench(b, "../bench/scale-150k.yaml")
	b.ReportAllocs()
	if tuneGC() {
		defer debug.SetGCPercent(debug.SetGCPercent(400))
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(1536 << 20))
	}
	defer reportCPU(b)()
	for b.Loop() {
		sc.Start(scenarios.RunOptions{Until: time.Hour}).Run(nil)
	}
}

// reportCPU reports the process's user CPU time per op (the collector's
// workers' too) when the returned func is called: on a shared machine,
// less noisy than the wall time.
func reportCPU(b *testing.B) func() {
	start := userCPU()
	return func() { b.ReportMetric(float64((userCPU()-start)/time.Millisecond)/float64(b.N), "user-ms/op") }
}

func userCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano())
}

// tuneGC is whether podsim would set the collector.
func tuneGC() bool { return os.Getenv("GOGC") == "" && os.Getenv("GOMEMLIMIT") == "" }

func loadBench(b *testing.B, path string) *scenarios.Scenario {
	sc, err := scenarios.LoadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	return sc
}
