package sweep

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/podsim/podsim/report"
)

const tiny = "../testdata/studies/tiny.yaml"

// render writes a result in every format, and its plots into dir.
func render(t *testing.T, h Header, runs []Run, dir string) map[string][]byte {
	t.Helper()
	res, err := Aggregate(h, runs)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	var b bytes.Buffer
	for name, write := range map[string]func() error{
		"text":     func() error { return report.WriteStudyTable(&b, res, false) },
		"markdown": func() error { return report.WriteStudyTable(&b, res, true) },
		"csv":      func() error { return report.WriteStudyCSV(&b, res) },
		"json":     func() error { return report.WriteStudyJSON(&b, res) },
	} {
		b.Reset()
		if err := write(); err != nil {
			t.Fatal(err)
		}
		out[name] = bytes.Clone(b.Bytes())
	}
	if dir != "" {
		if _, err := report.WriteStudyPlots(dir, res); err != nil {
			t.Fatal(err)
		}
		for _, f := range report.PlotFiles {
			for _, ext := range []string{".svg", ".png"} {
				data, err := os.ReadFile(filepath.Join(dir, f+ext))
				if err != nil {
					t.Fatal(err)
				}
				out[f+ext] = data
			}
		}
	}
	return out
}

func same(t *testing.T, what string, a, b map[string][]byte) {
	t.Helper()
	if len(a) != len(b) {
		t.Fatalf("%s: %d outputs against %d", what, len(a), len(b))
	}
	for k := range a {
		if !bytes.Equal(a[k], b[k]) {
			t.Errorf("%s: %s differs:\n%s\n---\n%s", what, k, a[k], b[k])
		}
	}
}

func TestParallelismDoesNotMatter(t *testing.T) {
	st, err := Load(tiny)
	if err != nil {
		t.Fatal(err)
	}
	one := render(t, st.Header, mustRun(t, st, Options{Parallel: 1}), t.TempDir())
	four := render(t, st.Header, mustRun(t, st, Options{Parallel: 4}), t.TempDir())
	same(t, "--parallel 1 against 4", one, four)
	// The seeds differ: a study whose runs were all alike would prove little.
	res, _ := Aggregate(st.Header, mustRun(t, st, Options{}))
	if s := res.Summaries[report.MetricIndex("pod.timeToReady")][0]; !(s.SD > 0) || s.Runs != 3 {
		t.Errorf("time to ready in cell 0: %+v; want 3 runs that differ", s)
	}
}

func TestShardsMergeToTheSingleRun(t *testing.T) {
	st, err := Load(tiny)
	if err != nil {
		t.Fatal(err)
	}
	single := render(t, st.Header, mustRun(t, st, Options{}), t.TempDir())
	for _, n := range []int{1, 2, 5, 13} {
		var names []string
		var files []*ShardFile
		for i := range n {
			var b bytes.Buffer
			f := &ShardFile{Header: st.Header, Shard: i, Shards: n, Runs: mustRun(t, st, Options{Shard: i, Shards: n, Parallel: 2})}
			if err := WriteShard(&b, f); err != nil {
				t.Fatal(err)
			}
			back, err := ReadShard("shard", &b)
			if err != nil {
				t.Fatal(err)
			}
			names, files = append(names, "shard"), append(files, back)
		}
		// Shards come in any order.
		files[0], files[n-1] = files[n-1], files[0]
		h, runs, err := Merge(names, files)
		if err != nil {
			t.Fatal(err)
		}
		same(t, "merged shards against the single run", single, render(t, h, runs, t.TempDir()))
	}
}

func TestMergeRefusesIncompleteShards(t *testing.T) {
	st, err := Load(tiny)
	if err != nil {
		t.Fatal(err)
	}
	shard := func(i, n int) *ShardFile {
		return &ShardFile{Format: ShardFormat, Header: st.Header, Shard: i, Shards: n, Runs: mustRun(t, st, Options{Shard: i, Shards: n})}
	}
	if _, _, err := Merge([]string{"a"}, []*ShardFile{shard(0, 2)}); err == nil {
		t.Error("a missing shard was not noticed")
	}
	if _, _, err := Merge([]string{"a", "b"}, []*ShardFile{shard(0, 2), shard(0, 2)}); err == nil {
		t.Error("a shard given twice was not noticed")
	}
	other := shard(1, 2)
	other.Header.Fingerprint = "changed"
	if _, _, err := Merge([]string{"a", "b"}, []*ShardFile{shard(0, 2), other}); err == nil {
		t.Error("a shard of another study was not noticed")
	}
	runs := mustRun(t, st, Options{})
	if _, err := Aggregate(st.Header, runs[1:]); err == nil {
		t.Error("Aggregate took an incomplete study")
	}
}

// TestShardsRunAsOtherPathsMerge checks that shards of one study merge
// whatever path each was run as: only the files' bytes identify a study.
func TestShardsRunAsOtherPathsMerge(t *testing.T) {
	a, err := Load(tiny)
	if err != nil {
		t.Fatal(err)
	}
	abs, err := filepath.Abs(tiny)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Load(abs)
	if err != nil {
		t.Fatal(err)
	}
	if a.Header.File == b.Header.File || a.Header.Scenario == b.Header.Scenario {
		t.Fatalf("the test wants other paths: %s, %s", a.Header.File, b.Header.File)
	}
	if a.Header.Fingerprint != b.Header.Fingerprint {
		t.Errorf("fingerprints differ: %s, %s", a.Header.Fingerprint, b.Header.Fingerprint)
	}
	files := []*ShardFile{
		{Format: ShardFormat, Header: b.Header, Shard: 1, Shards: 2, Runs: mustRun(t, b, Options{Shard: 1, Shards: 2})},
		{Format: ShardFormat, Header: a.Header, Shard: 0, Shards: 2, Runs: mustRun(t, a, Options{Shard: 0, Shards: 2})},
	}
	h, runs, err := Merge([]string{"b", "a"}, files)
	if err != nil {
		t.Fatal(err)
	}
	if h.File != b.Header.File || h.Scenario != b.Header.Scenario {
		t.Errorf("merged header names %s and %s, want the first shard's %s and %s", h.File, h.Scenario, b.Header.File, b.Header.Scenario)
	}
	same(t, "merged shards against the single run", render(t, b.Header, mustRun(t, b, Options{}), ""), render(t, h, runs, ""))
}

// TestMergeRefusesMalformedShards checks that a shard file that could not
// have come from podsim sweep is an error, never a panic.
func TestMergeRefusesMalformedShards(t *testing.T) {
	st, err := Load(tiny)
	if err != nil {
		t.Fatal(err)
	}
	runs := mustRun(t, st, Options{})
	cases := []struct {
		name  string
		spoil func(f *ShardFile)
		want  string
	}{
		{"negative shards", func(f *ShardFile) { f.Shards = -1 }, "-1 shards: want 1..100000"},
		{"2^62 shards", func(f *ShardFile) { f.Shards = 1 << 62 }, "4611686018427387904 shards: want 1..100000"},
		{"shard out of range", func(f *ShardFile) { f.Shard = 1 }, "shard 1/1: want 0 <= shard < shards"},
		{"no seeds", func(f *ShardFile) { f.Header.Seeds = 0 }, "0 seeds: want 1..100000"},
		{"2^62 seeds", func(f *ShardFile) { f.Header.Seeds = 1 << 62 }, "4611686018427387904 seeds: want 1..100000"},
		{"no cells", func(f *ShardFile) { f.Header.Cells = nil }, "0 cells: want 1..10000"},
		{"too many runs", func(f *ShardFile) {
			f.Header.Seeds = 100000
			for len(f.Header.Cells) < 11 {
				f.Header.Cells = append(f.Header.Cells, f.Header.Cells[0])
			}
		}, "11 cells x 100000 seeds: want at most 100000 runs"},
		{"a cell without values", func(f *ShardFile) { f.Header.Cells[0] = []string{} }, "cell 0 has 0 values for 2 parameters"},
		{"a run too few", func(f *ShardFile) { f.Runs = f.Runs[1:] }, "shard 0/1 has 11 runs, want 12"},
		{"a short series", func(f *ShardFile) { f.Runs[3].Ready = f.Runs[3].Ready[:10] }, "run 3 has series of 10, 241 and 241 points, want 241"},
		{"an unknown output format", func(f *ShardFile) { f.Header.Output.Format = "yaml" }, `output format "yaml": want one of`},
		{"an unknown restarts count", func(f *ShardFile) { f.Header.Output.Restarts = "perNode" }, `output restarts "perNode": want perPod or total`},
		{"plots outside the working folder", func(f *ShardFile) { f.Header.Output.Plots = "../x" }, `output plots "../x": want a folder inside the working folder`},
		{"plots at an absolute path", func(f *ShardFile) { f.Header.Output.Plots = "/tmp/x" }, `output plots "/tmp/x"`},
		{"a null metric", func(f *ShardFile) { f.Header.Metrics = append(slices.Clone(f.Header.Metrics), "") }, `metric "": unknown or listed twice`},
		{"a negative sample", func(f *ShardFile) { spoilSample(&f.Runs[2], -1) }, "run 2: metric pod.timeToReady has the sample -1: want 0 to 1e+15"},
		{"a sample of 1e308", func(f *ShardFile) { spoilSample(&f.Runs[2], 1e308) }, "run 2: metric pod.timeToReady has the sample 1e+308"},
		{"a seed out of its cell's order", func(f *ShardFile) { f.Runs[1].Seed = 99 }, "run 1 (cell 0) has seed 99, want 2: the seeds of a cell follow each other"},
	}
	for _, tc := range cases {
		var b bytes.Buffer
		f := &ShardFile{Header: st.Header, Shard: 0, Shards: 1, Runs: slices.Clone(runs)}
		f.Header.Cells = slices.Clone(f.Header.Cells)
		tc.spoil(f)
		if err := WriteShard(&b, f); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadShard("s.json", &b); err == nil || !strings.HasPrefix(err.Error(), "s.json: "+tc.want) {
			t.Errorf("%s: ReadShard: %v, want %q", tc.name, err, tc.want)
		}
		if _, _, err := Merge([]string{"s.json"}, []*ShardFile{f}); err == nil || !strings.HasPrefix(err.Error(), "s.json: "+tc.want) {
			t.Errorf("%s: Merge: %v, want %q", tc.name, err, tc.want)
		}
	}
}

// spoilSample gives run r's first metric one sample v, on copies.
func spoilSample(r *Run, v float64) {
	r.Values = slices.Clone(r.Values)
	r.Values[0] = []float64{v}
}

func TestReadShardStopsAtTheLimit(t *testing.T) {
	r := io.LimitReader(zeros{}, 2<<20)
	if _, err := readShard("s.json", r, 1<<20); err == nil || err.Error() != "s.json:1:1048577: file too large: more than 1 MiB" {
		t.Errorf("ReadShard: %v", err)
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

// TestHeaderCarriesOutputDefaults checks that a shard file keeps the
// study's output defaults, and what its restarts plot counts, for merge.
func TestHeaderCarriesOutputDefaults(t *testing.T) {
	dir := t.TempDir()
	base, err := filepath.Abs("../testdata/studies/tiny-base.yaml")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "study.yaml")
	study := "apiVersion: podsim/v1\nkind: Study\nmetadata: {name: csv}\nspec:\n  scenario: " + base +
		"\n  seeds: 1\n  output: {format: csv, plots: pics, restarts: total}\n"
	if err := os.WriteFile(path, []byte(study), 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteShard(&b, &ShardFile{Header: st.Header, Shards: 1, Runs: mustRun(t, st, Options{})}); err != nil {
		t.Fatal(err)
	}
	f, err := ReadShard("s.json", &b)
	if err != nil {
		t.Fatal(err)
	}
	if want := (Output{Format: "csv", Plots: "pics", Restarts: "total"}); f.Header.Output != want {
		t.Errorf("output %+v, want %+v", f.Header.Output, want)
	}
}

// mustRun does the runs o selects, failing the test on an error.
func mustRun(t testing.TB, st *Study, o Options) []Run {
	t.Helper()
	runs, err := st.Run(o)
	if err != nil {
		t.Fatal(err)
	}
	return runs
}

// An interrupted study returns the runs that finished; resumed from them,
// it gives exactly the runs of an uninterrupted one.
func TestInterruptAndResume(t *testing.T) {
	st, err := Load(tiny)
	if err != nil {
		t.Fatal(err)
	}
	all := mustRun(t, st, Options{Parallel: 1})
	asked := 0 // one worker asks before each run (tiny runs finish within a chunk)
	part, err := st.Run(Options{Parallel: 1, Interrupted: func() bool { asked++; return asked > 2 }})
	if !errors.Is(err, ErrInterrupted) || len(part) != 2 || part[0].Index != all[0].Index || part[1].Index != all[1].Index {
		t.Fatalf("interrupted: %d runs, err %v; want the first 2 and ErrInterrupted", len(part), err)
	}
	var b bytes.Buffer
	if err := WriteShard(&b, &ShardFile{Header: st.Header, Shard: 0, Shards: 1, Partial: true, Runs: part}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Merge([]string{"p.json"}, []*ShardFile{mustRead(t, b.Bytes())}); err == nil || !strings.Contains(err.Error(), "--resume") {
		t.Errorf("merging a partial file: %v, want a refusal saying to resume", err)
	}
	done, err := st.Resume("p.json", bytes.NewReader(b.Bytes()), 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	resumed := mustRun(t, st, Options{Parallel: 2, Done: done})
	if !reflect.DeepEqual(resumed, all) {
		t.Errorf("resumed study differs from an uninterrupted one")
	}
	if _, err := st.Resume("p.json", bytes.NewReader(b.Bytes()), 1, 2); err == nil {
		t.Errorf("resuming shard 1/2 from a file of shard 0/1 must fail")
	}
}

// A run over its event budget fails the study with that run's error.
func TestRunOverBudget(t *testing.T) {
	st, err := Load(tiny)
	if err != nil {
		t.Fatal(err)
	}
	_, err = st.Run(Options{MaxEvents: 10})
	if err == nil || !strings.Contains(err.Error(), "used its budget of 10 events") {
		t.Fatalf("err %v, want the budget named", err)
	}
}

func mustRead(t *testing.T, b []byte) *ShardFile {
	t.Helper()
	f, err := ReadShard("p.json", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestMergerKeepsWhatTheResultUses checks that a Merger keeps of each run
// only the metrics the study shows and the time to ready, that its result
// aggregates as the whole runs do, and that shards of another podsim are
// refused by name.
func TestMergerKeepsWhatTheResultUses(t *testing.T) {
	st, err := Load(tiny)
	if err != nil {
		t.Fatal(err)
	}
	st.Header.Metrics = []string{"pod.restarts"}
	st.Header.Podsim = "v1"
	all := mustRun(t, st, Options{})
	single := render(t, st.Header, all, t.TempDir())
	var m Merger
	for i := range 2 {
		f := &ShardFile{Header: st.Header, Shard: i, Shards: 2, Runs: mustRun(t, st, Options{Shard: i, Shards: 2})}
		if err := m.Add(fmt.Sprintf("s%d", i), f); err != nil {
			t.Fatal(err)
		}
	}
	other := st.Header
	other.Podsim = "v2"
	err = m.Add("s2", &ShardFile{Header: other, Shard: 1, Shards: 2, Runs: mustRun(t, st, Options{Shard: 1, Shards: 2})})
	if err == nil || !strings.HasPrefix(err.Error(), "s2 was made by podsim v2, s0 by podsim v1") {
		t.Errorf("a shard of another podsim: %v", err)
	}
	h, runs, err := m.Result()
	if err != nil {
		t.Fatal(err)
	}
	kept := []int{report.MetricIndex("pod.restarts"), report.MetricIndex("pod.timeToReady")}
	for _, r := range runs {
		for i, v := range r.Values {
			if (v != nil) != slices.Contains(kept, i) && len(all[r.Index].Values[i]) > 0 {
				t.Fatalf("run %d: metric %s kept %v", r.Index, report.Metrics[i].Name, v != nil)
			}
		}
	}
	same(t, "the Merger's runs against the single run", single, render(t, h, runs, t.TempDir()))
}
