package main

import (
	"bytes"
	"context"
	"encoding/xml"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/podsim/podsim/expect"
	"github.com/podsim/podsim/scenarios"
)

const root = "../.."

// podsim runs the command line in-process and returns stdout, stderr and the exit code.
func podsim(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := (&Main{Stdout: &out, Stderr: &errb}).Run(context.Background(), args)
	return out.String(), errb.String(), code
}

// golden compares got with testdata/golden/name; UPDATE_GOLDEN=1 rewrites it.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join(root, "testdata", "golden", name)
	if os.Getenv("UPDATE_GOLDEN") != "" {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with UPDATE_GOLDEN=1 to create it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (UPDATE_GOLDEN=1 rewrites it; read the diff first)\n--- got:\n%s", path, got)
	}
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return lines[len(lines)-1]
}

func TestLibraryPasses(t *testing.T) {
	out, errs, code := podsim(t, "test", filepath.Join(root, "scenarios"))
	if code != exitOK || !strings.HasSuffix(lastLine(out), " passed, 0 failed") {
		t.Fatalf("exit %d, stdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	if n := strings.Count(out, "PASS  "); n < 13 {
		t.Errorf("%d scenarios passed, want the demo and the 12 documentation states at least", n)
	}
}

func TestWrongExpectationFails(t *testing.T) {
	out, _, code := podsim(t, "test", filepath.Join(root, "testdata", "failing"))
	if code != exitFailed {
		t.Errorf("exit %d, want %d", code, exitFailed)
	}
	if got := lastLine(out); got != "0 passed, 1 failed" {
		t.Errorf("last line %q", got)
	}
	want := "wrong-expectation.yaml:26:7: at 30s pod web phase: expected Succeeded, found Failed (since 30s: pod/web phase Running -> Failed, after pod/web/app Terminated (Error, exit 1))"
	if !strings.Contains(out, want) {
		t.Errorf("output lacks %q:\n%s", want, out)
	}
}

func TestValidateReportsEveryProblem(t *testing.T) {
	file := filepath.Join(root, "testdata", "invalid", "many-errors.yaml")
	out, errs, code := podsim(t, "validate", file)
	if code != exitBadInput || out != "" {
		t.Errorf("exit %d stdout %q, want exit 2 and nothing on stdout", code, out)
	}
	golden(t, "many-errors.txt", strings.ReplaceAll(errs, root+"/", ""))
}

func TestBadInputExitsTwo(t *testing.T) {
	tests := [][]string{
		{"run", "no-such-file.yaml"},
		{"run", filepath.Join(root, "testdata", "invalid", "many-errors.yaml")},
		{"test", filepath.Join(root, "testdata", "invalid")},
		{"run", "-o", "yaml"},
		{"frobnicate"},
		{},
	}
	for _, args := range tests {
		_, errs, code := podsim(t, args...)
		if code != exitBadInput || errs == "" {
			t.Errorf("podsim %v: exit %d, stderr %q; want 2 and a message", args, code, errs)
		}
		if strings.Contains(errs, "goroutine") || strings.Contains(errs, "panic") {
			t.Errorf("podsim %v: stack trace on stderr:\n%s", args, errs)
		}
	}
}

func TestDemo(t *testing.T) {
	out, errs, code := podsim(t, "run")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	golden(t, "demo.txt", out)
}

func TestJSONLIsDeterministic(t *testing.T) {
	files, err := expect.FindScenarios([]string{filepath.Join(root, "scenarios")})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if data, err := os.ReadFile(f); err != nil || scenarios.ReadKind(data) != scenarios.KindScenario {
			continue // studies are swept, not run
		}
		a, _, c1 := podsim(t, "run", f, "-o", "jsonl")
		prev := runtime.GOMAXPROCS(1) // same bytes whatever GOMAXPROCS
		b, _, c2 := podsim(t, "run", "-o", "jsonl", f)
		runtime.GOMAXPROCS(prev)
		if c1 != 0 || c2 != 0 || a != b || a == "" {
			t.Errorf("%s: two runs differ or failed (exit %d, %d)", f, c1, c2)
		}
	}
}

func TestRunAt(t *testing.T) {
	out, _, code := podsim(t, "run", "--at", "60s")
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	// At 60s the demo's web app has been OOM-killed once (at 38s) and runs again.
	if !strings.Contains(out, "web    1/1     Running   1 (22s ago)   60s") {
		t.Errorf("kubectl view at 60s not as expected:\n%s", out[strings.Index(out, "$ kubectl"):])
	}
}

func TestEmptySuiteIsBadInput(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "typo.yaml"), []byte("apiVersion: podsim/v1\nkind: Senario\nmetadata: {name: x}\n"), 0o644)
	_, errs, code := podsim(t, "test", dir)
	if code != exitBadInput || !strings.Contains(errs, `its kind is "Senario"`) || !strings.Contains(errs, "no scenarios in") {
		t.Errorf("exit %d, stderr %q: want 2, a word on the kind and on the empty suite", code, errs)
	}
}

func TestJUnitHoldsControlCharacters(t *testing.T) {
	// An expectation's text comes back in failure bodies; a control character
	// in it must not make the report invalid XML.
	dir := t.TempDir()
	src := strings.Replace(mustRead(t, filepath.Join(root, "testdata", "failing", "wrong-expectation.yaml")),
		"phase: Succeeded, status: Error", "phase: Succeeded, status: \"Err\\u0001or\\u001b[31m\"", 1)
	file := filepath.Join(dir, "ctl.yaml")
	os.WriteFile(file, []byte(src), 0o644)
	report := filepath.Join(dir, "junit.xml")
	if _, errs, code := podsim(t, "test", file, "--junit", report); code != exitFailed {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var doc struct {
		Failures []string `xml:"testsuite>testcase>failure"`
	}
	if err := xml.Unmarshal([]byte(mustRead(t, report)), &doc); err != nil {
		t.Fatalf("report is not XML: %v", err)
	}
	if len(doc.Failures) != 1 || !strings.Contains(doc.Failures[0], "expected Err\uFFFDor\uFFFD[31m") {
		t.Errorf("failures %q", doc.Failures)
	}
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestReadmeScenarioRuns keeps the README's example scenario valid and its
// expectations true.
func TestReadmeScenarioRuns(t *testing.T) {
	readme := mustRead(t, filepath.Join(root, "README.md"))
	start := strings.Index(readme, "## A scenario")
	block := readme[start:]
	block = block[strings.Index(block, "```yaml\n")+len("```yaml\n"):]
	block = block[:strings.Index(block, "```")]
	file := filepath.Join(t.TempDir(), "example.yaml")
	if err := os.WriteFile(file, []byte(block), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, code := podsim(t, "test", file)
	if code != exitOK || lastLine(out) != "1 passed, 0 failed" {
		t.Errorf("README example: exit %d\n%s%s", code, out, errs)
	}
}
