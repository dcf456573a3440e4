package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/podsim/podsim/expect"
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
	bw := bufio.NewWriter(m.Stdout)
	defer bw.Flush()
	w := s.NewWorld()
	checks := expect.Arm(s, w)
	var timeline model.Timeline
	var lines *report.JSONL
	var doc *runJSON
	switch *out {
	case "jsonl":
		lines = report.NewJSONL(bw)
		w.Subscribe(lines)
	case "json":
		doc = newRunJSON(bw, s, until)
		w.Subscribe(doc)
	default:
		w.Subscribe(&timeline) // a table's columns need every row
	}
	s.Populate(w)
	w.Run(until)
	if !at.set {
		checks.Finish()
	}

	switch *out {
	case "jsonl":
		return 0, lines.Err()
	case "json":
		return 0, doc.finish(w, checks)
	}
	fmt.Fprintf(bw, "Scenario %s (seed %d, %s of virtual time)\n", s.File.Metadata.Name, s.Seed, report.FormatTime(until))
	if d := s.File.Metadata.Description; d != "" {
		fmt.Fprintf(bw, "%s\n", d)
	}
	fmt.Fprintln(bw)
	if err := report.WriteTimeline(bw, timeline.Changes); err != nil {
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
func writeVerdicts(w io.Writer, vs []expect.Verdict) {
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

// runJSON writes `run -o json`: one indented document whose timeline is
// written while the run goes (a sink), then the pods and verdicts.
type runJSON struct {
	w    io.Writer
	line []byte
	ind  bytes.Buffer
	n    int
	err  error
}

// newRunJSON writes the document's head: scenario, seed, duration (the
// run's end) and the opening of the timeline.
func newRunJSON(w io.Writer, s *scenarios.Scenario, until time.Duration) *runJSON {
	head, _ := json.MarshalIndent(struct {
		Scenario string  `json:"scenario"`
		Seed     uint64  `json:"seed"`
		Duration float64 `json:"duration"`
	}{s.File.Metadata.Name, s.Seed, report.Seconds(until)}, "", "  ")
	r := &runJSON{w: w}
	head = bytes.TrimSuffix(head, []byte("\n}"))
	_, r.err = fmt.Fprintf(w, "%s,\n  \"timeline\": ", head)
	return r
}

// Change writes one timeline entry, indented as in the document.
func (r *runJSON) Change(c *model.Change) {
	if r.err != nil {
		return
	}
	r.line = report.AppendJSON(r.line[:0], c)
	r.ind.Reset()
	if r.n == 0 {
		r.ind.WriteString("[\n    ")
	} else {
		r.ind.WriteString(",\n    ")
	}
	r.n++
	if r.err = json.Indent(&r.ind, r.line, "    ", "  "); r.err == nil {
		_, r.err = r.w.Write(r.ind.Bytes())
	}
}

// finish closes the timeline and writes the pods and verdicts.
func (r *runJSON) finish(world *model.World, checks *expect.Checks) error {
	if r.err != nil {
		return r.err
	}
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
	var tail struct {
		Pods     []pod     `json:"pods"`
		Failures []failure `json:"failures"`
		Passed   int       `json:"passed"`
		Failed   int       `json:"failed"`
	}
	tail.Pods = []pod{}
	for _, p := range world.Pods() {
		if p.Deleted() {
			continue
		}
		g := report.GetPod(p, world.Now())
		tail.Pods = append(tail.Pods, pod{g.Name, g.Ready, g.Status, g.Restarts, g.Age, string(p.Phase())})
	}
	tail.Failures = []failure{}
	vs := checks.Verdicts()
	for i := range vs {
		for _, f := range vs[i].Failures {
			tail.Failures = append(tail.Failures, failure{vs[i].Where, vs[i].String(f)})
		}
	}
	tail.Failed = checks.Failed()
	tail.Passed = len(vs) - tail.Failed
	body, err := json.MarshalIndent(tail, "", "  ")
	if err != nil {
		return err
	}
	closing := "\n  ],\n"
	if r.n == 0 {
		closing = "null,\n"
	}
	_, err = fmt.Fprintf(r.w, "%s%s\n", closing, bytes.TrimPrefix(body, []byte("{\n")))
	return err
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
		data, err := scenarios.ReadFile(f)
		if err != nil {
			fmt.Fprintln(m.Stderr, err)
			code = exitBadInput
			continue
		}
		if scenarios.ReadKind(data) == scenarios.KindStudy {
			if _, err := sweep.Load(f); err != nil {
				fmt.Fprintln(m.Stderr, err)
				code = exitBadInput
				continue
			}
			fmt.Fprintf(m.Stdout, "%s: valid\n", f)
			continue
		}
		if _, err := scenarios.Parse(f, data); err != nil {
			fmt.Fprintln(m.Stderr, err)
			code = exitBadInput
			continue
		}
		fmt.Fprintf(m.Stdout, "%s: valid\n", f)
	}
	return code, nil
}
