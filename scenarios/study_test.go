package scenarios

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

var testMetrics = []string{"pod.restarts", "pod.timeToReady"}

func TestLoadStudy(t *testing.T) {
	st, err := LoadStudy("../testdata/studies/tiny.yaml", testMetrics, nil)
	if err != nil {
		t.Fatal(err)
	}
	if st.Seeds != 3 || len(st.Cells) != 4 || !reflect.DeepEqual(st.Params, []string{"backoffMax", "replicas"}) {
		t.Fatalf("seeds %d, %d cells, params %v", st.Seeds, len(st.Cells), st.Params)
	}
	// The first parameter varies slowest.
	var labels []string
	for _, c := range st.Cells {
		labels = append(labels, strings.Join(c.Labels, "/"))
	}
	if want := []string{"60s/1", "60s/3", "300s/1", "300s/3"}; !reflect.DeepEqual(labels, want) {
		t.Errorf("cells %v, want %v", labels, want)
	}
	c := st.Cells[3].Scenario
	if got := c.Settings().CrashLoopBackOff.Max.String(); got != "5m0s" {
		t.Errorf("cell 3 max backoff %s, want 5m0s", got)
	}
	if got := *c.File.Spec.Workloads[0].Spec.Replicas; got != 3 {
		t.Errorf("cell 3 replicas %d, want 3", got)
	}
	if c.Duration.String() != "10m0s" || st.Duration.String() != "10m0s" {
		t.Errorf("duration %s", c.Duration)
	}
}

func TestStudyErrors(t *testing.T) {
	cases := map[string][]string{
		"../testdata/studies/bad.yaml": {
			"../testdata/studies/bad.yaml:6:10: seeds must be 1..100000",
			"../testdata/studies/bad.yaml:17:24: with 2 paths, each value is a list of 2 values, one per path",
			`../testdata/studies/bad.yaml:18:13: unknown metric "pod.restart"; did you mean "pod.restarts"?`,
			`../testdata/studies/bad.yaml:19:22: output restarts "perNode": want perPod or total`,
		},
		"../testdata/studies/bad-paths.yaml": {
			`../testdata/studies/bad-paths.yaml:8:13: unknown field "maxx" in Backoff; did you mean "max"?`,
			`../testdata/studies/bad-paths.yaml:10:13: path workloads[api].spec.replicas: spec.workloads has no item named "api"`,
			`../testdata/studies/bad-paths.yaml:13:16: invalid duration "soon": use a Go duration such as 30s, 5m or 1h30m`,
			`../testdata/studies/bad-paths.yaml:15:26: uniform: max is required (e.g. {min: 10s, max: 30s})`,
			`../testdata/studies/bad-paths.yaml:16:33: path nodes[5].count: spec.nodes has 2 items; there is no [5]`,
			`../testdata/studies/bad-paths.yaml:18:13: path spec.workloads[web].spec.replicas.count: spec.workloads[web].spec.replicas is not a mapping`,
		},
	}
	for file, want := range cases {
		_, err := LoadStudy(file, append(testMetrics, "node.peakCPU"), nil)
		if err == nil {
			t.Errorf("%s: no error", file)
			continue
		}
		if got := strings.Split(err.Error(), "\n"); !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got: %s\nwant: %s", file, strings.Join(got, "\n      "), strings.Join(want, "\n      "))
		}
	}
}

func TestParsePath(t *testing.T) {
	good := map[string][]pathStep{
		"settings.crashLoopBackOff.max": {{field: "spec"}, {field: "settings"}, {field: "crashLoopBackOff"}, {field: "max"}},
		"spec.workloads[api].spec.replicas": {{field: "spec"}, {field: "workloads"}, {sel: true, index: -1, name: "api"},
			{field: "spec"}, {field: "replicas"}},
		"behavior[0].runs[1].exitAfter": {{field: "spec"}, {field: "behavior"}, {sel: true, index: 0}, {field: "runs"},
			{sel: true, index: 1}, {field: "exitAfter"}},
	}
	for in, want := range good {
		got, err := parsePath(in)
		if err != nil || !reflect.DeepEqual(append([]pathStep{{field: "spec"}}, got...), want) {
			t.Errorf("parsePath(%q) = %+v, %v; want %+v", in, got, err, want[1:])
		}
	}
	for _, bad := range []string{"", "a..b", "a[", "a[-1]", "a.b c", "[0]"} {
		if _, err := parsePath(bad); err == nil {
			t.Errorf("parsePath(%q): no error", bad)
		}
	}
}

// studyBase is a base scenario whose expectation is late in its 30 minutes.
const studyBase = `apiVersion: podsim/v1
kind: Scenario
metadata: {name: base}
spec:
  duration: 30m
  nodes: [{name: node-a}]
  pods:
    - metadata: {name: web}
      spec:
        containers: [{name: app, image: example/web:1}]
  expect:
    - {at: 25m, pod: web, phase: Running}
`

// writeStudy writes the study text and studyBase (as base.yaml) into a new
// folder and returns the study's path.
func writeStudy(t *testing.T, study string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "base.yaml"), []byte(studyBase), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "study.yaml")
	if err := os.WriteFile(path, []byte(study), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestStudyCellsSkipExpectations checks that a study shorter than its base
// scenario's expectations loads: a sweep checks no expectations.
func TestStudyCellsSkipExpectations(t *testing.T) {
	path := writeStudy(t, `apiVersion: podsim/v1
kind: Study
metadata: {name: short}
spec:
  scenario: base.yaml
  duration: 1m
  parameters:
    - {path: settings.evictionTimeout, values: [30s, 60s]}
`)
	st, err := LoadStudy(path, testMetrics, nil)
	if err != nil {
		t.Fatal(err)
	}
	if st.Duration.String() != "1m0s" || len(st.Cells) != 2 {
		t.Fatalf("duration %s, %d cells", st.Duration, len(st.Cells))
	}
	for i, c := range st.Cells {
		if n := len(c.Scenario.File.Spec.Expect); n != 0 {
			t.Errorf("cell %d has %d expectations, want none", i, n)
		}
	}
	if n := len(st.Base.File.Spec.Expect); n != 1 {
		t.Errorf("the base scenario has %d expectations, want its 1", n)
	}
}

func TestStudyFileErrors(t *testing.T) {
	const head = "apiVersion: podsim/v1\nkind: Study\nmetadata: {name: s}\nspec:\n  scenario: base.yaml\n  parameters:\n"
	cases := []struct{ name, study, want string }{
		{"empty", "", "1:1: empty file: want a podsim/v1 Study"},
		{"document marker only", "---\n", "1:1: empty file: want a podsim/v1 Study"},
		{"a list", "- a\n- b\n", "1:1: want a podsim/v1 Study: a mapping with apiVersion, kind, metadata and spec"},
		{"two documents", head + "    - {path: settings.evictionTimeout, values: [30s]}\n---\nfoo: bar\n",
			"8:1: a study file holds one YAML document; found another"},
		{"no metadata", "apiVersion: podsim/v1\nkind: Study\nspec: {scenario: base.yaml}\n", "1:1: study: name is required"},
		{"duplicate name", head + "    - {name: x, path: settings.evictionTimeout, values: [30s]}\n" +
			"    - {name: x, path: settings.nodeMonitorGracePeriod, values: [40s]}\n",
			`8:14: parameter name "x" is used twice (already at 7:14)`},
		{"duplicate path", head + "    - {name: a, path: settings.evictionTimeout, values: [30s]}\n" +
			"    - {name: b, paths: ['nodes[0].name', spec.settings.evictionTimeout], values: [[n, 60s]]}\n",
			"8:42: path spec.settings.evictionTimeout is varied twice (already at 7:23)"},
		{"expectations", head + "    - {path: 'expect[0].at', values: [1m]}\n",
			"7:14: a study does not vary expect: a sweep checks no expectations"},
	}
	for _, tc := range cases {
		path := writeStudy(t, tc.study)
		_, err := LoadStudy(path, testMetrics, nil)
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		if got, want := err.Error(), path+":"+tc.want; got != want {
			t.Errorf("%s:\n got: %s\nwant: %s", tc.name, got, want)
		}
	}
}
