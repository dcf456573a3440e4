package chart

import (
	"bytes"
	"testing"
	"time"

	"github.com/podsim/podsim/scenarios"
)

// The demo over twenty years (its web pod OOM-killed into
// CrashLoopBackOff every five minutes, two million restarts): a bounded
// recorder keeps each lane's first laneDetail items and then one per
// column of the run; an unbounded one keeps every restart.
func TestBoundedRecorderKeepsAPictureNotTheRun(t *testing.T) {
	s, err := scenarios.Demo()
	if err != nil {
		t.Fatal(err)
	}
	s.Duration = 20 * 365 * 24 * time.Hour
	run := func(bound bool) *Recorder {
		w := s.NewWorld()
		r := NewRecorder()
		if bound {
			r.Bound(s.Duration)
		}
		w.Subscribe(r)
		s.Populate(w)
		w.RunChecked(s.Duration, 400_000, nil)
		return r
	}
	most := func(r *Recorder) (n int) {
		for _, p := range r.pods {
			n = max(n, len(p.marks), len(p.phases), len(p.ready))
			for _, c := range p.conts {
				n = max(n, len(c.segs))
			}
		}
		return n
	}
	bounded, all := run(true), run(false)
	if most(all) < 20_000 {
		t.Fatalf("unbounded: at most %d items in a lane; the demo should restart more", most(all))
	}
	if most(bounded) > laneDetail+pictureColumns+1 {
		t.Errorf("bounded: %d items in a lane, want at most %d", most(bounded), laneDetail+pictureColumns+1)
	}
	if !bounded.Merged() || all.Merged() {
		t.Errorf("Merged: bounded %v, unbounded %v", bounded.Merged(), all.Merged())
	}
	var page, svg bytes.Buffer
	m := Meta{Title: "demo", End: s.Duration}
	if err := bounded.WriteHTML(&page, m); err != nil {
		t.Fatal(err)
	}
	if err := bounded.WriteSVG(&svg, m); err != nil {
		t.Fatal(err)
	}
	if page.Len() > 1<<20 || svg.Len() > 4<<20 {
		t.Errorf("page %d bytes, svg %d bytes: want a picture, not the run", page.Len(), svg.Len())
	}
}

// Past maxItems in all, every lane merges and the columns halve: many
// lanes each under their detail cannot add up without bound.
func TestBoundedRecorderCoarsensEveryLane(t *testing.T) {
	r := NewRecorder()
	r.Bound(time.Hour)
	q := r.quantum
	r.items = maxItems - 1
	r.kept()
	if r.detail != 0 || r.quantum != 2*q || r.nextCoarsen != maxItems+itemsStep {
		t.Errorf("after %d items: detail %d, quantum %v (was %v), next %d", r.items, r.detail, r.quantum, q, r.nextCoarsen)
	}
}
