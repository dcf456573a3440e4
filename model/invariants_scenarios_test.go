package model_test

import (
	"testing"

	"github.com/podsim/podsim/internal/scenariogen"
	"github.com/podsim/podsim/model"
)

// TestInvariantsHoldInEveryScenario runs every valid scenario of the
// library and of testdata under the invariant checker (at most 2M events
// each).
func TestInvariantsHoldInEveryScenario(t *testing.T) {
	all, err := scenariogen.Valid([]string{"../scenarios", "../testdata"})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range all {
		w := s.NewWorld()
		inv := model.NewInvariants(w)
		s.Populate(w)
		w.RunChecked(s.Duration, 2_000_000, nil) // testdata/runaway never ends: check what it does in a budget
		if err := inv.Err(); err != nil {
			t.Errorf("%s: %v", s.Path, err)
		}
	}
	if len(all) < 30 {
		t.Errorf("only %d scenarios loaded", len(all))
	}
}
