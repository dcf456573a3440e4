package expect

import (
	"bytes"
	"encoding/json"
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

	"github.com/podsim/podsim/manifests"
	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/report"
	"github.com/podsim/podsim/scenarios"
)

// SuiteOptions are the flags of `podsim test` that change how a scenario is
// checked.
type SuiteOptions struct {
	Golden string // folder of golden timelines, <name>.jsonl; "" for none
	Update bool   // rewrite the golden timelines instead of comparing

	ProbeEveryTick bool // run every probe tick (model.Settings.ProbeEveryTick)

	MaxEvents   uint64                    // the event budget of each run; 0: none
	Override    func(*scenarios.Scenario) // if set, changes each scenario before it runs (--seed, --duration)
	Interrupted func() bool               // asked between chunks of events: stop now (nil: never)
	Progress    Progress                  // if set, told how each run goes
}

// Progress hears how the runs of a suite go, from several goroutines at
// once, each run named by its file: Tick between chunks of events (the
// run's virtual time now of until, after fired events), Finish when the
// file is done with (run, skipped or refused).
type Progress interface {
	Tick(run string, now, until time.Duration, fired uint64)
	Finish(run string, fired uint64)
}

// Result is the outcome of one scenario of a suite.
type Result struct {
	Path     string
	Name     string
	NamePos  string              // FILE:LINE:COL of metadata.name
	Skipped  bool                // not a Scenario (a study, ...)
	Kind     string              // the kind of a skipped file
	Err      error               // bad input, or a run over its event budget
	Warnings scenarios.ErrorList // fields and kinds accepted and not simulated
	Verdicts []Verdict
	Failed   int // expectations that failed
	Golden   *GoldenResult
	Elapsed  time.Duration

	Interrupted bool // stopped (or never started) because the user asked (SIGINT)
}

// CaseFailure is one line of a scenario's failure report.
type CaseFailure struct {
	Where   string `json:"where"`
	Message string `json:"message"`
	Diff    string `json:"diff,omitempty"` // golden timelines: a unified diff
}

// Passed reports whether the scenario ran and every check held.
func (r *Result) Passed() bool {
	return r.Err == nil && r.Failed == 0 && r.Golden.Passed()
}

// Failures lists every failed expectation, then the golden comparison.
func (r *Result) Failures() []CaseFailure {
	var out []CaseFailure
	for i := range r.Verdicts {
		v := &r.Verdicts[i]
		for _, f := range v.Failures {
			out = append(out, CaseFailure{Where: v.Where, Message: v.String(f)})
		}
	}
	if f, ok := r.Golden.failure(); ok {
		out = append(out, f)
	}
	return out
}

// Summary says in a few words how the scenario did.
func (r *Result) Summary() string {
	s := fmt.Sprintf("%d expectations held", len(r.Verdicts))
	if r.Failed > 0 {
		s = fmt.Sprintf("%d of %d expectations failed", r.Failed, len(r.Verdicts))
	}
	if g := r.Golden; g != nil {
		switch {
		case g.updated:
			s += ", golden timeline written"
		case g.Passed():
			s += ", timeline matches golden"
		case g.missing:
			s += ", no golden timeline"
		default:
			s += ", timeline differs from golden"
		}
	}
	return s
}

// ErrorLines splits a load error into its FILE:LINE:COL lines.
func (r *Result) ErrorLines() []string {
	return strings.Split(r.Err.Error(), "\n")
}

// FindScenarios expands files and folders (searched recursively for
// *.yaml) into a sorted list of files.
func FindScenarios(paths []string) ([]string, error) {
	var out []string
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", p, scenarios.ErrText(err))
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

// RunScenario loads, runs and checks one scenario file.
func RunScenario(path string, opt SuiteOptions) (r Result) {
	start := time.Now()
	r.Path = path
	defer func() { r.Elapsed = time.Since(start) }()
	fired := func() uint64 { return 0 } // the events of the run, once there is one
	if opt.Progress != nil {
		defer func() { opt.Progress.Finish(path, fired()) }()
	}
	data, err := scenarios.ReadFile(path)
	if err != nil {
		r.Err = err
		return r
	}
	if k := scenarios.ReadKind(data); k != "" && k != scenarios.KindScenario && !manifests.IsManifest(data) {
		r.Skipped, r.Kind = true, k
		return r
	}
	s, err := manifests.NewReader().Parse(path, data) // a scenario, or manifests run as they are
	if err != nil {
		r.Err = err
		return r
	}
	r.Warnings = s.Warnings
	r.Name, r.NamePos = s.File.Metadata.Name, s.Where(&s.File.Metadata.Name)
	if opt.Override != nil {
		opt.Override(s)
	}
	var checks *Checks
	var timeline bytes.Buffer // only for a golden comparison
	run := s.Start(scenarios.RunOptions{Until: s.Duration, MaxEvents: opt.MaxEvents, ProbeEveryTick: opt.ProbeEveryTick,
		Attach: func(w *model.World) {
			checks = Arm(s, w)
			if opt.Golden != "" {
				w.Subscribe(report.NewJSONL(&timeline))
			}
		}})
	w := run.World
	fired = w.Engine().Fired
	interrupted := opt.Interrupted
	if p := opt.Progress; p != nil {
		interrupted = func() bool {
			p.Tick(path, w.Now(), s.Duration, w.Engine().Fired())
			return opt.Interrupted != nil && opt.Interrupted()
		}
	}
	switch run.Run(interrupted) {
	case model.OverBudget:
		r.Err = run.OverBudgetError()
		return r
	case model.Interrupted:
		r.Interrupted = true
		return r
	}
	checks.Finish()
	r.Verdicts, r.Failed = checks.Verdicts(), checks.Failed()
	if opt.Golden != "" {
		r.Golden = compareGolden(opt, r.Name, timeline.Bytes())
	}
	return r
}

// RunSuite runs files on every core; results come back in file order. Once
// opt.Interrupted says so, the files not started yet are marked Interrupted.
func RunSuite(files []string, opt SuiteOptions) []Result {
	results := make([]Result, len(files))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(files)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if opt.Interrupted != nil && opt.Interrupted() {
					results[i] = Result{Path: files[i], Interrupted: true}
					continue
				}
				results[i] = RunScenario(files[i], opt)
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

// CheckNames turns every scenario whose name an earlier file of the suite
// already took into bad input: names are unique in a suite (they name
// golden files and JUnit test cases).
func CheckNames(results []Result) {
	first := map[string]string{}
	for i := range results {
		r := &results[i]
		if r.Skipped || r.Interrupted || r.Err != nil {
			continue
		}
		if other, dup := first[r.Name]; dup {
			r.Err = fmt.Errorf("%s: scenario name %q is already used by %s", r.NamePos, r.Name, other)
			continue
		}
		first[r.Name] = r.Path
	}
}

// WriteText prints one line per scenario, the failures under it, and
// last "N passed, M failed".
func WriteText(w io.Writer, results []Result, passed, failed int) {
	for i := range results {
		r := &results[i]
		switch {
		case r.Skipped, r.Interrupted:
			continue
		case r.Err != nil:
			fmt.Fprintf(w, "ERROR %s (invalid: see stderr)\n", r.Path)
			continue
		case r.Passed():
			fmt.Fprintf(w, "PASS  %s (%s)  %s: %s\n", r.Name, wallTime(r.Elapsed), r.Path, r.Summary())
			continue
		}
		fmt.Fprintf(w, "FAIL  %s (%s)  %s: %s\n", r.Name, wallTime(r.Elapsed), r.Path, r.Summary())
		for _, f := range r.Failures() {
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
	Failures     []CaseFailure `json:"failures"`
	Errors       []string      `json:"errors,omitempty"` // bad input, FILE:LINE:COL: message
}

// WriteJSON writes the suite as one JSON document, or with lines as
// one JSON object per scenario and line. Wall times are left out, so the
// output of a suite is the same on every run.
func WriteJSON(w io.Writer, results []Result, lines bool, passed, failed int) error {
	doc := struct {
		Passed    int            `json:"passed"`
		Failed    int            `json:"failed"`
		Scenarios []jsonScenario `json:"scenarios"`
	}{Passed: passed, Failed: failed, Scenarios: []jsonScenario{}}
	for i := range results {
		r := &results[i]
		if r.Skipped || r.Interrupted {
			continue
		}
		s := jsonScenario{Name: r.Name, File: r.Path, Passed: r.Passed(), Expectations: len(r.Verdicts), Failures: r.Failures()}
		if s.Failures == nil {
			s.Failures = []CaseFailure{}
		}
		if r.Err != nil {
			s.Errors = r.ErrorLines()
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
