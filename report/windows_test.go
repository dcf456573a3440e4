package report

import (
	"testing"
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/scenarios"
)

// windowCounts keeps the windows that counted something, in order, late
// counts included, and its peak survives folding.
func TestWindowCounts(t *testing.T) {
	var c windowCounts
	for _, x := range []struct{ w, d int }{{5, 1}, {5, 2}, {9, 1}, {2, 4}, {7, 1}, {9, 3}, {2, 1}} {
		c.add(x.w, x.d)
	}
	want := []windowCount{{2, 5}, {5, 3}, {7, 1}, {9, 4}}
	if len(c.ws) != len(want) {
		t.Fatalf("windows %v, want %v", c.ws, want)
	}
	for i := range want {
		if c.ws[i] != want[i] {
			t.Fatalf("windows %v, want %v", c.ws, want)
		}
	}
	c.fold(6)
	if len(c.ws) != 2 || c.peak() != 5 {
		t.Errorf("after fold(6): windows %v, peak %d; want 2 windows, peak 5", c.ws, c.peak())
	}
}

// A study of quiet nodes over a year keeps a few windows per node, not one
// per 10 seconds of the year (3.2 million), and measures the same peaks.
func TestMeterMemoryDoesNotGrowWithDuration(t *testing.T) {
	s, err := scenarios.Parse("quiet.yaml", []byte(`apiVersion: podsim/v1
kind: Scenario
metadata: {name: quiet}
spec:
  duration: 8760h
  nodes:
    - {name: n, count: 20, capacity: {cpu: "4", memory: 8Gi, pods: 110}}
  pods:
    - metadata: {name: web}
      spec:
        containers: [{name: app, image: example/web:1}]
`))
	if err != nil {
		t.Fatal(err)
	}
	var m *Meter
	s.Start(scenarios.RunOptions{Until: s.Duration, Attach: func(w *model.World) { m = NewMeter(w, s.Duration) }}).Run(nil)
	out := m.Finish()
	kept := 0
	for i := range m.nodes {
		kept += cap(m.writes[i].ws) + cap(m.restartsIn[i].ws)
	}
	if len(m.nodes) != 20 || kept > 20*8 {
		t.Errorf("%d nodes keep %d windows over %v", len(m.nodes), kept, time.Duration(s.Duration))
	}
	sum := 0.0
	peak := out.Values[MetricIndex("node.peakStatusWritesPer10s")]
	for _, v := range peak {
		sum += v
	}
	if len(peak) != 20 || sum == 0 {
		t.Errorf("peakStatusWritesPer10s %v: want the pod's node's writes", peak)
	}
}
