package model_test

import (
	"testing"
	"time"

	"github.com/podsim/podsim/internal/scenariogen"
	"github.com/podsim/podsim/model"
)

// TestInvariantsHoldInEveryScenario runs every valid scenario of the
// library and of testdata under the invariant checker (at most 2M events
// each), in both kubelet sync modes.
func TestInvariantsHoldInEveryScenario(t *testing.T) {
	all, err := scenariogen.Valid([]string{"../scenarios", "../testdata"}, "slow") // slow: hostile files too big to run twice per test
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range all {
		for _, mode := range []model.KubeletSync{model.SyncExact, model.SyncRealistic} {
			w := s.NewWorld()
			w.SetKubeletSync(mode)
			inv := model.NewInvariants(w)
			s.Populate(w)
			until := s.Duration
			if mode == model.SyncRealistic {
				until = min(until, 48*time.Hour) // the pod worker syncs every minute or so: centuries are billions of syncs
			}
			w.RunChecked(until, 2_000_000, nil) // testdata/runaway never ends: check what it does in a budget
			if err := inv.Err(); err != nil {
				t.Errorf("%s (%s): %v", s.Path, mode, err)
			}
		}
	}
	if len(all) < 30 {
		t.Errorf("only %d scenarios loaded", len(all))
	}
}
