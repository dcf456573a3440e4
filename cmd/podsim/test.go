package main

import (
	"bufio"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/podsim/podsim/report"
	"github.com/podsim/podsim/scenarios"
)

// suiteResult is the outcome of one scenario of a suite.
type suiteResult struct {
	path     string
	name     string
	skipped  bool // not a Scenario (a study, ...)
	err      error
	verdicts []report.Verdict
	failed   int
	elapsed  time.Duration
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
func runOne(path string) suiteResult {
	start := time.Now()
	r := suiteResult{path: path}
	data, err := os.ReadFile(path)
	if err != nil {
		r.err = fmt.Errorf("%s: %v", path, errText(err))
		return r
	}
	if k := scenarios.ReadKind(data); k != "" && k != scenarios.KindScenario {
		r.skipped = true
		return r
	}
	s, err := scenarios.Parse(path, data)
	if err != nil {
		r.err = err
		return r
	}
	r.name = s.File.Metadata.Name
	w := s.Build()
	checks := report.Arm(s, w)
	w.Run(s.Duration)
	r.verdicts, r.failed = checks.Verdicts(), checks.Failed()
	r.elapsed = time.Since(start)
	return r
}

// runSuite runs files on every core; results come back in file order.
func runSuite(files []string) []suiteResult {
	results := make([]suiteResult, len(files))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(files)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i] = runOne(files[i])
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

func (m *Main) test(args []string) (int, error) {
	fset := flag.NewFlagSet("test", flag.ContinueOnError)
	paths, err := parseArgs(fset, args)
	if err != nil {
		return 0, err
	}
	if len(paths) == 0 {
		return 0, usageError{"test needs scenario files or folders"}
	}
	files, err := findScenarios(paths)
	if err != nil {
		return 0, err
	}
	results := runSuite(files)

	out := bufio.NewWriter(m.Stdout)
	defer out.Flush()
	passed, failed, bad := 0, 0, 0
	for i := range results {
		r := &results[i]
		switch {
		case r.skipped:
			continue
		case r.err != nil:
			bad++
			fmt.Fprintf(out, "ERROR %s\n", r.path)
			out.Flush()
			fmt.Fprintln(m.Stderr, r.err)
			continue
		case r.failed > 0:
			failed++
			fmt.Fprintf(out, "FAIL  %s (%s, %d of %d expectations failed)\n", r.name, r.path, r.failed, len(r.verdicts))
			for j := range r.verdicts {
				v := &r.verdicts[j]
				for _, f := range v.Failures {
					fmt.Fprintf(out, "      %s: %s\n", v.Where, v.String(f))
				}
			}
		default:
			passed++
			fmt.Fprintf(out, "PASS  %s (%s, %d expectations)\n", r.name, r.path, len(r.verdicts))
		}
	}
	fmt.Fprintf(out, "%d passed, %d failed\n", passed, failed+bad)
	switch {
	case bad > 0:
		return exitBadInput, nil
	case failed > 0:
		return exitFailed, nil
	}
	return exitOK, nil
}
