package model

import (
	"strings"
	"testing"
	"time"
)

func TestProvisionNodeBoots(t *testing.T) {
	w := newWorld(1, Settings{})
	var n *Node
	w.Schedule(time.Second, func() {
		n = w.ProvisionNode(NodeSpec{Name: "g-1", Capacity: Resources{MilliCPU: 1000, Memory: 1 << 30, Pods: 110}, Group: "g", PricePerHour: 0.5}, 90*time.Second)
	})
	w.Run(30 * time.Second)
	if n == nil || n.Ready() || !n.Booting() || n.Group != "g" || n.PricePerHour != 0.5 {
		t.Fatalf("at 30s: node %+v, want booting, NotReady", n)
	}
	if c, _ := n.Condition(Ready); c.Reason != reasonKubeletNotReady {
		t.Errorf("booting node's Ready reason %q, want %q", c.Reason, reasonKubeletNotReady)
	}
	if len(n.Taints) != 1 || n.Taints[0].Key != TaintNotReady {
		t.Errorf("booting node's taints %v, want not-ready", n.Taints)
	}
	w.Run(91 * time.Second)
	if !n.Ready() || n.Booting() {
		t.Fatalf("at 91s: Ready %v booting %v, want Ready", n.Ready(), n.Booting())
	}
}

func TestSimNodeFits(t *testing.T) {
	s := SimulateNode(NodeSpec{Name: "t", Capacity: Resources{MilliCPU: 1000, Memory: 1 << 30, Pods: 110},
		Taints: []Taint{{Key: "gpu", Value: "yes", Effect: "NoSchedule"}}})
	w := newWorld(1, Settings{})
	spec := &PodSpec{Containers: []ContainerSpec{{Name: "c", Requests: Resources{MilliCPU: 600}}}}
	p := w.AddPod("p", spec, PodOptions{})
	if ok, why := s.Fits(p); ok || why != "node(s) had untolerated taint {gpu: yes}" {
		t.Fatalf("tainted template: fits %v, %q", ok, why)
	}
	s = SimulateNode(NodeSpec{Name: "t", Capacity: Resources{MilliCPU: 1000, Memory: 1 << 30, Pods: 110}})
	if ok, _ := s.Fits(p); !ok {
		t.Fatal("first pod does not fit an empty template")
	}
	s.Add(p)
	if ok, why := s.Fits(p); ok || !strings.Contains(why, "Insufficient cpu") {
		t.Fatalf("second pod: fits %v, %q; want Insufficient cpu", ok, why)
	}
}
