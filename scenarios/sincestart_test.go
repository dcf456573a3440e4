package scenarios

import (
	"strings"
	"testing"

	"github.com/podsim/podsim/model"
)

// TestSinceStartWindows checks how windows since each start decode and
// which combinations are refused, with their place.
func TestSinceStartWindows(t *testing.T) {
	const head = `apiVersion: podsim/v1
kind: Scenario
metadata: {name: t}
spec:
  pods:
    - metadata: {name: web}
      spec:
        containers:
          - name: app
            image: example/app:1
            livenessProbe: {exec: {command: [x]}}
  behavior:
    - pod: web
      container: app
`
	cases := []struct{ body, want string }{
		{"      probes: {liveness: [{from: 40s, to: 12s, sinceStart: true}]}\n",
			`t.yaml:15:43: to (12s after each start) must be after from (40s after each start)`},
		{"      probes: {liveness: [{from: 40s, to: 40s}]}\n",
			`t.yaml:15:43: to (40s) must be after from (40s)`},
		{"      runs: [{exitAfter: 20s, exitCode: 1}, {exitAfter: 30s}]\n      probes: {liveness: [{from: 30s, sinceStart: true}]}\n",
			`t.yaml:16:34: from 30s after each start: every run of container app exits within 30s of its start, so this window would change nothing`},
		{"      runs: [{exitCode: 1}]\n      probes: {liveness: [{sinceStart: true}]}\n",
			`t.yaml:16:27: from 0s after each start: every run of container app exits within 0s of its start, so this window would change nothing`},
		// Valid: a run that may go on, a drawn end, a window inside the runs.
		{"      runs: [{exitAfter: 20s, exitCode: 1}, {}]\n      probes: {liveness: [{from: 30s, sinceStart: true}]}\n", ""},
		{"      runs: [{exitAfter: {uniform: {min: 1s, max: 9s}}}]\n      probes: {liveness: [{from: 30s, sinceStart: true}]}\n", ""},
		{"      runs: [{exitAfter: 20s, crashProbability: 0.5}]\n      probes: {liveness: [{from: 30s, sinceStart: true}]}\n", ""},
		{"      runs: [{exitAfter: 1m, exitCode: 1}]\n      probes: {liveness: [{from: 12s, to: 40s, sinceStart: true}]}\n", ""},
	}
	for _, c := range cases {
		_, err := Parse("t.yaml", []byte(head+c.body))
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s  refused: %v", strings.TrimSpace(c.body), err)
		case c.want != "" && (err == nil || err.Error() != c.want):
			t.Errorf("%s  got:  %v\n  want: %s", strings.TrimSpace(c.body), err, c.want)
		}
	}
	s, err := Parse("t.yaml", []byte(head+"      probes: {liveness: [{from: 12s, to: 40s, sinceStart: true}, {from: 1m}]}\n"))
	if err != nil {
		t.Fatal(err)
	}
	b := behavior(&s.File.Spec.Behavior[0])
	want := []model.Window{{From: 60e9}, {From: 12e9, To: 40e9, SinceStart: true}} // normalized: scenario time first
	if got := b.ProbeFailures[model.Liveness]; len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("windows %+v, want %+v", got, want)
	}
}

func TestKubeletSyncSetting(t *testing.T) {
	const head = "apiVersion: podsim/v1\nkind: Scenario\nmetadata: {name: t}\nspec:\n  settings: {kubeletSync: "
	for body, want := range map[string]model.KubeletSync{"exact}\n": model.SyncExact, "realistic}\n": model.SyncRealistic} {
		s, err := Parse("t.yaml", []byte(head+body))
		if err != nil {
			t.Fatal(err)
		}
		if got := s.Settings().KubeletSync; got != want {
			t.Errorf("kubeletSync %s: got %s", strings.TrimSpace(body), got)
		}
	}
	_, err := Parse("t.yaml", []byte(head+"Realistic}\n"))
	if want := `t.yaml:5:27: kubeletSync "Realistic": want exact or realistic`; err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}
