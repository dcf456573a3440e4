package report

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestREADMEListsEveryMetric keeps the README's metrics table (the list a
// study's author reads) equal to Metrics: every metric has a row, and
// every name in the table's first column is a metric.
func TestREADMEListsEveryMetric(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	start := strings.Index(text, "\n### Metrics\n")
	if start < 0 {
		t.Fatal("README.md has no ### Metrics section")
	}
	section := text[start+1:]
	if end := strings.Index(section[len("### Metrics\n"):], "\n#"); end >= 0 {
		section = section[:len("### Metrics\n")+end]
	}
	listed := map[string]bool{}
	name := regexp.MustCompile("`([a-z]+\\.[A-Za-z0-9]+)`")
	for _, line := range strings.Split(section, "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		first := strings.SplitN(line[1:], "|", 2)[0]
		for _, m := range name.FindAllStringSubmatch(first, -1) {
			listed[m[1]] = true
		}
	}
	known := map[string]bool{}
	for _, m := range Metrics {
		known[m.Name] = true
		if !listed[m.Name] {
			t.Errorf("README.md's metrics table has no row for %s", m.Name)
		}
	}
	for n := range listed {
		if !known[n] {
			t.Errorf("README.md's metrics table lists %s, which is no metric", n)
		}
	}
}
