package model

import (
	"fmt"
	"testing"
	"time"
)

// recount sums, from scratch, what the node's running totals must hold:
// the requests of its pods not in a terminal phase.
func (n *Node) recount() Resources {
	var r Resources
	for _, p := range n.pods {
		if p.phase.Terminal() {
			continue
		}
		r.MilliCPU += p.requests.MilliCPU
		r.Memory += p.requests.Memory
		r.Pods++
	}
	return r
}

// runChecked runs w event by event until the virtual time until, checking
// after every event that each node's running totals equal a recount.
func runChecked(t *testing.T, w *World, until time.Duration) {
	t.Helper()
	check := func() {
		for _, n := range w.nodes {
			if got, want := n.used, n.recount(); got != want {
				t.Fatalf("at %v, node %s: running totals %+v, recount %+v", w.Now(), n.Name, got, want)
			}
		}
	}
	check()
	for {
		at, ok := w.eng.Peek()
		if !ok || at > until {
			break
		}
		w.eng.Step()
		check()
	}
}

func appSpec(cpu int64, b *Behavior, policy RestartPolicy) *PodSpec {
	return &PodSpec{RestartPolicy: policy, TerminationGracePeriod: 30 * time.Second,
		Containers: []ContainerSpec{{Name: "app", Image: "img", PullPolicy: PullIfNotPresent, Behavior: b,
			Requests: Resources{MilliCPU: cpu, Memory: 64 << 20}}}}
}

func TestRunningTotalsMatchRecount(t *testing.T) {
	exitAfter := func(d time.Duration, code int32) *Behavior {
		return &Behavior{Runs: []RunSpec{{ExitAfter: d, ExitCode: code, Times: 1}}, ShutdownTime: 5 * time.Second}
	}
	for _, tc := range []struct {
		name  string
		build func(w *World)
	}{
		{"out of capacity, batch pods finish", func(w *World) {
			for i := range 2 {
				w.AddPod(fmt.Sprintf("batch-%d", i), appSpec(1500, exitAfter(time.Minute, 0), RestartNever), PodOptions{})
			}
			w.AddWorkload(WorkloadSpec{Kind: KindReplicaSet, Name: "api", Template: appSpec(1000, nil, RestartAlways), Replicas: 6})
		}},
		{"deletions with grace, force deletes, pod GC", func(w *World) {
			for i := range 6 {
				p := w.AddPod(fmt.Sprintf("p-%d", i), appSpec(500, exitAfter(time.Duration(i+1)*20*time.Second, int32(i%2)), RestartNever), PodOptions{})
				switch i % 3 {
				case 0:
					w.Schedule(10*time.Second, func() { p.Delete(nil) })
				case 1:
					w.Schedule(15*time.Second, func() { p.Delete(new(time.Duration)) })
				}
			}
			w.AddWorkload(WorkloadSpec{Kind: KindReplicaSet, Name: "rs", Template: appSpec(700, exitAfter(45*time.Second, 1), RestartNever), Replicas: 4})
		}},
		{"power loss, partition, disk failure, evictions", func(w *World) {
			w.AddWorkload(WorkloadSpec{Kind: KindReplicaSet, Name: "web", Template: appSpec(300, nil, RestartAlways), Replicas: 12})
			w.AddPod("bare", appSpec(300, nil, RestartAlways), PodOptions{})
			w.Schedule(time.Minute, func() { w.Node("n-0").PowerOff(nil) })
			w.Schedule(2*time.Minute, func() { d := 3 * time.Minute; w.Node("n-1").Partition(&d) })
			w.Schedule(3*time.Minute, func() { w.Node("n-2").DiskFailure() })
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := DefaultSettings()
			st.TerminatedPodGCThreshold = 2
			w := NewWorld(1, st)
			for i := range 3 {
				w.AddNode(NodeSpec{Name: fmt.Sprintf("n-%d", i), Capacity: Resources{MilliCPU: 2000, Memory: 8 << 30, Pods: 110}})
			}
			tc.build(w)
			runChecked(t, w, 15*time.Minute)
			freed := 0
			for _, p := range w.pods {
				if p.Node != nil && (p.phase.Terminal() || p.deleted) {
					freed++
				}
			}
			if freed == 0 {
				t.Fatal("no bound pod finished or left: nothing was released")
			}
		})
	}
}
