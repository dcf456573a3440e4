package daemonset_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/model/cluster"
)

func appSpec(cpu int64, b *model.Behavior, policy model.RestartPolicy) *model.PodSpec {
	return &model.PodSpec{RestartPolicy: policy, TerminationGracePeriod: 30 * time.Second,
		Containers: []model.ContainerSpec{{Name: "app", Image: "img", PullPolicy: model.PullIfNotPresent, Behavior: b,
			Requests: model.Resources{MilliCPU: cpu, Memory: 64 << 20}}}}
}

func TestDrainSkipsDaemonSetPods(t *testing.T) {
	w := cluster.New(1, model.DefaultSettings())
	a := w.AddNode(model.NodeSpec{Name: "a", Capacity: model.Resources{MilliCPU: 4000, Memory: 8 << 30, Pods: 110}})
	w.AddNode(model.NodeSpec{Name: "b", Capacity: model.Resources{MilliCPU: 4000, Memory: 8 << 30, Pods: 110}})
	w.AddWorkload(model.WorkloadSpec{Kind: model.KindDaemonSet, Name: "ds", Template: appSpec(100, nil, model.RestartAlways)})
	w.AddPod("bare", &model.PodSpec{NodeName: "a", RestartPolicy: model.RestartAlways, TerminationGracePeriod: time.Second,
		Containers: []model.ContainerSpec{{Name: "app", Image: "img", PullPolicy: model.PullIfNotPresent}}}, model.PodOptions{})
	var tl model.Timeline
	w.Subscribe(&tl)
	w.Run(time.Second)
	w.Kubectl().Drain(a)
	w.Run(time.Minute)
	if !a.Unschedulable() || !w.Pod("bare").Deleted() || w.Pod("ds-0").Terminating() {
		t.Errorf("after the drain: cordoned %v, bare deleted %v, ds-0 terminating %v", a.Unschedulable(), w.Pod("bare").Deleted(), w.Pod("ds-0").Terminating())
	}
	var lines []string
	for _, c := range tl.Changes {
		if c.Kind == model.ChangeClient {
			lines = append(lines, c.Message)
		}
	}
	want := []string{"node/a cordoned", "Warning: ignoring DaemonSet-managed Pods: default/ds-0",
		"Warning: deleting Pods that declare no controller: default/bare", "evicting pod default/bare", "pod/bare evicted", "node/a drained"}
	if len(lines) != len(want) {
		t.Fatalf("kubectl said %q, want %q", lines, want)
	}
	for i := range want {
		if lines[i] != want[i] {
			t.Errorf("line %d: %q, want %q", i, lines[i], want[i])
		}
	}
}

// TestDaemonPodMessage: a daemon pod that does not fit on its node names the
// other nodes as left out by NodeAffinity's PreFilter.
func TestDaemonPodMessage(t *testing.T) {
	w := cluster.New(1, model.DefaultSettings())
	for i := range 3 {
		w.AddNode(model.NodeSpec{Name: fmt.Sprint("n-", i), Capacity: model.Resources{MilliCPU: 1000, Memory: 8 << 30, Pods: 110}})
	}
	w.AddWorkload(model.WorkloadSpec{Kind: model.KindDaemonSet, Name: "ds", Template: appSpec(2000, nil, model.RestartAlways)})
	w.Run(time.Second)
	st := w.Pod("ds-0").Status()
	c, _ := st.Condition(model.PodScheduled)
	want := "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) didn't satisfy plugin(s) [NodeAffinity]. " +
		"preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling."
	if c.Message != want {
		t.Errorf("message %q\nwant    %q", c.Message, want)
	}
}
