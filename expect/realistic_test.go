package expect_test

import (
	"path/filepath"
	"testing"

	"github.com/podsim/podsim/expect"
	"github.com/podsim/podsim/scenarios"
)

// TestRealisticScenariosHoldForEverySeed runs each scenario of
// scenarios/realistic, whose expectations are ranges of what the pod
// worker's jitter allows, with 100 seeds: every expectation must hold for
// every seed, not only for the one the file names.
func TestRealisticScenariosHoldForEverySeed(t *testing.T) {
	files, err := filepath.Glob("../scenarios/realistic/*.yaml")
	if err != nil || len(files) < 3 {
		t.Fatalf("realistic scenarios: %v, %v", files, err)
	}
	for _, f := range files {
		s, err := scenarios.LoadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for seed := range uint64(100) {
			s.Seed = seed
			w := s.NewWorld()
			c := expect.Arm(s, w)
			s.Populate(w)
			w.Run(s.Duration)
			c.Finish()
			for _, v := range c.Verdicts() {
				for _, fl := range v.Failures {
					t.Errorf("%s seed %d: %s", f, seed, v.String(fl))
				}
			}
			if t.Failed() {
				return
			}
		}
	}
}
