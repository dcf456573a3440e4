package prober

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/podsim/podsim/model"
)

// A worker's next useful tick with many windows is the first tick of its
// grid that a window holds, as a scan of every window finds it.
func TestNextUsefulFindsWindowByBinarySearch(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	period := 10 * time.Second
	pr := &worker{spec: &model.ProbeSpec{Period: period}}
	for trial := range 200 {
		var ws []model.Window
		for range 1 + r.IntN(30) {
			w := model.Window{From: time.Duration(r.IntN(2000)) * time.Second, SinceStart: r.IntN(3) == 0}
			w.To = w.From + time.Duration(1+r.IntN(25))*time.Second
			ws = append(ws, w)
		}
		norm := model.NormalizeWindows(ws)
		startedAt := time.Duration(r.IntN(100)) * time.Second
		for tick := startedAt; tick < 2500*time.Second; tick += period {
			want := never
			for _, w := range ws {
				from, to := w.Span(startedAt)
				if f := pr.gridCeil(tick, from); f < want && (to == 0 || f < to) {
					want = f
				}
			}
			got := pr.firstTickIn(norm, tick, startedAt)
			if got != want {
				t.Fatalf("trial %d at %s: next %s, want %s", trial, tick, got, want)
			}
		}
	}
}
