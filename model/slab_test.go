package model

import (
	"fmt"
	"testing"
	"time"
	"unsafe"
)

// A slice taken from a slab and appended past its capacity moves to an
// array of its own: it never writes into its neighbour's.
func TestSlabTakeKeepsNeighbours(t *testing.T) {
	var s slab[int]
	a, b := s.take(2), s.take(2)
	b = append(b, 7, 8)
	a = append(a, 1, 2, 3) // past its capacity
	if b[0] != 7 || b[1] != 8 {
		t.Fatalf("a's append wrote into b: %v", b)
	}
	if a[0] != 1 || a[2] != 3 {
		t.Fatalf("a = %v", a)
	}
}

// new hands out distinct zeroed values, across arrays.
func TestSlabNewDistinct(t *testing.T) {
	var s slab[[2]int]
	seen := map[*[2]int]bool{}
	for range 3 * slabMax {
		v := s.new()
		if seen[v] || *v != [2]int{} {
			t.Fatal("a value handed out twice, or not zeroed")
		}
		seen[v] = true
		v[0] = 1
	}
}

// ReservePods has the pods a ReplicaSet makes at once come from one array
// (their Pod objects), not from arrays of at most slabMax: so the heap
// they fill is mapped, once, before the run (scenarios faults it in).
func TestReservePodsMakesPodsFromOneArray(t *testing.T) {
	var n countChanges
	w := fleetOf(&n, SyncExact, 3*slabMax)
	w.Run(time.Second)
	pods := w.Pods()
	if len(pods) != 3*slabMax {
		t.Fatalf("%d pods, want %d", len(pods), 3*slabMax)
	}
	for i := 1; i < len(pods); i++ {
		if d := uintptr(unsafe.Pointer(pods[i])) - uintptr(unsafe.Pointer(pods[i-1])); d != unsafe.Sizeof(Pod{}) {
			t.Fatalf("pod %d is %d bytes after pod %d, not next to it", i, d, i-1)
		}
	}
}

// A ReplicaSet restored from a snapshot has its pods already: ReservePods
// makes room for none of them again.
func TestReservePodsSkipsRestoredPods(t *testing.T) {
	w := newWorld(1, unthrottled())
	w.AddNode(NodeSpec{Name: "n", Capacity: Resources{MilliCPU: 64000, Memory: 256 << 30, Pods: 1000}})
	tmpl := &PodSpec{RestartPolicy: RestartAlways, Containers: []ContainerSpec{{Name: "c", Image: "c"}}}
	const n = 3 * slabMax
	snap := &WorkloadSnapshot{}
	for i := range n {
		spec := *tmpl
		snap.Pods = append(snap.Pods, PodSnapshot{Name: fmt.Sprintf("rs-%d", i), Spec: &spec, Phase: Pending})
	}
	w.AddWorkload(WorkloadSpec{Kind: KindReplicaSet, Name: "rs", Template: tmpl, Replicas: n, Snapshot: snap})
	if len(w.Pods()) != n {
		t.Fatalf("%d pods restored, want %d", len(w.Pods()), n)
	}
	w.ReservePods()
	if free := len(w.mem.pods.free); free >= n {
		t.Fatalf("room for %d more pods made, for %d restored ones", free, n)
	}
}
