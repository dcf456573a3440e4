package scenarios

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/model/cluster"
	"go.yaml.in/yaml/v3"
)

func TestDurationDistParses(t *testing.T) {
	good := []struct {
		in   string
		want DurationDist
	}{
		{"30s", DurationDist{Fixed: Duration(30 * time.Second)}},
		{"0", DurationDist{}},
		{"{uniform: {min: 10s, max: 30s}}", DurationDist{Dist: model.Uniform{Min: 10 * time.Second, Max: 30 * time.Second}}},
		{"{normal: {mean: 30s, stddev: 5s}}", DurationDist{Dist: model.Normal{Mean: 30 * time.Second, StdDev: 5 * time.Second}}},
		{"{lognormal: {median: 30s, sigma: 0.5}}", DurationDist{Dist: model.LogNormal{Median: 30 * time.Second, Sigma: 0.5}}},
		{"{lognormal: {median: 1m, sigma: 1}}", DurationDist{Dist: model.LogNormal{Median: time.Minute, Sigma: 1}}},
		{"{exponential: {mean: 2m}}", DurationDist{Dist: model.Exponential{Mean: 2 * time.Minute}}},
		{"{empirical: [10s, 20s, 45s]}", DurationDist{Dist: model.Empirical{Values: []time.Duration{10 * time.Second, 20 * time.Second, 45 * time.Second}}}},
	}
	for _, c := range good {
		var d DurationDist
		var n yaml.Node
		if err := yaml.Unmarshal([]byte(c.in), &n); err != nil {
			t.Fatal(err)
		}
		if err := d.UnmarshalYAML(n.Content[0]); err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		if !reflect.DeepEqual(d, c.want) {
			t.Errorf("%s = %#v, want %#v", c.in, d, c.want)
		}
	}
}

// TestDurationDistErrors checks each bad distribution's message and place,
// in a whole scenario as `podsim validate` reports them.
func TestDurationDistErrors(t *testing.T) {
	const head = `apiVersion: podsim/v1
kind: Scenario
metadata: {name: dists}
spec:
  duration: 10m
  pods:
    - metadata: {name: web}
      spec:
        containers: [{name: app, image: example/app:1}]
  behavior:
    - pod: web
      container: app
`
	cases := []struct{ body, want string }{
		{"      startupTime: {unifrom: {min: 1s, max: 2s}}\n",
			`t.yaml:13:21: unknown distribution "unifrom"; did you mean "uniform"?`},
		{"      startupTime: {uniform: {min: 1s, max: 2s}, normal: {mean: 1s, stddev: 1s}}\n",
			`t.yaml:13:20: a distribution takes exactly one of uniform, normal, lognormal, exponential, empirical; found 2`},
		{"      startupTime: {}\n",
			`t.yaml:13:20: empty distribution: want one of uniform, normal, lognormal, exponential, empirical`},
		{"      startupTime: {uniform: {min: 1s}}\n",
			`t.yaml:13:30: uniform: max is required (e.g. {min: 10s, max: 30s})`},
		{"      startupTime: {uniform: {min: 10s, max: 2s}}\n",
			`t.yaml:13:46: uniform: max (2s) must not be less than min (10s)`},
		{"      startupTime: {uniform: {min: 1s, mx: 2s}}\n",
			`t.yaml:13:40: unknown field "mx" in uniform; did you mean "max"?`},
		{"      startupTime: {normal: {mean: 30s, stddev: five}}\n",
			`t.yaml:13:49: invalid duration "five": use a Go duration such as 30s, 5m or 1h30m`},
		{"      startupTime: {lognormal: {median: 30s, sigma: -1}}\n",
			`t.yaml:13:53: lognormal: sigma must not be negative`},
		{"      startupTime: {lognormal: {median: 30s, sigma: x}}\n",
			`t.yaml:13:53: lognormal: sigma: expected a number, found the string "x"`},
		{"      startupTime: {exponential: {mean: 0s}}\n",
			`t.yaml:13:41: exponential: mean must be positive`},
		{"      startupTime: {empirical: []}\n",
			`t.yaml:13:32: empirical: list at least one duration`},
		{"      startupTime: {empirical: [1s, 2 s]}\n",
			`t.yaml:13:37: invalid duration "2 s": use a Go duration such as 30s, 5m or 1h30m`},
		{"      startupTime: [1s]\n",
			`t.yaml:13:20: expected a duration such as 30s, or a distribution such as {uniform: {min: 10s, max: 30s}}, found a sequence`},
		{"      runs: [{exitAfter: 1s, crashProbability: 1.5}]\n",
			`t.yaml:13:48: crashProbability must be between 0 and 1`},
		{"      runs: [{crashProbability: 0.5}]\n",
			`t.yaml:13:15: crashProbability needs exitAfter: when the run crashes`},
	}
	for _, c := range cases {
		_, err := Parse("t.yaml", []byte(head+c.body))
		if err == nil || err.Error() != c.want {
			t.Errorf("%s  got:  %v\n  want: %s", strings.TrimSpace(c.body), err, c.want)
		}
	}
	// Fault times and node failures.
	const faults = `apiVersion: podsim/v1
kind: Scenario
metadata: {name: faults}
spec:
  duration: 10m
  nodes:
    - {name: node-a, mtbf: 500ms, repairTime: {exponential: {mean: 1m}}}
    - {name: node-b, repairTime: 1m}
  faults:
    - {at: 20m, nodeFailure: {node: node-a}}
    - {at: {uniform: {min: 1m, max: 20m}}, nodeFailure: {node: node-a, for: {normal: {mean: 1m}}}}
`
	_, err := Parse("f.yaml", []byte(faults))
	want := strings.Join([]string{
		`f.yaml:7:28: mtbf must be at least 1s`,
		`f.yaml:8:22: repairTime goes with mtbf (a nodeFailure fault takes for)`,
		`f.yaml:10:12: at 20m0s is after the end of the run (10m0s)`,
		`f.yaml:11:86: normal: stddev is required (e.g. {mean: 30s, stddev: 5s})`,
	}, "\n")
	if err == nil || err.Error() != want {
		t.Errorf("faults:\n got: %v\nwant: %s", err, want)
	}
}

const distScenario = `apiVersion: podsim/v1
kind: Scenario
metadata: {name: dist}
spec:
  duration: 30m
  seed: %d
  nodes:
    - {name: node-a, mtbf: 4m, repairTime: {uniform: {min: 1m, max: 2m}}}
  settings:
    images: [{name: example/app:1, pullTime: {exponential: {mean: 5s}}}]
  pods:
    - metadata: {name: web}
      spec:
        containers:
          - name: app
            image: example/app:1
            readinessProbe: {exec: {command: [x]}, periodSeconds: 1}
            lifecycle: {preStop: {exec: {command: [y]}}}
    - metadata: {name: db}
      spec:
        containers: [{name: app, image: example/db:1}]
  behavior:
    - pod: web
      container: app
      startupTime: {lognormal: {median: 5s, sigma: 0.5}}
      runs: [{exitAfter: {empirical: [10s, 20s, 45s]}, exitCode: 1}]
      hooks: {preStop: {duration: {uniform: {min: 1s, max: 3s}}}}
    - pod: db
      container: app
      runs: [{exitAfter: {uniform: {min: 30s, max: 90s}}, crashProbability: 0.5}]
  faults:
    - {at: {uniform: {min: 20m, max: 25m}}, delete: {pod: web}}
`

func runDist(t *testing.T, seed int) string {
	t.Helper()
	s, err := Parse("d.yaml", []byte(fmt.Sprintf(distScenario, seed)))
	if err != nil {
		t.Fatal(err)
	}
	var tl model.Timeline
	w := s.Build(&tl)
	w.Run(s.Duration)
	var b strings.Builder
	for _, c := range tl.Changes {
		b.WriteString(c.T.String() + " " + c.Kind.String() + " " + c.Pod + " " + c.Node + " " + c.State.String() + " " + c.Reason + " " + c.Type + c.Status + "\n")
	}
	return b.String()
}

// TestDistributionsAreSeeded runs a scenario full of distributions: the same
// seed gives the same timeline, another seed another one.
func TestDistributionsAreSeeded(t *testing.T) {
	a, b, c := runDist(t, 1), runDist(t, 1), runDist(t, 2)
	if a != b {
		t.Error("seed 1 gave two different timelines")
	}
	if a == c {
		t.Error("seeds 1 and 2 gave the same timeline")
	}
	if !strings.Contains(a, "node  node-a  NodeStatusUnknown ReadyUnknown") {
		t.Errorf("no random node failure in the timeline:\n%s", a)
	}
}

func TestSampleBoundsAndEmpirical(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	u := model.Uniform{Min: 10 * time.Second, Max: 30 * time.Second}
	e := model.Empirical{Values: []time.Duration{time.Second, 7 * time.Second, time.Minute}}
	n := model.Normal{Mean: time.Second, StdDev: 10 * time.Second}
	seen := map[time.Duration]int{}
	for range 10000 {
		if x := u.Sample(r); x < u.Min || x > u.Max || x%time.Millisecond != 0 {
			t.Fatalf("uniform sample %v outside [%v, %v] or not whole ms", x, u.Min, u.Max)
		}
		x := e.Sample(r)
		if x != time.Second && x != 7*time.Second && x != time.Minute {
			t.Fatalf("empirical sample %v is not a listed value", x)
		}
		seen[x]++
		if x := n.Sample(r); x < 0 {
			t.Fatalf("truncated normal gave %v", x)
		}
		if x := (model.Exponential{Mean: time.Second}).Sample(r); x < 0 {
			t.Fatalf("exponential gave %v", x)
		}
	}
	if len(seen) != 3 {
		t.Errorf("empirical picked %v, want all three values", seen)
	}
	var sum time.Duration
	for range 20000 {
		sum += (model.Exponential{Mean: 2 * time.Second}).Sample(r)
	}
	if mean := sum / 20000; mean < 1900*time.Millisecond || mean > 2100*time.Millisecond {
		t.Errorf("exponential mean %v, want about 2s", mean)
	}
}

// TestFixedDurationsDrawNothing checks that a scenario without
// distributions creates no random stream at all.
func TestFixedDurationsDrawNothing(t *testing.T) {
	s, err := Parse("f.yaml", []byte(`apiVersion: podsim/v1
kind: Scenario
metadata: {name: fixed}
spec:
  duration: 5m
  settings: {images: [{name: example/app:1, pullTime: 3s}]}
  pods:
    - metadata: {name: web}
      spec:
        containers: [{name: app, image: example/app:1, lifecycle: {preStop: {exec: {command: [x]}}}}]
  behavior:
    - {pod: web, container: app, startupTime: 2s, shutdownTime: 1s, runs: [{exitAfter: 30s, exitCode: 1}], hooks: {preStop: {duration: 2s}}}
  faults:
    - {at: 1m, nodeFailure: {node: node-1, for: 1m}}
    - {at: 4m, delete: {pod: web}}
`))
	if err != nil {
		t.Fatal(err)
	}
	w := s.Build()
	w.Run(s.Duration)
	fresh := cluster.New(s.Seed, s.Settings())
	for _, name := range []string{"kubelet/web/app", "fault/0", "fault/1", "node/node-1/failures"} {
		if a, b := w.Engine().Rand(name).Uint64(), fresh.Engine().Rand(name).Uint64(); a != b {
			t.Errorf("stream %s was drawn from; fixed durations must draw nothing", name)
		}
	}
}
