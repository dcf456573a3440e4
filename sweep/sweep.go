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
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/podsim/podsim/internal/yamlstrict"
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
		msg := fmt.Sprintf("%s: run %d (cell %d, seed %d) stopped at %s of %s of virtual time: it used its budget of %d events (raise it with --max-events N, 0 for no limit)",
			s.Header.File, k, c, sc.Seed, sim.FormatTime(w.Now()), sim.FormatTime(sc.Duration), budget)
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

// ShardFormat identifies a shard file. v2 added each run's series of pods
// created so far, which the restarts plot divides by.
const ShardFormat = "podsim-sweep-shard/v2"

// ShardFile is the raw output of `podsim sweep --shard i/n`: the header and
// the shard's runs, for `podsim merge`.
type ShardFile struct {
	Format string `json:"format"`
	Header Header `json:"header"`
	Shard  int    `json:"shard"`
	Shards int    `json:"shards"`
	// Partial marks the runs of an interrupted sweep: some of the shard's
	// runs, to resume from (podsim sweep --resume), not to merge.
	Partial bool  `json:"partial,omitempty"`
	Runs    []Run `json:"runs"`
}

// WriteShard writes a shard file.
func WriteShard(w io.Writer, f *ShardFile) error {
	f.Format = ShardFormat
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(f)
}

// MaxShardSize is the largest shard file merge reads: 512 MiB.
const MaxShardSize = 512 << 20

// ReadShard reads a shard file of at most MaxShardSize bytes; name names it
// in errors.
func ReadShard(name string, r io.Reader) (*ShardFile, error) {
	return readShard(name, r, MaxShardSize)
}

func readShard(name string, r io.Reader, limit int64) (*ShardFile, error) {
	data, err := yamlstrict.ReadAll(name, r, limit)
	if err != nil {
		return nil, err
	}
	var f ShardFile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("%s: not a podsim shard file: %v", name, err)
	}
	if f.Format != ShardFormat {
		return nil, fmt.Errorf("%s: format %q, want %q", name, f.Format, ShardFormat)
	}
	if err := f.check(); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return &f, nil
}

// check tells whether a shard file is whole and consistent, so that merging
// and aggregating it can trust its numbers.
func (f *ShardFile) check() error {
	h := &f.Header
	switch {
	case f.Shards < 1 || f.Shards > scenarios.MaxRuns:
		return fmt.Errorf("%d shards: want 1..%d", f.Shards, scenarios.MaxRuns)
	case f.Shard < 0 || f.Shard >= f.Shards:
		return fmt.Errorf("shard %d/%d: want 0 <= shard < shards", f.Shard, f.Shards)
	case h.Seeds < 1 || h.Seeds > scenarios.MaxSeeds:
		return fmt.Errorf("%d seeds: want 1..%d", h.Seeds, scenarios.MaxSeeds)
	case h.Duration <= 0:
		return fmt.Errorf("duration %dns: want a positive one", h.Duration)
	case len(h.Cells) == 0 || len(h.Cells) > scenarios.MaxCells:
		return fmt.Errorf("%d cells: want 1..%d", len(h.Cells), scenarios.MaxCells)
	case len(h.Cells)*h.Seeds > scenarios.MaxRuns:
		return fmt.Errorf("%d cells x %d seeds: want at most %d runs", len(h.Cells), h.Seeds, scenarios.MaxRuns)
	case h.Output.Format != "" && !slices.Contains(scenarios.StudyFormats, h.Output.Format):
		return fmt.Errorf("output format %q: want one of %s", h.Output.Format, strings.Join(scenarios.StudyFormats, ", "))
	case h.Output.Restarts != "" && h.Output.Restarts != scenarios.RestartsPerPod && h.Output.Restarts != scenarios.RestartsTotal:
		return fmt.Errorf("output restarts %q: want %s or %s", h.Output.Restarts, scenarios.RestartsPerPod, scenarios.RestartsTotal)
	}
	for c, labels := range h.Cells {
		if len(labels) != len(h.Params) {
			return fmt.Errorf("cell %d has %d values for %d parameters", c, len(labels), len(h.Params))
		}
	}
	if err := scenarios.CheckPlotsFolder(h.Output.Plots); err != nil {
		return err
	}
	if err := checkMetricNames(h.Metrics); err != nil {
		return err
	}
	// Run k is in shard k % Shards.
	n := h.Runs()
	want := n / f.Shards
	if f.Shard < n%f.Shards {
		want++
	}
	switch {
	case f.Partial && len(f.Runs) > want:
		return fmt.Errorf("partial shard %d/%d has %d runs, want at most %d", f.Shard, f.Shards, len(f.Runs), want)
	case !f.Partial && len(f.Runs) != want:
		return fmt.Errorf("shard %d/%d has %d runs, want %d", f.Shard, f.Shards, len(f.Runs), want)
	}
	seen := make(map[int]bool, len(f.Runs))
	for _, r := range f.Runs {
		if r.Index < 0 || r.Index >= n || r.Index%f.Shards != f.Shard || r.Cell != r.Index/h.Seeds || seen[r.Index] {
			return fmt.Errorf("run %d (cell %d) does not belong in shard %d/%d, or comes twice", r.Index, r.Cell, f.Shard, f.Shards)
		}
		seen[r.Index] = true
	}
	for _, r := range f.Runs {
		if len(r.Ready) != report.SeriesPoints || len(r.Restarts) != report.SeriesPoints || len(r.Pods) != report.SeriesPoints {
			return fmt.Errorf("run %d has series of %d, %d and %d points, want %d", r.Index, len(r.Ready), len(r.Restarts), len(r.Pods), report.SeriesPoints)
		}
		if err := checkSamples(&r); err != nil {
			return fmt.Errorf("run %d: %v", r.Index, err)
		}
	}
	_, err := checkSeeds(f.Runs, h.Seeds, nil)
	return err
}

// MaxSample bounds every number of a shard file: no metric of a run
// comes near it, and 100,000 runs of samples this large still sum to a
// finite mean.
const MaxSample = 1e15

// checkSamples checks a run's samples and series: one list (or null, no
// sample) per metric, each number in [0, MaxSample].
func checkSamples(r *Run) error {
	if len(r.Values) != len(report.Metrics) {
		return fmt.Errorf("%d metrics, want %d (made by another podsim version?)", len(r.Values), len(report.Metrics))
	}
	for i, vs := range r.Values {
		for _, v := range vs {
			if !(v >= 0 && v <= MaxSample) {
				return fmt.Errorf("metric %s has the sample %g: want 0 to %g", report.Metrics[i].Name, v, MaxSample)
			}
		}
	}
	for _, s := range [][]float64{r.Ready, r.Restarts, r.Pods} {
		for _, v := range s {
			if !(v >= 0 && v <= MaxSample) {
				return fmt.Errorf("a series has the point %g: want 0 to %g", v, MaxSample)
			}
		}
	}
	return nil
}

// checkSeeds checks that the runs of each cell have consecutive seeds, as
// a sweep gives them (the cell's seed plus the run's place in the cell),
// among themselves and against seen (by cell: its seed), and returns the
// seeds of the runs' cells.
func checkSeeds(runs []Run, seeds int, seen map[int]uint64) (map[int]uint64, error) {
	own := map[int]uint64{}
	for _, r := range runs {
		b := r.Seed - uint64(r.Index%seeds)
		want, ok := own[r.Cell]
		if !ok {
			want, ok = seen[r.Cell]
		}
		if ok && b != want {
			return nil, fmt.Errorf("run %d (cell %d) has seed %d, want %d: the seeds of a cell follow each other", r.Index, r.Cell, r.Seed, want+uint64(r.Index%seeds))
		}
		own[r.Cell] = b
	}
	return own, nil
}

// checkMetricNames checks the metrics a header shows: each known, once.
func checkMetricNames(names []string) error {
	seen := map[string]bool{}
	for _, n := range names {
		if report.MetricIndex(n) < 0 || seen[n] {
			return fmt.Errorf("metric %q: unknown or listed twice", n)
		}
		seen[n] = true
	}
	return nil
}

// sameStudy tells whether two headers are of the same study: everything but
// the paths it was run as, which merely name the files.
func sameStudy(a, b Header) bool {
	a.File, a.Scenario = "", ""
	b.File, b.Scenario = "", ""
	return reflect.DeepEqual(a, b)
}

// Merge checks that files are the shards 0..n-1 of one study and returns
// its header (its paths those of the first file) and every run. It is a
// Merger given the files in turn.
func Merge(names []string, files []*ShardFile) (Header, []Run, error) {
	var m Merger
	for i, f := range files {
		if err := m.Add(names[i], f); err != nil {
			return Header{}, nil, err
		}
	}
	return m.Result()
}

// A Merger puts the shard files of one study together one at a time, so
// that merging many files needs memory for the runs' samples the result
// uses, not for the files: Add keeps of each run only the metrics the
// study shows (and the time to ready, which the plots use) and the series.
// The zero Merger is ready to use.
type Merger struct {
	h     Header
	first string   // the first file's name
	seen  []string // by shard: the file that brought it
	keep  []bool   // by metric index: whether Aggregate reads it
	runs  []Run
	bases map[int]uint64 // by cell: its seed (checkSeeds)
}

// Add checks the shard file f, named name in errors, against those added
// before and keeps its runs. A refused file leaves the Merger as it was.
func (m *Merger) Add(name string, f *ShardFile) error {
	if err := f.check(); err != nil {
		return fmt.Errorf("%s: %v", name, err)
	}
	if f.Partial {
		return fmt.Errorf("%s holds the runs of an interrupted sweep: finish it with podsim sweep STUDY --resume %s", name, name)
	}
	if m.seen == nil {
		m.h, m.first, m.seen = f.Header, name, make([]string, f.Shards)
		m.keep = make([]bool, len(report.Metrics))
		for _, n := range append([]string{"pod.timeToReady"}, f.Header.Metrics...) {
			if i := report.MetricIndex(n); i >= 0 {
				m.keep[i] = true
			}
		}
	}
	switch {
	case f.Header.Podsim != m.h.Podsim:
		return fmt.Errorf("%s was made by %s, %s by %s: run every shard with one podsim version",
			name, podsimName(f.Header.Podsim), m.first, podsimName(m.h.Podsim))
	case !sameStudy(f.Header, m.h):
		what := "another study"
		if f.Header.Study == m.h.Study {
			what = "another version of study " + m.h.Study
		}
		return fmt.Errorf("%s is from %s than %s (fingerprint %.12s, not %.12s)", name, what, m.first, f.Header.Fingerprint, m.h.Fingerprint)
	case f.Shards != len(m.seen):
		return fmt.Errorf("%s is shard %d of %d, %s one of %d shards", name, f.Shard, f.Shards, m.first, len(m.seen))
	case m.seen[f.Shard] != "":
		return fmt.Errorf("%s and %s are both shard %d of %d", m.seen[f.Shard], name, f.Shard, f.Shards)
	}
	bases, err := checkSeeds(f.Runs, f.Header.Seeds, m.bases)
	if err != nil {
		return fmt.Errorf("%s: %v", name, err)
	}
	if m.bases == nil {
		m.bases = bases
	} else {
		maps.Copy(m.bases, bases)
	}
	m.seen[f.Shard] = name
	for _, r := range f.Runs {
		vals := make([][]float64, len(r.Values)) // f's runs stay as they were
		for i, v := range r.Values {
			if i >= len(m.keep) || m.keep[i] {
				vals[i] = v
			}
		}
		r.Values = vals
		m.runs = append(m.runs, r)
	}
	return nil
}

func podsimName(v string) string {
	if v == "" {
		return "an unnamed podsim (a shard file from before versions were recorded)"
	}
	return "podsim " + v
}

// Result returns the header of the study (its paths those of the first
// file) and every run, or which shards are missing.
func (m *Merger) Result() (Header, []Run, error) {
	if m.seen == nil {
		return Header{}, nil, fmt.Errorf("merge needs shard files")
	}
	var missing []string
	for i, s := range m.seen {
		if s == "" {
			missing = append(missing, strconv.Itoa(i))
		}
	}
	switch n := len(missing); {
	case n == 1:
		return Header{}, nil, fmt.Errorf("shard %s of %d missing", missing[0], len(m.seen))
	case n > 10:
		return Header{}, nil, fmt.Errorf("%d shards of %d missing, among them %s", n, len(m.seen), strings.Join(missing[:10], ", "))
	case n > 1:
		return Header{}, nil, fmt.Errorf("shards %s of %d missing", strings.Join(missing, ", "), len(m.seen))
	}
	return m.h, m.runs, nil
}

// Resume reads the runs of an interrupted sweep of s from a partial shard
// file, checking that it is of this study and of shard i/n (n 0: no shards).
func (s *Study) Resume(name string, r io.Reader, shard, shards int) ([]Run, error) {
	f, err := ReadShard(name, r)
	if err != nil {
		return nil, err
	}
	if shards == 0 {
		shards = 1
	}
	switch {
	case f.Header.Podsim != s.Header.Podsim:
		return nil, fmt.Errorf("%s was made by %s, this is %s: resume with the podsim that was interrupted, or start again",
			name, podsimName(f.Header.Podsim), podsimName(s.Header.Podsim))
	case !sameStudy(f.Header, s.Header):
		return nil, fmt.Errorf("%s is from another study or version of it than %s", name, s.Header.File)
	case f.Shard != shard || f.Shards != shards:
		return nil, fmt.Errorf("%s holds runs of shard %d/%d, not %d/%d", name, f.Shard, f.Shards, shard, shards)
	}
	return f.Runs, nil
}
