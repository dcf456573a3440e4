package sweep

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/podsim/podsim/internal/yamlstrict"
	"github.com/podsim/podsim/report"
	"github.com/podsim/podsim/scenarios"
)

// Shard files: what `podsim sweep --shard i/n` writes, read back and
// checked as strictly as a study file.

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
