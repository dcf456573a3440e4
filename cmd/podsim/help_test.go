package main

import (
	"strings"
	"testing"
)

// Every command answers --help and `podsim help CMD` with its usage, its
// flags with their defaults, and examples, and exits 0.
func TestHelpOnEveryCommand(t *testing.T) {
	for _, c := range commands {
		for _, args := range [][]string{{c.name, "--help"}, {c.name, "-h"}, {"help", c.name}} {
			out, errs, code := podsim(t, args...)
			if code != exitOK || !strings.HasPrefix(out, "Usage: podsim "+c.name) || !strings.Contains(out, "\nExamples:\n") || errs != "" {
				t.Errorf("podsim %s: exit %d, stdout:\n%s\nstderr: %s", strings.Join(args, " "), code, out, errs)
			}
		}
	}
	out, _, _ := podsim(t, "run", "--help")
	for _, want := range []string{"-max-events uint", "(default 20000000)", "-o string", `(default "text")`, "-probe-every-tick",
		"svg (a picture of it) or trace", "-follow\n", "-speed value", "(default 1)", "--follow --speed 60"} {
		if !strings.Contains(out, want) {
			t.Errorf("run --help lacks %q:\n%s", want, out)
		}
	}
	if _, errs, code := podsim(t, "help", "nope"); code != exitBadInput || !strings.Contains(errs, `unknown command "nope"`) {
		t.Errorf("help nope: exit %d, %s", code, errs)
	}
}

// Completion scripts name every command and each command's flags.
func TestCompletion(t *testing.T) {
	for _, shell := range []string{"bash", "zsh", "fish"} {
		out, _, code := podsim(t, "completion", shell)
		if code != exitOK || !strings.Contains(out, "sweep") || !strings.Contains(out, "max-events") || !strings.Contains(out, "golden") {
			t.Errorf("completion %s: exit %d\n%s", shell, code, out)
		}
	}
	if _, _, code := podsim(t, "completion", "tcsh"); code != exitBadInput {
		t.Errorf("completion tcsh: exit %d, want 2", code)
	}
}
