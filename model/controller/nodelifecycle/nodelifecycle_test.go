package nodelifecycle_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/model/cluster"
)

// world builds a one-node cluster with one pod whose container "app" behaves as b.
func world(t *testing.T, policy model.RestartPolicy, b *model.Behavior, st model.Settings) (*model.World, *model.Pod) {
	t.Helper()
	w := cluster.New(1, st)
	w.Subscribe(&model.Timeline{})
	w.AddNode(model.NodeSpec{Name: "n", Capacity: model.Resources{MilliCPU: 4000, Memory: 1 << 34, Pods: 110}})
	p := w.AddPod("p", &model.PodSpec{RestartPolicy: policy, TerminationGracePeriod: 30 * time.Second,
		Containers: []model.ContainerSpec{{Name: "app", Image: "img", PullPolicy: model.PullIfNotPresent, Behavior: b}}}, model.PodOptions{})
	return w, p
}

func appSpec(cpu int64, b *model.Behavior, policy model.RestartPolicy) *model.PodSpec {
	return &model.PodSpec{RestartPolicy: policy, TerminationGracePeriod: 30 * time.Second,
		Containers: []model.ContainerSpec{{Name: "app", Image: "img", PullPolicy: model.PullIfNotPresent, Behavior: b,
			Requests: model.Resources{MilliCPU: cpu, Memory: 64 << 20}}}}
}

// objects is a sink that keeps every object change as a line.
type objects struct {
	model.Timeline
	lines []string
}

func (o *objects) Object(x *model.ObjectChange) {
	name := ""
	switch x.Kind {
	case model.ObjectPod:
		name = "pod " + x.Pod.Key()
	case model.ObjectNode:
		name = "node " + x.Node.Name
	case model.ObjectWorkload:
		name = fmt.Sprintf("workload %s replicas=%d ready=%d", x.Workload.Key(), x.Workload.Spec.Replicas, x.Workload.ReplicaStatus().ReadyReplicas)
	case model.ObjectBudget:
		name = fmt.Sprintf("budget %s allowed=%d", x.Budget.Spec.Name, x.Budget.Status.DisruptionsAllowed)
	case model.ObjectPriorityClass:
		name = "class " + x.Class.Name
	}
	o.lines = append(o.lines, fmt.Sprintf("%v %d %s", x.T, x.Op, name))
}

// TestObjects: a subscribed ObjectSink hears each object added, updated
// (a ReplicaSet's status, a scale, a budget's status, a node's taints and
// partition) and deleted at the instant it changes.
func TestObjects(t *testing.T) {
	w := cluster.New(1, model.DefaultSettings())
	o := &objects{}
	w.Subscribe(o)
	w.AddPriorityClass(model.PriorityClass{Name: "high", Value: 1000})
	w.AddNode(model.NodeSpec{Name: "a", Capacity: model.Resources{MilliCPU: 4000, Memory: 8 << 30, Pods: 110}})
	w.AddPodDisruptionBudget(model.PDBSpec{Name: "pdb", Selector: map[string]string{"app": "web"}, MinAvailable: &model.IntOrPercent{Value: 1}})
	w.AddWorkload(model.WorkloadSpec{Kind: model.KindReplicaSet, Name: "web", Replicas: 2,
		Template: appSpec(100, nil, model.RestartAlways), Options: model.PodOptions{Labels: map[string]string{"app": "web"}}})
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
		"2m45s 2 node a",
		"2m45s 2 node a",
		"2m45s 2 budget pdb allowed=0",
		"2m45s 2 workload web replicas=1 ready=0",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("objects:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// states is a sink that keeps, at each update of a pod or node, what the
// timeline does not carry: the container's flags, the node's network,
// power and taints.
type states struct {
	model.Timeline
	lines []string
}

func (s *states) Object(x *model.ObjectChange) {
	if x.Op != model.ObjectUpdated {
		return
	}
	switch x.Kind {
	case model.ObjectPod:
		started, ready := x.Pod.ContainerFlags("app")
		s.lines = append(s.lines, fmt.Sprintf("%v %s/app started=%v ready=%v", x.T, x.Pod.Name, started, ready))
	case model.ObjectNode:
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
	w, _ := world(t, model.RestartNever, &model.Behavior{Runs: []model.RunSpec{{ExitAfter: 30 * time.Second, ExitCode: 1}}}, model.DefaultSettings())
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
		"1m45s n off=false partitioned=true taints=[node.kubernetes.io/unreachable:NoSchedule]",
		"1m45s n off=false partitioned=true taints=[node.kubernetes.io/unreachable:NoSchedule node.kubernetes.io/unreachable:NoExecute]",
		"3m0s n off=false partitioned=false taints=[node.kubernetes.io/unreachable:NoSchedule node.kubernetes.io/unreachable:NoExecute]",
		"3m0s n off=false partitioned=false taints=[]",
	}, "\n")
	if got != want {
		t.Errorf("states:\n%s\nwant:\n%s", got, want)
	}
}

func TestLeaseRenewalsAreHeartbeats(t *testing.T) {
	// A kubelet renews its Lease every 10s whatever its status frequency:
	// cut off at 3m with nodeStatusUpdateFrequency 1m (last post at 2m),
	// its last renewal is at 2m50s and its node goes Unknown at the first
	// monitor pass after 2m50s + 50s, 3m45s. With 4s, the last post (2m56s)
	// is later than the last renewal: Unknown at 3m50s.
	for _, tc := range []struct {
		every, want time.Duration
	}{{time.Minute, 3*time.Minute + 45*time.Second}, {4 * time.Second, 3*time.Minute + 50*time.Second}} {
		st := model.DefaultSettings()
		st.NodeStatusUpdateFrequency = tc.every
		w, _ := world(t, model.RestartAlways, nil, st)
		w.Schedule(3*time.Minute, func() { w.Node("n").Partition(nil) })
		w.Run(5 * time.Minute)
		c, _ := w.Node("n").Condition(model.Ready)
		if c.Status != model.StatusUnknown || c.LastTransitionTime != tc.want {
			t.Errorf("nodeStatusUpdateFrequency %s: model.Ready %s since %s, want Unknown since %s", tc.every, c.Status, c.LastTransitionTime, tc.want)
		}
	}
}
