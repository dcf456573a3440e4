// Package conformance holds upstream Kubernetes tests ported as podsim
// scenarios (docs/conformance.md). Its test keeps the suite honest: every
// case cites its upstream test, every case outside pending/ passes, every
// case in pending/ still fails and is listed with its reason in
// docs/kubernetes-rules.md, and the README's counts are the folder's.
package conformance

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/podsim/podsim/expect"
)

// cases lists the suite's scenario files: those run by `make conformance`
// and those waiting in pending/.
func cases(t *testing.T) (running, pending []string) {
	t.Helper()
	files, err := expect.FindScenarios([]string{"."})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasPrefix(filepath.ToSlash(f), "pending/") {
			pending = append(pending, f)
		} else {
			running = append(running, f)
		}
	}
	return running, pending
}

var (
	upstreamLine = regexp.MustCompile(`(?m)^# Upstream: (test/e2e\S*|pkg/\S+)\.go\b`)
	testLine     = regexp.MustCompile(`(?m)^#.*\b(It\("|Test[A-Z]\w*)`)
	readmeCounts = regexp.MustCompile(`holds \*\*(\d+)\*\* upstream test cases: \*\*(\d+)\*\* pass`)
)

// TestCasesCiteUpstream: each case's header names the upstream file and
// the test (an It(...) string, or a Test function and its table row).
func TestCasesCiteUpstream(t *testing.T) {
	running, pending := cases(t)
	for _, f := range append(running, pending...) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		head := string(data)
		if i := strings.Index(head, "apiVersion:"); i >= 0 {
			head = head[:i]
		}
		if !upstreamLine.MatchString(head) || !testLine.MatchString(head) {
			t.Errorf("%s: the header must cite the upstream file (# Upstream: test/...go) and the test (It(...), Test...)", f)
		}
		if !strings.Contains(head, "Expected values and where they come from:") {
			t.Errorf("%s: the header must say where each expected value comes from", f)
		}
	}
}

// TestSuite runs every case: those outside pending/ must pass; those in
// pending/ must still fail (one that passes now belongs outside pending/,
// and the counts in the README move with it) and must be listed in
// docs/kubernetes-rules.md.
func TestSuite(t *testing.T) {
	running, pending := cases(t)
	if len(running)+len(pending) < 60 {
		t.Errorf("the suite holds %d cases; issue 29 asks for at least 60", len(running)+len(pending))
	}
	for _, f := range running {
		r := expect.RunScenario(f, expect.SuiteOptions{})
		if !r.Passed() {
			t.Errorf("%s: %v %v", f, r.Err, r.Failures())
		}
	}
	rules, err := os.ReadFile("../docs/kubernetes-rules.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range pending {
		r := expect.RunScenario(f, expect.SuiteOptions{})
		if r.Err != nil {
			t.Errorf("%s: %v", f, r.Err)
		} else if r.Passed() {
			t.Errorf("%s passes now: move it out of conformance/pending/, out of docs/kubernetes-rules.md's list, and update the README's counts", f)
		}
		if !strings.Contains(string(rules), "conformance/"+filepath.ToSlash(f)) {
			t.Errorf("%s is pending but docs/kubernetes-rules.md does not list it with its reason", f)
		}
	}
}

// TestReadmeCounts keeps the README's sentence about the suite true.
func TestReadmeCounts(t *testing.T) {
	running, pending := cases(t)
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := readmeCounts.FindSubmatch(readme)
	if m == nil {
		t.Fatalf("README.md must say the suite \"holds **N** upstream test cases: **M** pass\"")
	}
	total, _ := strconv.Atoi(string(m[1]))
	pass, _ := strconv.Atoi(string(m[2]))
	if total != len(running)+len(pending) || pass != len(running) {
		t.Errorf("README.md says %d cases, %d passing; conformance/ holds %d, %d of them outside pending/",
			total, pass, len(running)+len(pending), len(running))
	}
}
