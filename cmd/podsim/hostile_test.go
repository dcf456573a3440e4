package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestHostileInput: every file under testdata/hostile is refused with
// exit 2 and FILE:LINE:COL: message, by validate and by run, never a panic,
// a hang or an OOM.
func TestHostileInput(t *testing.T) {
	cases := []struct {
		file string
		want string // in stderr, after the file name
	}{
		{"merge-bomb.yaml", ":22:16: document too large: aliases and merge keys (<<) expand"},
	}
	for _, c := range cases {
		path := filepath.Join(root, "testdata", "hostile", c.file)
		for _, cmd := range []string{"validate", "run"} {
			t.Run(c.file+"/"+cmd, func(t *testing.T) {
				_, errs, code := podsim(t, cmd, path)
				if code != exitBadInput || !strings.Contains(errs, path+c.want) {
					t.Errorf("exit %d, stderr:\n%s\nwant exit 2 and %q", code, errs, path+c.want)
				}
			})
		}
	}
}

func TestEndlessInputIsRefused(t *testing.T) {
	for _, cmd := range []string{"validate", "run"} {
		_, errs, code := podsim(t, cmd, "/dev/zero")
		if code != exitBadInput || !strings.Contains(errs, "/dev/zero: file too large: more than 16 MiB") {
			t.Errorf("%s /dev/zero: exit %d, stderr %q", cmd, code, errs)
		}
	}
}
