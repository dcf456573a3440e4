package kubelet

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/podsim/podsim/model"
)

func TestCrashProbability(t *testing.T) {
	for _, tc := range []struct {
		p        float64
		restarts bool
	}{{1, true}, {0, false}} {
		b := &model.Behavior{Runs: []model.RunSpec{{Forever: true, ExitAfter: time.Minute, CrashProbability: tc.p, Times: 1}}}
		w, p := world(t, model.RestartAlways, b, model.DefaultSettings())
		w.Run(5 * time.Minute)
		st := p.Status()
		cs, _ := st.Container("app")
		if got := cs.RestartCount > 0; got != tc.restarts {
			t.Errorf("crashProbability %g: restarts %d", tc.p, cs.RestartCount)
		}
		if tc.restarts {
			if last, _ := cs.Terminated(); last.ExitCode != 1 || last.Reason != model.ReasonError {
				t.Errorf("crashProbability 1: last exit %+v, want Error 1", last)
			}
		}
	}
}

// TestExitAfterDist checks that each run draws its own exitAfter from the
// container's stream, and that the same seed draws the same.
func TestExitAfterDist(t *testing.T) {
	run := func() []float64 {
		b := &model.Behavior{Runs: []model.RunSpec{{ExitAfterDist: model.Uniform{Min: time.Second, Max: time.Minute}, ExitCode: 1, Times: 1}}}
		w, _ := world(t, model.RestartAlways, b, model.DefaultSettings())
		w.Run(30 * time.Minute)
		return starts(w)
	}
	a, b := run(), run()
	if len(a) < 4 || len(a) != len(b) {
		t.Fatalf("starts %v and %v", a, b)
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("same seed, different starts: %v vs %v", a, b)
		}
	}
	// The first run lasts a draw from uniform(1s, 1m), then the restart is
	// immediate: the second start is at that draw.
	if a[1] < 1 || a[1] > 60 {
		t.Errorf("second start at %vs, want within [1s, 60s]", a[1])
	}
}

// TestEmpiricalRoundsToTheMillisecond checks that empirical samples are
// rounded like every other distribution's.
func TestEmpiricalRoundsToTheMillisecond(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	e := model.Empirical{Values: []time.Duration{1234567, 7600 * time.Microsecond}}
	seen := map[time.Duration]bool{}
	for range 100 {
		x := e.Sample(r)
		if x != time.Millisecond && x != 8*time.Millisecond {
			t.Fatalf("empirical sample %v, want 1ms or 8ms", x)
		}
		seen[x] = true
	}
	if len(seen) != 2 {
		t.Errorf("empirical picked %v, want both values", seen)
	}
}
