package model

import (
	"testing"
	"time"
)

// trafficFleet is the crash-loop fleet behind a Service that takes a rate
// changing every 10s: endpoints come and go with every crash and restart,
// kube-proxy syncs, the counts are flushed at every change.
func trafficFleet(mode KubeletSync) (*World, *Service) {
	return trafficFleetUsing(mode, Resources{}, 0)
}

// trafficFleetUsing is trafficFleet whose containers use memory: use
// fixed, 1Mi per request per second and leak per hour, with no limit, on
// nodes that never fill (the OOM killer's checks run, and kill no one).
func trafficFleetUsing(mode KubeletSync, use Resources, leak int64) (*World, *Service) {
	st := DefaultSettings()
	st.KubeletSync = mode
	w := newWorld(1, st)
	w.Subscribe(new(countChanges))
	for i := range 10 {
		w.AddNode(NodeSpec{Name: "n-" + string(rune('a'+i)), Capacity: Resources{MilliCPU: 64000, Memory: 256 << 30, Pods: 110}})
	}
	tmpl := &PodSpec{RestartPolicy: RestartAlways, TerminationGracePeriod: 30 * time.Second,
		Containers: []ContainerSpec{{Name: "c", Image: "c", PullPolicy: PullIfNotPresent,
			Behavior: &Behavior{MaxRPS: 2, Runs: []RunSpec{{ExitAfter: time.Minute, ExitCode: 1, Times: 1}},
				Usage: use, PerRequest: Resources{Memory: use.Memory / 100}, LeakMemory: leak, LeakPer: time.Hour}}}}
	w.AddWorkload(WorkloadSpec{Kind: KindReplicaSet, Name: "app", Template: tmpl, Replicas: 1000,
		Options: PodOptions{Labels: map[string]string{"app": "c"}}})
	s := w.AddService(ServiceSpec{Name: "app", Selector: map[string]string{"app": "c"}})
	var steps []RateStep
	for t := time.Duration(0); t < 3*time.Hour; t += 10 * time.Second {
		steps = append(steps, RateStep{At: t, MilliRPS: int64(100_000 + t/time.Second%600*1000)})
	}
	s.SetTraffic(steps)
	return w, s
}

// BenchmarkTrafficSteadyState runs the traffic fleet one second of virtual
// time per op, after an hour: no allocation per event.
func BenchmarkTrafficSteadyState(b *testing.B) {
	w, _ := trafficFleet(SyncExact)
	w.Run(time.Hour)
	runSteady(b, w)
}

// BenchmarkTrafficMemorySteadyState is BenchmarkTrafficSteadyState with
// containers that use and leak memory: every change of use runs its
// node's OOM check.
func BenchmarkTrafficMemorySteadyState(b *testing.B) {
	w, _ := trafficFleetUsing(SyncExact, Resources{MilliCPU: 100, Memory: 100 << 20}, 1<<20)
	w.Run(time.Hour)
	runSteady(b, w)
}

// With memory in use and leaking, the steady state allocates nothing
// either, and the nodes' peaks are kept.
func TestTrafficMemorySteadyStateAllocatesNothing(t *testing.T) {
	w, _ := trafficFleetUsing(SyncExact, Resources{MilliCPU: 100, Memory: 100 << 20}, 1<<20)
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
	w, s := trafficFleet(SyncExact)
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

// Counting is exact on piecewise-constant rates: 3 endpoints sharing 10
// requests per second serve 10 a second between them, not 9.99.
func TestMulDivExact(t *testing.T) {
	// 1h at 10 rps over 3 endpoints, counted as n*rate/(1000n).
	got := mulDiv(uint64(time.Hour), 3*10_000, 1000*3)
	if got != 36000*1e9 {
		t.Errorf("got %d nano-requests, want %d", got, int64(36000*1e9))
	}
	if mulDiv(1<<63, 1<<62, 1) != 1<<63-1 {
		t.Error("mulDiv does not saturate")
	}
}

// A container whose use passes its memory limit with no traffic at all is
// OOM-killed as it starts, and restarts through the crash backoff; its CPU
// is capped at its limit while it runs.
func TestUsageOverLimitIsOOMKilled(t *testing.T) {
	w := newWorld(1, DefaultSettings())
	w.AddNode(NodeSpec{Name: "n", Capacity: Resources{MilliCPU: 4000, Memory: 16 << 30, Pods: 110}})
	w.EnableUsage()
	spec := &PodSpec{RestartPolicy: RestartAlways, TerminationGracePeriod: 30 * time.Second, Containers: []ContainerSpec{
		{Name: "big", Image: "i", PullPolicy: PullIfNotPresent, Limits: Resources{Memory: 100 << 20},
			Behavior: &Behavior{Usage: Resources{Memory: 200 << 20}}},
		{Name: "busy", Image: "i", PullPolicy: PullIfNotPresent, Limits: Resources{MilliCPU: 500},
			Behavior: &Behavior{Usage: Resources{MilliCPU: 900}}}}}
	p := w.AddPod("p", spec, PodOptions{})
	w.Run(time.Minute)
	st := p.Status()
	big, _ := st.Container("big")
	if big.RestartCount < 2 || big.LastState.Reason != ReasonOOMKilled || big.LastState.ExitCode != 137 {
		t.Errorf("big: %+v, want OOM-killed and restarted", big)
	}
	if cpu, _, _ := p.Usage("busy"); cpu != 500 {
		t.Errorf("busy uses %dm CPU, want 500m (its limit)", cpu)
	}
}

// With KubeletSync realistic a kube-proxy sync's rules take effect a drawn
// while (under maxProxyLatency) after it starts: the same for a seed,
// different across seeds. (Here the realistic one is sooner: its first
// sync, at 0, takes effect once the pod is ready; exact mode's first sync
// found none, and the next may come only minSyncPeriod later.)
func TestProxyLatencyRealistic(t *testing.T) {
	appliedAt := func(seed uint64, mode KubeletSync) time.Duration {
		st := DefaultSettings()
		st.KubeletSync = mode
		w := newWorld(seed, st)
		w.AddNode(NodeSpec{Name: "n", Capacity: Resources{MilliCPU: 4000, Memory: 16 << 30, Pods: 110}})
		s := w.AddService(ServiceSpec{Name: "web", Selector: map[string]string{"app": "web"}})
		w.AddPod("web", &PodSpec{NodeName: "n", RestartPolicy: RestartAlways, TerminationGracePeriod: 30 * time.Second,
			Containers: []ContainerSpec{{Name: "app", Image: "i", PullPolicy: PullIfNotPresent}}},
			PodOptions{Labels: map[string]string{"app": "web"}})
		for w.Now() < 10*time.Second {
			if s.Endpoints() == 1 {
				return w.Now()
			}
			w.Run(w.Now() + time.Millisecond)
		}
		return -1
	}
	exact := appliedAt(1, SyncExact)
	a, b, c := appliedAt(1, SyncRealistic), appliedAt(1, SyncRealistic), appliedAt(2, SyncRealistic)
	if exact < 0 || a != b || a == c {
		t.Fatalf("exact %v; realistic seed 1: %v, %v; seed 2: %v: want the same for a seed, another for another", exact, a, b, c)
	}
	for _, got := range []time.Duration{a, c} {
		if got <= 0 || got > exact+maxProxyLatency {
			t.Errorf("realistic: endpoint applied at %v (exact: %v)", got, exact)
		}
	}
}
