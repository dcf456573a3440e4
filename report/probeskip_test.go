package report_test

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/podsim/podsim/internal/scenariogen"
	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/report"
	"github.com/podsim/podsim/scenarios"
)

// timeline runs s to its end in a kubelet sync mode, every probe tick run
// or the no-op ones skipped, and returns its timeline as JSON lines and the
// events fired.
func timeline(t *testing.T, s *scenarios.Scenario, mode model.KubeletSync, everyTick bool) ([]byte, uint64) {
	t.Helper()
	var b bytes.Buffer
	lines := report.NewJSONL(&b)
	w := s.Build(lines)
	w.SetKubeletSync(mode)
	w.SetProbeEveryTick(everyTick)
	until := s.Duration
	if mode == model.SyncRealistic {
		until = min(until, realisticHorizon)
	}
	w.Run(until)
	if err := lines.Err(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes(), w.Engine().Fired()
}

// realisticHorizon bounds the realistic runs: the pod worker syncs every pod
// every 10 to 91 seconds, so the centuries some hostile scenarios last would
// be billions of syncs.
const realisticHorizon = 48 * time.Hour

// sameBothWays checks that skipping probe ticks leaves s's timeline in a
// kubelet sync mode byte-identical; it returns the events fired with and
// without skipping.
func sameBothWays(t *testing.T, name string, s *scenarios.Scenario, mode model.KubeletSync) (every, skip uint64) {
	t.Helper()
	name += " (" + mode.String() + ")"
	a, every := timeline(t, s, mode, true)
	b, skip := timeline(t, s, mode, false)
	if !bytes.Equal(a, b) {
		al, bl := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
		for i := 0; i < len(al) && i < len(bl); i++ {
			if al[i] != bl[i] {
				t.Errorf("%s: timelines differ at line %d:\nevery tick: %s\nskipping:   %s", name, i+1, al[i], bl[i])
				return
			}
		}
		t.Errorf("%s: timelines differ in length: %d lines every tick, %d skipping", name, len(al), len(bl))
	}
	return every, skip
}

// TestProbeSkippingKeepsTimelines runs every scenario of the library and of
// testdata (those that load) with and without skipping probe ticks, in both
// kubelet sync modes.
func TestProbeSkippingKeepsTimelines(t *testing.T) {
	all, err := scenariogen.Valid([]string{"../scenarios", "../testdata"}, "runaway", "slow") // runaway: runs that never end; slow: hostile files too big
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range all {
		for _, mode := range []model.KubeletSync{model.SyncExact, model.SyncRealistic} {
			every, skip := sameBothWays(t, s.Path, s, mode)
			t.Logf("%s (%s): %d events every tick, %d skipping", s.Path, mode, every, skip)
		}
	}
	if len(all) < 30 {
		t.Errorf("only %d scenarios loaded", len(all))
	}
}

// TestProbeSkippingRandom runs random scenarios full of probes, failure
// windows, distributions and faults at odd moments both ways.
func TestProbeSkippingRandom(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 30
	}
	var every, skip uint64
	for i := range n {
		// Odd ones have windows since each start of the container.
		src := scenariogen.Random(rand.New(rand.NewPCG(uint64(i), 7)), i, scenariogen.Config{SinceStart: i%2 == 1})
		s, err := scenarios.Parse(fmt.Sprintf("random-%d.yaml", i), []byte(src))
		if err != nil {
			t.Fatalf("random scenario %d does not load: %v\n%s", i, err, src)
		}
		for _, mode := range []model.KubeletSync{model.SyncExact, model.SyncRealistic} {
			e, k := sameBothWays(t, fmt.Sprintf("random scenario %d", i), s, mode)
			every, skip = every+e, skip+k
		}
		if t.Failed() {
			t.Logf("scenario:\n%s", src)
			return
		}
	}
	t.Logf("%d scenarios: %d events every tick, %d skipping", n, every, skip)
}

// BenchmarkFleet runs the shared bench's fleet (1,000 crash-looping pods,
// two probes each every 10s, 6h) with every probe tick and skipping the
// no-op ones, and with the realistic pod worker (skipping), and reports
// the engine events fired per run.
func BenchmarkFleet(b *testing.B) {
	const path = "../bench/fleet.yaml"
	s, err := scenarios.LoadFile(path)
	if err != nil {
		b.Skip(err)
	}
	for _, tc := range []struct {
		name  string
		every bool
		mode  model.KubeletSync
	}{{"everyTick=true", true, model.SyncExact}, {"everyTick=false", false, model.SyncExact}, {"kubeletSync=realistic", false, model.SyncRealistic}} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			var fired uint64
			for b.Loop() {
				w := s.Build(report.NewJSONL(io.Discard))
				w.SetKubeletSync(tc.mode)
				w.SetProbeEveryTick(tc.every)
				w.Run(s.Duration)
				fired = w.Engine().Fired()
			}
			b.ReportMetric(float64(fired), "events/op")
		})
	}
}
