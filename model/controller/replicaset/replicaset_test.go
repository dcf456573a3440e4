package replicaset

import (
	"fmt"
	"testing"
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/model/kubelet"
	"github.com/podsim/podsim/model/scheduler"
)

// minReadySeconds: a pod is counted available once Ready for longer, when
// the controller looks again a second after that.
func TestMinReadySeconds(t *testing.T) {
	w, _ := newWorld()
	w.AddNode(model.NodeSpec{Name: "a", Capacity: model.Resources{MilliCPU: 4000, Memory: 8 << 30, Pods: 110}})
	wl := w.AddWorkload(model.WorkloadSpec{Kind: model.KindReplicaSet, Name: "rs", Replicas: 2, MinReadySeconds: 10,
		Template: &model.PodSpec{RestartPolicy: model.RestartAlways, TerminationGracePeriod: 30 * time.Second,
			Containers: []model.ContainerSpec{{Name: "app", Image: "img", PullPolicy: model.PullIfNotPresent,
				Requests: model.Resources{MilliCPU: 100, Memory: 64 << 20}}}}})
	for _, tc := range []struct {
		at           time.Duration
		ready, avail int
	}{{0, 2, 0}, {10 * time.Second, 2, 0}, {11*time.Second - 1, 2, 0}, {11 * time.Second, 2, 2}} {
		w.Run(tc.at)
		if st := wl.ReplicaStatus(); st.ReadyReplicas != tc.ready || st.AvailableReplicas != tc.avail {
			t.Errorf("at %v: %+v, want %d ready, %d available", tc.at, st, tc.ready, tc.avail)
		}
	}
}

// The client's bucket: 30 requests at once, then one every 50 ms; a
// quiet second refills 20 tokens.
func TestClientBucket(t *testing.T) {
	c := newClient(20, 30)
	for i := range 30 {
		if w := c.take(0); w != 0 {
			t.Fatalf("request %d at 0: wait until %v, want none (burst 30)", i, w)
		}
	}
	if w := c.take(0); w != 50*time.Millisecond {
		t.Fatalf("31st at 0: wait until %v, want 50ms", w)
	}
	if w := c.take(50 * time.Millisecond); w != 0 {
		t.Fatalf("at 50ms: wait until %v, want a token", w)
	}
	n := 0
	for c.take(1050*time.Millisecond) == 0 {
		n++
	}
	if n != 20 {
		t.Errorf("a second later: %d tokens, want 20", n)
	}
}

// A ReplicaSet whose pods the kubelet rejects replaces them as fast as its
// client lets it: 30 at 0s, then 20 a second.
func TestRejectedPodsAreReplacedAtTheClientsPace(t *testing.T) {
	w, _ := newWorld()
	w.AddNode(model.NodeSpec{Name: "full", Capacity: model.Resources{MilliCPU: 1000, Memory: 8 << 30, Pods: 110}})
	wl := w.AddWorkload(model.WorkloadSpec{Kind: model.KindReplicaSet, Name: "web", Replicas: 2,
		Template: &model.PodSpec{NodeName: "full", RestartPolicy: model.RestartAlways,
			Containers: []model.ContainerSpec{{Name: "app", Image: "img", PullPolicy: model.PullIfNotPresent,
				Requests: model.Resources{MilliCPU: 600, Memory: 64 << 20}}}}})
	for _, tc := range []struct {
		at   time.Duration
		made int
	}{{0, 30}, {time.Second, 50}, {time.Minute, 1230}} {
		w.Run(tc.at)
		if got := len(wl.Pods()); got != tc.made {
			t.Errorf("at %v: %d pods made, want %d", tc.at, got, tc.made)
		}
	}
	failed := 0
	for _, p := range wl.Pods() {
		if p.Phase() == model.Failed && p.Status().Reason == model.ReasonOutOfCPU {
			failed++
		}
	}
	if failed != 1229 || wl.ReplicaStatus().Replicas != 1 {
		t.Errorf("%d failed OutOfcpu, status %+v; want 1229, 1 replica", failed, wl.ReplicaStatus())
	}
}

// A big ReplicaSet made at the client's pace, whose pods crash at
// different instants, syncs at every change of one of them; each sync
// looks at the pods that changed and, with minReadySeconds, at those
// whose wait ends, not at all of them (it looked at every pod at every
// sync before: 2,000 pods x ~40,000 syncs).
func TestCountsLookOnlyAtChangedPods(t *testing.T) {
	for _, minReady := range []int{0, 600} {
		w, c := newWorld()
		for i := range 20 {
			w.AddNode(model.NodeSpec{Name: fmt.Sprint("n", i), Capacity: model.Resources{MilliCPU: 64000, Memory: 256 << 30, Pods: 110}})
		}
		wl := w.AddWorkload(model.WorkloadSpec{Kind: model.KindReplicaSet, Name: "web", Replicas: 2000, MinReadySeconds: minReady,
			Template: &model.PodSpec{RestartPolicy: model.RestartAlways, TerminationGracePeriod: 30 * time.Second,
				Containers: []model.ContainerSpec{{Name: "app", Image: "img", PullPolicy: model.PullIfNotPresent,
					Behavior: &model.Behavior{Runs: []model.RunSpec{{ExitAfter: time.Minute, ExitCode: 1, Times: 1}}}}}}})
		var ready readyChanges
		w.Subscribe(&ready)
		w.Run(30 * time.Minute)
		changes := int(ready)
		if st := wl.ReplicaStatus(); st.Replicas != 2000 {
			t.Fatalf("minReadySeconds %d: status %+v, want 2000 replicas", minReady, st)
		}
		if changes < 10_000 {
			t.Fatalf("minReadySeconds %d: %d Ready changes: the pods did not crash-loop", minReady, changes)
		}
		if c.looked > 4*(2000+changes) {
			t.Errorf("minReadySeconds %d: the counts looked at %d pods for 2000 pods and %d Ready changes", minReady, c.looked, changes)
		}
	}
}

// readyChanges counts the changes of pods' Ready conditions.
type readyChanges int

func (n *readyChanges) Change(ch *model.Change) {
	if ch.Kind == model.ChangeCondition && ch.Type == model.Ready {
		*n++
	}
}

// newWorld is the core with the scheduler, what asks an owner to sync,
// and the ReplicaSet controller c (cluster.New adds the rest).
func newWorld() (w *model.World, c *Controller) {
	w = model.NewCore(1, model.DefaultSettings())
	w.Register(kubelet.New())
	w.Register(scheduler.New(w))
	w.RegisterCoreParts()
	c = New(w)
	w.RegisterWorkloadController(model.KindReplicaSet, c)
	return w, c
}
