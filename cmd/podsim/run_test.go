package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// `run -o json` holds the same timeline as `run -o jsonl`, whatever its
// size: the 3,000-pod scenario's timeline is megabytes long.
func TestRunJSONHoldsTheWholeTimeline(t *testing.T) {
	for _, file := range []string{
		filepath.Join(root, "scenarios", "demo.yaml"),
		filepath.Join(root, "scenarios", "cluster", "capacity-at-scale.yaml"),
	} {
		lines, _, code := podsim(t, "run", file, "-o", "jsonl")
		if code != 0 {
			t.Fatalf("%s: run -o jsonl exited %d", file, code)
		}
		out, errs, code := podsim(t, "run", file, "-o", "json")
		if code != 0 {
			t.Fatalf("%s: run -o json exited %d: %s", file, code, errs)
		}
		var doc struct {
			Timeline []map[string]any `json:"timeline"`
			Pods     []map[string]any `json:"pods"`
			Passed   *int             `json:"passed"`
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("%s: run -o json is not JSON: %v", file, err)
		}
		want := strings.Split(strings.TrimSuffix(lines, "\n"), "\n")
		if len(doc.Timeline) != len(want) || len(doc.Pods) == 0 || doc.Passed == nil {
			t.Fatalf("%s: %d timeline entries, %d pods; want %d entries and the pods", file, len(doc.Timeline), len(doc.Pods), len(want))
		}
		for i, line := range want {
			var one map[string]any
			if err := json.Unmarshal([]byte(line), &one); err != nil {
				t.Fatal(err)
			}
			a, _ := json.Marshal(one)
			b, _ := json.Marshal(doc.Timeline[i])
			if string(a) != string(b) {
				t.Fatalf("%s: timeline entry %d is %s, jsonl line is %s", file, i, b, a)
			}
		}
	}
}

// --probe-every-tick runs every probe tick; the timeline is the same.
func TestProbeEveryTickFlag(t *testing.T) {
	file := filepath.Join(root, "scenarios", "probes", "slow-start-liveness-kill.yaml")
	skip, _, code := podsim(t, "run", file, "-o", "jsonl")
	every, errs, code2 := podsim(t, "run", "--probe-every-tick", file, "-o", "jsonl")
	if code != 0 || code2 != 0 || skip != every || !strings.Contains(skip, `"reason":"Unhealthy"`) {
		t.Fatalf("exit %d, %d (%s); timelines equal: %v", code, code2, errs, skip == every)
	}
	out, _, code := podsim(t, "test", "--probe-every-tick", file)
	if code != 0 || !strings.Contains(out, "1 passed, 0 failed") {
		t.Fatalf("podsim test --probe-every-tick: exit %d\n%s", code, out)
	}
}

// A run over its event budget stops, names what made the events and exits
// 2; what it wrote up to then is complete lines.
func TestRunStopsAtTheEventBudget(t *testing.T) {
	file := filepath.Join(root, "testdata", "runaway", "exit-loop.yaml")
	out, errs, code := podsim(t, "run", file, "-o", "jsonl", "--max-events", "20000")
	if code != exitBadInput || !strings.Contains(errs, "used its budget of 20000 events") ||
		!strings.Contains(errs, "pod spin container app:") || !strings.Contains(errs, "restarts, one every 1ns") {
		t.Fatalf("exit %d, stderr:\n%s", code, errs)
	}
	if !strings.HasSuffix(out, "}\n") || strings.Count(out, "\n") < 1000 {
		t.Fatalf("output so far is not complete lines: ...%s", out[max(0, len(out)-200):])
	}
	out, errs, code = podsim(t, "test", file, "--max-events", "20000")
	if code != exitBadInput || !strings.Contains(errs, "used its budget") || !strings.Contains(out, "0 passed, 1 failed") {
		t.Fatalf("podsim test: exit %d\n%s\n%s", code, out, errs)
	}
}

// Ctrl-C (a canceled context) stops a run cleanly: complete lines so far,
// a summary on stderr, exit 130.
func TestRunInterrupted(t *testing.T) {
	file := filepath.Join(root, "testdata", "runaway", "exit-loop.yaml")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errb bytes.Buffer
	code := (&Main{Stdout: &out, Stderr: &errb}).Run(ctx, []string{"run", file, "-o", "jsonl", "--max-events", "0"})
	if code != exitSIGINT || !strings.Contains(errb.String(), "interrupted at") || !strings.HasSuffix(out.String(), "}\n") {
		t.Fatalf("exit %d, stderr %q, output ends %q", code, errb.String(), out.String()[max(0, out.Len()-100):])
	}
	out.Reset()
	errb.Reset()
	code = (&Main{Stdout: &out, Stderr: &errb}).Run(ctx, []string{"test", file, "--max-events", "0"})
	if code != exitSIGINT || !strings.Contains(errb.String(), "interrupted") {
		t.Fatalf("podsim test: exit %d, stderr %q", code, errb.String())
	}
}

// validate warns about a scenario whose run would go over the event
// budget, and stays quiet (and exits 0) otherwise.
func TestValidateEstimatesEvents(t *testing.T) {
	runaway := filepath.Join(root, "testdata", "runaway", "exit-loop.yaml")
	demo := filepath.Join(root, "scenarios", "demo.yaml")
	out, errs, code := podsim(t, "validate", runaway, demo)
	if code != exitOK || strings.Count(out, ": valid") != 2 ||
		!strings.Contains(errs, "exit-loop.yaml: warning: at the rate of its first") || strings.Contains(errs, "demo.yaml") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	if _, errs, _ := podsim(t, "validate", "--max-events", "0", runaway); errs != "" {
		t.Fatalf("no budget, no warning; got %q", errs)
	}
	// The scheduler's reads of nodes count: a spread over 50,000 nodes
	// spends the budget at 0s.
	spread := filepath.Join(root, "testdata", "hostile", "slow", "spread-zone-50k.yaml")
	if _, errs, code := podsim(t, "validate", "--max-events", "20000", spread); code != exitOK ||
		!strings.Contains(errs, "events of work did not move the clock past 0s, so whether a run fits the budget of 20000 cannot be estimated") {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
}

// --seed and --duration replace the scenario's; --strict makes run exit 1
// when the scenario's own expectations fail.
func TestRunOverridesAndStrict(t *testing.T) {
	demo := filepath.Join(root, "scenarios", "demo.yaml")
	out, _, code := podsim(t, "run", demo, "--seed", "7", "--duration", "90s", "-o", "json")
	if code != exitOK || !strings.Contains(out, `"seed": 7,`) || !strings.Contains(out, `"duration": 90,`) {
		t.Fatalf("exit %d:\n%.300s", code, out)
	}
	failing := filepath.Join(root, "testdata", "failing", "wrong-expectation.yaml")
	if _, _, code := podsim(t, "run", failing); code != exitOK {
		t.Errorf("run without --strict: exit %d, want 0", code)
	}
	if _, _, code := podsim(t, "run", failing, "--strict"); code != exitFailed {
		t.Errorf("run --strict: exit %d, want 1", code)
	}
	if _, _, code := podsim(t, "run", demo, "--strict"); code != exitOK {
		t.Errorf("run --strict on a passing scenario: exit %d, want 0", code)
	}
	// test --duration: the demo's expectations (at the end) are checked at 1m.
	out, _, code = podsim(t, "test", demo, "--duration", "1m")
	if code != exitFailed || !strings.Contains(out, "at 1m pod web status: expected CrashLoopBackOff") {
		t.Errorf("test --duration 1m: exit %d\n%s", code, out)
	}
}

// "-" reads the scenario from standard input: run, describe and validate,
// with "<stdin>" naming it in messages.
func TestScenarioFromStdin(t *testing.T) {
	demo, err := os.ReadFile(filepath.Join(root, "scenarios", "demo.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	stdin := func(args ...string) (string, string, int) {
		var out, errb bytes.Buffer
		code := (&Main{Stdin: bytes.NewReader(demo), Stdout: &out, Stderr: &errb}).Run(context.Background(), args)
		return out.String(), errb.String(), code
	}
	want, _, _ := podsim(t, "run", filepath.Join(root, "scenarios", "demo.yaml"), "-o", "jsonl")
	if got, errs, code := stdin("run", "-", "-o", "jsonl"); code != exitOK || got != want {
		t.Errorf("run -: exit %d (%s); same timeline as the file: %v", code, errs, got == want)
	}
	if out, _, code := stdin("describe", "-", "web"); code != exitOK || !strings.Contains(out, "Name:") {
		t.Errorf("describe -: exit %d\n%s", code, out)
	}
	demo = []byte("apiVersion: podsim/v1\nkind: Scenario\nmetadata: {name: x}\nspec: {durationn: 1s}\n")
	if _, errs, code := stdin("validate", "-"); code != exitBadInput || !strings.HasPrefix(errs, "<stdin>:4:8: unknown field") {
		t.Errorf("validate - of a bad scenario: exit %d, %q", code, errs)
	}
}

// `run -o html` and `-o svg` write the picture of the run: a page with the
// data of every pod, an SVG document; the same bytes every time; --at
// ends the picture there; other commands refuse them.
func TestRunPictures(t *testing.T) {
	demo := filepath.Join(root, "scenarios", "demo.yaml")
	page, errs, code := podsim(t, "run", demo, "-o", "html")
	if code != 0 || !strings.HasPrefix(page, "<!DOCTYPE html>") || !strings.Contains(page, `{"n":"web","node":0`) || !strings.Contains(page, `{"n":"api","node":0`) {
		t.Fatalf("run -o html exited %d (%s); page starts %.80q", code, errs, page)
	}
	again, _, _ := podsim(t, "run", demo, "-o", "html")
	if again != page {
		t.Error("two runs of the demo wrote different pages")
	}
	pic, _, code := podsim(t, "run", demo, "-o", "svg")
	if code != 0 || !strings.HasPrefix(pic, `<svg xmlns="http://www.w3.org/2000/svg"`) || !strings.HasSuffix(pic, "</svg>\n") || !strings.Contains(pic, ">web  (node-a)</text>") {
		t.Fatalf("run -o svg exited %d; picture starts %.80q", code, pic)
	}
	at, _, _ := podsim(t, "run", demo, "-o", "html", "--at", "1m")
	if !strings.Contains(at, `"end":60,`) || strings.Contains(at, `[108,`) {
		t.Error("run -o html --at 1m does not end the picture at 1m")
	}
	if _, errs, code := podsim(t, "test", demo, "-o", "html"); code != 2 || !strings.Contains(errs, "-o html") {
		t.Errorf("test -o html exited %d: %s", code, errs)
	}
}

// `run -o trace` writes one Chrome trace document; with --at it ends there.
func TestRunTrace(t *testing.T) {
	file := filepath.Join(root, "scenarios", "demo.yaml")
	for _, at := range []string{"", "60s"} {
		args := []string{"run", file, "-o", "trace"}
		if at != "" {
			args = append(args, "--at", at)
		}
		out, errs, code := podsim(t, args...)
		if code != exitOK || errs != "" {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		var doc struct {
			OtherData   map[string]any `json:"otherData"`
			TraceEvents []struct {
				Ph  string   `json:"ph"`
				TS  float64  `json:"ts"`
				Dur *float64 `json:"dur"`
			} `json:"traceEvents"`
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("%v: not JSON: %v", args, err)
		}
		end, last := 300e6, 0.0
		if at != "" {
			end = 60e6
		}
		for _, e := range doc.TraceEvents {
			if e.Dur != nil {
				last = max(last, e.TS+*e.Dur)
			}
		}
		if last != end || doc.OtherData["scenario"] != "demo-oom-crashloop" {
			t.Errorf("%v: states end at %vµs, want %vµs; otherData %v", args, last, end, doc.OtherData)
		}
	}
}

// fullDisk is standard output on a full disk: every write fails.
type fullDisk struct{}

func (fullDisk) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// A run whose output cannot be written exits 2 and says why, in every
// format, however little output it has (all of it may sit in one buffer
// until the end).
func TestRunReportsAFailedWrite(t *testing.T) {
	demo := filepath.Join(root, "scenarios", "demo.yaml")
	for _, format := range []string{"text", "jsonl", "json", "trace", "svg", "html"} {
		var errb bytes.Buffer
		code := (&Main{Stdout: fullDisk{}, Stderr: &errb}).Run(context.Background(), []string{"run", demo, "-o", format})
		if code != exitBadInput || !strings.Contains(errb.String(), "no space left on device") {
			t.Errorf("-o %s to a full disk: exit %d, stderr %q", format, code, errb.String())
		}
	}
}
