package model_test

import (
	"fmt"
	"testing"

	"github.com/podsim/podsim/internal/scenariogen"
	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/scenarios"
)

// fuzzEventBudget bounds one fuzzed run: a generated scenario (at most 10
// minutes, a few pods) needs far fewer events; more means a loop.
const fuzzEventBudget = 2_000_000

// FuzzModel runs a random valid scenario, generated from the input bytes,
// under the invariant checker: it fails on a violation, a panic, or a run
// that does not finish within the event budget (a loop at one instant).
// The seed corpus is testdata/fuzz/FuzzModel; plain `go test` replays it.
func FuzzModel(f *testing.F) {
	for _, seed := range []string{"", "podsim", "\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f"} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		src := scenariogen.FromBytes(data)
		s, err := scenarios.Parse("fuzz.yaml", []byte(src))
		if err != nil {
			t.Fatalf("the generator wrote an invalid scenario: %v\n%s", err, src)
		}
		for _, mode := range []model.KubeletSync{model.SyncExact, model.SyncRealistic} {
			if err := runChecked(s, mode); err != nil {
				t.Fatalf("kubeletSync %s: %v\nscenario:\n%s", mode, err, src)
			}
		}
	})
}

// runChecked runs s to its end in a kubelet sync mode under the invariant
// checker, within fuzzEventBudget events.
func runChecked(s *scenarios.Scenario, mode model.KubeletSync) error {
	w := s.NewWorld()
	w.SetKubeletSync(mode)
	inv := model.NewInvariants(w)
	s.Populate(w)
	eng := w.Engine()
	for n := 0; ; n++ {
		at, ok := eng.Peek()
		if !ok || at > s.Duration {
			break
		}
		if n == fuzzEventBudget {
			return &budgetError{at: at.String(), changes: w.ChangeCount()}
		}
		eng.Step()
		if inv.Err() != nil {
			break
		}
	}
	return inv.Err()
}

type budgetError struct {
	at      string
	changes int
}

func (e *budgetError) Error() string {
	return fmt.Sprintf("no end after %d events (now %s, %d changes): a loop?", fuzzEventBudget, e.at, e.changes)
}
