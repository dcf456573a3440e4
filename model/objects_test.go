package model

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// objects is a sink that keeps every object change as a line.
type objects struct {
	Timeline
	lines []string
}

func (o *objects) Object(x *ObjectChange) {
	name := ""
	switch x.Kind {
	case ObjectPod:
		name = "pod " + x.Pod.Key()
	case ObjectNode:
		name = "node " + x.Node.Name
	case ObjectWorkload:
		name = fmt.Sprintf("workload %s replicas=%d ready=%d", x.Workload.Key(), x.Workload.Spec.Replicas, x.Workload.ReplicaStatus().ReadyReplicas)
	case ObjectBudget:
		name = fmt.Sprintf("budget %s allowed=%d", x.Budget.Spec.Name, x.Budget.Status.DisruptionsAllowed)
	case ObjectPriorityClass:
		name = "class " + x.Class.Name
	}
	o.lines = append(o.lines, fmt.Sprintf("%v %d %s", x.T, x.Op, name))
}

// TestObjects: a subscribed ObjectSink hears each object added, updated
// (a ReplicaSet's status, a scale, a budget's status, a node's taints and
// partition) and deleted at the instant it changes.
func TestObjects(t *testing.T) {
	w := newWorld(1, DefaultSettings())
	o := &objects{}
	w.Subscribe(o)
	w.AddPriorityClass(PriorityClass{Name: "high", Value: 1000})
	w.AddNode(NodeSpec{Name: "a", Capacity: Resources{MilliCPU: 4000, Memory: 8 << 30, Pods: 110}})
	w.AddPodDisruptionBudget(PDBSpec{Name: "pdb", Selector: map[string]string{"app": "web"}, MinAvailable: &IntOrPercent{Value: 1}})
	w.AddWorkload(WorkloadSpec{Kind: KindReplicaSet, Name: "web", Replicas: 2,
		Template: appSpec(100, nil, RestartAlways), Options: PodOptions{Labels: map[string]string{"app": "web"}}})
	w.Schedule(time.Minute, func() { w.Workload("web").Scale(1) })
	for2m := 2 * time.Minute
	w.Schedule(2*time.Minute, func() { w.Node("a").Partition(&for2m) })
	w.Run(3 * time.Minute)
	var got []string
	for _, l := range o.lines {
		if !strings.Contains(l, " 2 pod ") { // the containers' flags
			got = append(got, l)
		}
	}
	want := []string{
		"0s 1 class high",
		"0s 1 node a",
		"0s 1 budget pdb allowed=0",
		"0s 1 workload web replicas=2 ready=0",
		"0s 2 budget pdb allowed=0",
		"0s 1 pod web-0",
		"0s 1 pod web-1",
		"0s 2 workload web replicas=2 ready=0",
		"0s 2 budget pdb allowed=0",
		"0s 2 budget pdb allowed=1",
		"0s 2 workload web replicas=2 ready=2",
		"1m0s 2 workload web replicas=1 ready=2",
		"1m0s 2 budget pdb allowed=1",
		"1m0s 2 workload web replicas=1 ready=1",
		"1m0s 2 budget pdb allowed=0",
		"1m0s 3 pod web-1",
		"1m0s 2 budget pdb allowed=0",
		"2m0s 2 node a",
		"2m35s 2 node a",
		"2m35s 2 node a",
		"2m35s 2 budget pdb allowed=0",
		"2m35s 2 workload web replicas=1 ready=0",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("objects:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// states is a sink that keeps, at each update of a pod or node, what the
// timeline does not carry: the container's flags, the node's network,
// power and taints.
type states struct {
	Timeline
	lines []string
}

func (s *states) Object(x *ObjectChange) {
	if x.Op != ObjectUpdated {
		return
	}
	switch x.Kind {
	case ObjectPod:
		started, ready := x.Pod.ContainerFlags("app")
		s.lines = append(s.lines, fmt.Sprintf("%v %s/app started=%v ready=%v", x.T, x.Pod.Name, started, ready))
	case ObjectNode:
		var taints []string
		for _, t := range x.Node.Taints {
			taints = append(taints, t.Key+":"+t.Effect)
		}
		s.lines = append(s.lines, fmt.Sprintf("%v %s off=%v partitioned=%v taints=%v", x.T, x.Node.Name,
			x.Node.PoweredOff(), x.Node.Partitioned(), taints))
	}
}

// TestObjectStates: a subscribed ObjectSink hears the container's flags
// flip as it starts and dies, and a node's partition, its heal and the
// node controller's taints, none of which the timeline carries.
func TestObjectStates(t *testing.T) {
	w, _ := world(t, RestartNever, &Behavior{Runs: []RunSpec{{ExitAfter: 30 * time.Second, ExitCode: 1}}}, DefaultSettings())
	s := &states{}
	w.Subscribe(s) // after the pod's first changes: the flags flip later
	for2m := 2 * time.Minute
	w.Schedule(time.Minute, func() { w.Node("n").Partition(&for2m) })
	w.Run(5 * time.Minute)
	got := strings.Join(s.lines, "\n")
	want := strings.Join([]string{
		"0s p/app started=true ready=true",
		"30s p/app started=false ready=false",
		"1m0s n off=false partitioned=true taints=[]",
		"1m35s n off=false partitioned=true taints=[node.kubernetes.io/unreachable:NoSchedule]",
		"1m35s n off=false partitioned=true taints=[node.kubernetes.io/unreachable:NoSchedule node.kubernetes.io/unreachable:NoExecute]",
		"3m0s n off=false partitioned=false taints=[node.kubernetes.io/unreachable:NoSchedule node.kubernetes.io/unreachable:NoExecute]",
		"3m0s n off=false partitioned=false taints=[]",
	}, "\n")
	if got != want {
		t.Errorf("states:\n%s\nwant:\n%s", got, want)
	}
}
