package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/benbjohnson/clock"
)

// steppingClock is a wall clock on which every look is a second after the
// last: any run seems to take long.
type steppingClock struct {
	clock.Clock
	mu  sync.Mutex
	now time.Time
}

func (c *steppingClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(time.Second)
	return c.now
}

// podsimProgress runs the command line with progress drawn into a buffer
// (as on a terminal) on a stepping clock.
func podsimProgress(t *testing.T, args ...string) (stdout, stderr, prog string) {
	t.Helper()
	var out, errb, p bytes.Buffer
	(&Main{Stdout: &out, Stderr: &errb, Progress: &p, Clock: &steppingClock{}}).Run(context.Background(), args)
	return out.String(), errb.String(), p.String()
}

// On a terminal, run and test show the virtual time reached and the events
// per second of a long run, and erase the line at the end; sweep's bar
// gives the time left. Off a terminal (every other test) nothing is drawn,
// and stdout is the same either way.
func TestProgressOfLongWork(t *testing.T) {
	file := filepath.Join(root, "scenarios", "studies", "crashloop-110.yaml")
	plain, _, _ := podsim(t, "run", file, "--duration", "10h", "-o", "jsonl")
	out, errs, p := podsimProgress(t, "run", file, "--duration", "10h", "-o", "jsonl")
	if out != plain || errs != "" {
		t.Errorf("run: stdout differs with progress (%v), stderr %q", out == plain, errs)
	}
	if !strings.Contains(p, "\rcrashloop-110: ") || !strings.Contains(p, " of 10h virtual time, ") ||
		!strings.Contains(p, " events/s\033[K") || !strings.HasSuffix(p, "\r\033[K") {
		t.Errorf("run: progress %q", p)
	}

	_, _, p = podsimProgress(t, "test", file, filepath.Join(root, "scenarios", "demo.yaml"), "--duration", "10h")
	if !strings.Contains(p, "/2 done, "+file+": ") || !strings.Contains(p, " of 10h virtual time, ") || !strings.HasSuffix(p, "\r\033[K") {
		t.Errorf("test: progress %q", p)
	}

	study := filepath.Join(root, "scenarios", "studies", "node-failure-availability.yaml")
	_, errs, p = podsimProgress(t, "sweep", study)
	if errs != "" || !strings.Contains(p, "node-failure-availability [") || !strings.Contains(p, "/80 runs, about ") ||
		!strings.Contains(p, " left\033[K") || !strings.HasSuffix(p, "80/80 runs\033[K\r\033[K") {
		t.Errorf("sweep: stderr %q, progress %q", errs, p)
	}
}
