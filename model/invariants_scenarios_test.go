package model_test

import (
	"testing"

	"github.com/podsim/podsim/internal/scenariogen"
	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/scenarios"
)

// TestInvariantsHoldInEveryScenario runs every valid scenario of the
// library and of testdata under the invariant checker (at most 2M events
// each).
func TestInvariantsHoldInEveryScenario(t *testing.T) {
	files, err := scenariogen.Files([]string{"../scenarios", "../testdata"})
	if err != nil {
		t.Fatal(err)
	}
	ran := 0
	for _, f := range files {
		s, err := scenarios.LoadFile(f)
		if err != nil {
			continue // invalid on purpose, or a study
		}
		ran++
		w := s.NewWorld()
		inv := model.NewInvariants(w)
		s.Populate(w)
		w.RunChecked(s.Duration, 2_000_000, nil) // testdata/runaway never ends: check what it does in a budget
		if err := inv.Err(); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	if ran < 30 {
		t.Errorf("only %d scenarios loaded", ran)
	}
}
