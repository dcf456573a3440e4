package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestReadmeSweepTables keeps the study tables the README shows true: each
// ```text block that starts with "$ bin/podsim sweep ARGS" holds what that
// sweep prints on stdout today (its plots go to a temporary folder). A
// block that ends with "..." shows some of the lines: each of them, in
// order, is a line of the output.
func TestReadmeSweepTables(t *testing.T) {
	readme := mustRead(t, filepath.Join(root, "README.md"))
	plots := t.TempDir()
	t.Chdir(root) // the commands are written from the repository's root
	const open = "```text\n$ bin/podsim sweep "
	n := 0
	for rest := readme; ; {
		i := strings.Index(rest, open)
		if i < 0 {
			break
		}
		rest = rest[i+len("```text\n$ bin/podsim "):]
		command, body, _ := strings.Cut(rest, "\n")
		want, _, _ := strings.Cut(body, "```")
		args := strings.Fields(command)
		for j := range args {
			if j > 0 && args[j-1] == "--plots" {
				args[j] = filepath.Join(plots, args[j])
			}
		}
		n++
		out, errs, code := podsim(t, args...)
		if code != exitOK {
			t.Errorf("podsim %s: exit %d\n%s", command, code, errs)
			continue
		}
		if !shows(want, out) {
			t.Errorf("README.md's table of `podsim %s` is not what it prints today:\n--- README:\n%s--- today:\n%s", command, want, out)
		}
	}
	if shown := strings.Count(readme, "\n$ bin/podsim sweep "); n == 0 || n != shown {
		t.Fatalf("README.md shows %d sweeps' output, %d of them in ```text blocks this test reads", shown, n)
	}
}

// shows reports whether block, a README block, is out, or, when it ends
// with "...", a selection of out's lines in their order.
func shows(block, out string) bool {
	lines, ok := strings.CutSuffix(block, "...\n")
	if !ok {
		return block == out
	}
	rest := strings.SplitAfter(out, "\n")
	for _, l := range strings.SplitAfter(lines, "\n") {
		if l == "" {
			continue
		}
		i := slices.Index(rest, l)
		if i < 0 {
			return false
		}
		rest = rest[i+1:]
	}
	return true
}
