package scenarios

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"
)

// libraryFiles are the scenario and study files used as seeds.
func libraryFiles(f *testing.F, globs ...string) [][]byte {
	f.Helper()
	var out [][]byte
	for _, g := range globs {
		files, _ := filepath.Glob(g)
		for _, name := range files {
			data, err := os.ReadFile(name)
			if err != nil {
				f.Fatal(err)
			}
			out = append(out, data)
		}
	}
	return out
}

// checkErrors fails unless err is nil or an ErrorList whose every problem
// has a position.
func checkErrors(t *testing.T, err error) {
	t.Helper()
	if err == nil {
		return
	}
	var list ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("error %T, not an ErrorList: %v", err, err)
	}
	for _, e := range list {
		if e.Pos.IsZero() {
			t.Errorf("no position: %v", e)
		}
	}
}

// FuzzParseScenario: decoding and validating any bytes never panics,
// hangs or allocates without bound, and every problem has a position.
func FuzzParseScenario(f *testing.F) {
	for _, data := range libraryFiles(f, "*.yaml", "*/*.yaml", "../testdata/*/*.yaml") {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		defer countExec(time.Now())
		s, err := Parse("f.yaml", data)
		checkErrors(t, err)
		if err == nil && s.Duration <= 0 {
			t.Errorf("valid scenario with duration %v", s.Duration)
		}
	})
}

// FuzzLoadStudy: a study file of any bytes, over the tiny base scenario.
func FuzzLoadStudy(f *testing.F) {
	for _, data := range libraryFiles(f, "studies/*.yaml", "../testdata/studies/*.yaml", "../testdata/hostile/study-*.yaml") {
		f.Add(data)
	}
	base, err := os.ReadFile("../testdata/studies/tiny-base.yaml")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		defer countExec(time.Now())
		dir := t.TempDir()
		for name, b := range map[string][]byte{"s.yaml": data, "tiny-base.yaml": base, "crashloop-110.yaml": base, "node-failure-replicas.yaml": base} {
			if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		st, err := LoadStudy(filepath.Join(dir, "s.yaml"), []string{"pod.restarts", "pod.timeToReady"}, nil)
		checkErrors(t, err)
		if err == nil && (len(st.Cells) == 0 || len(st.Cells) > MaxCells || st.Seeds < 1 || len(st.Cells)*st.Seeds > MaxRuns) {
			t.Errorf("valid study with %d cells x %d seeds", len(st.Cells), st.Seeds)
		}
	})
}

// FuzzScalars: durations, distributions and quantities as any YAML scalar
// or small mapping: never a panic, never a negative value.
func FuzzScalars(f *testing.F) {
	for _, s := range []string{"30s", "0", "1h30m", "-1s", "2562047h", "9223372036854775807ns", "1e3",
		"{uniform: {min: 1s, max: 5s}}", "{normal: {mean: 2562047h, stddev: 2562047h}}", "{lognormal: {median: 1s, sigma: 1e300}}",
		"{exponential: {mean: 1ns}}", "{empirical: [1s, 2s]}", "500m", "4Gi", "1e300", "9.3e15", "0.0000001m", "+1Ei", "-0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if q, err := ParseQuantity(s); err == nil && (q.MilliValue() < 0 || q.Value() < 0) {
			t.Errorf("ParseQuantity(%q) = %d milli", s, q.MilliValue())
		}
		var n yaml.Node
		if yaml.Unmarshal([]byte("v: "+s), &n) != nil || len(n.Content) == 0 || len(n.Content[0].Content) < 2 {
			return
		}
		v := n.Content[0].Content[1]
		var d Duration
		if d.UnmarshalYAML(v) == nil && d < 0 {
			t.Errorf("Duration(%q) = %v", s, d.D())
		}
		var dd DurationDist
		if dd.UnmarshalYAML(v) == nil && dd.Dist != nil {
			r := newTestRand()
			for range 16 {
				if x := dd.Sample(r); x < 0 {
					t.Errorf("%s drew %v", dd, x)
				}
			}
		}
		var q Quantity
		_ = q.UnmarshalYAML(v)
		var ir IntRange
		_ = ir.UnmarshalYAML(v)
	})
}

func newTestRand() *rand.Rand { return rand.New(rand.NewPCG(1, 2)) }

// The fuzzer's own count of executions lags far behind for slow targets.
// With FUZZ_STATS=FILE, a worker writes how many inputs it ran and the
// slowest one's time to FILE.
var (
	fuzzStats = os.Getenv("FUZZ_STATS")
	fuzzExecs int
	fuzzMax   time.Duration
)

func countExec(start time.Time) {
	if fuzzStats == "" {
		return
	}
	fuzzExecs++
	fuzzMax = max(fuzzMax, time.Since(start))
	if fuzzExecs%100 == 0 {
		_ = os.WriteFile(fuzzStats, []byte(fmt.Sprintf("%d execs, slowest %v\n", fuzzExecs, fuzzMax)), 0o644)
	}
}
