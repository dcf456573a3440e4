package karpenter_test

import (
	"testing"
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/model/cluster"
	"github.com/podsim/podsim/model/controller/karpenter"
)

// Karpenter hears every pod of every world: its handlers allocate nothing,
// with or without NodePools.
func TestHandlersAllocateNothing(t *testing.T) {
	for _, pools := range []bool{false, true} {
		w := cluster.New(1, model.DefaultSettings())
		if pools {
			w.SetInstanceTypes([]model.InstanceType{{Name: "m", Capacity: model.Resources{MilliCPU: 2000, Memory: 8 << 30, Pods: 110}, PricePerHour: 1}})
			w.AddNodePool(&model.NodePool{Name: "p", LimitMilliCPU: -1, LimitMemory: -1, LimitNodes: -1, ExpireAfter: time.Hour,
				Budgets: []model.NodePoolBudget{{Nodes: "10%"}}})
		}
		n := w.AddNode(model.NodeSpec{Name: "n", Capacity: model.Resources{MilliCPU: 4000, Memory: 16 << 30, Pods: 110}})
		spec := &model.PodSpec{Containers: []model.ContainerSpec{{Name: "c", Image: "i"}}}
		p := w.AddPod("web", spec, model.PodOptions{})
		w.Run(time.Second)
		if p.Node != n {
			t.Fatal("the pod is not bound")
		}
		c := karpenter.New(w)
		allocs := testing.AllocsPerRun(100, func() {
			c.PodBound(p)
			c.PodReleased(p, n)
			c.PodDeleted(p)
			c.NodeDeleted(n)
		})
		if allocs != 0 {
			t.Errorf("NodePools %v: %v allocations per pod event", pools, allocs)
		}
	}
}

// The packing's pure parts: a budget's nodes of a total, rounded up.
func TestBudgetScaledRoundsUp(t *testing.T) {
	for _, c := range []struct {
		nodes string
		total int
		want  int
	}{{"10%", 1, 1}, {"10%", 10, 1}, {"10%", 11, 2}, {"0%", 5, 0}, {"3", 1, 3}, {"100%", 7, 7}} {
		if got := karpenter.Scaled(c.nodes, c.total); got != c.want {
			t.Errorf("%s of %d = %d, want %d", c.nodes, c.total, got, c.want)
		}
	}
}

// A NodePool's requirements are checked against the labels its nodes of an
// instance type would carry, each operator as a node selector reads it.
func TestRequirementsAgainstInstanceTypes(t *testing.T) {
	it := &model.InstanceType{Name: "c5.large", Labels: map[string]string{"topology.kubernetes.io/zone": "a", "gen": "5"}}
	for _, c := range []struct {
		r    model.NodeRequirement
		want bool
	}{
		{model.NodeRequirement{Key: "node.kubernetes.io/instance-type", Operator: "In", Values: []string{"c5.large"}}, true},
		{model.NodeRequirement{Key: "node.kubernetes.io/instance-type", Operator: "NotIn", Values: []string{"c5.large"}}, false},
		{model.NodeRequirement{Key: "karpenter.sh/capacity-type", Operator: "In", Values: []string{"spot"}}, false},
		{model.NodeRequirement{Key: "karpenter.sh/capacity-type", Operator: "In", Values: []string{"on-demand"}}, true},
		{model.NodeRequirement{Key: "topology.kubernetes.io/zone", Operator: "Exists"}, true},
		{model.NodeRequirement{Key: "topology.kubernetes.io/zone", Operator: "DoesNotExist"}, false},
		{model.NodeRequirement{Key: "gen", Operator: "Gt", Values: []string{"4"}}, true},
		{model.NodeRequirement{Key: "gen", Operator: "Lt", Values: []string{"5"}}, false},
		{model.NodeRequirement{Key: "team", Operator: "In", Values: []string{"web", "api"}}, true}, // labels the node team=web
		{model.NodeRequirement{Key: "kubernetes.io/arch", Operator: "In", Values: []string{"arm64"}}, false},
	} {
		pool := &model.NodePool{Name: "p", Requirements: []model.NodeRequirement{c.r}}
		if got, _ := karpenter.Compatible(pool, it); got != c.want {
			t.Errorf("%+v: %v, want %v", c.r, got, c.want)
		}
	}
}
