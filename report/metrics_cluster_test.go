package report

import (
	"testing"
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/scenarios"
	"github.com/podsim/podsim/sim"
)

// measureYAML runs a scenario given as YAML to its end, with attach (if
// not nil) called on the empty world after the meter is subscribed, and
// returns every metric by name and the world.
func measureYAML(t *testing.T, src string, attach func(w *model.World)) (map[string][]float64, *model.World) {
	t.Helper()
	s, err := scenarios.Parse("c.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var m *Meter
	r := s.Start(scenarios.RunOptions{Until: s.Duration, Attach: func(w *model.World) {
		m = NewMeter(w, s.Duration)
		if attach != nil {
			attach(w)
		}
	}})
	r.Run(nil)
	got := map[string][]float64{}
	for i, met := range m.Finish().Values {
		got[Metrics[i].Name] = met
	}
	return got, r.World
}

func checkMetrics(t *testing.T, got, want map[string][]float64) {
	t.Helper()
	for name, w := range want {
		if !equal(got[name], w) {
			t.Errorf("%s = %v, want %v", name, got[name], w)
		}
	}
}

// A fixed cluster's node-hours and cost: two priced nodes for 2h, one of
// them deleted at 30m.
func TestClusterMetricsFixedNodes(t *testing.T) {
	got, _ := measureYAML(t, `apiVersion: podsim/v1
kind: Scenario
metadata: {name: fixed}
spec:
  duration: 2h
  nodes:
    - {name: small, pricePerHour: 0.5}
    - {name: big, pricePerHour: 2}
    - {name: free}
  faults:
    - {at: 30m, deleteNode: {node: big}}
`, nil)
	checkMetrics(t, got, map[string][]float64{
		"cluster.nodeHours":         {2 + 0.5 + 2},
		"cluster.cost":              {0.5*2 + 2*0.5},
		"cluster.peakNodes":         {3},
		"cluster.scaleUps":          {0},
		"cluster.evictions":         {0},
		"cluster.pendingPodSeconds": {0},
	})
	if n := len(got["cluster.timeToSchedule"]); n != 0 {
		t.Errorf("cluster.timeToSchedule has %d samples with no pod, want none", n)
	}
}

// tooBig is a scenario whose pod big fits no node of the default
// cluster (4 cpus), and whose pod gone fits none either and is deleted
// at 1m, and whose pod small is bound at once.
const tooBig = `apiVersion: podsim/v1
kind: Scenario
metadata: {name: too-big}
spec:
  duration: 1h
  pods:
    - metadata: {name: small}
      spec:
        containers: [{name: app, image: example/app:1, resources: {requests: {cpu: "1"}}}]
    - metadata: {name: big}
      spec:
        containers: [{name: app, image: example/app:1, resources: {requests: {cpu: "6"}}}]
    - metadata: {name: gone}
      spec:
        containers: [{name: app, image: example/app:1, resources: {requests: {cpu: "6"}}}]
  faults:
    - {at: 1m, delete: {pod: gone}}
`

// Pods that wait for a node an autoscaler provisions: pending until
// bound, time to schedule from creation, the new node's hours, cost and
// the scale-up.
func TestClusterMetricsScaleUp(t *testing.T) {
	got, w := measureYAML(t, tooBig, func(w *model.World) {
		w.Engine().At(5*time.Minute, sim.Normal, func() {
			w.ProvisionNode(model.NodeSpec{Name: "g-1", Group: "g", PricePerHour: 3,
				Capacity: model.Resources{MilliCPU: 8000, Memory: 16 << 30, Pods: 110}}, 90*time.Second)
		})
	})
	big := w.Pod(model.Key(model.DefaultNamespace, "big"))
	if big.Node == nil || big.Node.Name != "g-1" {
		t.Fatalf("big is on %v, want g-1", big.Node)
	}
	var bound time.Duration
	for _, c := range big.Status().Conditions {
		if c.Type == model.PodScheduled && c.Status == model.True {
			bound = c.LastTransitionTime
		}
	}
	if bound < 6*time.Minute+30*time.Second {
		t.Fatalf("big bound at %v, before g-1 booted (6m30s)", bound)
	}
	// small waits not at all, gone 60s until deleted, big until bound.
	checkMetrics(t, got, map[string][]float64{
		"cluster.pendingPodSeconds": {60 + bound.Seconds()},
		"cluster.timeToSchedule":    {0, bound.Seconds()},
		"cluster.nodeHours":         {1 + (55.0 / 60)},
		"cluster.cost":              {3 * 55.0 / 60},
		"cluster.peakNodes":         {2},
		"cluster.scaleUps":          {1},
	})
}

// kubectl drain evicts through the Eviction API: each pod counts once,
// however often the drain asks (a pod a budget holds back is asked again
// every 5s); the pods the kubelet evicts under pressure do not count.
func TestClusterMetricsEvictions(t *testing.T) {
	got, _ := measureYAML(t, `apiVersion: podsim/v1
kind: Scenario
metadata: {name: drain}
spec:
  duration: 10m
  nodes:
    - {name: a}
    - {name: b}
  workloads:
    - kind: Deployment
      metadata: {name: web}
      spec:
        replicas: 3
        selector: {matchLabels: {app: web}}
        template:
          metadata: {labels: {app: web}}
          spec:
            nodeSelector: {kubernetes.io/hostname: a}
            containers: [{name: app, image: example/app:1}]
  faults:
    - {at: 1m, drain: {node: a}}
`, nil)
	// The three replacements stay Pending (their nodeSelector names the
	// cordoned a) from the drain to the end.
	checkMetrics(t, got, map[string][]float64{
		"cluster.evictions":         {3},
		"cluster.pendingPodSeconds": {3 * 9 * 60},
		"cluster.peakNodes":         {2},
	})
	if _, got := measure(t, "../scenarios/eviction/memory-pressure.yaml"); !equal(got["cluster.evictions"], []float64{0}) {
		t.Errorf("memory-pressure: cluster.evictions = %v, want 0 (node-pressure evictions are the kubelet's)", got["cluster.evictions"])
	}
}
