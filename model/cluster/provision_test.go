package cluster

import (
	"testing"
	"time"

	"github.com/podsim/podsim/model"
)

// A pod that waits for a provisioned node is bound only once the node is
// Ready and its not-ready taint lifted.
func TestPodWaitsForProvisionedNode(t *testing.T) {
	w := New(1, model.DefaultSettings())
	p := w.AddPod("p", &model.PodSpec{Containers: []model.ContainerSpec{{Name: "c", Image: "img",
		Requests: model.Resources{MilliCPU: 500}}}}, model.PodOptions{})
	var unschedulable int
	w.Register(unschedulableCounter{&unschedulable})
	w.Schedule(10*time.Second, func() {
		w.ProvisionNode(model.NodeSpec{Name: "g-1", Capacity: model.Resources{MilliCPU: 2000, Memory: 4 << 30, Pods: 110}}, time.Minute)
	})
	w.Run(69 * time.Second)
	if n := w.Node("g-1"); n == nil || n.Ready() || p.Node != nil {
		t.Fatalf("at 69s the pod is bound before the node is Ready")
	}
	w.Run(75 * time.Second)
	if p.Node == nil || p.Node.Name != "g-1" {
		t.Fatalf("at 75s the pod is on %v, want g-1 (node Ready at 70s)", p.Node)
	}
	if unschedulable == 0 {
		t.Error("PodUnschedulable never announced")
	}
	if n := w.Node("g-1"); len(n.Taints) != 0 {
		t.Errorf("Ready node keeps taints %v", n.Taints)
	}
}

type unschedulableCounter struct{ n *int }

func (c unschedulableCounter) PodUnschedulable(*model.Pod) { *c.n++ }
