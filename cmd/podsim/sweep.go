package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/podsim/podsim/internal/progress"
	"github.com/podsim/podsim/report"
	"github.com/podsim/podsim/scenarios"
	"github.com/podsim/podsim/sweep"
)

// shardFlag is --shard i/n: run the study's runs k with k % n == i.
type shardFlag struct{ i, n int }

func (f *shardFlag) String() string {
	if f.n == 0 {
		return ""
	}
	return fmt.Sprintf("%d/%d", f.i, f.n)
}

func (f *shardFlag) Set(s string) error {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return fmt.Errorf("want i/n with 0 <= i < n, such as 0/4, not %q", s)
	}
	f.i, f.n = i, n
	return nil
}

// studyOutput holds -o and --plots of sweep and merge.
type studyOutput struct {
	format, plots *string
}

func studyFlags(fs *flag.FlagSet) studyOutput {
	o := fs.String("o", "", "output: text, markdown, csv or json (default: the study's output.format, else text)")
	fs.StringVar(o, "output", "", "output: text, markdown, csv or json")
	plots := fs.String("plots", "", "also write plots (SVG and PNG) into this folder; stderr names any plot skipped for having nothing to show")
	return studyOutput{o, plots}
}

// write prints the result as asked and draws the plots.
func (m *Main) writeStudy(res *report.StudyResult, format, plots string) error {
	bw := bufio.NewWriter(m.Stdout)
	var err error
	switch format {
	case "markdown":
		err = report.WriteStudyTable(bw, res, true)
	case "csv":
		err = report.WriteStudyCSV(bw, res)
	case "json":
		err = report.WriteStudyJSON(bw, res)
	default:
		err = report.WriteStudyTable(bw, res, false)
	}
	if ferr := bw.Flush(); err == nil {
		err = ferr
	}
	if err == nil && plots != "" {
		err = m.writePlots(plots, res)
	}
	return err
}

// writePlots draws the study's plots into dir and says on stderr which it
// wrote and which it skipped, and why.
func (m *Main) writePlots(dir string, res *report.StudyResult) error {
	outcomes, err := report.WriteStudyPlots(dir, res)
	if err != nil {
		return err
	}
	var written []string
	for _, o := range outcomes {
		if o.Skipped != "" {
			fmt.Fprintf(m.Stderr, "plot %s skipped: %s\n", o.Name, o.Skipped)
		} else {
			written = append(written, o.Name)
		}
	}
	if len(written) > 0 {
		fmt.Fprintf(m.Stderr, "plots written to %s: %s (.svg, .png)\n", dir, strings.Join(written, ", "))
	}
	return nil
}

func (m *Main) sweep(args []string) (int, error) {
	fs := flag.NewFlagSet("sweep", flag.ContinueOnError)
	out := studyFlags(fs)
	var shard shardFlag
	fs.Var(&shard, "shard", "run only shard i of n (0-based) and print its raw runs as JSON for podsim merge")
	parallel := fs.Int("parallel", 0, "runs at once (default: every core)")
	maxEvents := maxEventsFlag(fs)
	resume := fs.String("resume", "", "resume an interrupted sweep: skip the runs this partial file (written on Ctrl-C) holds")
	partial := fs.String("partial", "", "where Ctrl-C keeps the finished runs (default: <study name>.partial.json)")
	outFile := fs.String("out", "", "with --shard: write the shard file here, atomically (a temp file in the same folder, then rename), not to stdout")
	files, err := parseArgs(fs, args)
	if err != nil {
		return 0, err
	}
	if len(files) != 1 {
		return 0, usageError{"sweep takes one study file"}
	}
	if *parallel < 0 {
		return 0, usageError{"--parallel must not be negative"}
	}
	if *outFile != "" && shard.n == 0 {
		return 0, usageError{"--out writes a shard file: give --shard i/n too"}
	}
	if shard.n > 0 && (*out.format != "" || *out.plots != "") {
		return 0, usageError{"--shard prints raw runs for podsim merge; give -o and --plots to merge"}
	}
	st, err := sweep.Load(files[0])
	if err != nil {
		return 0, err
	}
	m.warn(st.Base.Warnings) // every cell has them: say them once
	st.Header.Podsim = version()
	format, plots := *out.format, *out.plots
	if format == "" {
		format = st.File.Spec.Output.Format
	}
	if plots == "" && shard.n == 0 {
		plots = st.File.Spec.Output.Plots
	}
	if err := checkOutput(orText(format), "text", "markdown", "csv", "json"); err != nil {
		return 0, err
	}
	opt := sweep.Options{Parallel: *parallel, Shard: shard.i, Shards: shard.n, Progress: progress.Bar(m.progressOut(), m.clock(), st.Header.Study),
		MaxEvents: *maxEvents, Interrupted: m.interrupted}
	if *resume != "" {
		f, err := scenarios.OpenRegular(*resume)
		if err != nil {
			return 0, fmt.Errorf("%s: %v", *resume, scenarios.ErrText(err))
		}
		opt.Done, err = st.Resume(*resume, f, shard.i, shard.n)
		f.Close()
		if err != nil {
			return 0, err
		}
	}
	runs, err := st.Run(opt)
	if errors.Is(err, sweep.ErrInterrupted) {
		return m.keepPartial(st, files[0], args, runs, shard, *partial)
	}
	if err != nil {
		return 0, err
	}
	if shard.n > 0 {
		f := &sweep.ShardFile{Header: st.Header, Shard: shard.i, Shards: shard.n, Runs: runs}
		if *outFile != "" {
			return 0, writeAtomic(*outFile, func(w io.Writer) error { return sweep.WriteShard(w, f) })
		}
		bw := bufio.NewWriter(m.Stdout)
		err := sweep.WriteShard(bw, f)
		if ferr := bw.Flush(); err == nil {
			err = ferr
		}
		return 0, err
	}
	res, err := sweep.Aggregate(st.Header, runs)
	if err != nil {
		return 0, err
	}
	return 0, m.writeStudy(res, format, plots)
}

// writeAtomic writes path as scenarios.WriteFile does (whole or not at
// all; a device or a pipe written through); its error names path.
func writeAtomic(path string, write func(io.Writer) error) error {
	if err := scenarios.WriteFile(path, write); err != nil {
		return fmt.Errorf("%s: %v", path, scenarios.ErrText(err))
	}
	return nil
}

// keepPartial writes the finished runs of an interrupted sweep to a partial
// shard file and says how to resume; exit 130.
func (m *Main) keepPartial(st *sweep.Study, file string, args []string, runs []sweep.Run, shard shardFlag, path string) (int, error) {
	if path == "" {
		path = st.Header.Study + ".partial.json"
	}
	f := &sweep.ShardFile{Header: st.Header, Shard: shard.i, Shards: max(shard.n, 1), Partial: true, Runs: runs}
	// Atomically: a resumed sweep interrupted again replaces the very file
	// it resumed from, and must never leave it half written.
	if err := writeAtomic(path, func(w io.Writer) error { return sweep.WriteShard(w, f) }); err != nil {
		return 0, err
	}
	total := len(st.Header.Items(sweep.Options{Shard: shard.i, Shards: shard.n}))
	again := []string{"podsim", "sweep"}
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "--resume" || a == "-resume":
			i++ // and its value: the hint names the new file
		case strings.HasPrefix(a, "--resume=") || strings.HasPrefix(a, "-resume="):
		default:
			again = append(again, a)
		}
	}
	fmt.Fprintf(m.Stderr, "podsim: interrupted after %d of %d runs; the finished ones are in %s\nresume with: %s --resume %s\n",
		len(runs), total, path, strings.Join(again, " "), path)
	return exitSIGINT, nil
}

func orText(f string) string {
	if f == "" {
		return "text"
	}
	return f
}

func (m *Main) merge(args []string) (int, error) {
	fs := flag.NewFlagSet("merge", flag.ContinueOnError)
	out := studyFlags(fs)
	files, err := parseArgs(fs, args)
	if err != nil {
		return 0, err
	}
	if len(files) == 0 {
		return 0, usageError{"merge needs the shard files of a study"}
	}
	if err := checkOutput(orText(*out.format), "text", "markdown", "csv", "json"); err != nil {
		return 0, err
	}
	files, err = shardFiles(files)
	if err != nil {
		return 0, err
	}
	// One file at a time: the Merger keeps the runs' samples, not the files.
	var mg sweep.Merger
	for _, name := range files {
		f, err := scenarios.OpenRegular(name)
		if err != nil {
			return 0, fmt.Errorf("%s: %v", name, scenarios.ErrText(err))
		}
		sf, err := sweep.ReadShard(name, f)
		f.Close()
		if err == nil {
			err = mg.Add(name, sf)
		}
		if err != nil {
			return 0, err
		}
	}
	h, runs, err := mg.Result()
	if err != nil {
		return 0, err
	}
	res, err := sweep.Aggregate(h, runs)
	if err != nil {
		return 0, err
	}
	// The study's output defaults, as sweep without --shard has them.
	format, plots := *out.format, *out.plots
	if format == "" {
		format = h.Output.Format
	}
	if plots == "" {
		plots = h.Output.Plots
	}
	return 0, m.writeStudy(res, format, plots)
}

// shardFiles expands merge's arguments: a folder stands for every *.json
// file in it, sorted by name; a file stands for itself.
func shardFiles(args []string) ([]string, error) {
	var files []string
	for _, a := range args {
		fi, err := os.Stat(a)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", a, scenarios.ErrText(err))
		}
		if !fi.IsDir() {
			files = append(files, a)
			continue
		}
		ents, err := os.ReadDir(a) // sorted by name
		if err != nil {
			return nil, fmt.Errorf("%s: %v", a, scenarios.ErrText(err))
		}
		n := len(files)
		for _, e := range ents {
			if strings.HasSuffix(e.Name(), ".json") && !e.IsDir() {
				files = append(files, filepath.Join(a, e.Name()))
			}
		}
		if len(files) == n {
			return nil, fmt.Errorf("%s: no shard files (*.json) in this folder", a)
		}
	}
	return files, nil
}
