package scenarios

import (
	"strings"
	"testing"
	"time"

	"github.com/podsim/podsim/model"
)

type countSink struct{ n int }

func (c *countSink) Change(*model.Change) { c.n++ }

func TestRunnerInstantsAndBudget(t *testing.T) {
	s, err := Demo()
	if err != nil {
		t.Fatal(err)
	}
	var seen countSink
	r := s.Start(RunOptions{Until: s.Duration, Attach: func(w *model.World) { w.Subscribe(&seen) }})
	if seen.n == 0 {
		t.Fatal("a sink attached by Start saw nothing of the population")
	}
	var at []time.Duration
	if end := r.Instants(nil, func(t time.Duration) { at = append(at, t) }); end != model.Finished {
		t.Fatalf("Instants ended %v", end)
	}
	for i := 1; i < len(at); i++ {
		if at[i] <= at[i-1] {
			t.Fatalf("instants out of order: %v after %v", at[i], at[i-1])
		}
	}
	if len(at) < 2 || r.World.Now() != s.Duration {
		t.Errorf("%d instants, the clock at %v: want several and %v", len(at), r.World.Now(), s.Duration)
	}

	short := s.Start(RunOptions{Until: s.Duration, MaxEvents: 10})
	if end := short.Run(nil); end != model.OverBudget {
		t.Fatalf("a run with a budget of 10 events ended %v", end)
	}
	if msg := short.OverBudgetError().Error(); !strings.Contains(msg, "budget of 10 events") || !strings.HasPrefix(msg, s.Path+":") {
		t.Errorf("OverBudgetError: %q", msg)
	}
}
