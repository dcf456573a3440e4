package main

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/podsim/podsim/expect"
	"github.com/podsim/podsim/manifests"
	"github.com/podsim/podsim/scenarios"
)

// wallTimes matches the wall-clock times of `podsim test` lines: (0.7ms), (37ms), (12.35s).
var wallTimes = regexp.MustCompile(`\(\d+(\.\d+)?m?s\)`)

// stable removes what changes from run to run or machine to machine: wall
// times and the path to the repository.
func stable(s string) string {
	return wallTimes.ReplaceAllString(strings.ReplaceAll(s, root+"/", ""), "(T)")
}

func TestSuiteReportsEveryFailure(t *testing.T) {
	out, errs, code := podsim(t, "test", filepath.Join(root, "testdata", "expect"), filepath.Join(root, "scenarios", "expectations"))
	if code != exitFailed || errs != "" {
		t.Errorf("exit %d, stderr %q; want 1 and nothing", code, errs)
	}
	if got := lastLine(out); got != "1 passed, 1 failed" {
		t.Errorf("last line %q", got)
	}
	// Every failure line: FILE:LINE:COL: what, expected, found.
	for _, want := range []string{
		"spans-and-transitions-wrong.yaml:41:7: always [0s, 3m] pod web ready: expected true throughout, first failed at 2m20s: found false (since 2m20s: Ready=False (ContainersNotReady))",
		"spans-and-transitions-wrong.yaml:42:7: within [2m, 2m19s] pod web ready: expected false at some moment, never held; at 2m19s found true (since 0s: Ready=True)",
		"spans-and-transitions-wrong.yaml:45:7: at 6m pod web transition Running -> Failed count: expected 1, found 0",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	golden(t, "test-expect.txt", stable(out))
}

func TestSuiteOrderAndLines(t *testing.T) {
	out, _, code := podsim(t, "test", filepath.Join(root, "scenarios"))
	if code != exitOK {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	all, err := expect.FindScenarios([]string{filepath.Join(root, "scenarios")})
	if err != nil {
		t.Fatal(err)
	}
	var files []string // the scenarios and manifests among them; studies are skipped
	for _, f := range all {
		if data, err := os.ReadFile(f); err == nil && (scenarios.ReadKind(data) == scenarios.KindScenario || manifests.IsManifest(data)) {
			files = append(files, f)
		}
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != len(files)+1 {
		t.Fatalf("%d lines for %d scenarios:\n%s", len(lines), len(files), out)
	}
	line := regexp.MustCompile(`^PASS  [a-z0-9-]+ \(\d+(\.\d+)?m?s\)  (\S+\.yaml): \d+ expectations held$`)
	for i, l := range lines[:len(files)] {
		m := line.FindStringSubmatch(l)
		if m == nil {
			t.Errorf("line %q does not read PASS  NAME (TIME)  FILE: N expectations held", l)
			continue
		}
		if m[2] != files[i] {
			t.Errorf("line %d is about %s, want %s (sorted file order)", i+1, m[2], files[i])
		}
	}
}

func TestInvalidFilesExitTwo(t *testing.T) {
	invalid, err := expect.FindScenarios([]string{filepath.Join(root, "testdata", "invalid")})
	if err != nil {
		t.Fatal(err)
	}
	out, errs, code := podsim(t, "test", filepath.Join(root, "testdata", "invalid"), filepath.Join(root, "scenarios", "demo.yaml"))
	if code != exitBadInput {
		t.Errorf("exit %d, want 2", code)
	}
	if got, want := lastLine(out), fmt.Sprintf("1 passed, %d failed", len(invalid)); got != want {
		t.Errorf("last line %q, want %q: the invalid files count as failed", got, want)
	}
	if n := strings.Count(out, "ERROR "); n != len(invalid) {
		t.Errorf("%d ERROR lines for %d invalid files:\n%s", n, len(invalid), out)
	}
	pos := regexp.MustCompile(`^[^:]+\.yaml:\d+:\d+: \S`)
	for _, l := range strings.Split(strings.TrimSpace(errs), "\n") {
		if !pos.MatchString(l) {
			t.Errorf("stderr line %q is not FILE:LINE:COL: message", l)
		}
	}
	for _, want := range []string{"expect-spans.yaml:16:21: 10m0s is after the end of the run (5m0s)", "many-errors.yaml:4:9: "} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs)
		}
	}
	// Every problem of the new expectation fields, with its place.
	_, errs, _ = podsim(t, "validate", filepath.Join(root, "testdata", "invalid", "expect-spans.yaml"))
	golden(t, "expect-spans.txt", strings.ReplaceAll(errs, root+"/", ""))
	// Every problem of budgets, node actions and scale faults, with its place.
	_, errs, _ = podsim(t, "validate", filepath.Join(root, "testdata", "invalid", "disruption.yaml"))
	golden(t, "disruption.txt", strings.ReplaceAll(errs, root+"/", ""))
	// Every problem of StatefulSets, CronJobs and startTime, with its place.
	_, errs, _ = podsim(t, "validate", filepath.Join(root, "testdata", "invalid", "statefulset-cronjob.yaml"))
	golden(t, "statefulset-cronjob.txt", strings.ReplaceAll(errs, root+"/", ""))
}

func TestDuplicateNamesAreBadInput(t *testing.T) {
	dir := t.TempDir()
	demo, err := os.ReadFile(filepath.Join(root, "scenarios", "demo.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"a.yaml", "b.yaml"} {
		if err := os.WriteFile(filepath.Join(dir, f), demo, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, errs, code := podsim(t, "test", dir)
	want := filepath.Join(dir, "b.yaml") + `:4:9: scenario name "demo-oom-crashloop" is already used by ` + filepath.Join(dir, "a.yaml")
	if code != exitBadInput || !strings.Contains(errs, want) {
		t.Errorf("exit %d, stderr %q; want 2 and %q", code, errs, want)
	}
}

// junitDoc is the part of a JUnit report a CI system reads.
type junitDoc struct {
	XMLName xml.Name `xml:"testsuites"`
	Tests   int      `xml:"tests,attr"`
	Suites  []struct {
		Name     string `xml:"name,attr"`
		Tests    int    `xml:"tests,attr"`
		Failures int    `xml:"failures,attr"`
		Errors   int    `xml:"errors,attr"`
		Cases    []struct {
			ClassName string `xml:"classname,attr"`
			Name      string `xml:"name,attr"`
			Time      string `xml:"time,attr"`
			Failure   *struct {
				Message string `xml:"message,attr"`
				Body    string `xml:",chardata"`
			} `xml:"failure"`
			Error *struct {
				Message string `xml:"message,attr"`
				Body    string `xml:",chardata"`
			} `xml:"error"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

func readJUnit(t *testing.T, path string) junitDoc {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc junitDoc
	if err := xml.Unmarshal(data, &doc); err != nil {
		t.Fatalf("JUnit report does not parse: %v\n%s", err, data)
	}
	if len(doc.Suites) != 1 || doc.Suites[0].Name != "podsim" {
		t.Fatalf("want one testsuite named podsim:\n%s", data)
	}
	return doc
}

func TestJUnitReport(t *testing.T) {
	report := filepath.Join(t.TempDir(), "reports", "junit.xml")
	failing := filepath.Join(root, "testdata", "failing", "wrong-expectation.yaml")
	demo := filepath.Join(root, "scenarios", "demo.yaml")
	_, _, code := podsim(t, "test", "--junit", report, demo, failing)
	if code != exitFailed {
		t.Errorf("exit %d, want 1", code)
	}
	doc := readJUnit(t, report)
	s := doc.Suites[0]
	if s.Tests != 2 || s.Failures != 1 || s.Errors != 0 || len(s.Cases) != 2 {
		t.Fatalf("tests %d failures %d errors %d cases %d; want 2, 1, 0, 2", s.Tests, s.Failures, s.Errors, len(s.Cases))
	}
	if c := s.Cases[0]; c.Name != "demo-oom-crashloop" || c.ClassName != demo || c.Failure != nil || c.Time == "" {
		t.Errorf("first case %+v, want the passing demo", c)
	}
	c := s.Cases[1]
	want := failing + ":26:7: at 30s pod web phase: expected Succeeded, found Failed"
	if c.Name != "wrong-expectation" || c.ClassName != failing || c.Failure == nil {
		t.Fatalf("second case %+v, want wrong-expectation failed", c)
	}
	if !strings.HasPrefix(c.Failure.Message, want) || !strings.Contains(c.Failure.Body, want) {
		t.Errorf("failure message %q, body %q; want both to hold %q", c.Failure.Message, c.Failure.Body, want)
	}

	// Invalid files are test cases in error.
	_, _, code = podsim(t, "test", "--junit", report, filepath.Join(root, "testdata", "invalid", "many-errors.yaml"))
	if code != exitBadInput {
		t.Errorf("exit %d, want 2", code)
	}
	doc = readJUnit(t, report)
	if s := doc.Suites[0]; s.Errors != 1 || len(s.Cases) != 1 || s.Cases[0].Error == nil ||
		!strings.Contains(s.Cases[0].Error.Body, "many-errors.yaml:14:9: unknown field \"restartPolcy\"") {
		t.Errorf("want one case in error with every problem: %+v", s)
	}
}

func TestTestJSON(t *testing.T) {
	out, _, code := podsim(t, "test", "-o", "json", filepath.Join(root, "testdata", "failing"), filepath.Join(root, "scenarios", "demo.yaml"))
	if code != exitFailed {
		t.Errorf("exit %d, want 1", code)
	}
	var doc struct {
		Passed, Failed int
		Scenarios      []struct {
			Name, File string
			Passed     bool
			Failures   []struct{ Where, Message string }
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("not one JSON document: %v\n%s", err, out)
	}
	if doc.Passed != 1 || doc.Failed != 1 || len(doc.Scenarios) != 2 {
		t.Fatalf("passed %d failed %d scenarios %d; want 1, 1, 2", doc.Passed, doc.Failed, len(doc.Scenarios))
	}
	s := doc.Scenarios[1]
	if s.Name != "wrong-expectation" || s.Passed || len(s.Failures) != 1 ||
		!strings.HasSuffix(s.Failures[0].Where, "wrong-expectation.yaml:26:7") ||
		!strings.HasPrefix(s.Failures[0].Message, "at 30s pod web phase: expected Succeeded, found Failed") {
		t.Errorf("failing scenario reads %+v", s)
	}
	if s := doc.Scenarios[0]; s.Name != "demo-oom-crashloop" || !s.Passed || s.Failures == nil {
		t.Errorf("passing scenario reads %+v (failures must be [], not null)", s)
	}
}

func TestGoldenTimelines(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "golden")
	files := []string{filepath.Join(root, "scenarios", "demo.yaml"), filepath.Join(root, "scenarios", "expectations", "spans-and-transitions.yaml")}
	args := append([]string{"test", "--golden", dir}, files...)

	// No golden file yet: a failure that says how to make one.
	out, _, code := podsim(t, args...)
	if code != exitFailed || !strings.Contains(out, "no golden timeline; create it with: podsim test --golden "+dir+" --update") {
		t.Fatalf("exit %d, want 1 and how to create the golden files:\n%s", code, out)
	}
	if _, err := os.Stat(dir); err == nil {
		t.Errorf("%s was created without --update", dir)
	}

	// --update writes them: the scenarios' -o jsonl timelines.
	out, errs, code := podsim(t, append(args, "--update")...)
	if code != exitOK || lastLine(out) != "2 passed, 0 failed" {
		t.Fatalf("--update: exit %d:\n%s%s", code, out, errs)
	}
	path := filepath.Join(dir, "demo-oom-crashloop.jsonl")
	jsonl, _, _ := podsim(t, "run", files[0], "-o", "jsonl")
	if got, err := os.ReadFile(path); err != nil || string(got) != jsonl {
		t.Fatalf("%s is not the -o jsonl timeline (err %v)", path, err)
	}
	if !strings.Contains(errs, "wrote "+path) {
		t.Errorf("stderr does not say what was written: %q", errs)
	}

	// Unchanged: pass.
	if out, _, code := podsim(t, args...); code != exitOK || !strings.Contains(out, "timeline matches golden") {
		t.Fatalf("exit %d after --update:\n%s", code, out)
	}

	// A change in the timeline fails with a diff.
	lines := strings.SplitAfter(jsonl, "\n")
	orig := lines[5]
	changed := strings.Replace(orig, `"t":0`, `"t":1`, 1)
	if changed == orig {
		t.Fatalf("line 6 %q has no t 0 to change", orig)
	}
	lines[5] = changed
	if err := os.WriteFile(path, []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, code = podsim(t, args...)
	if code != exitFailed || lastLine(out) != "1 passed, 1 failed" {
		t.Errorf("exit %d, want 1 and one failure:\n%s", code, out)
	}
	for _, want := range []string{
		"FAIL  demo-oom-crashloop",
		path + ": the timeline differs from the golden one",
		"--- " + path + " (golden)",
		"+++ demo-oom-crashloop (this run)",
		"@@ -3,7 +3,7 @@",
		"-" + strings.TrimSuffix(changed, "\n"),
		"+" + strings.TrimSuffix(orig, "\n"),
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}

	// --update rewrites it.
	if _, _, code := podsim(t, append(args, "--update")...); code != exitOK {
		t.Errorf("--update: exit %d", code)
	}
	if got, _ := os.ReadFile(path); string(got) != jsonl {
		t.Errorf("--update did not rewrite %s", path)
	}

	// --update needs --golden.
	if _, errs, code := podsim(t, "test", "--update", files[0]); code != exitBadInput || !strings.Contains(errs, "--golden") {
		t.Errorf("--update alone: exit %d, stderr %q", code, errs)
	}
}

func TestGoldenFilesAreSorted(t *testing.T) {
	// The golden names come from scenario names: the order of the written
	// files follows the sorted file order, whatever the cores did.
	dir := t.TempDir()
	suite := filepath.Join(root, "scenarios", "lifecycle")
	files, err := expect.FindScenarios([]string{suite})
	if err != nil {
		t.Fatal(err)
	}
	_, errs, code := podsim(t, "test", "--golden", dir, "--update", suite)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var written []string
	for _, l := range strings.Split(strings.TrimSpace(errs), "\n") {
		written = append(written, strings.TrimPrefix(l, "podsim: wrote "))
	}
	if len(written) != len(files) || len(files) < 2 || !slices.IsSorted(written) {
		t.Errorf("wrote %d files, in order %v; want %d, sorted", len(written), written, len(files))
	}
}
