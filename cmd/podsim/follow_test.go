package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/benbjohnson/clock"

	"github.com/podsim/podsim/internal/scenariogen"
	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/report"
	"github.com/podsim/podsim/scenarios"
)

// podsimLive runs the command line with a mock wall clock that a goroutine
// moves forward by step until the command returns (tests never sleep for
// pacing). each, if set, sees every write to stdout with the mock time
// elapsed then.
func podsimLive(t *testing.T, step time.Duration, each func(elapsed time.Duration, p []byte), args ...string) (string, string, int) {
	t.Helper()
	clk := clock.NewMock()
	start := clk.Now()
	out := &recorder{each: func(p []byte) {
		if each != nil {
			each(clk.Now().Sub(start), p)
		}
	}}
	var errb bytes.Buffer
	done := make(chan int)
	go func() { done <- (&Main{Stdout: out, Stderr: &errb, Clock: clk}).Run(context.Background(), args) }()
	for {
		select {
		case code := <-done:
			return out.String(), errb.String(), code
		default:
			clk.Add(step) // fires the pacer's timer once due (and yields)
		}
	}
}

// recorder is a stdout that calls each on every write.
type recorder struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	each func(p []byte)
}

func (r *recorder) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.each(p)
	return r.buf.Write(p)
}

func (r *recorder) String() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.buf.String()
}

// watchRows splits `kubectl get pods -w` output into cells, and checks
// that they are laid out as kubectl lays them out: each column as wide as
// its widest cell so far (the header's included), then three spaces.
func watchRows(t *testing.T, out string) [][]string {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	widths := make([]int, 4)
	var rows [][]string
	for i, l := range lines {
		cells := regexp.MustCompile(` {3,}`).Split(l, -1)
		if len(cells) != 5 {
			t.Fatalf("line %q: %d cells, want 5", l, len(cells))
		}
		want := ""
		for k, c := range cells[:4] {
			widths[k] = max(widths[k], len(c))
			want += c + strings.Repeat(" ", widths[k]-len(c)+3)
		}
		if want += cells[4]; l != want {
			t.Fatalf("line %q is not laid out as kubectl's:\n%q", l, want)
		}
		if i == 0 {
			if h := strings.Join(cells, " "); h != "NAME READY STATUS RESTARTS AGE" {
				t.Fatalf("header %q", l)
			}
			continue
		}
		rows = append(rows, cells)
	}
	return rows
}

// Every row `run --follow` prints for the demo is what `run --at T -o json`
// prints for that pod at the row's instant T (its pods are created at 0,
// so AGE is T to the second, as every change of the demo is).
func TestFollowRowsAreTheViewsAtTheirInstant(t *testing.T) {
	file := filepath.Join(root, "scenarios", "demo.yaml")
	out, errs, code := podsimLive(t, time.Second, nil, "run", file, "--follow")
	if code != exitOK || errs != "" {
		t.Fatalf("exit %d: %s", code, errs)
	}
	rows := watchRows(t, out)
	if len(rows) < 10 {
		t.Fatalf("%d rows:\n%s", len(rows), out)
	}
	for _, r := range rows {
		age, err := time.ParseDuration(r[4])
		if err != nil {
			t.Fatalf("row %v: AGE %q", r, r[4])
		}
		at, _, code := podsim(t, "run", file, "--at", age.String(), "-o", "json")
		if code != exitOK {
			t.Fatalf("run --at %s: exit %d", age, code)
		}
		var doc struct {
			Pods []struct{ Name, Ready, Status, Restarts string } `json:"pods"`
		}
		if err := json.Unmarshal([]byte(at), &doc); err != nil {
			t.Fatal(err)
		}
		found := false
		for _, p := range doc.Pods {
			if p.Name == r[0] {
				found = true
				if got := []string{p.Ready, p.Status, p.Restarts}; strings.Join(got, "|") != strings.Join(r[1:4], "|") {
					t.Errorf("row %v at %s: run --at shows %v", r, age, got)
				}
			}
		}
		if !found {
			t.Errorf("row %v: no pod %s at %s", r, r[0], age)
		}
	}
}

// In every scenario of the library, each row of the live view equals the
// `kubectl get pods` view of a run stopped at the row's instant (as
// `run --at T` stops it), and a pod gets a row exactly when its READY,
// STATUS or restart count changed.
func TestFollowRowsMatchEveryInstant(t *testing.T) {
	all, err := scenariogen.Valid([]string{filepath.Join(root, "scenarios")})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range all {
		var out bytes.Buffer
		var view *report.Watch
		r := s.Start(scenarios.RunOptions{Until: s.Duration, Attach: func(w *model.World) {
			view = report.NewWatch(&out, w)
			w.Subscribe(view)
		}})
		ref := s.Build() // stopped at each instant, as run --at T
		header := true
		last := map[string]string{}
		n := 0
		r.Instants(nil, func(at time.Duration) {
			view.Flush(at)
			if header {
				out.ReadString('\n')
				header = false
			}
			ref.RunChecked(at, 0, nil)
			printed := map[string]bool{}
			for line, err := out.ReadString('\n'); err == nil; line, err = out.ReadString('\n') {
				f := strings.Fields(line)
				p := ref.Pod(f[0])
				if p == nil || p.Deleted() {
					t.Fatalf("%s at %s: row for a pod not there: %q", s.Path, at, line)
				}
				g := report.GetPod(p, at)
				want := strings.Join(strings.Fields(strings.Join([]string{p.Key(), g.Ready, g.Status, g.Restarts, g.Age}, " ")), " ") // namespace/name outside default
				if got := strings.Join(f, " "); got != want {
					t.Errorf("%s at %s: row %q, run --at shows %q", s.Path, at, got, want)
				}
				printed[f[0]] = true
				n++
			}
			for _, p := range ref.Pods() {
				if p.Deleted() {
					if ref.Pod(p.Key()) == p { // not a StatefulSet's pod whose name a new one took
						delete(last, p.Key())
					}
					continue
				}
				g := report.GetPod(p, at)
				key := g.Ready + " " + g.Status + " " + strings.Fields(g.Restarts)[0]
				if changed := last[p.Key()] != key; changed != printed[p.Key()] {
					t.Errorf("%s at %s: pod %s row changed %v, printed %v", s.Path, at, p.Key(), changed, printed[p.Key()])
				}
				last[p.Key()] = key
			}
		})
		if n == 0 {
			t.Errorf("%s: no rows", s.Path)
		}
	}
}

// `-o jsonl --follow` writes the same lines as `-o jsonl`, each no sooner
// than its virtual time at the given speed (the lines of one instant in
// one write); the replay lasts until the run's end.
func TestFollowJSONLPaced(t *testing.T) {
	file := filepath.Join(root, "scenarios", "demo.yaml")
	want, _, _ := podsim(t, "run", file, "-o", "jsonl")
	const speed = 60
	var mu sync.Mutex
	var early []string
	var lines, writes int
	got, errs, code := podsimLive(t, 100*time.Millisecond, func(elapsed time.Duration, p []byte) {
		mu.Lock()
		defer mu.Unlock()
		writes++
		for _, line := range strings.SplitAfter(string(p), "\n") {
			if line == "" {
				continue
			}
			var c struct{ T float64 }
			if err := json.Unmarshal([]byte(line), &c); err != nil || !strings.HasSuffix(line, "\n") {
				t.Errorf("a write is not whole JSON lines: %q", p)
				return
			}
			lines++
			if due := time.Duration(c.T * float64(time.Second) / speed); elapsed < due {
				early = append(early, strconv.Quote(line)+" at "+elapsed.String())
			}
		}
	}, "run", file, "--follow", "-o", "jsonl", "--speed", strconv.Itoa(speed))
	if code != exitOK || errs != "" || got != want {
		t.Fatalf("exit %d (%s); same lines as -o jsonl: %v", code, errs, got == want)
	}
	instants := map[string]bool{}
	for _, l := range strings.Split(strings.TrimSuffix(want, "\n"), "\n") {
		t, _, _ := strings.Cut(l, ",")
		instants[t] = true
	}
	if lines != strings.Count(want, "\n") || writes > len(instants) || len(early) > 0 {
		t.Errorf("%d lines in %d writes for %d lines of %d instants; written early: %v", lines, writes, strings.Count(want, "\n"), len(instants), early)
	}
}

// A replay ends at the run's end, not its last change: the mock clock has
// moved 5m/120 = 2.5 s when `--follow --speed 120` of the demo returns
// (give or take the steps the driver makes before it sees the return), and
// its last row (3m48s) came no sooner than 1.9 s.
func TestFollowLastsTheRun(t *testing.T) {
	file := filepath.Join(root, "scenarios", "demo.yaml")
	var lastWrite time.Duration
	clk := clock.NewMock()
	start := clk.Now()
	out := &recorder{each: func([]byte) { lastWrite = clk.Now().Sub(start) }}
	done := make(chan int)
	go func() {
		done <- (&Main{Stdout: out, Stderr: &bytes.Buffer{}, Clock: clk}).Run(context.Background(), []string{"run", file, "--follow", "--speed", "120"})
	}()
	for {
		select {
		case code := <-done:
			if elapsed := clk.Now().Sub(start); code != exitOK || elapsed < 2500*time.Millisecond || elapsed > 3500*time.Millisecond {
				t.Fatalf("exit %d after %s of mock wall time, want 2.5s", code, elapsed)
			}
			if lastWrite < 1900*time.Millisecond {
				t.Errorf("last row at %s, before 3m48s/120 = 1.9s", lastWrite)
			}
			return
		default:
			clk.Add(10 * time.Millisecond)
		}
	}
}

// Ctrl-C (a canceled context) stops a replay at once, exit 130, without
// waiting on the wall clock.
func TestFollowInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errb bytes.Buffer
	file := filepath.Join(root, "scenarios", "demo.yaml")
	for _, o := range []string{"text", "jsonl"} {
		out.Reset()
		errb.Reset()
		code := (&Main{Stdout: &out, Stderr: &errb}).Run(ctx, []string{"run", file, "--follow", "-o", o})
		if code != exitSIGINT || !strings.Contains(errb.String(), "interrupted") {
			t.Errorf("-o %s: exit %d, stderr %q", o, code, errb.String())
		}
		if o == "text" && (strings.Count(out.String(), "\n") != 1 || !strings.HasPrefix(out.String(), "NAME ")) {
			t.Errorf("-o text: printed %q, want the header alone", out.String())
		}
		if o == "jsonl" && out.Len() != 0 {
			t.Errorf("-o jsonl: printed %q after Ctrl-C", out.String())
		}
	}
}

// --follow prints text or jsonl; --speed needs --follow and a speed from
// 1e-6 to 1e9, for run and serve.
func TestFollowUsage(t *testing.T) {
	for _, args := range [][]string{
		{"run", "--follow", "-o", "json"},
		{"run", "--follow", "-o", "trace"},
		{"run", "--speed", "2"},
		{"run", "--follow", "--speed", "0"},
		{"run", "--follow", "--speed", "-1"},
		{"run", "--follow", "--speed", "fast"},
		{"run", "--follow", "--speed", "NaN"},
		{"run", "--follow", "--speed", "1e-11"}, // the replay's wall time overflowed: all at once
		{"run", "--follow", "--speed", "+Inf"},
		{"serve", "--speed", "NaN"}, // played at NaNx, frozen for ever
		{"serve", "--speed", "0"},
		{"serve", "--speed", "1e10"},
	} {
		if _, errs, code := podsim(t, args...); code != exitBadInput || !strings.Contains(errs, "speed") && !strings.Contains(errs, "follow") {
			t.Errorf("%v: exit %d, %s", args, code, errs)
		}
	}
}
