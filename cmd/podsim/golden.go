package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// goldenResult is the comparison of a scenario's timeline with its golden
// file, DIR/<scenario name>.jsonl.
type goldenResult struct {
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
func compareGolden(opt testOptions, name string, timeline []byte) *goldenResult {
	g := &goldenResult{path: goldenPath(opt.golden, name), dir: opt.golden}
	want, err := os.ReadFile(g.path)
	switch {
	case opt.update:
		g.changed = err != nil || !bytes.Equal(want, timeline)
		if g.changed {
			g.timeline = timeline
		}
	case errors.Is(err, fs.ErrNotExist):
		g.missing = true
	case err != nil:
		g.readErr = err
	case !bytes.Equal(want, timeline):
		g.diff = unifiedDiff(g.path+" (golden)", name+" (this run)", string(want), string(timeline), 3, maxDiffLines)
	}
	return g
}

// passed reports whether the timeline matched (or there was no comparison).
func (g *goldenResult) passed() bool {
	return g == nil || (!g.missing && g.readErr == nil && g.diff == "")
}

// failure describes a failed comparison.
func (g *goldenResult) failure() (testFailure, bool) {
	switch {
	case g.passed():
		return testFailure{}, false
	case g.missing:
		return testFailure{Where: g.path, Message: fmt.Sprintf(
			"no golden timeline; create it with: podsim test --golden %s --update FILE...", g.dir)}, true
	case g.readErr != nil:
		return testFailure{Where: g.path, Message: "cannot read the golden timeline: " + errText(g.readErr)}, true
	}
	return testFailure{Where: g.path, Message: fmt.Sprintf(
		"the timeline differs from the golden one (if the change is right: podsim test --golden %s --update FILE...)", g.dir),
		Diff: g.diff}, true
}

// writeGoldens writes the golden timelines that are new or changed, in
// file order, and says so on log.
func writeGoldens(results []suiteResult, opt testOptions, log io.Writer) error {
	made := false
	for i := range results {
		r := &results[i]
		g := r.golden
		if r.err != nil || g == nil || !g.changed {
			continue
		}
		if !made {
			if err := os.MkdirAll(opt.golden, 0o755); err != nil {
				return fmt.Errorf("%s: %v", opt.golden, errText(err))
			}
			made = true
		}
		if err := os.WriteFile(g.path, g.timeline, 0o644); err != nil {
			return fmt.Errorf("%s: %v", g.path, errText(err))
		}
		g.updated, g.timeline = true, nil
		fmt.Fprintf(log, "podsim: wrote %s\n", g.path)
	}
	return nil
}
