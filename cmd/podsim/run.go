package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"time"

	"github.com/podsim/podsim/expect"
	"github.com/podsim/podsim/internal/progress"
	"github.com/podsim/podsim/manifests"
	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/report"
	"github.com/podsim/podsim/report/chart"
	"github.com/podsim/podsim/scenarios"
	"github.com/podsim/podsim/sim"
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

// probeEveryTickFlag is --probe-every-tick: run every probe worker's tick
// instead of skipping those that cannot change anything. The output is the
// same either way; the flag is there to show it, and to time the difference.
func probeEveryTickFlag(fs *flag.FlagSet) *bool {
	return fs.Bool("probe-every-tick", false, "run every probe tick, not only those that can change something (same output, slower)")
}

// overrides are --seed and --duration: a scenario's spec.seed and
// spec.duration, replaced for one command.
type overrides struct {
	seed     uint64
	duration durationFlag
	seedSet  bool
}

func overrideFlags(fs *flag.FlagSet) *overrides {
	o := &overrides{}
	fs.Func("seed", "run with this seed instead of the scenario's spec.seed", func(v string) error {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			return fmt.Errorf("want a seed from 0 to %d, not %q", uint64(math.MaxUint64), v)
		}
		o.seed, o.seedSet = n, true
		return nil
	})
	fs.Var(&o.duration, "duration", "run for this much virtual time (e.g. 2h) instead of the scenario's spec.duration")
	return o
}

// apply replaces the scenario's seed and duration as the flags say.
func (o *overrides) apply(s *scenarios.Scenario) {
	if o.seedSet {
		s.Seed = o.seed
	}
	if o.duration.set {
		s.Duration = o.duration.d
	}
}

// outputFlag is -o (and --output), default text; formats lists the
// others for its help.
func outputFlag(fs *flag.FlagSet, formats string) *string {
	o := fs.String("o", "text", "output: "+formats)
	fs.StringVar(o, "output", "text", "output: "+formats)
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
func (m *Main) loadScenario(files []string) (*scenarios.Scenario, error) {
	switch len(files) {
	case 0:
		return scenarios.Demo()
	case 1:
		return m.loadFile(files[0])
	}
	return nil, usageError{"run takes one scenario file"}
}

// runOptions are the flags of `run`.
type runOptions struct {
	out       string  // -o
	speed     float64 // with --follow
	until     time.Duration
	atSet     bool
	everyTick bool
	maxEvents uint64
	strict    bool
}

func (m *Main) run(args []string) (int, error) {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	out := outputFlag(fs, "text, jsonl, json, html (an interactive page of the run), svg (a picture of it) or trace (Chrome trace-event JSON for Perfetto)")
	var at durationFlag
	fs.Var(&at, "at", "print kubectl get pods as of this virtual time (e.g. 5m) instead of the end")
	everyTick := probeEveryTickFlag(fs)
	maxEvents := maxEventsFlag(fs)
	over := overrideFlags(fs)
	m.addWarningsFlag(fs)
	strict := fs.Bool("strict", false, "exit 1 when the scenario's own expectations fail")
	follow := fs.Bool("follow", false, "play the run live against the wall clock: a row as kubectl get pods -w prints it each time a pod's row changes (-o jsonl: each change), at its virtual time")
	speed := speedFlag{x: 1}
	fs.Var(&speed, "speed", "with --follow: virtual seconds played per wall second (60: a minute of cluster time per second)")
	files, err := parseArgs(fs, args)
	if err != nil {
		return 0, err
	}
	if err := checkOutput(*out, "text", "jsonl", "json", "html", "svg", "trace"); err != nil {
		return 0, err
	}
	if *follow && *out != "text" && *out != "jsonl" {
		return 0, usageError{fmt.Sprintf("--follow prints text or jsonl as the run goes, not %s", *out)}
	}
	if speed.set && !*follow {
		return 0, usageError{"--speed paces a live replay: give --follow too"}
	}
	s, err := m.loadScenario(files)
	if err != nil {
		return 0, err
	}
	over.apply(s)
	until, err := at.until(s)
	if err != nil {
		return 0, err
	}
	o := runOptions{out: *out, speed: speed.x, until: until, atSet: at.set,
		everyTick: *everyTick, maxEvents: *maxEvents, strict: *strict}
	if *follow {
		return m.follow(s, o)
	}
	return m.runScenario(s, o)
}

// runWrite is the size of run's writes to its standard output. A timeline
// can be tens of megabytes, and each write is a system call: on the fleet
// (`-o jsonl`, 85 MB to a file) 512 KB writes took 5-8% less time than
// 64 KB ones (two copies of each build, 30 interleaved runs; 256 KB did
// about as well, 1 MB worse), with no loss to a pipe or /dev/null.
const runWrite = 512 << 10

// runScenario is `run` without --follow: it runs s and writes it as o.out
// says.
func (m *Main) runScenario(s *scenarios.Scenario, opt runOptions) (code int, err error) {
	until := opt.until
	bw := bufio.NewWriterSize(m.Stdout, runWrite) // a timeline can be many megabytes
	// What bw still holds goes out last: a failed write (a full disk) is
	// the run's error, however small the output.
	defer func() {
		if ferr := bw.Flush(); err == nil {
			err = ferr
		}
	}()
	name := s.File.Metadata.Name
	prog := progress.NewRuns(m.progressOut(), m.clock(), 0)
	o := scenarios.RunOptions{Until: until, MaxEvents: opt.maxEvents, ProbeEveryTick: opt.everyTick}
	if opt.out == "text" {
		fmt.Fprintf(bw, "Scenario %s (seed %d, %s of virtual time)\n", s.File.Metadata.Name, s.Seed, sim.FormatTime(until))
		if d := s.File.Metadata.Description; d != "" {
			fmt.Fprintf(bw, "%s\n", d)
		}
		fmt.Fprintln(bw)
	}
	var checks *expect.Checks
	var table *report.TextTimeline
	var lines *report.JSONL
	defer func() {
		if lines != nil {
			lines.Flush() // also if the run panics: the lines up to then are out
		}
	}()
	var doc *runJSON
	var pic *chart.Recorder
	var trace *report.Trace
	o.Attach = func(w *model.World) {
		checks = expect.Arm(s, w)
		w.ChargeChanges() // every format writes or draws each change
		switch opt.out {
		case "html", "svg":
			pic = chart.NewRecorder()
			pic.Bound(until)
			w.Subscribe(pic)
		case "trace":
			trace = report.NewTrace(bw, w, s.File.Metadata.Name, s.Seed, until)
			w.Subscribe(trace)
		case "jsonl":
			lines = report.NewJSONLBuffered(m.Stdout, runWrite)
			lines.FindPodsIn(w)
			w.Subscribe(lines)
		case "json":
			doc = newRunJSON(bw, s, until)
			w.Subscribe(doc)
		default:
			table = report.NewTextTimeline(bw) // written when the run ends: its columns fit every row
			table.FindPodsIn(w)
			w.Subscribe(table)
		}
	}
	r := s.Start(o)
	w := r.World
	end := r.Run(m.ticking(prog, name, w, until))
	prog.Close()
	if end == model.Finished && !opt.atSet {
		checks.Finish()
	}
	code = m.runEnd(r, end)
	if code == exitOK && opt.strict && end == model.Finished && !opt.atSet && checks.Failed() > 0 {
		code = exitFailed
	}

	switch opt.out {
	case "trace":
		return code, trace.Close(w.Now())
	case "jsonl":
		return code, lines.Flush()
	case "json":
		return code, doc.finish(w, checks)
	case "html", "svg":
		meta := chart.Meta{Title: s.File.Metadata.Name, Description: s.File.Metadata.Description, Seed: s.Seed, End: until}
		if end != model.Finished {
			meta.End = w.Now()
		}
		if opt.out == "svg" {
			return code, pic.WriteSVG(bw, meta)
		}
		return code, pic.WriteHTML(bw, meta)
	}
	if err := table.Close(); err != nil {
		return 0, err
	}
	fmt.Fprintf(bw, "\n$ kubectl get pods   # at %s\n", sim.FormatTime(until))
	if err := report.WriteGetPods(bw, w); err != nil {
		return 0, err
	}
	if hasJobs(w) {
		fmt.Fprintf(bw, "\n$ kubectl get jobs   # at %s\n", sim.FormatTime(until))
		if err := report.WriteGetJobs(bw, w); err != nil {
			return 0, err
		}
	}
	if vs := checks.Verdicts(); len(vs) > 0 && !opt.atSet && end == model.Finished {
		fmt.Fprintln(bw)
		writeVerdicts(bw, vs)
	}
	return code, nil
}

// runEnd says on stderr why a run stopped before its time, if it did, and
// returns the exit code: 2 over the budget, 130 interrupted, else 0. The
// output is still written, complete up to where the run stopped.
func (m *Main) runEnd(r *scenarios.Runner, end model.RunEnd) int {
	switch end {
	case model.OverBudget:
		fmt.Fprintln(m.Stderr, r.OverBudgetError())
		return exitBadInput
	case model.Interrupted:
		w := r.World
		fmt.Fprintf(m.Stderr, "podsim: interrupted at %s of %s of virtual time (%d events); the output is complete up to then\n",
			sim.FormatTime(w.Now()), sim.FormatTime(r.Until), w.Engine().Fired())
		return exitSIGINT
	}
	return exitOK
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
	w   io.Writer
	enc *report.ChangeJSON
	buf []byte
	n   int
	err error
}

// newRunJSON writes the document's head: scenario, seed, duration (the
// run's end) and the opening of the timeline.
func newRunJSON(w io.Writer, s *scenarios.Scenario, until time.Duration) *runJSON {
	head, _ := json.MarshalIndent(struct {
		Scenario string  `json:"scenario"`
		Seed     uint64  `json:"seed"`
		Duration float64 `json:"duration"`
	}{s.File.Metadata.Name, s.Seed, report.Seconds(until)}, "", "  ")
	r := &runJSON{w: w, enc: report.IndentedJSON("    ", "  ")}
	head = bytes.TrimSuffix(head, []byte("\n}"))
	_, r.err = fmt.Fprintf(w, "%s,\n  \"timeline\": ", head)
	return r
}

// Change writes one timeline entry, indented as in the document.
func (r *runJSON) Change(c *model.Change) {
	if r.err != nil {
		return
	}
	b := r.buf[:0]
	if r.n == 0 {
		b = append(b, "[\n    "...)
	} else {
		b = append(b, ",\n    "...)
	}
	r.n++
	r.buf = r.enc.Append(b, c)
	_, r.err = r.w.Write(r.buf)
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
	maxEvents := maxEventsFlag(fs)
	m.addWarningsFlag(fs)
	files, err := parseArgs(fs, args)
	if err != nil {
		return 0, err
	}
	if len(files) == 0 {
		return 0, usageError{"validate needs at least one file"}
	}
	code := exitOK
	for _, f := range files {
		if info, err := os.Stat(f); f != "-" && err == nil && info.IsDir() { // a folder of manifests
			s, err := m.loadFile(f)
			if err != nil {
				fmt.Fprintln(m.Stderr, err)
				code = exitBadInput
				continue
			}
			m.validated(s, f, *maxEvents)
			continue
		}
		data, name, err := m.readFile(f)
		if err != nil {
			fmt.Fprintln(m.Stderr, err)
			code = exitBadInput
			continue
		}
		if scenarios.ReadKind(data) == scenarios.KindStudy {
			if f == "-" {
				err = fmt.Errorf("%s: a study is read from its file (its scenario's path is relative to it), not from standard input", name)
			} else {
				var st *sweep.Study
				if st, err = sweep.Load(f); err == nil {
					m.warn(st.Base.Warnings)
				}
			}
			if err != nil {
				fmt.Fprintln(m.Stderr, err)
				code = exitBadInput
				continue
			}
			fmt.Fprintf(m.Stdout, "%s: valid\n", name)
			continue
		}
		s, err := manifests.NewReader().Parse(name, data)
		if err != nil {
			fmt.Fprintln(m.Stderr, err)
			code = exitBadInput
			continue
		}
		m.warn(s.Warnings)
		m.validated(s, name, *maxEvents)
	}
	return code, nil
}

// validated says that the file name holding s is valid, and warns if a
// run of it would go over the event budget.
func (m *Main) validated(s *scenarios.Scenario, name string, maxEvents uint64) {
	fmt.Fprintf(m.Stdout, "%s: valid\n", name)
	switch e := estimateEvents(s, maxEvents); {
	case e.fits:
	case math.IsInf(e.events, 1):
		fmt.Fprintf(m.Stderr, "%s: warning: its first %d events of work did not move the clock past %s, so whether a run "+
			"fits the budget of %d cannot be estimated (if it stops early, raise it with --max-events N)\n",
			name, e.sampled, sim.FormatTime(e.sampledTo), maxEvents)
	default:
		fmt.Fprintf(m.Stderr, "%s: warning: at the rate of its first %d events (up to %s), a run would fire about %.2g events by %s, "+
			"over the budget of %d: it may stop early (raise it with --max-events N)\n",
			name, e.sampled, sim.FormatTime(e.sampledTo), e.events, sim.FormatTime(s.Duration), maxEvents)
	}
}

// eventEstimate is how many events a run is expected to fire.
type eventEstimate struct {
	events    float64
	fits      bool          // within the budget
	sampled   uint64        // events run to estimate
	sampledTo time.Duration // the virtual time they reached
}

// estimateEvents estimates how many events a run of s fires (the work
// its budget counts: model.World.Used) and whether that fits budget (0:
// no limit). It runs s for up to a tenth of the budget
// (at most a million events): a run that finishes fits; otherwise the rate
// of its second half (past the burst at the start) is extrapolated to the
// end of the run.
func estimateEvents(s *scenarios.Scenario, budget uint64) eventEstimate {
	if budget == 0 {
		return eventEstimate{fits: true}
	}
	half := min(budget/20+1, 500_000)
	r := s.Start(scenarios.RunOptions{Until: s.Duration, MaxEvents: half})
	w := r.World
	if r.Run(nil) == model.Finished {
		return eventEstimate{events: float64(w.Used()), fits: true}
	}
	n1, t1 := w.Used(), w.Now()
	r.MaxEvents = 2 * half
	if r.Run(nil) == model.Finished {
		return eventEstimate{events: float64(w.Used()), fits: true}
	}
	n2, t2 := w.Used(), w.Now()
	e := eventEstimate{events: math.Inf(1), sampled: n2, sampledTo: t2} // the clock did not move
	if t2 > t1 {
		e.events = float64(n2) + float64(n2-n1)*float64(s.Duration-t2)/float64(t2-t1)
	}
	e.fits = e.events <= float64(budget)
	return e
}

// hasJobs reports whether the world has a Job in the API.
func hasJobs(w *model.World) bool {
	for _, wl := range w.Workloads() {
		if wl.Spec.Kind == model.KindJob && !wl.Deleted() {
			return true
		}
	}
	return false
}
