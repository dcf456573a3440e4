package model_test

import (
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/scenarios"
)

// TestInvariantsHoldInEveryScenario runs every valid scenario of the
// library and of testdata under the invariant checker (at most 2M events
// each).
func TestInvariantsHoldInEveryScenario(t *testing.T) {
	var files []string
	for _, root := range []string{"../scenarios", "../testdata"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(path, ".yaml") {
				files = append(files, path)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
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
