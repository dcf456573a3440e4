package serve

import (
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
	for b.Loop() {
		s := New(sc, Options{At: time.Hour})
		s.world.Run(time.Hour)
	}
}
