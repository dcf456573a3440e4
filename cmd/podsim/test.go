package main

import (
	"bufio"
	"flag"
	"fmt"
	"strings"

	"github.com/podsim/podsim/expect"
	"github.com/podsim/podsim/internal/progress"
	"github.com/podsim/podsim/scenarios"
)

func (m *Main) test(args []string) (int, error) {
	fset := flag.NewFlagSet("test", flag.ContinueOnError)
	out := outputFlag(fset, "text, jsonl or json")
	junit := fset.String("junit", "", "also write a JUnit XML report to this file")
	var opt expect.SuiteOptions
	fset.StringVar(&opt.Golden, "golden", "", "compare each scenario's timeline (-o jsonl) with DIR/<name>.jsonl")
	fset.BoolVar(&opt.Update, "update", false, "with --golden: rewrite the golden timelines instead of comparing")
	fset.BoolVar(&opt.ProbeEveryTick, "probe-every-tick", false, "run every probe tick, not only those that can change something (same output, slower)")
	maxEvents := maxEventsFlag(fset)
	over := overrideFlags(fset)
	m.addWarningsFlag(fset)
	paths, err := parseArgs(fset, args)
	if err != nil {
		return 0, err
	}
	if err := checkOutput(*out, "text", "jsonl", "json"); err != nil {
		return 0, err
	}
	if opt.Update && opt.Golden == "" {
		return 0, usageError{"--update rewrites golden timelines: give the folder with --golden DIR"}
	}
	if len(paths) == 0 {
		return 0, usageError{"test needs scenario files or folders"}
	}
	files, err := expect.FindScenarios(paths)
	if err != nil {
		return 0, err
	}
	opt.MaxEvents, opt.Interrupted, opt.Override = *maxEvents, m.interrupted, over.apply
	prog := progress.NewRuns(m.progressOut(), m.clock(), len(files))
	if prog != nil {
		opt.Progress = prog
	}
	results := expect.RunSuite(files, opt)
	prog.Close()
	expect.CheckNames(results)
	if opt.Update {
		if err := expect.WriteGoldens(results, opt, m.Stderr); err != nil {
			return 0, err
		}
	}

	var warnings scenarios.ErrorList // together: a manifest run and included warns once
	for i := range results {
		warnings = append(warnings, results[i].Warnings...)
	}
	m.warn(warnings)
	passed, failed, bad, stopped := 0, 0, 0, 0
	for i := range results {
		r := &results[i]
		switch {
		case r.Interrupted:
			stopped++
		case r.Skipped && r.Kind != scenarios.KindStudy:
			// Most likely a typo in kind: say so rather than skip in silence.
			fmt.Fprintf(m.Stderr, "podsim: skipped %s: its kind is %q, not %s\n", r.Path, r.Kind, scenarios.KindScenario)
		case r.Skipped:
		case r.Err != nil:
			bad++
			fmt.Fprintln(m.Stderr, r.Err)
		case r.Passed():
			passed++
		default:
			failed++
		}
	}

	if passed+failed+bad == 0 && stopped == 0 {
		// A suite that tests nothing must not pass a CI job.
		return 0, fmt.Errorf("podsim test: no scenarios in %s", strings.Join(paths, ", "))
	}
	bw := bufio.NewWriter(m.Stdout)
	switch *out {
	case "json", "jsonl":
		err = expect.WriteJSON(bw, results, *out == "jsonl", passed, failed+bad)
	default:
		expect.WriteText(bw, results, passed, failed+bad)
	}
	if ferr := bw.Flush(); err == nil {
		err = ferr
	}
	if err != nil {
		return 0, err
	}
	if *junit != "" {
		if err := expect.WriteJUnitFile(*junit, results); err != nil {
			return 0, err
		}
	}
	switch {
	case stopped > 0:
		fmt.Fprintf(m.Stderr, "podsim: interrupted: %d scenarios not run or not finished; the results above are those that finished\n", stopped)
		return exitSIGINT, nil
	case bad > 0:
		return exitBadInput, nil
	case failed > 0:
		return exitFailed, nil
	}
	return exitOK, nil
}
