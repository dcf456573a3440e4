package scenariogen

import (
	"io/fs"
	"path/filepath"
	"strings"
)

// Files lists the YAML files below the roots (the scenario library and
// testdata, for tests that run every scenario), in walk order. Folders
// named in skip are left out (testdata/runaway holds runs that never end).
func Files(roots []string, skip ...string) ([]string, error) {
	var files []string
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
				files = append(files, path)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return files, nil
}
