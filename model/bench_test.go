package model

import (
	"fmt"
	"testing"
	"time"
)

// BenchmarkSteadyState is the cost of one event, the engine's and the
// model's, once the crash-loop fleet (BenchmarkFleet) has reached its
// steady state: every backoff at its 5m maximum, every message built. One
// op is one event (ns/op is ns/event), with 1,000 and 10,000 pods (100 per
// node), so the two tell how the cost per event grows with the fleet. It
// must allocate nothing.
func BenchmarkSteadyState(b *testing.B) {
	for _, pods := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("pods=%d", pods), func(b *testing.B) {
			w := fleetOf(new(countChanges), SyncExact, pods)
			w.Run(time.Hour)
			stepEvents(b, w)
			b.ReportMetric(float64(w.Engine().Pending()), "pending")
		})
	}
}

// BenchmarkSteadyStateEveryTick measures the probe workers' hot path once
// pods are up: 1,000 running pods with liveness and readiness probes and
// every tick run (Settings.ProbeEveryTick): 200 probe ticks per virtual
// second, one second per op. (Without ProbeEveryTick such a fleet has no
// events: every tick is skipped.)
func BenchmarkSteadyStateEveryTick(b *testing.B) {
	s := unthrottled()
	s.ProbeEveryTick = true
	steadyState(b, s)
}

func steadyState(b *testing.B, s Settings) {
	w := newWorld(1, s)
	for i := range 10 {
		w.AddNode(NodeSpec{Name: fmt.Sprintf("node-%d", i), Capacity: Resources{MilliCPU: 64000, Memory: 256 << 30, Pods: 110}})
	}
	probe := func() *ProbeSpec {
		return &ProbeSpec{Handler: "httpGet", Period: 10 * time.Second, Timeout: time.Second, SuccessThreshold: 1, FailureThreshold: 3}
	}
	tmpl := &PodSpec{RestartPolicy: RestartAlways, TerminationGracePeriod: 30 * time.Second,
		Containers: []ContainerSpec{{Name: "app", Image: "svc", PullPolicy: PullIfNotPresent, Liveness: probe(), Readiness: probe()}}}
	w.AddWorkload(WorkloadSpec{Kind: KindReplicaSet, Name: "svc", Template: tmpl, Replicas: 1000})
	w.Run(time.Minute) // everything up
	runSteady(b, w)
}

// BenchmarkFleet is the peer benchmark's crash-loop fleet built directly:
// 1,000 pods on 10 nodes whose container exits 1 after 60s, with liveness
// and readiness probes every 10s, for 6 hours of virtual time per op. A
// sink counts the changes, as the cheapest subscriber would.
func BenchmarkFleet(b *testing.B) { benchFleet(b, SyncExact) }

// BenchmarkFleetRealistic is BenchmarkFleet with the realistic pod worker:
// the cost of its syncs and jitter draws.
func BenchmarkFleetRealistic(b *testing.B) { benchFleet(b, SyncRealistic) }

func benchFleet(b *testing.B, mode KubeletSync) {
	b.ReportAllocs()
	var events, changes uint64
	for b.Loop() {
		var n countChanges
		w := fleet(&n, mode)
		w.Run(6 * time.Hour)
		events += w.Engine().Fired()
		changes += uint64(n)
	}
	b.ReportMetric(float64(events)/float64(b.N), "events/op")
	b.ReportMetric(float64(changes)/float64(b.N), "changes/op")
}

// fleet builds the peer benchmark's fleet with sink subscribed: 1,000
// crash-looping pods (exit 1 after 60s) with liveness and readiness probes
// every 10s, on 10 nodes, in a kubelet sync mode.
func fleet(sink Sink, mode KubeletSync) *World { return fleetOf(sink, mode, 1000) }

// fleetOf is fleet with pods pods, 100 per node.
func fleetOf(sink Sink, mode KubeletSync, pods int) *World {
	st := unthrottled()
	st.KubeletSync = mode
	w := newWorld(1, st)
	w.Subscribe(sink)
	for i := range (pods + 99) / 100 {
		w.AddNode(NodeSpec{Name: fmt.Sprintf("n-%d", i), Capacity: Resources{MilliCPU: 64000, Memory: 256 << 30, Pods: 110}})
	}
	probe := func() *ProbeSpec {
		return &ProbeSpec{Handler: "httpGet", Period: 10 * time.Second, Timeout: time.Second, SuccessThreshold: 1, FailureThreshold: 3}
	}
	tmpl := &PodSpec{RestartPolicy: RestartAlways, TerminationGracePeriod: 30 * time.Second,
		Containers: []ContainerSpec{{Name: "c", Image: "c", PullPolicy: PullIfNotPresent, Liveness: probe(), Readiness: probe(),
			Behavior: &Behavior{Runs: []RunSpec{{ExitAfter: time.Minute, ExitCode: 1, Times: 1}}}}}}
	w.AddWorkload(WorkloadSpec{Kind: KindReplicaSet, Name: "app", Template: tmpl, Replicas: pods})
	return w
}

type countChanges int

func (n *countChanges) Change(*Change) { *n++ }

// BenchmarkSchedule places pods with the scheduler alone: one op builds a
// world of nodes, adds every pod (they all fit), and runs the instant at
// which the scheduler binds them; the kubelets' work after binding is not
// run. It reports the scheduler's cost per pod.
func BenchmarkSchedule(b *testing.B) {
	for _, tc := range []struct{ nodes, pods int }{{1000, 30000}, {5000, 150000}} {
		b.Run(fmt.Sprintf("%dnodes-%dpods", tc.nodes, tc.pods), func(b *testing.B) {
			spec := &PodSpec{RestartPolicy: RestartAlways, TerminationGracePeriod: 30 * time.Second,
				Containers: []ContainerSpec{{Name: "c", Image: "svc", PullPolicy: PullIfNotPresent,
					Requests: Resources{MilliCPU: 100, Memory: 256 << 20}}}}
			names := make([]string, tc.pods)
			for i := range names {
				names[i] = fmt.Sprintf("p-%d", i)
			}
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				w := newWorld(1, unthrottled())
				for i := range tc.nodes {
					w.AddNode(NodeSpec{Name: fmt.Sprintf("node-%d", i), Capacity: Resources{MilliCPU: 32000, Memory: 128 << 30, Pods: 110}})
				}
				b.StartTimer()
				for _, name := range names {
					w.AddPod(name, spec, PodOptions{})
				}
				w.eng.Step() // the scheduler's pass
				b.StopTimer()
				if p := w.Pod(names[len(names)-1]); p.Node == nil {
					b.Fatal("last pod not bound")
				}
				b.StartTimer()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*tc.pods), "ns/pod")
		})
	}
}

// BenchmarkCrashLoopSteadyState is the fleet between crashes and restarts
// once every container has reached the longest backoff: 1,000 pods that
// exit after 60s, wait 5m and start again, with two probes each. It must
// allocate nothing per event.
func BenchmarkCrashLoopSteadyState(b *testing.B) {
	w := fleet(new(countChanges), SyncExact)
	w.Run(time.Hour) // every backoff at its 5m maximum, every message built
	runSteady(b, w)
}

// BenchmarkCrashLoopSteadyStateRealistic is the same fleet under the
// realistic pod worker (a sync every 10-16s per pod in backoff). It must
// allocate nothing per event either.
func BenchmarkCrashLoopSteadyStateRealistic(b *testing.B) {
	w := fleet(new(countChanges), SyncRealistic)
	w.Run(time.Hour)
	runSteady(b, w)
}

// runSteady runs w one second of virtual time per op and reports events per
// second of wall time (with allocations, which must be 0).
func runSteady(b *testing.B, w *World) {
	b.ReportAllocs()
	b.ResetTimer()
	start, fired := w.Now(), w.Engine().Fired()
	for i := 0; i < b.N; i++ {
		w.Run(start + time.Duration(i+1)*time.Second)
	}
	b.ReportMetric(float64(w.Engine().Fired()-fired)/b.Elapsed().Seconds(), "events/s")
}

// The crash-loop fleet in its steady state allocates nothing per event, in
// both sync modes: an allocation count, not a time, so it is a test.
func TestCrashLoopSteadyStateAllocatesNothing(t *testing.T) {
	for _, mode := range []KubeletSync{SyncExact, SyncRealistic} {
		w := fleet(new(countChanges), mode)
		w.Run(time.Hour)
		next := w.Now()
		allocs := testing.AllocsPerRun(20, func() {
			next += time.Second
			w.Run(next)
		})
		if allocs != 0 {
			t.Errorf("mode %v: %v allocations per second of virtual time, want 0", mode, allocs)
		}
	}
}

// unthrottled is the default settings with the controller manager's API
// client unthrottled, so a ReplicaSet makes all its pods at once.
func unthrottled() Settings {
	st := DefaultSettings()
	st.KubeAPIQPS, st.KubeAPIBurst = 1e6, 1e6
	return st
}

// The runaway of testdata/hostile/runaway (one pod OOM-killed every 30s into
// CrashLoopBackOff, and a fleet of such pods) allocates nothing per event
// either once every backoff is at its maximum: its events, conditions and
// waiting messages repeat.
func TestOOMCrashLoopSteadyStateAllocatesNothing(t *testing.T) {
	for _, pods := range []int{1, 200} {
		for _, mode := range []KubeletSync{SyncExact, SyncRealistic} {
			w := oomLoop(pods, mode)
			w.Run(time.Hour)
			next, fired := w.Now(), w.Engine().Fired()
			allocs := testing.AllocsPerRun(20, func() {
				next += time.Minute
				w.Run(next)
			})
			if w.Engine().Fired() == fired {
				t.Fatalf("pods %d, mode %v: no event in the steady state: nothing measured", pods, mode)
			}
			if allocs != 0 {
				t.Errorf("pods %d, mode %v: %v allocations per minute of virtual time, want 0", pods, mode, allocs)
			}
		}
	}
}

// BenchmarkCrashLoopOOM is the hostile runaway's pod (OOM-killed every 30s,
// restarted every 5m30s once its backoff is at the maximum) in its steady
// state: one op is one event (ns/op is ns/event).
func BenchmarkCrashLoopOOM(b *testing.B) {
	w := oomLoop(1, SyncExact)
	w.Run(time.Hour)
	stepEvents(b, w)
}

// stepEvents fires one of w's events per op, from where w stands: ns/op is
// ns/event. It fails if w runs out of events.
func stepEvents(b *testing.B, w *World) {
	eng := w.Engine()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if !eng.Step() {
			b.Fatal("no event pending: nothing left to measure")
		}
	}
}

// oomLoop builds pods pods on one node whose container is OOM-killed 30s
// after each start, with a sink counting the changes.
func oomLoop(pods int, mode KubeletSync) *World {
	st := unthrottled()
	st.KubeletSync = mode
	w := newWorld(1, st)
	w.Subscribe(new(countChanges))
	w.AddNode(NodeSpec{Name: "node-a", Capacity: Resources{MilliCPU: 64000, Memory: 256 << 30, Pods: 250}})
	tmpl := &PodSpec{RestartPolicy: RestartAlways, TerminationGracePeriod: 30 * time.Second,
		Containers: []ContainerSpec{{Name: "app", Image: "example/web:1.4", PullPolicy: PullIfNotPresent,
			Limits:   Resources{Memory: 128 << 20},
			Behavior: &Behavior{Runs: []RunSpec{{ExitAfter: 30 * time.Second, OOM: true, Times: 1}}}}}}
	w.AddWorkload(WorkloadSpec{Kind: KindReplicaSet, Name: "web", Template: tmpl, Replicas: pods})
	return w
}
