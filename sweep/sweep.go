// Package sweep runs what-if studies: every cell of a study's grid with
// several seeds, on every core or in shards on many machines, and turns the
// runs' metrics into one report.StudyResult.
//
// A study has cells x seeds runs; run k is cell k/seeds with the seed
// k%seeds after the cell scenario's own. Runs are independent and
// deterministic, and results are put together in run order, so the result
// is the same whatever the parallelism and however the runs are sharded.
package sweep

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/podsim/podsim/manifests"
	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/report"
	"github.com/podsim/podsim/scenarios"
	"github.com/podsim/podsim/sim"
)

// Study is a study loaded and checked, ready to run.
type Study struct {
	*scenarios.Study
	Header Header
}

// Header is what a result needs beside the runs: a shard file carries it so
// that merging needs no study file.
type Header struct {
	Study       string     `json:"study"`
	File        string     `json:"file"`
	Scenario    string     `json:"scenario"`
	Duration    int64      `json:"durationNanos"`
	Seeds       int        `json:"seeds"`
	Params      []string   `json:"parameters"`
	Cells       [][]string `json:"cells"`
	Metrics     []string   `json:"metrics"`     // shown, in order
	Output      Output     `json:"output"`      // the study's output defaults
	Fingerprint string     `json:"fingerprint"` // sha256 of the bytes of the study and base scenario files
	// Podsim is the version of podsim that ran the runs (podsim version),
	// set by the command; shard files older than it have none. Shards of
	// different versions do not merge: a model change moves the numbers.
	Podsim string `json:"podsim,omitempty"`
}

// Output are the study's defaults for -o and --plots and what its restarts
// plot counts (its spec.output), so that merge prints and draws what sweep
// would.
type Output struct {
	Format   string `json:"format,omitempty"`
	Plots    string `json:"plots,omitempty"`
	Restarts string `json:"restarts,omitempty"` // scenarios.RestartsPerPod or RestartsTotal; empty: per pod
}

// Runs is how many runs the study has.
func (h *Header) Runs() int { return len(h.Cells) * h.Seeds }

// Run is the outcome of one run: its cell, its seed, and what it measured.
type Run struct {
	Index int    `json:"index"` // cell*seeds + the seed's place
	Cell  int    `json:"cell"`
	Seed  uint64 `json:"seed"`
	report.RunMetrics
}

// Load reads a study file and builds every cell's scenario. Its error, if
// any, is a scenarios.ErrorList with every problem as FILE:LINE:COL.
func Load(path string) (*Study, error) {
	st, err := scenarios.LoadStudy(path, report.MetricNames(), manifests.NewReader())
	if err != nil {
		return nil, err
	}
	h := Header{Study: st.File.Metadata.Name, File: path, Scenario: st.Base.Path, Duration: int64(st.Duration),
		Seeds: st.Seeds, Params: st.Params, Metrics: st.File.Spec.Metrics,
		Output: Output{Format: st.File.Spec.Output.Format, Plots: st.File.Spec.Output.Plots, Restarts: st.File.Spec.Output.Restarts}}
	if h.Params == nil {
		h.Params = []string{}
	}
	if len(h.Metrics) == 0 {
		h.Metrics = report.MetricNames()
	}
	for _, c := range st.Cells {
		h.Cells = append(h.Cells, slices.Clone(c.Labels))
	}
	if h.Cells[0] == nil {
		h.Cells[0] = []string{}
	}
	// Only the files' bytes: the same study named by another path (./x.yaml,
	// x.yaml) is the same study.
	sum := sha256.New()
	for _, data := range [][]byte{st.Source, st.BaseSource} {
		fmt.Fprintf(sum, "%d\n", len(data))
		sum.Write(data)
	}
	for _, src := range st.Base.Sources() { // the manifests it includes
		data, err := scenarios.ReadFile(src)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(sum, "%d\n", len(data))
		sum.Write(data)
	}
	h.Fingerprint = hex.EncodeToString(sum.Sum(nil))
	return &Study{Study: st, Header: h}, nil
}

// Options say which runs to do and how.
type Options struct {
	Parallel int // workers; <= 0: GOMAXPROCS
	// Shard and Shards select the runs k with k % Shards == Shard
	// (Shards <= 1: every run).
	Shard, Shards int
	// Progress, if set, is called after each run with how many of the
	// selected runs are done; calls come one at a time.
	Progress func(done, total int)
	// MaxEvents is each run's event budget (0: none): a run over it fails
	// the study.
	MaxEvents uint64
	// Interrupted, if set, is asked before each run and between chunks of
	// events: once it says so, workers stop and Run returns what finished.
	Interrupted func() bool
	// Done lists runs finished before (a resumed study): they are not run
	// again, and Run returns them with the others.
	Done []Run
}

// ErrInterrupted is what Run returns, with the runs that finished, when
// Options.Interrupted asked it to stop.
var ErrInterrupted = errors.New("interrupted")

// Items lists the indexes of the runs o selects, in order.
func (h *Header) Items(o Options) []int {
	var out []int
	for k := 0; k < h.Runs(); k++ {
		if o.Shards <= 1 || k%o.Shards == o.Shard {
			out = append(out, k)
		}
	}
	return out
}

// RunOne does run k of the study, within budget events (0: no limit),
// asking interrupted (if set) between chunks of events. It fails with
// ErrInterrupted, or with an error naming the run and its busiest sources
// when it goes over the budget.
func (s *Study) RunOne(k int, budget uint64, interrupted func() bool) (Run, error) {
	c, i := k/s.Seeds, k%s.Seeds
	sc := *s.Cells[c].Scenario
	sc.Seed += uint64(i)
	var m *report.Meter
	r := sc.Start(scenarios.RunOptions{Until: sc.Duration, MaxEvents: budget,
		Attach: func(w *model.World) { m = report.NewMeter(w, sc.Duration) }})
	w := r.World
	switch r.Run(interrupted) {
	case model.Interrupted:
		return Run{}, ErrInterrupted
	case model.OverBudget:
		msg := fmt.Sprintf("%s: run %d (cell %d, seed %d) stopped at %s of %s of virtual time: %s (raise it with --max-events N, 0 for no limit)",
			s.Header.File, k, c, sc.Seed, sim.FormatTime(w.Now()), sim.FormatTime(sc.Duration), w.BudgetSpent(budget))
		for _, b := range w.BusiestSources(3) {
			msg += "\n  " + b
		}
		return Run{}, errors.New(msg)
	}
	return Run{Index: k, Cell: c, Seed: sc.Seed, RunMetrics: m.Finish()}, nil
}

// Run does the runs o selects, but those in o.Done, on o.Parallel workers
// and returns them with o.Done in run order. Interrupted, it returns the
// runs that finished and ErrInterrupted; a run over its budget stops the
// study with that run's error.
func (s *Study) Run(o Options) ([]Run, error) {
	done := map[int]bool{}
	for _, r := range o.Done {
		done[r.Index] = true
	}
	var items []int
	for _, k := range s.Header.Items(o) {
		if !done[k] {
			items = append(items, k)
		}
	}
	out := make([]Run, len(items))
	errs := make([]error, len(items))
	workers := o.Parallel
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = max(1, min(workers, len(items)))
	next := make(chan int)
	finished := make(chan struct{}, len(items))
	var stop atomic.Bool // a run failed or the user interrupted: start no more
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if stop.Load() || o.Interrupted != nil && o.Interrupted() {
					errs[i] = ErrInterrupted
				} else if out[i], errs[i] = s.RunOne(items[i], o.MaxEvents, o.Interrupted); errs[i] != nil {
					stop.Store(true)
				}
				finished <- struct{}{}
			}
		}()
	}
	go func() {
		for i := range items {
			next <- i
		}
		close(next)
	}()
	for n := 1; n <= len(items); n++ {
		<-finished
		if o.Progress != nil && !stop.Load() {
			o.Progress(n+len(o.Done), len(items)+len(o.Done))
		}
	}
	wg.Wait()
	runs := append([]Run(nil), o.Done...)
	var err error
	for i := range items {
		switch {
		case errs[i] == nil:
			runs = append(runs, out[i])
		case err == nil || err == ErrInterrupted:
			err = errs[i] // a real failure wins over an interruption
		}
	}
	slices.SortFunc(runs, func(a, b Run) int { return a.Index - b.Index })
	return runs, err
}

// Aggregate summarises complete runs (every run of the study exactly once,
// in any order) into the study's result.
func Aggregate(h Header, runs []Run) (*report.StudyResult, error) {
	byIndex := make([]*Run, h.Runs())
	for i := range runs {
		r := &runs[i]
		if r.Index < 0 || r.Index >= len(byIndex) || r.Cell != r.Index/h.Seeds {
			return nil, fmt.Errorf("run %d (cell %d) does not belong to study %s (%d runs)", r.Index, r.Cell, h.Study, h.Runs())
		}
		if byIndex[r.Index] != nil {
			return nil, fmt.Errorf("run %d of study %s is there twice", r.Index, h.Study)
		}
		if len(r.Values) != len(report.Metrics) {
			return nil, fmt.Errorf("run %d of study %s has %d metrics, want %d (made by another podsim version?)", r.Index, h.Study, len(r.Values), len(report.Metrics))
		}
		byIndex[r.Index] = r
	}
	for k, r := range byIndex {
		if r == nil {
			return nil, fmt.Errorf("run %d of study %s (cell %d, seed #%d) is missing", k, h.Study, k/h.Seeds, k%h.Seeds)
		}
	}
	res := &report.StudyResult{Name: h.Study, Scenario: h.Scenario, Duration: time.Duration(h.Duration), Seeds: h.Seeds,
		Params: h.Params, Cells: h.Cells, RestartsTotal: h.Output.Restarts == scenarios.RestartsTotal}
	var idx []int
	for _, name := range h.Metrics {
		i := report.MetricIndex(name)
		if i < 0 {
			return nil, fmt.Errorf("study %s: unknown metric %q", h.Study, name)
		}
		idx = append(idx, i)
		res.Metrics = append(res.Metrics, report.Metrics[i])
	}
	ttr := report.MetricIndex("pod.timeToReady")
	res.Summaries = make([][]report.Summary, len(idx))
	for m, i := range idx {
		res.Summaries[m] = make([]report.Summary, len(h.Cells))
		for c := range h.Cells {
			per := make([][]float64, h.Seeds)
			for j := range per {
				per[j] = byIndex[c*h.Seeds+j].Values[i]
			}
			res.Summaries[m][c] = report.Summarize(per)
		}
	}
	for c := range h.Cells {
		var cr report.CellRuns
		for j := 0; j < h.Seeds; j++ {
			r := byIndex[c*h.Seeds+j]
			cr.TimeToReady = append(cr.TimeToReady, r.Values[ttr])
			cr.Ready, cr.Restarts, cr.Pods = append(cr.Ready, r.Ready), append(cr.Restarts, r.Restarts), append(cr.Pods, r.Pods)
		}
		res.Runs = append(res.Runs, cr)
	}
	return res, nil
}
