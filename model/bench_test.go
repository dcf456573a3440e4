package model

import (
	"fmt"
	"testing"
	"time"
)

// BenchmarkCapacityAtScale is issue 4's capacity scenario built directly:
// 100 nodes, 30 ReplicaSets of 100 pods with readiness probes, one node
// powered off at 5m, 30 minutes of virtual time per op.
func BenchmarkCapacityAtScale(b *testing.B) {
	b.ReportAllocs()
	var events uint64
	for b.Loop() {
		w := NewWorld(1, DefaultSettings())
		for i := range 100 {
			w.AddNode(NodeSpec{Name: fmt.Sprintf("node-%d", i), Capacity: Resources{MilliCPU: 16000, Memory: 64 << 30, Pods: 110}})
		}
		tmpl := &PodSpec{RestartPolicy: RestartAlways, TerminationGracePeriod: 30 * time.Second,
			Containers: []ContainerSpec{{Name: "app", Image: "svc", PullPolicy: PullIfNotPresent,
				Requests:  Resources{MilliCPU: 250, Memory: 256 << 20},
				Readiness: &ProbeSpec{Handler: "httpGet", Period: 10 * time.Second, Timeout: time.Second, SuccessThreshold: 1, FailureThreshold: 3}}}}
		for i := range 30 {
			w.AddWorkload(WorkloadSpec{Kind: KindReplicaSet, Name: fmt.Sprintf("svc%02d", i), Template: tmpl, Replicas: 100})
		}
		w.Schedule(5*time.Minute, func() { w.Node("node-42").PowerOff(nil) })
		w.Run(30 * time.Minute)
		events += w.Engine().Fired()
	}
	b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkSteadyState measures the event hot path once pods are up: 1,000
// running pods with liveness and readiness probes ticking every 10s. It
// reports allocations per event, which must stay 0.
func BenchmarkSteadyState(b *testing.B) { steadyState(b, DefaultSettings()) }

// BenchmarkSteadyStateEveryTick is BenchmarkSteadyState with every probe
// tick run (Settings.ProbeEveryTick): 200 probe ticks per virtual second.
func BenchmarkSteadyStateEveryTick(b *testing.B) {
	s := DefaultSettings()
	s.ProbeEveryTick = true
	steadyState(b, s)
}

func steadyState(b *testing.B, s Settings) {
	w := NewWorld(1, s)
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
	b.ReportAllocs()
	b.ResetTimer()
	start, fired := w.Now(), w.Engine().Fired()
	for i := 0; i < b.N; i++ {
		w.Run(start + time.Duration(i+1)*time.Second)
	}
	b.ReportMetric(float64(w.Engine().Fired()-fired)/b.Elapsed().Seconds(), "events/s")
}
