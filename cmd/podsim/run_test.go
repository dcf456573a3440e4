package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// `run -o json` holds the same timeline as `run -o jsonl`, whatever its
// size: the 3,000-pod scenario's timeline is megabytes long.
func TestRunJSONHoldsTheWholeTimeline(t *testing.T) {
	for _, file := range []string{
		filepath.Join(root, "scenarios", "demo.yaml"),
		filepath.Join(root, "scenarios", "cluster", "capacity-at-scale.yaml"),
	} {
		lines, _, code := podsim(t, "run", file, "-o", "jsonl")
		if code != 0 {
			t.Fatalf("%s: run -o jsonl exited %d", file, code)
		}
		out, errs, code := podsim(t, "run", file, "-o", "json")
		if code != 0 {
			t.Fatalf("%s: run -o json exited %d: %s", file, code, errs)
		}
		var doc struct {
			Timeline []map[string]any `json:"timeline"`
			Pods     []map[string]any `json:"pods"`
			Passed   *int             `json:"passed"`
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("%s: run -o json is not JSON: %v", file, err)
		}
		want := strings.Split(strings.TrimSuffix(lines, "\n"), "\n")
		if len(doc.Timeline) != len(want) || len(doc.Pods) == 0 || doc.Passed == nil {
			t.Fatalf("%s: %d timeline entries, %d pods; want %d entries and the pods", file, len(doc.Timeline), len(doc.Pods), len(want))
		}
		for i, line := range want {
			var one map[string]any
			if err := json.Unmarshal([]byte(line), &one); err != nil {
				t.Fatal(err)
			}
			a, _ := json.Marshal(one)
			b, _ := json.Marshal(doc.Timeline[i])
			if string(a) != string(b) {
				t.Fatalf("%s: timeline entry %d is %s, jsonl line is %s", file, i, b, a)
			}
		}
	}
}

// --probe-every-tick runs every probe tick; the timeline is the same.
func TestProbeEveryTickFlag(t *testing.T) {
	file := filepath.Join(root, "scenarios", "probes", "slow-start-liveness-kill.yaml")
	skip, _, code := podsim(t, "run", file, "-o", "jsonl")
	every, errs, code2 := podsim(t, "run", "--probe-every-tick", file, "-o", "jsonl")
	if code != 0 || code2 != 0 || skip != every || !strings.Contains(skip, `"reason":"Unhealthy"`) {
		t.Fatalf("exit %d, %d (%s); timelines equal: %v", code, code2, errs, skip == every)
	}
	out, _, code := podsim(t, "test", "--probe-every-tick", file)
	if code != 0 || !strings.Contains(out, "1 passed, 0 failed") {
		t.Fatalf("podsim test --probe-every-tick: exit %d\n%s", code, out)
	}
}
