package metricsserver

import (
	"testing"
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/model/controller/endpointslice"
	"github.com/podsim/podsim/model/controller/replicaset"
	"github.com/podsim/podsim/model/kubelet"
	"github.com/podsim/podsim/model/kubelet/oom"
	"github.com/podsim/podsim/model/proxy"
	"github.com/podsim/podsim/model/scheduler"
)

// testWorld is the core with the parts the core holds, the EndpointSlice
// controller, kube-proxy, metrics-server and the OOM killers (cluster.New, which adds every
// part, imports this package).
func testWorld(seed uint64, s model.Settings) *model.World {
	s.KubeAPIQPS, s.KubeAPIBurst = 1e6, 1e6 // every pod of a fleet at t=0
	w := model.NewCore(seed, s)
	w.Register(kubelet.New())
	w.Register(scheduler.New(w))
	w.RegisterCoreParts()
	w.RegisterWorkloadController(model.KindReplicaSet, replicaset.New(w))
	es := endpointslice.New(w)
	w.Register(es)
	px := proxy.New(w, es)
	w.Register(px)
	w.Register(New(w, px))
	w.Register(oom.New(w))
	return w
}

// trafficFleet is 1,000 crash-looping pods on 10 nodes behind a Service
// whose rate changes every 10s.
func trafficFleet() *model.World {
	w := testWorld(1, model.DefaultSettings())
	for i := range 10 {
		w.AddNode(model.NodeSpec{Name: "n-" + string(rune('a'+i)), Capacity: model.Resources{MilliCPU: 64000, Memory: 256 << 30, Pods: 110}})
	}
	tmpl := &model.PodSpec{RestartPolicy: model.RestartAlways, TerminationGracePeriod: 30 * time.Second,
		Containers: []model.ContainerSpec{{Name: "c", Image: "c", PullPolicy: model.PullIfNotPresent,
			Behavior: &model.Behavior{MaxRPS: 2, Runs: []model.RunSpec{{ExitAfter: time.Minute, ExitCode: 1, Times: 1}}}}}}
	w.AddWorkload(model.WorkloadSpec{Kind: model.KindReplicaSet, Name: "app", Template: tmpl, Replicas: 1000,
		Options: model.PodOptions{Labels: map[string]string{"app": "c"}}})
	s := w.AddService(model.ServiceSpec{Name: "app", Selector: map[string]string{"app": "c"}})
	var steps []model.RateStep
	for t := time.Duration(0); t < 3*time.Hour; t += 10 * time.Second {
		steps = append(steps, model.RateStep{At: t, MilliRPS: int64(100_000 + t/time.Second%600*1000)})
	}
	s.SetTraffic(steps)
	return w
}

// metrics-server averages CPU over its window exactly, from the use's
// steps, and reads memory at the scrape; a node sums its pods.
func TestMetricsServerAveragesOverWindow(t *testing.T) {
	w := testWorld(1, model.DefaultSettings())
	n := w.AddNode(model.NodeSpec{Name: "n", Capacity: model.Resources{MilliCPU: 4000, Memory: 16 << 30, Pods: 110}})
	w.EnableUsage()
	spec := &model.PodSpec{RestartPolicy: model.RestartAlways, TerminationGracePeriod: 30 * time.Second, Containers: []model.ContainerSpec{
		{Name: "app", Image: "i", PullPolicy: model.PullIfNotPresent,
			Behavior: &model.Behavior{Usage: model.Resources{MilliCPU: 100, Memory: 50 << 20}, PerRequest: model.Resources{MilliCPU: 10, Memory: 1 << 20}}},
		{Name: "idle", Image: "i", PullPolicy: model.PullIfNotPresent}}}
	w.AddPod("p", spec, model.PodOptions{Labels: map[string]string{"app": "p"}})
	w.AddService(model.ServiceSpec{Name: "s", Selector: map[string]string{"app": "p"}}).
		SetTraffic([]model.RateStep{{At: 22 * time.Second, MilliRPS: 10_000}})
	if _, _, ok := w.MetricsScrape(); ok {
		t.Fatal("a scrape before the first one")
	}
	w.Run(30 * time.Second)
	at, window, ok := w.MetricsScrape()
	if !ok || at != 30*time.Second || window != 15*time.Second {
		t.Fatalf("scrape at %v over %v (%v), want at 30s over 15s", at, window, ok)
	}
	pms := w.PodMetrics()
	if len(pms) != 1 || len(pms[0].Containers) != 2 {
		t.Fatalf("pod metrics %+v, want one pod with two containers", pms)
	}
	// 7s at 100m then 8s at 200m: 2300m·s over 15s.
	want := []model.ContainerMetrics{{Name: "app", NanoCPU: 153_333_333, Memory: 60 << 20}, {Name: "idle"}}
	for i, c := range pms[0].Containers {
		if c != want[i] {
			t.Errorf("container %d: %+v, want %+v", i, c, want[i])
		}
	}
	nms := w.NodeMetrics()
	if len(nms) != 1 || nms[0] != (model.NodeMetrics{Node: n, NanoCPU: 153_333_333, Memory: 60 << 20}) {
		t.Errorf("node metrics %+v, want the pod's sum", nms)
	}
	w.Run(45 * time.Second)
	if c := w.PodMetrics()[0].Containers[0]; c.NanoCPU != 200_000_000 {
		t.Errorf("next window: %dn, want 200000000n", c.NanoCPU)
	}
}

// A world without a use of resources has no metrics-server.
func TestNoMetricsServerWithoutUse(t *testing.T) {
	w := trafficFleet()
	w.Run(time.Minute)
	if _, _, ok := w.MetricsScrape(); ok || w.PodMetrics() != nil || w.NodeMetrics() != nil {
		t.Error("metrics-server scraped a world with no use of resources")
	}
}

// Scraping a thousand pods allocates nothing in the steady state.
func TestMetricsServerAllocatesNothing(t *testing.T) {
	w := trafficFleet()
	w.EnableUsage()
	w.Run(time.Hour)
	if len(w.PodMetrics()) != 1000 || len(w.NodeMetrics()) != 10 {
		t.Errorf("%d pods, %d nodes scraped, want 1000 and 10", len(w.PodMetrics()), len(w.NodeMetrics()))
	}
	next := w.Now()
	allocs := testing.AllocsPerRun(40, func() {
		next += time.Second
		w.Run(next)
	})
	if allocs != 0 {
		t.Errorf("%v allocations per second of virtual time, want 0", allocs)
	}
}
