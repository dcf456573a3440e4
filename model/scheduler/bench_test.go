package scheduler

import (
	"fmt"
	"testing"

	"github.com/podsim/podsim/model"
)

// BenchmarkSchedulePod is one scheduling try on 5,000 nodes holding 30 pods
// each: the filters of the nodes scanned (numFeasibleNodesToFind = 500)
// and their scores, read from the running totals and the index. A bare pod
// is scored by resources; a ReplicaSet's by the system default spreading
// too. The pod tried is one more, queued but never bound. It must not
// allocate.
func BenchmarkSchedulePod(b *testing.B) {
	spec := &model.PodSpec{RestartPolicy: model.RestartAlways, Containers: []model.ContainerSpec{{Name: "c", Image: "svc",
		Requests: model.Resources{MilliCPU: 100, Memory: 256 << 20}}}}
	for _, tc := range []struct {
		name  string
		owned bool
	}{{"bare", false}, {"replicaset", true}} {
		b.Run(tc.name, func(b *testing.B) {
			w := newWorld(1, unthrottled())
			for i := range 5000 {
				w.AddNode(model.NodeSpec{Name: fmt.Sprintf("node-%d", i), Capacity: model.Resources{MilliCPU: 32000, Memory: 128 << 30, Pods: 110}})
			}
			labels := map[string]string{"app": "svc"}
			const pods = 150000
			var owner *model.Workload
			if tc.owned {
				owner = w.AddWorkload(model.WorkloadSpec{Kind: model.KindReplicaSet, Name: "svc", Template: spec,
					Options: model.PodOptions{Labels: labels}, Replicas: pods})
			} else {
				for i := range pods {
					w.AddPod(fmt.Sprintf("p-%d", i), spec, model.PodOptions{Labels: labels})
				}
			}
			w.Run(0)
			var p *model.Pod
			if tc.owned {
				// One more replica: its controller makes the pod at its
				// sync, and the scheduler's pass would follow.
				owner.Scale(pods + 1)
				for len(w.Pods()) == pods {
					w.Engine().Step()
				}
			} else {
				w.AddPod("probe", spec, model.PodOptions{Labels: labels})
			}
			if p = w.Pods()[pods]; p.Node != nil || p.Owner() != owner {
				b.Fatalf("the pod to try is %s, bound to %v", p, p.Node)
			}
			s := schedOf(w)
			b.ReportAllocs()
			for b.Loop() {
				if s.schedulePod(p) == nil {
					b.Fatal("no node")
				}
			}
		})
	}
}
