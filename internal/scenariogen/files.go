package scenariogen

import (
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/podsim/podsim/scenarios"
)

// Valid loads every valid scenario in the YAML files below the roots (the
// library and testdata, for tests that run them all), in walk order; files
// that do not load (invalid on purpose, studies) are left out, and so are
// folders named in skip (testdata/runaway holds runs that never end).
func Valid(roots []string, skip ...string) ([]*scenarios.Scenario, error) {
	var out []*scenarios.Scenario
	for _, root := range roots {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				for _, s := range skip {
					if d.Name() == s {
						return filepath.SkipDir
					}
				}
				return nil
			}
			if strings.HasSuffix(path, ".yaml") {
				if s, err := scenarios.LoadFile(path); err == nil {
					out = append(out, s)
				}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}
