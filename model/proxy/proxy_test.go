package proxy

import (
	"testing"
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/model/controller/endpointslice"
	"github.com/podsim/podsim/model/controller/replicaset"
	"github.com/podsim/podsim/model/kubelet"
	"github.com/podsim/podsim/model/kubelet/oom"
	"github.com/podsim/podsim/model/scheduler"
)

// testWorld is the core with the parts the core holds, the EndpointSlice
// controller, kube-proxy and the OOM killers (cluster.New, which adds every part, imports
// this package).
func testWorld(seed uint64, s model.Settings) *model.World {
	s.KubeAPIQPS, s.KubeAPIBurst = 1e6, 1e6 // every pod of a fleet at t=0
	w := model.NewCore(seed, s)
	w.Register(kubelet.New())
	w.Register(scheduler.New(w))
	w.RegisterCoreParts()
	w.RegisterWorkloadController(model.KindReplicaSet, replicaset.New(w))
	es := endpointslice.New(w)
	w.Register(es)
	w.Register(New(w, es))
	w.Register(oom.New(w))
	return w
}

type countChanges int

func (n *countChanges) Change(*model.Change) { *n++ }

func runSteady(b *testing.B, w *model.World) {
	b.ReportAllocs()
	b.ResetTimer()
	start, fired := w.Now(), w.Engine().Fired()
	for i := 0; i < b.N; i++ {
		w.Run(start + time.Duration(i+1)*time.Second)
	}
	b.ReportMetric(float64(w.Engine().Fired()-fired)/b.Elapsed().Seconds(), "events/s")
}

// trafficFleet is the crash-loop fleet behind a Service that takes a rate
// changing every 10s: endpoints come and go with every crash and restart,
// kube-proxy syncs, the counts are flushed at every change.
func trafficFleet(mode model.KubeletSync) (*model.World, *model.Service) {
	return trafficFleetUsing(mode, model.Resources{}, 0)
}

// trafficFleetUsing is trafficFleet whose containers use memory: use
// fixed, 1Mi per request per second and leak per hour, with no limit, on
// nodes that never fill (the OOM killer's checks run, and kill no one).
func trafficFleetUsing(mode model.KubeletSync, use model.Resources, leak int64) (*model.World, *model.Service) {
	st := model.DefaultSettings()
	st.KubeletSync = mode
	w := testWorld(1, st)
	w.Subscribe(new(countChanges))
	for i := range 10 {
		w.AddNode(model.NodeSpec{Name: "n-" + string(rune('a'+i)), Capacity: model.Resources{MilliCPU: 64000, Memory: 256 << 30, Pods: 110}})
	}
	tmpl := &model.PodSpec{RestartPolicy: model.RestartAlways, TerminationGracePeriod: 30 * time.Second,
		Containers: []model.ContainerSpec{{Name: "c", Image: "c", PullPolicy: model.PullIfNotPresent,
			Behavior: &model.Behavior{MaxRPS: 2, Runs: []model.RunSpec{{ExitAfter: time.Minute, ExitCode: 1, Times: 1}},
				Usage: use, PerRequest: model.Resources{Memory: use.Memory / 100}, LeakMemory: leak, LeakPer: time.Hour}}}}
	w.AddWorkload(model.WorkloadSpec{Kind: model.KindReplicaSet, Name: "app", Template: tmpl, Replicas: 1000,
		Options: model.PodOptions{Labels: map[string]string{"app": "c"}}})
	s := w.AddService(model.ServiceSpec{Name: "app", Selector: map[string]string{"app": "c"}})
	var steps []model.RateStep
	for t := time.Duration(0); t < 3*time.Hour; t += 10 * time.Second {
		steps = append(steps, model.RateStep{At: t, MilliRPS: int64(100_000 + t/time.Second%600*1000)})
	}
	s.SetTraffic(steps)
	return w, s
}

// BenchmarkTrafficSteadyState runs the traffic fleet one second of virtual
// time per op, after an hour: no allocation per event.
func BenchmarkTrafficSteadyState(b *testing.B) {
	w, _ := trafficFleet(model.SyncExact)
	w.Run(time.Hour)
	runSteady(b, w)
}

// BenchmarkTrafficMemorySteadyState is BenchmarkTrafficSteadyState with
// containers that use and leak memory: every change of use runs its
// node's OOM check.
func BenchmarkTrafficMemorySteadyState(b *testing.B) {
	w, _ := trafficFleetUsing(model.SyncExact, model.Resources{MilliCPU: 100, Memory: 100 << 20}, 1<<20)
	w.Run(time.Hour)
	runSteady(b, w)
}

// With memory in use and leaking, the steady state allocates nothing
// either, and the nodes' peaks are kept.
func TestTrafficMemorySteadyStateAllocatesNothing(t *testing.T) {
	w, _ := trafficFleetUsing(model.SyncExact, model.Resources{MilliCPU: 100, Memory: 100 << 20}, 1<<20)
	w.Run(time.Hour)
	next := w.Now()
	allocs := testing.AllocsPerRun(20, func() {
		next += time.Second
		w.Run(next)
	})
	if allocs != 0 {
		t.Errorf("%v allocations per second of virtual time, want 0", allocs)
	}
	if peak := w.Node("n-a").PeakMemory(); peak < 100<<20 {
		t.Errorf("node n-a's peak memory %d, want at least a pod's 100Mi", peak)
	}
}

// A run with traffic allocates nothing per event in its steady state.
func TestTrafficSteadyStateAllocatesNothing(t *testing.T) {
	w, s := trafficFleet(model.SyncExact)
	w.Run(time.Hour)
	next := w.Now()
	allocs := testing.AllocsPerRun(20, func() {
		next += time.Second
		w.Run(next)
	})
	if allocs != 0 {
		t.Errorf("%v allocations per second of virtual time, want 0", allocs)
	}
	offered, served := s.Requests()
	if offered == 0 || served == 0 || served >= offered {
		t.Errorf("offered %d, served %d: want some served and some failed", offered, served)
	}
}

// With KubeletSync realistic a kube-proxy sync's rules take effect a drawn
// while (under maxLatency) after it starts: the same for a seed,
// different across seeds. (Here the realistic one is sooner: its first
// sync, at 0, takes effect once the pod is ready; exact mode's first sync
// found none, and the next may come only minSyncPeriod later.)
func TestProxyLatencyRealistic(t *testing.T) {
	appliedAt := func(seed uint64, mode model.KubeletSync) time.Duration {
		st := model.DefaultSettings()
		st.KubeletSync = mode
		w := testWorld(seed, st)
		w.AddNode(model.NodeSpec{Name: "n", Capacity: model.Resources{MilliCPU: 4000, Memory: 16 << 30, Pods: 110}})
		s := w.AddService(model.ServiceSpec{Name: "web", Selector: map[string]string{"app": "web"}})
		w.AddPod("web", &model.PodSpec{NodeName: "n", RestartPolicy: model.RestartAlways, TerminationGracePeriod: 30 * time.Second,
			Containers: []model.ContainerSpec{{Name: "app", Image: "i", PullPolicy: model.PullIfNotPresent}}},
			model.PodOptions{Labels: map[string]string{"app": "web"}})
		for w.Now() < 10*time.Second {
			if s.Endpoints() == 1 {
				return w.Now()
			}
			w.Run(w.Now() + time.Millisecond)
		}
		return -1
	}
	exact := appliedAt(1, model.SyncExact)
	a, b, c := appliedAt(1, model.SyncRealistic), appliedAt(1, model.SyncRealistic), appliedAt(2, model.SyncRealistic)
	if exact < 0 || a != b || a == c {
		t.Fatalf("exact %v; realistic seed 1: %v, %v; seed 2: %v: want the same for a seed, another for another", exact, a, b, c)
	}
	for _, got := range []time.Duration{a, c} {
		if got <= 0 || got > exact+maxLatency {
			t.Errorf("realistic: endpoint applied at %v (exact: %v)", got, exact)
		}
	}
}
