package scenarios

import (
	"github.com/podsim/podsim/internal/heapstart"
	"github.com/podsim/podsim/internal/hugeheap"
	"github.com/podsim/podsim/model"
)

// The heap a world takes, about: per pod (the pod, its status, kubelet,
// probers, timers, events and scheduler state: ~3 KB on the 150k
// envelope) and per node.
const (
	heapPerPod  = 4 << 10
	heapPerNode = 16 << 10
)

// reserveHeap readies the heap for s's world before it is built
// (hugeheap.Reserve), and returns its size: sized by the pods of its spec
// and workloads, as the world counts them (model.World.ReservePods), and
// its nodes.
func (s *Scenario) reserveHeap() int {
	pods := len(s.pods)
	for _, wl := range s.workloads {
		switch wl.Kind {
		case model.KindReplicaSet, model.KindDeployment, model.KindStatefulSet:
			pods++
			if r := wl.Spec.Replicas; r != nil {
				pods += max(int(*r), 0) - 1
			}
		}
	}
	nodes := 0
	for _, n := range s.nodes {
		nodes++
		if n.Count != nil {
			nodes += max(*n.Count, 0) - 1
		}
	}
	size := pods*heapPerPod + nodes*heapPerNode
	hugeheap.Reserve(size)
	return size
}

// readyPods has w make room for its workloads' pods (ReservePods) before
// its first run, which makes them (all at once where the API is not
// throttled, as in a fleet), and, for a world below hugeheap's
// reservation, faults in the heap that grew for them, up to the world's
// size: a call per 2 MB rather than a fault per 4 KB page on first touch,
// which on a virtual machine can cost 10-20 µs each. A larger world's
// heap is hugeheap's.
func readyPods(w *model.World, size int) {
	w.ReservePods()
	if size < hugeheap.Threshold {
		heapstart.FaultIn(uintptr(size))
	}
}
