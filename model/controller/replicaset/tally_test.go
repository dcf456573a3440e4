package replicaset_test

import (
	"testing"

	"github.com/podsim/podsim/internal/scenariogen"
	"github.com/podsim/podsim/model/controller/replicaset"
)

// The counts the controller keeps as pods change are, at every sync of
// every ReplicaSet and Deployment in the library and testdata, those of
// counting all of its pods.
func TestCountsAreThoseOfAllPods(t *testing.T) {
	all, err := scenariogen.Valid([]string{"../../../scenarios", "../../../testdata"}, "slow")
	if err != nil {
		t.Fatal(err)
	}
	var failed string
	defer replicaset.CheckCounts(func(msg string) {
		if failed == "" {
			failed = msg
		}
	})()
	for _, s := range all {
		failed = ""
		w := s.NewWorld()
		s.Populate(w)
		w.RunChecked(s.Duration, 300_000, nil)
		if failed != "" {
			t.Errorf("%s: %s", s.Path, failed)
		}
	}
	if len(all) < 30 {
		t.Errorf("only %d scenarios loaded", len(all))
	}
}
