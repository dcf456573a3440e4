package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/report"
	"github.com/podsim/podsim/scenarios"
	"github.com/podsim/podsim/sweep"
)

// durationFlag is a flag holding a Go duration, remembering whether it was set.
type durationFlag struct {
	d   time.Duration
	set bool
}

func (f *durationFlag) String() string { return f.d.String() }
func (f *durationFlag) Set(s string) error {
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return fmt.Errorf("want a duration such as 90s or 5m, not %q", s)
	}
	f.d, f.set = d, true
	return nil
}

// until is the time a run stops: --at if given (no later than the end of
// the scenario), else the end.
func (f *durationFlag) until(s *scenarios.Scenario) (time.Duration, error) {
	switch {
	case !f.set:
		return s.Duration, nil
	case f.d > s.Duration:
		return 0, usageError{fmt.Sprintf("--at %s is after the end of the run (%s)", f.d, s.Duration)}
	}
	return f.d, nil
}

// outputFlag is -o: text, jsonl or json.
func outputFlag(fs *flag.FlagSet) *string {
	o := fs.String("o", "text", "output: text, jsonl or json")
	fs.StringVar(o, "output", "text", "output: text, jsonl or json")
	return o
}

func checkOutput(o string, allowed ...string) error {
	for _, a := range allowed {
		if o == a {
			return nil
		}
	}
	return usageError{fmt.Sprintf("-o %s: want one of %v", o, allowed)}
}

// loadScenario loads FILE, or the embedded demo when there is none.
func loadScenario(files []string) (*scenarios.Scenario, error) {
	switch len(files) {
	case 0:
		return scenarios.Demo()
	case 1:
		return scenarios.LoadFile(files[0])
	}
	return nil, usageError{"run takes one scenario file"}
}

func (m *Main) run(args []string) (int, error) {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	out := outputFlag(fs)
	var at durationFlag
	fs.Var(&at, "at", "print `kubectl get pods` as of this virtual time (e.g. 5m) instead of the end")
	files, err := parseArgs(fs, args)
	if err != nil {
		return 0, err
	}
	if err := checkOutput(*out, "text", "jsonl", "json"); err != nil {
		return 0, err
	}
	s, err := loadScenario(files)
	if err != nil {
		return 0, err
	}
	until, err := at.until(s)
	if err != nil {
		return 0, err
	}
	w := s.Build()
	checks := report.Arm(s, w)
	w.Run(until)
	if !at.set {
		checks.Finish()
	}

	bw := bufio.NewWriter(m.Stdout)
	defer bw.Flush()
	switch *out {
	case "jsonl":
		return 0, report.WriteJSONL(bw, w.Changes())
	case "json":
		return 0, writeRunJSON(bw, s, w, checks)
	}
	fmt.Fprintf(bw, "Scenario %s (seed %d, %s of virtual time)\n", s.File.Metadata.Name, s.Seed, report.FormatTime(until))
	if d := s.File.Metadata.Description; d != "" {
		fmt.Fprintf(bw, "%s\n", d)
	}
	fmt.Fprintln(bw)
	if err := report.WriteTimeline(bw, w.Changes()); err != nil {
		return 0, err
	}
	fmt.Fprintf(bw, "\n$ kubectl get pods   # at %s\n", report.FormatTime(until))
	if err := report.WriteGetPods(bw, w); err != nil {
		return 0, err
	}
	if vs := checks.Verdicts(); len(vs) > 0 && !at.set {
		fmt.Fprintln(bw)
		writeVerdicts(bw, vs)
	}
	return 0, nil
}

// writeVerdicts prints each failed expectation and a count.
func writeVerdicts(w io.Writer, vs []report.Verdict) {
	failed := 0
	for i := range vs {
		v := &vs[i]
		for _, f := range v.Failures {
			fmt.Fprintf(w, "  %s: %s\n", v.Where, v.String(f))
		}
		if !v.Passed() {
			failed++
		}
	}
	fmt.Fprintf(w, "expectations: %d held, %d failed\n", len(vs)-failed, failed)
}

func writeRunJSON(w io.Writer, s *scenarios.Scenario, world *model.World, checks *report.Checks) error {
	type pod struct {
		Name     string `json:"name"`
		Ready    string `json:"ready"`
		Status   string `json:"status"`
		Restarts string `json:"restarts"`
		Age      string `json:"age"`
		Phase    string `json:"phase"`
	}
	type failure struct {
		Where   string `json:"where"`
		Message string `json:"message"`
	}
	var doc struct {
		Scenario string            `json:"scenario"`
		Seed     uint64            `json:"seed"`
		Duration float64           `json:"duration"`
		Timeline []json.RawMessage `json:"timeline"`
		Pods     []pod             `json:"pods"`
		Failures []failure         `json:"failures"`
		Passed   int               `json:"passed"`
		Failed   int               `json:"failed"`
	}
	doc.Scenario, doc.Seed, doc.Duration = s.File.Metadata.Name, s.Seed, report.Seconds(world.Now())
	var lines jsonLines
	if err := report.WriteJSONL(&lines, world.Changes()); err != nil {
		return err
	}
	doc.Timeline = lines.msgs
	doc.Pods = []pod{}
	for _, p := range world.Pods() {
		if p.Deleted() {
			continue
		}
		r := report.GetPod(p, world.Now())
		doc.Pods = append(doc.Pods, pod{r.Name, r.Ready, r.Status, r.Restarts, r.Age, string(p.Phase())})
	}
	doc.Failures = []failure{}
	vs := checks.Verdicts()
	for i := range vs {
		for _, f := range vs[i].Failures {
			doc.Failures = append(doc.Failures, failure{vs[i].Where, vs[i].String(f)})
		}
	}
	doc.Failed = checks.Failed()
	doc.Passed = len(vs) - doc.Failed
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

// jsonLines collects JSON lines as raw messages.
type jsonLines struct{ msgs []json.RawMessage }

func (j *jsonLines) Write(b []byte) (int, error) {
	n := len(b)
	for len(b) > 0 {
		i := 0
		for i < len(b) && b[i] != '\n' {
			i++
		}
		j.msgs = append(j.msgs, append(json.RawMessage(nil), b[:i]...))
		if i < len(b) {
			i++
		}
		b = b[i:]
	}
	return n, nil
}

func (m *Main) validate(args []string) (int, error) {
	fs := flag.NewFlagSet("validate", flag.ContinueOnError)
	files, err := parseArgs(fs, args)
	if err != nil {
		return 0, err
	}
	if len(files) == 0 {
		return 0, usageError{"validate needs at least one file"}
	}
	code := exitOK
	for _, f := range files {
		if data, err := os.ReadFile(f); err == nil && scenarios.ReadKind(data) == scenarios.KindStudy {
			if _, err := sweep.Load(f); err != nil {
				fmt.Fprintln(m.Stderr, err)
				code = exitBadInput
				continue
			}
			fmt.Fprintf(m.Stdout, "%s: valid\n", f)
			continue
		}
		if _, err := scenarios.LoadFile(f); err != nil {
			fmt.Fprintln(m.Stderr, err)
			code = exitBadInput
			continue
		}
		fmt.Fprintf(m.Stdout, "%s: valid\n", f)
	}
	return code, nil
}
