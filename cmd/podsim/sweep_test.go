package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/podsim/podsim/report"
)

var tinyStudy = filepath.Join(root, "testdata", "studies", "tiny.yaml")

func TestSweepShardsMergeCLI(t *testing.T) {
	for _, format := range []string{"text", "json"} {
		want, stderr, code := podsim(t, "sweep", tinyStudy, "-o", format, "--parallel", "3")
		if code != 0 {
			t.Fatalf("sweep: exit %d: %s", code, stderr)
		}
		dir := t.TempDir()
		var files []string
		for i := range 3 {
			out, stderr, code := podsim(t, "sweep", tinyStudy, "--shard", string(rune('0'+i))+"/3")
			if code != 0 {
				t.Fatalf("sweep --shard %d/3: exit %d: %s", i, code, stderr)
			}
			f := filepath.Join(dir, "shard-"+string(rune('0'+i))+".json")
			if err := os.WriteFile(f, []byte(out), 0o644); err != nil {
				t.Fatal(err)
			}
			files = append(files, f)
		}
		got, stderr, code := podsim(t, append([]string{"merge", "-o", format}, files...)...)
		if code != 0 {
			t.Fatalf("merge: exit %d: %s", code, stderr)
		}
		if got != want {
			t.Errorf("-o %s: merged shards differ from the single run:\n%s\n---\n%s", format, got, want)
		}
		if _, stderr, code := podsim(t, "merge", files[0], files[2]); code != exitBadInput || !strings.Contains(stderr, "shard 1 of 3 missing") {
			t.Errorf("merge of 2 of 3 shards: exit %d, %q", code, stderr)
		}
	}
}

func TestSweepCSVAndJSONShape(t *testing.T) {
	out, stderr, code := podsim(t, "sweep", tinyStudy, "-o", "csv")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	head := "cell,backoffMax,replicas,metric,unit,n,runs,mean,sd,p50,p90,p99,min,max,ci95_low,ci95_high"
	if got := strings.Join(recs[0], ","); got != head {
		t.Errorf("CSV header %s\nwant       %s", got, head)
	}
	if n := len(recs) - 1; n != 4*len(report.Metrics) {
		t.Errorf("%d CSV records, want %d (4 cells x %d metrics)", n, 4*len(report.Metrics), len(report.Metrics))
	}
	if got := strings.Join(recs[1][:6], ","); got != "0,60s,1,pod.timeToReady,s,3" {
		t.Errorf("first record starts %s", got)
	}

	out, stderr, code = podsim(t, "sweep", tinyStudy, "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var doc struct {
		Study      string
		Duration   float64
		Seeds      int
		Parameters []string
		Cells      []struct {
			Index  int
			Label  string
			Values map[string]string
		}
		Metrics []struct{ Name, Unit, Scope, Help string }
		Results []map[string]any
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Study != "tiny" || doc.Duration != 600 || doc.Seeds != 3 || len(doc.Cells) != 4 || len(doc.Metrics) != len(report.Metrics) {
		t.Errorf("study %q, duration %v, seeds %d, %d cells, %d metrics", doc.Study, doc.Duration, doc.Seeds, len(doc.Cells), len(doc.Metrics))
	}
	if c := doc.Cells[3]; c.Label != "backoffMax=300s, replicas=3" || c.Values["replicas"] != "3" {
		t.Errorf("cell 3: %+v", c)
	}
	if len(doc.Results) != 4*len(report.Metrics) {
		t.Fatalf("%d results", len(doc.Results))
	}
	for _, k := range []string{"metric", "unit", "cell", "n", "runs", "mean", "sd", "p50", "p90", "p99", "min", "max", "ci95"} {
		if _, ok := doc.Results[0][k]; !ok {
			t.Errorf("result has no %q: %v", k, doc.Results[0])
		}
	}
}

// A plot with nothing to show is not written, and stderr says which and
// why: in KEP-4603's study no pod is ever ready, only restarts are drawn.
func TestSweepSkipsEmptyPlots(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "plots")
	_, stderr, code := podsim(t, "sweep", filepath.Join(root, "scenarios", "studies", "kep-4603-backoff.yaml"), "--plots", dir)
	want := "plot time-to-ready-cdf skipped: no pod got ready in any run\n" +
		"plot ready-pods skipped: ready pods stay 0 for the whole run in every seed of every cell\n" +
		"plots written to " + dir + ": restarts (.svg, .png)\n"
	if code != 0 || stderr != want {
		t.Fatalf("exit %d, stderr:\n%s\nwant:\n%s", code, stderr, want)
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if got := strings.Join(names, " "); got != "restarts.png restarts.svg" {
		t.Errorf("files %s, want restarts.png restarts.svg", got)
	}
}

func TestSweepPlotsAndValidate(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "plots")
	_, stderr, code := podsim(t, "sweep", tinyStudy, "--plots", dir, "-o", "markdown")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, f := range report.PlotFiles {
		for _, ext := range []string{".svg", ".png"} {
			if fi, err := os.Stat(filepath.Join(dir, f+ext)); err != nil || fi.Size() < 1000 {
				t.Errorf("plot %s%s: %v", f, ext, err)
			}
		}
	}
	out, _, code := podsim(t, "validate", tinyStudy)
	if code != 0 || !strings.HasSuffix(out, "tiny.yaml: valid\n") {
		t.Errorf("validate a study: exit %d, %q", code, out)
	}
	_, stderr, code = podsim(t, "validate", filepath.Join(root, "testdata", "studies", "bad-paths.yaml"))
	if code != exitBadInput || strings.Count(stderr, "bad-paths.yaml:") != 6 {
		t.Errorf("validate a bad study: exit %d, %q", code, stderr)
	}
	for _, args := range [][]string{
		{"sweep", tinyStudy, "--shard", "3/3"},
		{"sweep", tinyStudy, "--shard", "0/2", "-o", "csv"},
		{"sweep", tinyStudy, "-o", "yaml"},
		{"sweep"},
		{"merge"},
	} {
		if _, _, code := podsim(t, args...); code != exitBadInput {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

// TestMergeTakesTheStudyOutputDefaults checks that merge prints what sweep
// would: a study's output.format holds for both, and a malformed shard is
// bad input.
func TestMergeTakesTheStudyOutputDefaults(t *testing.T) {
	dir := t.TempDir()
	base, err := filepath.Abs(filepath.Join(root, "testdata", "studies", "tiny-base.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	study := filepath.Join(dir, "study.yaml")
	text := "apiVersion: podsim/v1\nkind: Study\nmetadata: {name: csv}\nspec:\n  scenario: " + base +
		"\n  seeds: 2\n  output: {format: csv}\n"
	if err := os.WriteFile(study, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	want, stderr, code := podsim(t, "sweep", study)
	if code != 0 || !strings.HasPrefix(want, "cell,metric,") {
		t.Fatalf("sweep: exit %d, %s: %.40q", code, stderr, want)
	}
	shard, stderr, code := podsim(t, "sweep", study, "--shard", "0/1")
	if code != 0 {
		t.Fatalf("sweep --shard 0/1: exit %d: %s", code, stderr)
	}
	file := filepath.Join(dir, "shard.json")
	if err := os.WriteFile(file, []byte(shard), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, stderr, code := podsim(t, "merge", file); code != 0 || got != want {
		t.Errorf("merge: exit %d, %s; got\n%s\nwant\n%s", code, stderr, got, want)
	}
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(strings.Replace(shard, `"shards":1`, `"shards":-1`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := podsim(t, "merge", bad); code != exitBadInput || !strings.Contains(stderr, "bad.json: -1 shards: want 1..100000") {
		t.Errorf("merge of a shard file with shards -1: exit %d, %q", code, stderr)
	}
}

// Ctrl-C during a sweep keeps the finished runs in a partial file and says
// how to resume; --resume finishes the study as if never interrupted, and
// merge refuses the partial file.
func TestSweepInterruptedThenResumed(t *testing.T) {
	want, _, code := podsim(t, "sweep", tinyStudy, "-o", "csv")
	if code != exitOK {
		t.Fatalf("sweep: exit %d", code)
	}
	partial := filepath.Join(t.TempDir(), "tiny.partial.json")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errb bytes.Buffer
	code = (&Main{Stdout: &out, Stderr: &errb}).Run(ctx, []string{"sweep", tinyStudy, "-o", "csv", "--partial", partial})
	if code != exitSIGINT || !strings.Contains(errb.String(), "resume with: podsim sweep "+tinyStudy+" -o csv --partial "+partial+" --resume "+partial) {
		t.Fatalf("interrupted sweep: exit %d, stderr:\n%s", code, errb.String())
	}
	// Interrupted again while resuming: the file is replaced whole and the
	// hint names --resume once.
	errb.Reset()
	code = (&Main{Stdout: &out, Stderr: &errb}).Run(ctx, []string{"sweep", tinyStudy, "-o", "csv", "--partial", partial, "--resume", partial})
	if code != exitSIGINT || strings.Count(errb.String(), "--resume") != 1 {
		t.Fatalf("interrupted resume: exit %d, stderr:\n%s", code, errb.String())
	}
	got, errs, code := podsim(t, "sweep", tinyStudy, "-o", "csv", "--resume", partial)
	if code != exitOK || got != want {
		t.Fatalf("resumed sweep: exit %d (%s); output differs: %v", code, errs, got != want)
	}
	if _, errs, code := podsim(t, "merge", partial); code != exitBadInput || !strings.Contains(errs, "--resume") {
		t.Errorf("merge of a partial file: exit %d, %s", code, errs)
	}
}

// writeShards runs the n shards of study with --out into a new folder and
// returns it.
func writeShards(t *testing.T, study string, n int) string {
	t.Helper()
	dir := t.TempDir()
	for i := range n {
		out := filepath.Join(dir, fmt.Sprintf("shard-%d.json", i))
		stdout, stderr, code := podsim(t, "sweep", study, "--shard", fmt.Sprintf("%d/%d", i, n), "--out", out)
		if code != 0 || stdout != "" {
			t.Fatalf("sweep --shard %d/%d --out: exit %d, stdout %.40q: %s", i, n, code, stdout, stderr)
		}
	}
	return dir
}

// TestMergeFolder checks that merge takes a folder of shards written with
// --out, and refuses a folder that lacks one, doubles one, or mixes studies
// or podsim versions, naming the files.
func TestMergeFolder(t *testing.T) {
	want, stderr, code := podsim(t, "sweep", tinyStudy, "-o", "csv")
	if code != 0 {
		t.Fatalf("sweep: exit %d: %s", code, stderr)
	}
	dir := writeShards(t, tinyStudy, 4)
	ents, _ := os.ReadDir(dir)
	if len(ents) != 4 {
		t.Errorf("--out left %d files, want the 4 shards", len(ents))
	}
	// --out writes what stdout would have.
	stdout, _, _ := podsim(t, "sweep", tinyStudy, "--shard", "2/4")
	if b, err := os.ReadFile(filepath.Join(dir, "shard-2.json")); err != nil || string(b) != stdout {
		t.Errorf("--out file differs from the shard on stdout (%v)", err)
	}
	if got, stderr, code := podsim(t, "merge", dir, "-o", "csv"); code != 0 || got != want {
		t.Fatalf("merge DIR: exit %d, %s; differs from the single run: %v", code, stderr, got != want)
	}

	shard := func(i int) string {
		b, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("shard-%d.json", i)))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	for _, tc := range []struct {
		name string
		edit func(d string) // d: a copy of the folder
		want string
	}{
		{"missing", func(d string) { os.Remove(filepath.Join(d, "shard-2.json")) }, "shard 2 of 4 missing"},
		{"two missing", func(d string) {
			os.Remove(filepath.Join(d, "shard-1.json"))
			os.Remove(filepath.Join(d, "shard-3.json"))
		}, "shards 1, 3 of 4 missing"},
		{"doubled", func(d string) { os.WriteFile(filepath.Join(d, "shard-2-again.json"), []byte(shard(2)), 0o644) },
			"shard-2-again.json and " + "COPY/shard-2.json are both shard 2 of 4"},
		{"other study", func(d string) {
			os.WriteFile(filepath.Join(d, "shard-3.json"), []byte(strings.Replace(shard(3), `"fingerprint":"`, `"fingerprint":"0`, 1)), 0o644)
		}, "COPY/shard-3.json is from another version of study tiny than COPY/shard-0.json"},
		{"other podsim", func(d string) {
			os.WriteFile(filepath.Join(d, "shard-1.json"), []byte(strings.Replace(shard(1), `"podsim":"`, `"podsim":"v9.9.9 `, 1)), 0o644)
		}, "COPY/shard-1.json was made by podsim v9.9.9 "},
		{"old file", func(d string) {
			os.WriteFile(filepath.Join(d, "shard-1.json"), []byte(regexp.MustCompile(`,"podsim":"[^"]*"`).ReplaceAllString(shard(1), "")), 0o644)
		}, "COPY/shard-1.json was made by an unnamed podsim (a shard file from before versions were recorded)"},
	} {
		d := t.TempDir()
		for i := range 4 {
			os.WriteFile(filepath.Join(d, fmt.Sprintf("shard-%d.json", i)), []byte(shard(i)), 0o644)
		}
		tc.edit(d)
		want := strings.ReplaceAll(tc.want, "COPY", d)
		if tc.name == "doubled" {
			want = d + "/" + tc.want
			want = strings.ReplaceAll(want, "COPY", d)
		}
		if _, stderr, code := podsim(t, "merge", d); code != exitBadInput || !strings.Contains(stderr, want) {
			t.Errorf("%s: exit %d, %q, want %q", tc.name, code, stderr, want)
		}
	}
	if _, stderr, code := podsim(t, "merge", t.TempDir()); code != exitBadInput || !strings.Contains(stderr, "no shard files") {
		t.Errorf("an empty folder: exit %d, %q", code, stderr)
	}
	if _, _, code := podsim(t, "sweep", tinyStudy, "--out", filepath.Join(dir, "x.json")); code != exitBadInput {
		t.Errorf("--out without --shard: exit %d, want 2", code)
	}
}

// TestWriteAtomic checks that a write that fails midway leaves neither the
// file nor a temp file, and that one that succeeds replaces the file whole.
func TestWriteAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "shard-0.json")
	err := writeAtomic(path, func(w io.Writer) error {
		w.Write([]byte(`{"format":`))
		return errors.New("killed")
	})
	if ents, _ := os.ReadDir(dir); err == nil || len(ents) != 0 {
		t.Errorf("a failed write: %v, left %d files", err, len(ents))
	}
	os.WriteFile(path, []byte("old"), 0o644)
	if err := writeAtomic(path, func(w io.Writer) error { _, err := w.Write([]byte("new")); return err }); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "new" {
		t.Errorf("file holds %q, want new", b)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("%d files left, want 1", len(ents))
	}
}
