package replicaset

import (
	"testing"
	"time"

	"github.com/podsim/podsim/model"
)

// minReadySeconds: a pod is counted available once Ready for longer, when
// the controller looks again a second after that.
func TestMinReadySeconds(t *testing.T) {
	w := model.NewCore(1, model.DefaultSettings())
	w.RegisterScheduler()
	w.RegisterCoreParts()
	w.RegisterWorkloadController(model.KindReplicaSet, New(w))
	w.AddNode(model.NodeSpec{Name: "a", Capacity: model.Resources{MilliCPU: 4000, Memory: 8 << 30, Pods: 110}})
	wl := w.AddWorkload(model.WorkloadSpec{Kind: model.KindReplicaSet, Name: "rs", Replicas: 2, MinReadySeconds: 10,
		Template: &model.PodSpec{RestartPolicy: model.RestartAlways, TerminationGracePeriod: 30 * time.Second,
			Containers: []model.ContainerSpec{{Name: "app", Image: "img", PullPolicy: model.PullIfNotPresent,
				Requests: model.Resources{MilliCPU: 100, Memory: 64 << 20}}}}})
	for _, tc := range []struct {
		at           time.Duration
		ready, avail int
	}{{0, 2, 0}, {10 * time.Second, 2, 0}, {11*time.Second - 1, 2, 0}, {11 * time.Second, 2, 2}} {
		w.Run(tc.at)
		if st := wl.ReplicaStatus(); st.ReadyReplicas != tc.ready || st.AvailableReplicas != tc.avail {
			t.Errorf("at %v: %+v, want %d ready, %d available", tc.at, st, tc.ready, tc.avail)
		}
	}
}
