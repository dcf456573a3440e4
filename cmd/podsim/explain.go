package main

import (
	"bufio"
	"flag"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/report"
	"github.com/podsim/podsim/scenarios"
)

// explain is `podsim explain FILE [--at T] [-o text|json]`: why, at T
// (default: the end of the run), each Pending pod waits for a node and
// each node the node autoscaler keeps is not removed.
func (m *Main) explain(args []string) (int, error) {
	fs := flag.NewFlagSet("explain", flag.ContinueOnError)
	out := outputFlag(fs, "text or json")
	var at durationFlag
	fs.Var(&at, "at", "explain the cluster as of this virtual time (e.g. 4m) instead of the end")
	m.addWarningsFlag(fs)
	maxEvents := maxEventsFlag(fs)
	over := overrideFlags(fs)
	pos, err := parseArgs(fs, args)
	if err != nil {
		return 0, err
	}
	if len(pos) != 1 {
		return 0, usageError{"explain takes one scenario file: podsim explain FILE [--at T] [-o text|json]"}
	}
	if err := checkOutput(*out, "text", "json"); err != nil {
		return 0, err
	}
	w, code, err := m.runTo(pos[0], &at, over, *maxEvents)
	if w == nil || code != exitOK {
		return code, err
	}
	bw := bufio.NewWriter(m.Stdout)
	defer bw.Flush()
	if *out == "json" {
		return exitOK, report.WriteExplainJSON(bw, w)
	}
	return exitOK, report.WriteExplain(bw, w)
}

// runTo loads file, applies the command line's overrides and runs it to
// --at (its end if unset), as describe and explain show it. A nil world
// comes with the exit code, or the error, of a run that did not get
// there.
func (m *Main) runTo(file string, at *durationFlag, over *overrides, maxEvents uint64) (*model.World, int, error) {
	s, err := m.loadFile(file)
	if err != nil {
		return nil, 0, err
	}
	over.apply(s)
	until, err := at.until(s)
	if err != nil {
		return nil, 0, err
	}
	r := s.Start(scenarios.RunOptions{Until: until, MaxEvents: maxEvents})
	if code := m.runEnd(r, r.Run(m.interrupted)); code != exitOK {
		return nil, code, nil
	}
	return r.World, exitOK, nil
}
