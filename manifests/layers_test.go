package manifests

import (
	"go/build"
	"path/filepath"
	"strings"
	"testing"
)

// The Kubernetes API modules stay out of the simulator: sim, model and
// scenarios import no k8s.io package, directly or through another package
// of podsim. This package is where they come in.
func TestNoKubernetesModulesBelowManifests(t *testing.T) {
	const module = "github.com/podsim/podsim"
	seen := map[string]bool{}
	var walk func(path, from string)
	walk = func(path, from string) {
		if seen[path] {
			return
		}
		seen[path] = true
		if strings.HasPrefix(path, "k8s.io/") || strings.HasPrefix(path, "sigs.k8s.io/") {
			t.Errorf("%s imports %s", from, path)
			return
		}
		rel, ok := strings.CutPrefix(path, module)
		if !ok {
			return // the standard library and other modules import no podsim package
		}
		pkg, err := build.ImportDir(filepath.Join("..", filepath.FromSlash(rel)), 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range pkg.Imports {
			walk(imp, path)
		}
	}
	for _, p := range []string{"sim", "model", "scenarios"} {
		walk(module+"/"+p, "")
	}
	if !seen[module+"/internal/yamlstrict"] {
		t.Fatal("the walk did not reach scenarios' imports")
	}
}
