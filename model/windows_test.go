package model

import (
	"math/rand/v2"
	"testing"
	"time"
)

// Normalized windows fail a probe at the same instants as the windows as
// written, and a prober's next useful tick is the first tick of its grid
// inside one of them, found by binary search.
func TestNormalizeWindows(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := range 300 {
		var ws []Window
		for range r.IntN(12) {
			w := Window{From: time.Duration(r.IntN(100)) * time.Second, SinceStart: r.IntN(2) == 0}
			if r.IntN(6) > 0 {
				w.To = w.From + time.Duration(1+r.IntN(20))*time.Second
			}
			ws = append(ws, w)
		}
		norm := NormalizeWindows(ws)
		startedAt := time.Duration(r.IntN(50)) * time.Second
		for now := time.Duration(0); now < 200*time.Second; now += 500 * time.Millisecond {
			want := false
			for _, w := range ws {
				want = want || w.Contains(now, startedAt)
			}
			if got := anyContains(norm, now, startedAt); got != want {
				t.Fatalf("trial %d: %+v normalized %+v: at %s (started %s) fails %v, want %v", trial, ws, norm, now, startedAt, got, want)
			}
		}
		for i := 1; i < len(norm); i++ {
			if a, b := norm[i-1], norm[i]; a.SinceStart == b.SinceStart && (a.To == 0 || a.To >= b.From) || a.SinceStart && !b.SinceStart {
				t.Fatalf("not normalized: %+v", norm)
			}
		}
	}
}
