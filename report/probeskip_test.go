package report_test

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/podsim/podsim/report"
	"github.com/podsim/podsim/scenarios"
)

// timeline runs s to its end, every probe tick run or the no-op ones
// skipped, and returns its timeline as JSON lines and the events fired.
func timeline(t *testing.T, s *scenarios.Scenario, everyTick bool) ([]byte, uint64) {
	t.Helper()
	var b bytes.Buffer
	lines := report.NewJSONL(&b)
	w := s.Build(lines)
	w.SetProbeEveryTick(everyTick)
	w.Run(s.Duration)
	if err := lines.Err(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes(), w.Engine().Fired()
}

// sameBothWays checks that skipping probe ticks leaves s's timeline
// byte-identical; it returns the events fired with and without skipping.
func sameBothWays(t *testing.T, name string, s *scenarios.Scenario) (every, skip uint64) {
	t.Helper()
	a, every := timeline(t, s, true)
	b, skip := timeline(t, s, false)
	if !bytes.Equal(a, b) {
		al, bl := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
		for i := 0; i < len(al) && i < len(bl); i++ {
			if al[i] != bl[i] {
				t.Errorf("%s: timelines differ at line %d:\nevery tick: %s\nskipping:   %s", name, i+1, al[i], bl[i])
				return
			}
		}
		t.Errorf("%s: timelines differ in length: %d lines every tick, %d skipping", name, len(al), len(bl))
	}
	return every, skip
}

// TestProbeSkippingKeepsTimelines runs every scenario of the library and of
// testdata (those that load) with and without skipping probe ticks.
func TestProbeSkippingKeepsTimelines(t *testing.T) {
	var files []string
	for _, root := range []string{"../scenarios", "../testdata"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if d != nil && d.IsDir() && d.Name() == "runaway" {
				return filepath.SkipDir // runs that never end on purpose
			}
			if err == nil && !d.IsDir() && strings.HasSuffix(path, ".yaml") {
				files = append(files, path)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	ran := 0
	for _, f := range files {
		s, err := scenarios.LoadFile(f)
		if err != nil {
			continue // invalid on purpose, or a study
		}
		ran++
		every, skip := sameBothWays(t, f, s)
		t.Logf("%s: %d events every tick, %d skipping", f, every, skip)
	}
	if ran < 30 {
		t.Errorf("only %d scenarios loaded", ran)
	}
}

// TestProbeSkippingRandom runs random scenarios full of probes, failure
// windows, distributions and faults at odd moments both ways.
func TestProbeSkippingRandom(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 30
	}
	var every, skip uint64
	for i := range n {
		src := randomScenario(rand.New(rand.NewPCG(uint64(i), 7)), i)
		s, err := scenarios.Parse(fmt.Sprintf("random-%d.yaml", i), []byte(src))
		if err != nil {
			t.Fatalf("random scenario %d does not load: %v\n%s", i, err, src)
		}
		e, k := sameBothWays(t, fmt.Sprintf("random scenario %d", i), s)
		every, skip = every+e, skip+k
		if t.Failed() {
			t.Logf("scenario:\n%s", src)
			return
		}
	}
	t.Logf("%d scenarios: %d events every tick, %d skipping", n, every, skip)
}

// randomScenario writes a scenario: a couple of nodes; bare pods and a
// ReplicaSet whose containers have random probes (periods that share
// instants, initial delays, thresholds, grace periods), behaviours with
// failure windows, startup times, crashes and hooks, some drawn from
// distributions; and faults at odd instants, some on a probe tick.
func randomScenario(r *rand.Rand, i int) string {
	var b strings.Builder
	pick := func(xs ...string) string { return xs[r.IntN(len(xs))] }
	dur := func(max int) string {
		if r.IntN(4) == 0 {
			return fmt.Sprintf("%dms", r.IntN(max*1000))
		}
		return fmt.Sprintf("%ds", r.IntN(max))
	}
	dist := func(max int) string {
		switch r.IntN(5) {
		case 0:
			return fmt.Sprintf("{uniform: {min: %ds, max: %ds}}", r.IntN(max/2+1), max/2+1+r.IntN(max/2+1))
		case 1:
			return fmt.Sprintf("{lognormal: {median: %ds, sigma: 0.5}}", 1+r.IntN(max))
		}
		return dur(max)
	}
	positive := func() string {
		if r.IntN(2) == 0 {
			return fmt.Sprintf("{uniform: {min: 1s, max: %ds}}", 2+r.IntN(120))
		}
		return fmt.Sprintf("%dms", 1+r.IntN(120000))
	}
	probe := func(kind string) string {
		p := fmt.Sprintf("%s: {%s, periodSeconds: %s", kind,
			pick("httpGet: {path: /, port: 80}", "tcpSocket: {port: 80}", "exec: {command: [x]}", "grpc: {port: 9}"),
			pick("1", "2", "3", "5", "10", "10", "7"))
		if r.IntN(2) == 0 {
			p += ", initialDelaySeconds: " + pick("0", "1", "3", "7", "20")
		}
		if kind == "readinessProbe" && r.IntN(2) == 0 {
			p += ", successThreshold: " + pick("1", "2", "3")
		}
		if r.IntN(2) == 0 {
			p += ", failureThreshold: " + pick("1", "2", "3", "5")
		}
		if kind != "readinessProbe" && r.IntN(4) == 0 {
			p += ", terminationGracePeriodSeconds: " + pick("1", "2", "5", "10")
		}
		return p + "}"
	}
	type has struct {
		probes map[string]bool
		hooks  bool
	}
	var last has // what the last container made has
	container := func(name string, sidecar bool) string {
		last = has{probes: map[string]bool{}}
		c := fmt.Sprintf("{name: %s, image: img/%s:1", name, name)
		if sidecar {
			c += ", restartPolicy: Always"
		}
		for _, k := range []string{"liveness", "readiness", "startup"} {
			if r.IntN(3) > 0 {
				c += ", " + probe(k+"Probe")
				last.probes[k] = true
			}
		}
		if r.IntN(4) == 0 {
			c += ", lifecycle: {postStart: {exec: {command: [x]}}, preStop: {exec: {command: [x]}}}"
			last.hooks = true
		}
		return c + "}"
	}
	behavior := func(pod, name string, h has) string {
		s := fmt.Sprintf("    - pod: %s\n      container: %s\n", pod, name)
		if r.IntN(2) == 0 {
			s += "      startupTime: " + dist(30) + "\n"
		}
		if r.IntN(3) > 0 {
			s += "      runs:\n"
			for range 1 + r.IntN(3) {
				code := "exitCode: " + pick("0", "1", "2")
				if r.IntN(4) == 0 {
					code = "oom: true"
				}
				s += fmt.Sprintf("        - {exitAfter: %s, %s, times: %d}\n", dist(120), code, 1+r.IntN(3))
			}
			if r.IntN(3) == 0 {
				s += fmt.Sprintf("        - {exitAfter: %s, crashProbability: 0.5}\n", dist(100))
			}
		}
		if len(h.probes) > 0 {
			s += "      probes:\n"
			for _, k := range []string{"liveness", "readiness", "startup"} {
				if !h.probes[k] || r.IntN(3) == 0 {
					continue
				}
				s += "        " + k + ":\n"
				at := 0
				for range 1 + r.IntN(3) {
					at += r.IntN(200)
					s += fmt.Sprintf("          - {from: %ds", at)
					if r.IntN(5) > 0 {
						at += 1 + r.IntN(60)
						s += fmt.Sprintf(", to: %ds", at)
					}
					s += "}\n"
				}
			}
		}
		if r.IntN(3) == 0 {
			s += fmt.Sprintf("      shutdownTime: %s\n", dist(20))
		}
		if h.hooks && r.IntN(2) == 0 {
			// Hooks take 1s or more: a postStart hook that takes 0s and
			// fails can send the kubelet into an endless loop at one
			// instant (a model bug, with or without skipping).
			s += fmt.Sprintf("      hooks: {postStart: {duration: %ds, fail: %v}, preStop: {duration: %s}}\n", 1+r.IntN(10), r.IntN(4) == 0, dist(20))
		}
		return s
	}
	fmt.Fprintf(&b, "apiVersion: podsim/v1\nkind: Scenario\nmetadata: {name: random-%d}\nspec:\n", i)
	minutes := 5 + r.IntN(15)
	fmt.Fprintf(&b, "  duration: %dm\n  seed: %d\n", minutes, r.IntN(1000))
	b.WriteString("  nodes: [{name: a}, {name: b}]\n  pods:\n")
	type ref struct {
		pod, c string
		h      has
	}
	var refs []ref
	var pods []string
	for p := range 1 + r.IntN(4) {
		name := fmt.Sprintf("p%d", p)
		pods = append(pods, name)
		fmt.Fprintf(&b, "    - metadata: {name: %s}\n      spec:\n", name)
		fmt.Fprintf(&b, "        restartPolicy: %s\n", pick("Always", "Always", "OnFailure", "Never"))
		if r.IntN(2) == 0 {
			fmt.Fprintf(&b, "        terminationGracePeriodSeconds: %s\n", pick("0", "3", "10", "30"))
		}
		if r.IntN(3) == 0 {
			b.WriteString("        initContainers: [" + container("side", true) + "]\n")
			refs = append(refs, ref{name, "side", last})
		}
		b.WriteString("        containers: [")
		for c := range 1 + r.IntN(2) {
			if c > 0 {
				b.WriteString(", ")
			}
			cn := fmt.Sprintf("c%d", c)
			b.WriteString(container(cn, false))
			refs = append(refs, ref{name, cn, last})
		}
		b.WriteString("]\n")
	}
	if r.IntN(2) == 0 {
		fmt.Fprintf(&b, "  workloads:\n    - apiVersion: apps/v1\n      kind: ReplicaSet\n      metadata: {name: rs}\n      spec:\n        replicas: %d\n", 1+r.IntN(3))
		b.WriteString("        template:\n          metadata: {labels: {app: rs}}\n          spec:\n            containers: [" + container("c0", false) + "]\n")
		refs = append(refs, ref{"rs", "c0", last})
	}
	b.WriteString("  behavior:\n")
	for _, x := range refs {
		b.WriteString(behavior(x.pod, x.c, x.h))
	}
	b.WriteString("  faults:\n")
	for range r.IntN(6) {
		at := fmt.Sprintf("%ds", r.IntN(minutes*60))
		if r.IntN(3) == 0 {
			at = fmt.Sprintf("%dms", r.IntN(minutes*60000))
		}
		x := refs[r.IntN(len(refs))]
		switch r.IntN(7) {
		case 0:
			fmt.Fprintf(&b, "    - {at: %s, exit: {pod: %s, container: %s, code: %s}}\n", at, x.pod, x.c, pick("0", "1"))
		case 1:
			fmt.Fprintf(&b, "    - {at: %s, oom: {pod: %s, container: %s}}\n", at, x.pod, x.c)
		case 2:
			fmt.Fprintf(&b, "    - {at: %s, delete: {pod: %s, gracePeriodSeconds: %s}}\n", at, pods[r.IntN(len(pods))], pick("0", "1", "10", "30"))
		case 3:
			fmt.Fprintf(&b, "    - {at: %s, partition: {node: %s, for: %s}}\n", at, pick("a", "b"), positive())
		case 4:
			fmt.Fprintf(&b, "    - {at: %s, nodeFailure: {node: %s, for: %s}}\n", at, pick("a", "b"), positive())
		case 5:
			fmt.Fprintf(&b, "    - {at: %s, diskFailure: {node: %s}}\n", at, pick("a", "b"))
		default:
			fmt.Fprintf(&b, "    - {at: %s, exit: {pod: %s, container: %s, code: 1}}\n", dist(minutes*60-1), x.pod, x.c)
		}
	}
	return b.String()
}

// BenchmarkFleet runs the shared bench's fleet (1,000 crash-looping pods,
// two probes each every 10s, 6h) with every probe tick and skipping the
// no-op ones, and reports the engine events fired per run.
func BenchmarkFleet(b *testing.B) {
	const path = "../bench/fleet.yaml"
	s, err := scenarios.LoadFile(path)
	if err != nil {
		b.Skip(err)
	}
	for _, every := range []bool{true, false} {
		b.Run(fmt.Sprint("everyTick=", every), func(b *testing.B) {
			b.ReportAllocs()
			var fired uint64
			for b.Loop() {
				w := s.Build(report.NewJSONL(io.Discard))
				w.SetProbeEveryTick(every)
				w.Run(s.Duration)
				fired = w.Engine().Fired()
			}
			b.ReportMetric(float64(fired), "events/op")
		})
	}
}
