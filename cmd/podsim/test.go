package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/podsim/podsim/expect"
	"github.com/podsim/podsim/report"
	"github.com/podsim/podsim/scenarios"
)

// testOptions are the flags of `podsim test` that change how a scenario is
// checked.
type testOptions struct {
	golden string // folder of golden timelines, <name>.jsonl; "" for none
	update bool   // rewrite the golden timelines instead of comparing
}

// suiteResult is the outcome of one scenario of a suite.
type suiteResult struct {
	path     string
	name     string
	namePos  string // FILE:LINE:COL of metadata.name
	skipped  bool   // not a Scenario (a study, ...)
	kind     string // the kind of a skipped file
	err      error  // bad input
	verdicts []expect.Verdict
	failed   int // expectations that failed
	golden   *goldenResult
	elapsed  time.Duration
}

// testFailure is one line of a scenario's failure report.
type testFailure struct {
	Where   string `json:"where"`
	Message string `json:"message"`
	Diff    string `json:"diff,omitempty"` // golden timelines: a unified diff
}

// passed reports whether the scenario ran and every check held.
func (r *suiteResult) passed() bool {
	return r.err == nil && r.failed == 0 && r.golden.passed()
}

// failures lists every failed expectation, then the golden comparison.
func (r *suiteResult) failures() []testFailure {
	var out []testFailure
	for i := range r.verdicts {
		v := &r.verdicts[i]
		for _, f := range v.Failures {
			out = append(out, testFailure{Where: v.Where, Message: v.String(f)})
		}
	}
	if f, ok := r.golden.failure(); ok {
		out = append(out, f)
	}
	return out
}

// summary says in a few words how the scenario did.
func (r *suiteResult) summary() string {
	s := fmt.Sprintf("%d expectations held", len(r.verdicts))
	if r.failed > 0 {
		s = fmt.Sprintf("%d of %d expectations failed", r.failed, len(r.verdicts))
	}
	if g := r.golden; g != nil {
		switch {
		case g.updated:
			s += ", golden timeline written"
		case g.passed():
			s += ", timeline matches golden"
		case g.missing:
			s += ", no golden timeline"
		default:
			s += ", timeline differs from golden"
		}
	}
	return s
}

// errorLines splits a load error into its FILE:LINE:COL lines.
func (r *suiteResult) errorLines() []string {
	return strings.Split(r.err.Error(), "\n")
}

// findScenarios expands files and folders (searched recursively for
// *.yaml) into a sorted list of files.
func findScenarios(paths []string) ([]string, error) {
	var out []string
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", p, errText(err))
		}
		if !info.IsDir() {
			out = append(out, p)
			continue
		}
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && (strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml")) {
				out = append(out, path)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

func errText(err error) string {
	if pe, ok := err.(*fs.PathError); ok {
		return pe.Err.Error()
	}
	return err.Error()
}

// runOne loads, runs and checks one scenario file.
func runOne(path string, opt testOptions) (r suiteResult) {
	start := time.Now()
	r.path = path
	defer func() { r.elapsed = time.Since(start) }()
	data, err := os.ReadFile(path)
	if err != nil {
		r.err = fmt.Errorf("%s: %v", path, errText(err))
		return r
	}
	if k := scenarios.ReadKind(data); k != "" && k != scenarios.KindScenario {
		r.skipped, r.kind = true, k
		return r
	}
	s, err := scenarios.Parse(path, data)
	if err != nil {
		r.err = err
		return r
	}
	r.name, r.namePos = s.File.Metadata.Name, s.Where(&s.File.Metadata.Name)
	w := s.NewWorld()
	checks := expect.Arm(s, w)
	var timeline bytes.Buffer // only for a golden comparison
	if opt.golden != "" {
		w.Subscribe(report.NewJSONL(&timeline))
	}
	s.Populate(w)
	w.Run(s.Duration)
	checks.Finish()
	r.verdicts, r.failed = checks.Verdicts(), checks.Failed()
	if opt.golden != "" {
		r.golden = compareGolden(opt, r.name, timeline.Bytes())
	}
	return r
}

// runSuite runs files on every core; results come back in file order.
func runSuite(files []string, opt testOptions) []suiteResult {
	results := make([]suiteResult, len(files))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(files)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i] = runOne(files[i], opt)
			}
		}()
	}
	for i := range files {
		next <- i
	}
	close(next)
	wg.Wait()
	return results
}

// checkNames turns every scenario whose name an earlier file of the suite
// already took into bad input: names are unique in a suite (they name
// golden files and JUnit test cases).
func checkNames(results []suiteResult) {
	first := map[string]string{}
	for i := range results {
		r := &results[i]
		if r.skipped || r.err != nil {
			continue
		}
		if other, dup := first[r.name]; dup {
			r.err = fmt.Errorf("%s: scenario name %q is already used by %s", r.namePos, r.name, other)
			continue
		}
		first[r.name] = r.path
	}
}

func (m *Main) test(args []string) (int, error) {
	fset := flag.NewFlagSet("test", flag.ContinueOnError)
	out := outputFlag(fset)
	junit := fset.String("junit", "", "also write a JUnit XML report to this file")
	var opt testOptions
	fset.StringVar(&opt.golden, "golden", "", "compare each scenario's timeline (-o jsonl) with DIR/<name>.jsonl")
	fset.BoolVar(&opt.update, "update", false, "with --golden: rewrite the golden timelines instead of comparing")
	paths, err := parseArgs(fset, args)
	if err != nil {
		return 0, err
	}
	if err := checkOutput(*out, "text", "jsonl", "json"); err != nil {
		return 0, err
	}
	if opt.update && opt.golden == "" {
		return 0, usageError{"--update rewrites golden timelines: give the folder with --golden DIR"}
	}
	if len(paths) == 0 {
		return 0, usageError{"test needs scenario files or folders"}
	}
	files, err := findScenarios(paths)
	if err != nil {
		return 0, err
	}
	results := runSuite(files, opt)
	checkNames(results)
	if opt.update {
		if err := writeGoldens(results, opt, m.Stderr); err != nil {
			return 0, err
		}
	}

	passed, failed, bad := 0, 0, 0
	for i := range results {
		r := &results[i]
		switch {
		case r.skipped && r.kind != scenarios.KindStudy:
			// Most likely a typo in kind: say so rather than skip in silence.
			fmt.Fprintf(m.Stderr, "podsim: skipped %s: its kind is %q, not %s\n", r.path, r.kind, scenarios.KindScenario)
		case r.skipped:
		case r.err != nil:
			bad++
			fmt.Fprintln(m.Stderr, r.err)
		case r.passed():
			passed++
		default:
			failed++
		}
	}

	if passed+failed+bad == 0 {
		// A suite that tests nothing must not pass a CI job.
		return 0, fmt.Errorf("podsim test: no scenarios in %s", strings.Join(paths, ", "))
	}
	bw := bufio.NewWriter(m.Stdout)
	switch *out {
	case "json", "jsonl":
		err = writeTestJSON(bw, results, *out == "jsonl", passed, failed+bad)
	default:
		writeTestText(bw, results, passed, failed+bad)
	}
	if ferr := bw.Flush(); err == nil {
		err = ferr
	}
	if err != nil {
		return 0, err
	}
	if *junit != "" {
		if err := writeJUnitFile(*junit, results); err != nil {
			return 0, err
		}
	}
	switch {
	case bad > 0:
		return exitBadInput, nil
	case failed > 0:
		return exitFailed, nil
	}
	return exitOK, nil
}

// writeTestText prints one line per scenario, the failures under it, and
// last "N passed, M failed".
func writeTestText(w io.Writer, results []suiteResult, passed, failed int) {
	for i := range results {
		r := &results[i]
		switch {
		case r.skipped:
			continue
		case r.err != nil:
			fmt.Fprintf(w, "ERROR %s (invalid: see stderr)\n", r.path)
			continue
		case r.passed():
			fmt.Fprintf(w, "PASS  %s (%s)  %s: %s\n", r.name, wallTime(r.elapsed), r.path, r.summary())
			continue
		}
		fmt.Fprintf(w, "FAIL  %s (%s)  %s: %s\n", r.name, wallTime(r.elapsed), r.path, r.summary())
		for _, f := range r.failures() {
			fmt.Fprintf(w, "      %s: %s\n", f.Where, f.Message)
			if f.Diff != "" {
				for _, line := range strings.SplitAfter(strings.TrimSuffix(f.Diff, "\n"), "\n") {
					fmt.Fprintf(w, "        %s", strings.TrimSuffix(line, "\n")+"\n")
				}
			}
		}
	}
	fmt.Fprintf(w, "%d passed, %d failed\n", passed, failed)
}

// wallTime formats how long a scenario took: 0.4ms, 37ms, 12.35s.
func wallTime(d time.Duration) string {
	if d < 10*time.Millisecond {
		return fmt.Sprintf("%.1fms", float64(d.Microseconds())/1000)
	}
	if d < 10*time.Second {
		return fmt.Sprintf("%dms", d.Round(time.Millisecond).Milliseconds())
	}
	return d.Round(10 * time.Millisecond).String()
}

// jsonScenario is one scenario of `podsim test -o json`.
type jsonScenario struct {
	Name         string        `json:"name"`
	File         string        `json:"file"`
	Passed       bool          `json:"passed"`
	Expectations int           `json:"expectations"`
	Failures     []testFailure `json:"failures"`
	Errors       []string      `json:"errors,omitempty"` // bad input, FILE:LINE:COL: message
}

// writeTestJSON writes the suite as one JSON document, or with lines as
// one JSON object per scenario and line. Wall times are left out, so the
// output of a suite is the same on every run.
func writeTestJSON(w io.Writer, results []suiteResult, lines bool, passed, failed int) error {
	doc := struct {
		Passed    int            `json:"passed"`
		Failed    int            `json:"failed"`
		Scenarios []jsonScenario `json:"scenarios"`
	}{Passed: passed, Failed: failed, Scenarios: []jsonScenario{}}
	for i := range results {
		r := &results[i]
		if r.skipped {
			continue
		}
		s := jsonScenario{Name: r.name, File: r.path, Passed: r.passed(), Expectations: len(r.verdicts), Failures: r.failures()}
		if s.Failures == nil {
			s.Failures = []testFailure{}
		}
		if r.err != nil {
			s.Errors = r.errorLines()
		}
		doc.Scenarios = append(doc.Scenarios, s)
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	if lines {
		for i := range doc.Scenarios {
			if err := enc.Encode(&doc.Scenarios[i]); err != nil {
				return err
			}
		}
		return nil
	}
	enc.SetIndent("", "  ")
	return enc.Encode(&doc)
}
