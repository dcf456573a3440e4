package replicaset_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/podsim/podsim/internal/scenariogen"
	"github.com/podsim/podsim/model/controller/replicaset"
	"github.com/podsim/podsim/scenarios"
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

// The same, for random rich scenarios (probes, crashes, rollouts,
// evictions, node faults, scale-downs) whose ReplicaSets and Deployments
// wait minReadySeconds, which the library seldom sets.
func TestCountsAreThoseOfAllPodsWithMinReady(t *testing.T) {
	var failed string
	defer replicaset.CheckCounts(func(msg string) {
		if failed == "" {
			failed = msg
		}
	})()
	ran := 0
	for i := range 60 {
		src := scenariogen.Random(rand.New(rand.NewPCG(uint64(i), 11)), i, scenariogen.Config{Rich: true, SinceStart: i%2 == 1})
		minReady := []string{"1", "3", "7", "15", "30"}[i%5]
		src = strings.ReplaceAll(src, "      spec:\n        replicas:", "      spec:\n        minReadySeconds: "+minReady+"\n        replicas:")
		s, err := scenarios.Parse(fmt.Sprintf("random-%d.yaml", i), []byte(src))
		if err != nil {
			continue
		}
		ran++
		failed = ""
		w := s.NewWorld()
		s.Populate(w)
		w.RunChecked(s.Duration, 300_000, nil)
		if failed != "" {
			t.Errorf("random %d: %s\n%s", i, failed, src)
		}
	}
	if ran < 40 {
		t.Errorf("only %d of 60 random scenarios loaded", ran)
	}
}
