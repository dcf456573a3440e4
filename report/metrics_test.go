package report

import (
	"math"
	"testing"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/scenarios"
)

// measureRun computes every metric of s's run to its end.
func measureRun(s *scenarios.Scenario) RunMetrics {
	var m *Meter
	s.Start(scenarios.RunOptions{Until: s.Duration, Attach: func(w *model.World) { m = NewMeter(w, s.Duration) }}).Run(nil)
	return m.Finish()
}

// measure runs a library scenario and measures it.
func measure(t *testing.T, path string) (RunMetrics, map[string][]float64) {
	t.Helper()
	s, err := scenarios.LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m := measureRun(s)
	byName := map[string][]float64{}
	for i, met := range Metrics {
		byName[met.Name] = m.Values[i]
	}
	return m, byName
}

func equal(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(a[i]-b[i]) > 1e-9 {
			return false
		}
	}
	return true
}

func TestMetricsOOM(t *testing.T) {
	// One container OOM-killed at 30s under Always: restarted at once (the
	// first restart is immediate), ready all along after the instant.
	m, got := measure(t, "../scenarios/lifecycle/oom-always.yaml")
	want := map[string][]float64{
		"pod.timeToReady":            {0},
		"pod.restarts":               {1},
		"pod.crashLoopTime":          {0},
		"pod.notReadyTime":           {0},
		"cluster.podsNeverReady":     {0},
		"cluster.schedulingFailures": {0},
	}
	for name, w := range want {
		if !equal(got[name], w) {
			t.Errorf("%s = %v, want %v", name, got[name], w)
		}
	}
	// 2m in 240 steps of 0.5s: the restart is at point 60.
	if n := len(m.Restarts); n != SeriesPoints || m.Restarts[59] != 0 || m.Restarts[60] != 1 || m.Restarts[n-1] != 1 {
		t.Errorf("restarts series: %d points, at 29.5s %v, at 30s %v, at the end %v; want 0, 1, 1", n, m.Restarts[59], m.Restarts[60], m.Restarts[n-1])
	}
	// Under Never the pod fails at 30s: ready 0..30s, then it has ended.
	_, got = measure(t, "../scenarios/lifecycle/oom-never.yaml")
	if !equal(got["pod.restarts"], []float64{0}) || !equal(got["pod.notReadyTime"], []float64{0}) {
		t.Errorf("oom-never: restarts %v, not ready %v; want 0, 0", got["pod.restarts"], got["pod.notReadyTime"])
	}
}

func TestMetricsCrashLoop(t *testing.T) {
	// Runs of 20s that exit 1 three times, then one that runs on: starts at
	// 0, 20 (immediate), 50 (10s backoff) and 90s (20s backoff).
	s, err := scenarios.Parse("c.yaml", []byte(`apiVersion: podsim/v1
kind: Scenario
metadata: {name: c}
spec:
  duration: 5m
  pods:
    - metadata: {name: web}
      spec:
        containers: [{name: app, image: example/app:1, resources: {requests: {cpu: "1", memory: 1Gi}}}]
  behavior:
    - {pod: web, container: app, runs: [{exitAfter: 20s, exitCode: 1, times: 3}, {}]}
`))
	if err != nil {
		t.Fatal(err)
	}
	m := measureRun(s)
	got := map[string][]float64{}
	for i, met := range Metrics {
		got[met.Name] = m.Values[i]
	}
	// Status changes of web: at 0s 9 (phase, 5 conditions, 2 container
	// states, phase Running), per crash 3 (Terminated, ContainersReady and
	// Ready False) plus 3 for the restart (Running, 2 conditions), and 1 for
	// each CrashLoopBackOff wait (2): 9 + 3*6 + 2 = 29 in 300s, at 6
	// instants (0, 20, 40, 50, 70 and 90s). Events written about it once it
	// is bound: Pulled, Created, Started at each of 4 starts and BackOff
	// at each wait (2): 14, all under the spam filter's burst of 25 (the
	// scheduler's Scheduled comes before the binding).
	want := map[string][]float64{
		"pod.timeToReady":             {0},
		"pod.restarts":                {3},
		"pod.restartsPerHour":         {36},
		"node.eventWritesPer10s":      {14.0 * 10 / 300},
		"node.apiWritesPer10s":        {(6.0 + 14) * 10 / 300},
		"pod.crashLoopTime":           {30},
		"pod.notReadyTime":            {30},
		"node.statusWritesPer10s":     {29.0 * 10 / 300},
		"node.statusWritesPerSecond":  {29.0 / 300},
		"node.statusUpdatesPer10s":    {6.0 * 10 / 300},
		"node.peakStatusWritesPer10s": {9},
		"node.peakRestartsPer10s":     {1},
		"node.peakCPU":                {25},
		"node.peakMemory":             {100.0 / 16},
		"node.peakPods":               {100.0 / 110},
	}
	for name, w := range want {
		if !equal(got[name], w) {
			t.Errorf("%s = %v, want %v", name, got[name], w)
		}
	}
}

func TestMetricsWorkloadPartition(t *testing.T) {
	// api-0's node is cut off at 3m; Ready=False at 3m45s, evicted and
	// replaced (ready at once) at 8m45s: one replica missing for 300s.
	// api-0 never ends: Terminating to the end, not ready from 3m45s.
	m, got := measure(t, "../scenarios/cluster/node-partition-replicaset.yaml")
	want := map[string][]float64{
		"workload.unavailableReplicaSeconds": {300},
		"workload.minReadyReplicas":          {1},
		"pod.timeToReady":                    {0, 0, 0},
		"pod.notReadyTime":                   {495, 0, 0},
		"node.peakCPU":                       {12.5, 25},
		"node.peakPods":                      {100.0 / 110, 200.0 / 110},
	}
	for name, w := range want {
		if !equal(got[name], w) {
			t.Errorf("%s = %v, want %v", name, got[name], w)
		}
	}
	// 12m in 240 steps of 3s: ready pods 2 until 225s, 1 until 525s.
	for k, w := range map[int]float64{0: 2, 74: 2, 75: 1, 174: 1, 175: 2, SeriesPoints - 1: 2} {
		if m.Ready[k] != w {
			t.Errorf("ready pods at %s = %v, want %v", SeriesTime(12*60e9, k), m.Ready[k], w)
		}
	}
}

func TestSummarize(t *testing.T) {
	s := Summarize([][]float64{{1, 2, 3}, {4}, {}})
	// Pooled 1..4: mean 2.5, sample SD sqrt(5/3); empirical quantiles; run
	// means 2 and 4: mean 3, SE 1, t(0.975, 1 df) = 12.7062.
	t975 := 12.706204736174698
	want := Summary{N: 4, Runs: 2, Mean: 2.5, SD: math.Sqrt(5.0 / 3), P50: 2, P90: 4, P99: 4, Min: 1, Max: 4,
		CILow: 3 - t975, CIHigh: 3 + t975}
	if !close(s, want) {
		t.Errorf("Summarize = %+v\nwant        %+v", s, want)
	}
	one := Summarize([][]float64{{5}})
	if one.N != 1 || one.Mean != 5 || one.P99 != 5 || !math.IsNaN(one.SD) || !math.IsNaN(one.CILow) {
		t.Errorf("one sample: %+v; want mean 5, SD and CI NaN", one)
	}
	none := Summarize(nil)
	if none.N != 0 || !math.IsNaN(none.Mean) || !math.IsNaN(none.Max) {
		t.Errorf("no samples: %+v; want NaN", none)
	}
	if got := MeanSeries([][]float64{{1, 2}, {3, 6}}); !equal(got, []float64{2, 4}) {
		t.Errorf("MeanSeries = %v", got)
	}
}

func close(a, b Summary) bool {
	f := func(x, y float64) bool { return math.Abs(x-y) < 1e-6 || math.IsNaN(x) && math.IsNaN(y) }
	return a.N == b.N && a.Runs == b.Runs && f(a.Mean, b.Mean) && f(a.SD, b.SD) && f(a.P50, b.P50) && f(a.P90, b.P90) &&
		f(a.P99, b.P99) && f(a.Min, b.Min) && f(a.Max, b.Max) && f(a.CILow, b.CILow) && f(a.CIHigh, b.CIHigh)
}

func TestPeakRestartsPer10sIsTheKEPmeasureRun(t *testing.T) {
	// Three pods that crash at once: today's backoff restarts each once in
	// the busiest window (at 10s), KEP-4603's 1s initial three times (1, 3, 7s).
	for _, tc := range []struct {
		initial, max string
		want         float64
	}{{"10s", "300s", 3}, {"1s", "60s", 9}} {
		s, err := scenarios.Parse("k.yaml", []byte(`apiVersion: podsim/v1
kind: Scenario
metadata: {name: k}
spec:
  duration: 5m
  settings: {crashLoopBackOff: {initial: `+tc.initial+`, max: `+tc.max+`}}
  pods:
    - metadata: {name: a}
      spec: {containers: [{name: c, image: i:1}]}
    - metadata: {name: b}
      spec: {containers: [{name: c, image: i:1}]}
    - metadata: {name: d}
      spec: {containers: [{name: c, image: i:1}]}
  behavior:
    - {pod: a, container: c, runs: [{exitCode: 1}]}
    - {pod: b, container: c, runs: [{exitCode: 1}]}
    - {pod: d, container: c, runs: [{exitCode: 1}]}
`))
		if err != nil {
			t.Fatal(err)
		}
		m := measureRun(s)
		if got := m.Values[MetricIndex("node.peakRestartsPer10s")]; !equal(got, []float64{tc.want}) {
			t.Errorf("backoff %s..%s: peakRestartsPer10s = %v, want %v", tc.initial, tc.max, got, tc.want)
		}
	}
}

func TestMetricsEventWritesLeaveOutDrops(t *testing.T) {
	// A realistic crash loop for an hour logs a BackOff per sync, hundreds
	// of events; the spam filter lets 25 through, then one per 5 minutes.
	s, err := scenarios.Parse("c.yaml", []byte(`apiVersion: podsim/v1
kind: Scenario
metadata: {name: c}
spec:
  duration: 1h
  settings: {kubeletSync: realistic}
  pods:
    - metadata: {name: web}
      spec:
        containers: [{name: app, image: example/app:1}]
  behavior:
    - {pod: web, container: app, runs: [{exitAfter: 1s, exitCode: 1}]}
`))
	if err != nil {
		t.Fatal(err)
	}
	w := s.NewWorld()
	var tl model.Timeline
	w.Subscribe(&tl)
	m := NewMeter(w, s.Duration)
	s.Populate(w)
	w.Run(s.Duration)
	values := m.Finish().Values
	events := 0
	for _, c := range tl.Changes {
		if c.Kind == model.ChangeEvent && c.Pod == "web" {
			events++
		}
	}
	writes := values[MetricIndex("node.eventWritesPer10s")][0] * 360
	if events < 250 || writes < 25 || writes > 25+12 {
		t.Errorf("%d events, %v written; want hundreds, of which 25 to 37 written", events, writes)
	}
}

// TestMetricsNodeDeleted: a node deleted mid-run keeps its place among
// the nodes the meter learnt as they were added (it read the world's
// nodes back, which a deleted node leaves, and went out of range).
func TestMetricsNodeDeleted(t *testing.T) {
	_, got := measure(t, "../scenarios/cluster/partition-delete-node.yaml")
	if n := len(got["node.peakCPU"]); n != 2 {
		t.Errorf("node.peakCPU has %d nodes, want node-a and node-b: %v", n, got["node.peakCPU"])
	}
}

func TestMetricsEvictions(t *testing.T) {
	// Pods in creation order: web-0, web-1, cache-0, leak-0, cache-1,
	// leak-1; the first cache and leak pods are evicted, their
	// replacements are not (the kernel's OOM killer gets the leak first).
	_, got := measure(t, "../scenarios/eviction/memory-pressure.yaml")
	if want := []float64{0, 0, 1, 1, 0, 0}; !equal(got["pod.evictions"], want) {
		t.Errorf("pod.evictions = %v, want %v", got["pod.evictions"], want)
	}
}

// node.peakMemoryUtilization is the most memory in use at any instant,
// a leak's growth included, never past the node's capacity.
func TestMetricsPeakMemoryUtilization(t *testing.T) {
	// Just before the cache's third eviction at 32m50s: 1250Mi steady
	// and floor(20Mi * 1970s / 1m) leaked, of 2Gi.
	_, got := measure(t, "../scenarios/studies/memory-leak-base.yaml")
	want := 100 * float64(1250<<20+20<<20*1970/60) / (2 << 30)
	if g := got["node.peakMemoryUtilization"]; len(g) != 1 || math.Abs(g[0]-want) > 1e-9 {
		t.Errorf("memory leak: node.peakMemoryUtilization = %v, want %v", g, want)
	}
	// The api's load would take the node to 2200Mi of 2Gi: the OOM
	// killer acts on the allocation, so 1400Mi is the most it holds.
	_, got = measure(t, "../scenarios/eviction/system-oom.yaml")
	if g := got["node.peakMemoryUtilization"]; !equal(g, []float64{100 * 1400.0 / 2048}) {
		t.Errorf("system OOM: node.peakMemoryUtilization = %v, want %v", g, 100*1400.0/2048)
	}
}
