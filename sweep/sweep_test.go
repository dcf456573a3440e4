package sweep

import (
	"bytes"
	"os"
	"path/filepath"
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
		if err := report.WriteStudyPlots(dir, res); err != nil {
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
	one := render(t, st.Header, st.Run(Options{Parallel: 1}), t.TempDir())
	four := render(t, st.Header, st.Run(Options{Parallel: 4}), t.TempDir())
	same(t, "--parallel 1 against 4", one, four)
	// The seeds differ: a study whose runs were all alike would prove little.
	res, _ := Aggregate(st.Header, st.Run(Options{}))
	if s := res.Summaries[report.MetricIndex("pod.timeToReady")][0]; !(s.SD > 0) || s.Runs != 3 {
		t.Errorf("time to ready in cell 0: %+v; want 3 runs that differ", s)
	}
}

func TestShardsMergeToTheSingleRun(t *testing.T) {
	st, err := Load(tiny)
	if err != nil {
		t.Fatal(err)
	}
	single := render(t, st.Header, st.Run(Options{}), t.TempDir())
	for _, n := range []int{1, 2, 5, 13} {
		var names []string
		var files []*ShardFile
		for i := range n {
			var b bytes.Buffer
			f := &ShardFile{Header: st.Header, Shard: i, Shards: n, Runs: st.Run(Options{Shard: i, Shards: n, Parallel: 2})}
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
		return &ShardFile{Format: ShardFormat, Header: st.Header, Shard: i, Shards: n, Runs: st.Run(Options{Shard: i, Shards: n})}
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
	runs := st.Run(Options{})
	if _, err := Aggregate(st.Header, runs[1:]); err == nil {
		t.Error("Aggregate took an incomplete study")
	}
}
