package expect

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/podsim/podsim/scenarios"
)

// GoldenResult is the comparison of a scenario's timeline with its golden
// file, DIR/<scenario name>.jsonl.
type GoldenResult struct {
	path     string
	dir      string
	missing  bool   // no golden file (and no --update)
	readErr  error  // the golden file could not be read
	diff     string // unified diff golden -> this run; "" if equal
	timeline []byte // with --update: what to write
	changed  bool   // with --update: the file is new or differs
	updated  bool   // with --update: the file was written
}

// goldenPath is where the golden timeline of scenario name lives.
func goldenPath(dir, name string) string { return filepath.Join(dir, name+".jsonl") }

// maxDiffLines bounds the diff shown for one scenario.
const maxDiffLines = 60

// compareGolden compares timeline with the scenario's golden file, or with
// --update keeps it to be written.
func compareGolden(opt SuiteOptions, name string, timeline []byte) *GoldenResult {
	g := &GoldenResult{path: goldenPath(opt.Golden, name), dir: opt.Golden}
	want, err := os.ReadFile(g.path)
	switch {
	case opt.Update:
		g.changed = err != nil || !bytes.Equal(want, timeline)
		if g.changed {
			g.timeline = timeline
		}
	case errors.Is(err, fs.ErrNotExist):
		g.missing = true
	case err != nil:
		g.readErr = err
	case !bytes.Equal(want, timeline):
		g.diff = UnifiedDiff(g.path+" (golden)", name+" (this run)", string(want), string(timeline), 3, maxDiffLines)
	}
	return g
}

// Passed reports whether the timeline matched (or there was no comparison).
func (g *GoldenResult) Passed() bool {
	return g == nil || (!g.missing && g.readErr == nil && g.diff == "")
}

// Failure describes a failed comparison.
func (g *GoldenResult) failure() (CaseFailure, bool) {
	switch {
	case g.Passed():
		return CaseFailure{}, false
	case g.missing:
		return CaseFailure{Where: g.path, Message: fmt.Sprintf(
			"no golden timeline; create it with: podsim test --golden %s --update FILE...", g.dir)}, true
	case g.readErr != nil:
		return CaseFailure{Where: g.path, Message: "cannot read the golden timeline: " + scenarios.ErrText(g.readErr)}, true
	}
	return CaseFailure{Where: g.path, Message: fmt.Sprintf(
		"the timeline differs from the golden one (if the change is right: podsim test --golden %s --update FILE...)", g.dir),
		Diff: g.diff}, true
}

// WriteGoldens writes the golden timelines that are new or changed, in
// file order, and says so on log.
func WriteGoldens(results []Result, opt SuiteOptions, log io.Writer) error {
	made := false
	for i := range results {
		r := &results[i]
		g := r.Golden
		if r.Err != nil || g == nil || !g.changed {
			continue
		}
		if !made {
			if err := os.MkdirAll(opt.Golden, 0o755); err != nil {
				return fmt.Errorf("%s: %v", opt.Golden, scenarios.ErrText(err))
			}
			made = true
		}
		if err := os.WriteFile(g.path, g.timeline, 0o644); err != nil {
			return fmt.Errorf("%s: %v", g.path, scenarios.ErrText(err))
		}
		g.updated, g.timeline = true, nil
		fmt.Fprintf(log, "podsim: wrote %s\n", g.path)
	}
	return nil
}
