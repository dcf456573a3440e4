package tainteviction_test

import (
	"testing"
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/model/cluster"
)

// A pod evicted from an unreachable node stays Running and Terminating
// until the node is back; then the kubelet gives it its whole grace period.
func TestEvictionOnUnreachableNodeStaysTerminating(t *testing.T) {
	w := cluster.New(1, model.DefaultSettings())
	a := w.AddNode(model.NodeSpec{Name: "a", Capacity: model.Resources{MilliCPU: 4000, Memory: 8 << 30, Pods: 110}})
	p := w.AddPod("web", &model.PodSpec{NodeName: "a", RestartPolicy: model.RestartAlways, TerminationGracePeriod: 30 * time.Second,
		Containers: []model.ContainerSpec{{Name: "app", Image: "img", PullPolicy: model.PullIfNotPresent, Behavior: &model.Behavior{ShutdownTime: 10 * time.Second}}}}, model.PodOptions{})
	heal := 20 * time.Minute
	w.Schedule(time.Minute, func() { a.Partition(&heal) })
	w.Run(20 * time.Minute)
	// Unknown at 1m45s, evicted at 6m45s, still Running and Terminating.
	if p.Phase() != model.Running || !p.Terminating() || p.Deleted() {
		t.Fatalf("at 20m: phase %s, terminating %v, deleted %v", p.Phase(), p.Terminating(), p.Deleted())
	}
	// Healed at 21m: the kubelet hears of the deletion and gives the pod its
	// whole grace period; the process takes 10s to stop.
	w.Run(21*time.Minute + 9*time.Second)
	if p.Deleted() {
		t.Fatalf("gone before its shutdown: at %v", p.DeletedAt())
	}
	w.Run(22 * time.Minute)
	if !p.Deleted() || p.DeletedAt() != 21*time.Minute+10*time.Second {
		t.Errorf("deleted %v at %v, want at 21m10s", p.Deleted(), p.DeletedAt())
	}
}
