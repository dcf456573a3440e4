package expect_test

import (
	"strings"
	"testing"

	"github.com/podsim/podsim/expect"
	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/scenarios"
)

// base is a scenario whose timeline the cases below rely on:
//
//	web:   Running and Ready from 0s; its readiness probe fails from 2m to
//	       4m, so Ready=False from 2m20s (third failure) to 4m.
//	batch: restartPolicy Never, Running from 0s, exits 1 at 3m: Failed.
//	gone:  deleted at 1m (grace 1s): its app exits 0 at once, Succeeded, gone.
const base = `apiVersion: podsim/v1
kind: Scenario
metadata: {name: base}
spec:
  duration: 6m
  nodes: [{name: node-a}]
  pods:
    - metadata: {name: web}
      spec:
        nodeName: node-a
        containers:
          - name: app
            image: example/web:1
            readinessProbe: {httpGet: {path: /ready, port: 8080}, periodSeconds: 10, failureThreshold: 3}
    - metadata: {name: batch}
      spec:
        nodeName: node-a
        restartPolicy: Never
        containers: [{name: main, image: example/batch:1}]
    - metadata: {name: gone}
      spec:
        nodeName: node-a
        containers: [{name: app, image: example/app:1}]
  behavior:
    - {pod: web, container: app, probes: {readiness: [{from: 2m, to: 4m}]}}
    - {pod: batch, container: main, runs: [{exitAfter: 3m, exitCode: 1}]}
  faults:
    - {at: 1m, delete: {pod: gone, gracePeriodSeconds: 1}}
  expect:
`

// verdicts runs base with the given expectations (YAML flow mappings, one
// per line) and returns the verdicts.
func verdicts(t *testing.T, expects ...string) []expect.Verdict {
	t.Helper()
	src := base
	for _, e := range expects {
		src += "    - " + e + "\n"
	}
	s, err := scenarios.Parse("base.yaml", []byte(src))
	if err != nil {
		t.Fatalf("scenario does not load:\n%v", err)
	}
	w := s.NewWorld()
	c := expect.Arm(s, w)
	s.Populate(w)
	w.Run(s.Duration)
	c.Finish()
	return c.Verdicts()
}

func messages(v *expect.Verdict) string {
	var out []string
	for _, f := range v.Failures {
		out = append(out, v.String(f))
	}
	return strings.Join(out, "\n")
}

func TestExpectations(t *testing.T) {
	tests := []struct {
		expect string
		fail   string // "" if the expectation holds; else a part of its failure
	}{
		// Contract kinds, at a time and at the end of the run.
		{`{at: 1m, pod: web, phase: Running, status: Running, ready: true, container: app, state: Running, restartCount: 0}`, ""},
		{`{at: 2m20s, pod: web, ready: false, condition: {type: Ready, status: "False", reason: ContainersNotReady}}`, ""},
		{`{at: 2m19s, pod: web, ready: false}`, "at 2m19s pod web ready: expected false, found true (since 0s: Ready=True)"},
		{`{pod: batch, phase: Failed, phases: [Pending, Running, Failed], container: main, state: Terminated, reason: Error, exitCode: 1}`, ""},
		{`{pod: batch, container: main, exitCode: {min: 2, max: 9}}`, "container main exitCode: expected 2..9, found 1"},
		{`{pod: batch, container: main, restartCount: {max: 0}}`, ""},
		{`{pod: batch, phases: [Pending, Running, Succeeded]}`, "phases: expected [Pending, Running, Succeeded], found [Pending, Running, Failed]"},
		{`{node: node-a, condition: {type: Ready, status: "True"}}`, ""},
		{`{node: node-a, condition: {type: Ready, status: "Unknown"}}`, "node node-a condition Ready: expected Unknown, found True"},
		// A deleted pod: gone, and its checks see its last status.
		{`{at: 59s, pod: gone, exists: true, phase: Running}`, ""},
		{`{pod: gone, exists: false, phase: Succeeded, container: app, state: Terminated, reason: Completed, exitCode: 0}`, ""},
		{`{pod: gone, phase: Running}`, "at 6m pod gone phase: expected Running, found Succeeded (since 1m: pod/gone phase Running -> Succeeded"},
		{`{pod: gone, exists: true}`, "pod gone exists: expected true, found false"},
		// Events: reason, type, pod, node filters and ranges.
		{`event: {pod: web, reason: Unhealthy, count: 12}`, ""},
		{`event: {pod: web, type: Warning, reason: Unhealthy, count: {min: 10, max: 12}}`, ""},
		{`event: {pod: web, type: Normal, reason: Unhealthy, count: 0}`, ""},
		{`event: {type: Normal, reason: Unhealthy}`, "events Normal Unhealthy count: expected at least 1, found 0"},
		{`{at: 2m5s, event: {reason: Unhealthy, count: 2}}`, "found 1 (last at 2m: pod/web Warning Unhealthy"},
		{`event: {node: node-a, reason: Unhealthy, count: 0}`, ""},
		{`event: {node: node-a, reason: Unhealthy}`, "Unhealthy about node node-a count: expected at least 1, found 0"},
		// within: at some instant of the span.
		{`{within: [2m, 3m], pod: web, ready: false}`, ""},
		{`{within: [2m10s, 2m30s], pod: web, ready: false}`, ""},
		{`{within: [2m, 4m30s], pod: web, ready: false}`, ""}, // only inside the span, not at its ends
		{`{within: [4m30s, 5m], pod: web, ready: true}`, ""},  // no change inside the span
		{`{within: [2m, 2m19s], pod: web, ready: false}`, "within [2m, 2m19s] pod web ready: expected false at some moment, never held; at 2m19s found true (since 0s: Ready=True)"},
		{`{within: [0s, 6m], pod: batch, phase: Succeeded}`, "at 6m found Failed (since 3m: pod/batch phase Running -> Failed"},
		{`{within: [2m20s, 2m20s], pod: web, ready: false}`, ""},
		{`{within: [2m, 2m30s], event: {pod: web, reason: Unhealthy, count: {min: 3}}}`, ""},
		{`{within: [2m, 2m15s], event: {pod: web, reason: Unhealthy, count: {min: 3}}}`, "found 2"},
		// always: at every instant of the span.
		{`{always: [0s, 2m19s], pod: web, ready: true, phase: Running}`, ""},
		{`{always: [2m20s, 3m59s], pod: web, ready: false}`, ""},
		{`{always: [0s, 3m], pod: web, ready: true}`, "always [0s, 3m] pod web ready: expected true throughout, first failed at 2m20s: found false (since 2m20s: Ready=False (ContainersNotReady))"},
		{`{always: [2m20s, 4m], pod: web, ready: false}`, "first failed at 4m: found true"},
		{`{always: [0s, 6m], pod: web, ready: true}`, "first failed at 2m20s: found false"}, // only inside the span
		{`{always: [1m, 6m], pod: batch, phase: Running}`, "first failed at 3m: found Failed"},
		{`{always: [3m, 6m], pod: batch, phase: Failed}`, ""},
		// Transitions of the phase, up to at.
		{`{pod: batch, transition: {from: Running, to: Failed}, count: 1}`, ""},
		{`{pod: batch, transition: {from: Running, to: Failed}}`, ""},
		{`{at: 2m59s, pod: batch, transition: {to: Failed}, count: 0}`, ""},
		{`{at: 2m59s, pod: batch, transition: {to: Failed}}`, "at 2m59s pod batch transition any -> Failed count: expected at least 1, found 0"},
		{`{pod: batch, transition: {from: Running, to: Failed}, count: {min: 2}}`, "transition Running -> Failed count: expected at least 2, found 1 at 3m"},
		{`{pod: web, transition: {from: Running, to: Failed}, count: 1}`, "expected 1, found 0"},
		{`{pod: web, transition: {from: Pending}, count: 1}`, ""},
		{`{pod: web, transition: {to: Pending}, count: 1}`, ""}, // creation counts
	}
	exprs := make([]string, len(tests))
	for i, tc := range tests {
		exprs[i] = tc.expect
	}
	vs := verdicts(t, exprs...)
	for i, tc := range tests {
		v := &vs[i]
		got := messages(v)
		switch {
		case tc.fail == "" && !v.Passed():
			t.Errorf("%s\n  failed: %s", tc.expect, got)
		case tc.fail != "" && v.Passed():
			t.Errorf("%s\n  held, want a failure with %q", tc.expect, tc.fail)
		case tc.fail != "" && !strings.Contains(got, tc.fail):
			t.Errorf("%s\n  failed with %s\n  want a failure with %q", tc.expect, got, tc.fail)
		}
	}
}

// Spans see every instant, also when several observers fall on the same
// instant as the span's start and end.
func TestSpansShareInstants(t *testing.T) {
	vs := verdicts(t,
		`{at: 2m20s, pod: web, ready: false}`,
		`{within: [2m20s, 2m20s], pod: web, ready: false}`,
		`{always: [2m20s, 2m20s], pod: web, ready: false}`,
		`{within: [2m20s, 4m], pod: web, ready: true}`,
		`{always: [2m20s, 4m], pod: web, ready: false}`,
		`{at: 4m, pod: web, ready: true}`,
	)
	want := []bool{true, true, true, true, false, true}
	for i := range vs {
		if vs[i].Passed() != want[i] {
			t.Errorf("expectation %d: passed %v, want %v: %s", i, vs[i].Passed(), want[i], messages(&vs[i]))
		}
	}
	if vs[3].At.String() != "4m0s" || vs[4].At.String() != "4m0s" {
		t.Errorf("within held at %s, always failed at %s; want both 4m", vs[3].At, vs[4].At)
	}
}

// An expectation whose time the run never reached fails instead of passing
// unchecked.
func TestFinishFailsUncheckedExpectations(t *testing.T) {
	s, err := scenarios.Parse("x.yaml", []byte(base+"    - {at: 5m, pod: web, ready: true}\n    - {within: [4m, 5m], pod: web, ready: true}\n"))
	if err != nil {
		t.Fatal(err)
	}
	w := s.NewWorld()
	c := expect.Arm(s, w)
	s.Populate(w)
	w.Run(3 * 60e9)
	c.Finish()
	for _, v := range c.Verdicts() {
		if v.Passed() || !strings.Contains(messages(&v), "the run ended at 3m") {
			t.Errorf("%s: %q, want a failure saying the run ended", v.Where, messages(&v))
		}
	}
}

func TestEventMatches(t *testing.T) {
	podEv := &model.Change{Kind: model.ChangeEvent, Pod: "web", Type: "Warning", Reason: "BackOff", Message: "m", Combined: true, Dropped: true}
	nodeEv := &model.Change{Kind: model.ChangeEvent, Node: "node-a", Type: "Normal", Reason: "NodeNotReady"}
	// A Deployment web's ReplicaSet's event: on the ReplicaSet, owned by web.
	rsEv := &model.Change{Kind: model.ChangeEvent, Workload: "web-5f4d9ddb9b", Object: "ReplicaSet", Owner: "web", Type: "Normal", Reason: "SuccessfulCreate", Message: "Created pod: web-12", Combined: true}
	tests := []struct {
		check scenarios.EventCheck
		ev    *model.Change
		want  bool
	}{
		{scenarios.EventCheck{Reason: "BackOff"}, podEv, true},
		{scenarios.EventCheck{Reason: "Backoff"}, podEv, false},
		{scenarios.EventCheck{Reason: "BackOff", Type: "Warning"}, podEv, true},
		{scenarios.EventCheck{Reason: "BackOff", Type: "Normal"}, podEv, false},
		{scenarios.EventCheck{Reason: "BackOff", Pod: "web"}, podEv, true},
		{scenarios.EventCheck{Reason: "BackOff", Pod: "api"}, podEv, false},
		{scenarios.EventCheck{Reason: "BackOff", Node: "node-a"}, podEv, false},
		{scenarios.EventCheck{Reason: "NodeNotReady", Node: "node-a"}, nodeEv, true},
		{scenarios.EventCheck{Reason: "NodeNotReady", Node: "node-b"}, nodeEv, false},
		{scenarios.EventCheck{Reason: "NodeNotReady", Pod: "node-a"}, nodeEv, false},
		{scenarios.EventCheck{Reason: "NodeNotReady", Node: "node-a", Type: "Warning"}, nodeEv, false},
		// The component's message counts, combined or dropped by the correlator.
		{scenarios.EventCheck{Reason: "BackOff", Message: "m"}, podEv, true},
		{scenarios.EventCheck{Reason: "SuccessfulCreate", Workload: "web", Message: "Created pod: web-12"}, rsEv, true},
		{scenarios.EventCheck{Reason: "SuccessfulCreate", Workload: "api"}, rsEv, false},
		{scenarios.EventCheck{Reason: "SuccessfulCreate", Workload: "web-5f4d9ddb9b"}, rsEv, true},
		{scenarios.EventCheck{Reason: "SuccessfulCreate", Node: "web"}, rsEv, false},
	}
	for _, tc := range tests {
		if got := expect.EventMatches(&tc.check, "", tc.ev); got != tc.want {
			t.Errorf("EventMatches(%+v, %+v) = %v, want %v", tc.check, *tc.ev, got, tc.want)
		}
	}
}

// lastState checks the previous termination: a container that never
// terminated before has none.
func TestLastStateCheck(t *testing.T) {
	vs := verdicts(t, "{at: 30s, pod: web, container: app, lastState: {reason: OOMKilled}}")
	if vs[0].Passed() || !strings.Contains(messages(&vs[0]), "container app lastState: expected a termination, found none") {
		t.Errorf("got %q", messages(&vs[0]))
	}
}
