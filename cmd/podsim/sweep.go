package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

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
	plots := fs.String("plots", "", "also write plots (SVG and PNG) into this folder")
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
		err = report.WriteStudyPlots(plots, res)
		if err == nil {
			fmt.Fprintf(m.Stderr, "plots written to %s: %s (.svg, .png)\n", plots, strings.Join(report.PlotFiles, ", "))
		}
	}
	return err
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
	if shard.n > 0 && (*out.format != "" || *out.plots != "") {
		return 0, usageError{"--shard prints raw runs for podsim merge; give -o and --plots to merge"}
	}
	st, err := sweep.Load(files[0])
	if err != nil {
		return 0, err
	}
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
	opt := sweep.Options{Parallel: *parallel, Shard: shard.i, Shards: shard.n, Progress: progressBar(m.Stderr, st.Header.Study),
		MaxEvents: *maxEvents, Interrupted: m.interrupted}
	if *resume != "" {
		f, err := os.Open(*resume)
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
		bw := bufio.NewWriter(m.Stdout)
		err := sweep.WriteShard(bw, &sweep.ShardFile{Header: st.Header, Shard: shard.i, Shards: shard.n, Runs: runs})
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

// keepPartial writes the finished runs of an interrupted sweep to a partial
// shard file and says how to resume; exit 130.
func (m *Main) keepPartial(st *sweep.Study, file string, args []string, runs []sweep.Run, shard shardFlag, path string) (int, error) {
	if path == "" {
		path = st.Header.Study + ".partial.json"
	}
	f := &sweep.ShardFile{Header: st.Header, Shard: shard.i, Shards: max(shard.n, 1), Partial: true, Runs: runs}
	var buf bytes.Buffer
	if err := sweep.WriteShard(&buf, f); err != nil {
		return 0, err
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return 0, fmt.Errorf("%s: %v", path, scenarios.ErrText(err))
	}
	total := len(st.Header.Items(sweep.Options{Shard: shard.i, Shards: shard.n}))
	again := append([]string{"podsim", "sweep"}, args...)
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
	shards := make([]*sweep.ShardFile, len(files))
	for i, name := range files {
		f, err := os.Open(name)
		if err != nil {
			return 0, fmt.Errorf("%s: %v", name, scenarios.ErrText(err))
		}
		shards[i], err = sweep.ReadShard(name, f)
		f.Close()
		if err != nil {
			return 0, err
		}
	}
	h, runs, err := sweep.Merge(files, shards)
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

// progressBar returns a progress callback that redraws a bar on w when w is
// a terminal, or nil.
func progressBar(w io.Writer, name string) func(done, total int) {
	f, ok := w.(*os.File)
	if !ok {
		return nil
	}
	if fi, err := f.Stat(); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return nil
	}
	const width = 30
	return func(done, total int) {
		n := width * done / max(total, 1)
		fmt.Fprintf(f, "\r%s [%s%s] %d/%d runs", name, strings.Repeat("#", n), strings.Repeat(".", width-n), done, total)
		if done == total {
			fmt.Fprint(f, "\r\033[K")
		}
	}
}
