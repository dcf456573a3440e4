package model

import (
	"testing"
	"time"
)

func TestIntOrPercentScaled(t *testing.T) {
	for _, tc := range []struct {
		v       IntOrPercent
		total   int
		roundUp bool
		want    int
	}{
		{IntOrPercent{Value: 2}, 10, true, 2},
		{IntOrPercent{Value: 50, Percent: true}, 3, true, 2},
		{IntOrPercent{Value: 50, Percent: true}, 3, false, 1},
		{IntOrPercent{Value: 34, Percent: true}, 3, true, 2},
		{IntOrPercent{Value: 100, Percent: true}, 7, true, 7},
		{IntOrPercent{Value: 0, Percent: true}, 7, true, 0},
	} {
		if got := tc.v.Scaled(tc.total, tc.roundUp); got != tc.want {
			t.Errorf("%+v of %d (round up %v) = %d, want %d", tc.v, tc.total, tc.roundUp, got, tc.want)
		}
	}
}

func TestScaleDownRanks(t *testing.T) {
	w := newWorld(1, DefaultSettings())
	w.AddNode(NodeSpec{Name: "a", Capacity: Resources{MilliCPU: 4000, Memory: 8 << 30, Pods: 110}})
	w.AddNode(NodeSpec{Name: "b", Capacity: Resources{MilliCPU: 4000, Memory: 8 << 30, Pods: 110}})
	wl := w.AddWorkload(WorkloadSpec{Kind: KindReplicaSet, Name: "rs", Replicas: 2, Template: appSpec(100, nil, RestartAlways)})
	w.Run(time.Minute)
	wl.Scale(4) // rs-2, rs-3: ready for less time
	w.Run(5 * time.Minute)
	wl.Scale(1)
	w.Run(5 * time.Minute)
	var deleting []string
	for _, p := range wl.Pods() {
		if p.Terminating() || p.Deleted() {
			deleting = append(deleting, p.Name)
		}
	}
	if len(deleting) != 3 || w.Pod("rs-0").Terminating() {
		t.Errorf("scale-down deleted %v, want rs-1, rs-2, rs-3", deleting)
	}
}

func appSpec(cpu int64, b *Behavior, policy RestartPolicy) *PodSpec {
	return &PodSpec{RestartPolicy: policy, TerminationGracePeriod: 30 * time.Second,
		Containers: []ContainerSpec{{Name: "app", Image: "img", PullPolicy: PullIfNotPresent, Behavior: b,
			Requests: Resources{MilliCPU: cpu, Memory: 64 << 20}}}}
}
