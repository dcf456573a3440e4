package scenarios

import (
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
// (hugeheap.Reserve): sized by the pods of its spec and workloads, as the
// world counts them (model.World.reservePods), and its nodes.
func (s *Scenario) reserveHeap() {
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
	hugeheap.Reserve(pods*heapPerPod + nodes*heapPerNode)
}
