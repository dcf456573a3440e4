package podgc

import (
	"strconv"
	"testing"
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/model/kubelet"
	"github.com/podsim/podsim/model/scheduler"
)

// PodGC keeps only the finished pods still in the API: pods that finish
// and are deleted by someone else (a CronJob's history limit) do not
// pile up in its state, so a pass never walks the pods deleted long ago
// (gcTerminated scanned every pod ever created: quadratic for a CronJob
// running for years).
func TestFinishedPodsStayBounded(t *testing.T) {
	s := model.DefaultSettings()
	s.TerminatedPodGCThreshold = 3
	w := model.NewCore(1, s)
	w.Register(kubelet.New())
	w.Register(scheduler.New(w))
	w.RegisterCoreParts()
	g := New(w)
	w.Register(g)
	w.AddNode(model.NodeSpec{Name: "n", Capacity: model.Resources{MilliCPU: 4000, Memory: 8 << 30, Pods: 110}})
	spec := &model.PodSpec{RestartPolicy: model.RestartNever, TerminationGracePeriod: 30 * time.Second,
		Containers: []model.ContainerSpec{{Name: "app", Image: "img", PullPolicy: model.PullIfNotPresent,
			Behavior: &model.Behavior{Runs: []model.RunSpec{{ExitAfter: 5 * time.Second, Times: 1}}}}}}
	const n = 2000
	for i := range n {
		at := time.Duration(i) * 10 * time.Second
		w.Schedule(at, func() {
			p := w.AddPod("p"+strconv.Itoa(i), spec, model.PodOptions{})
			if i%2 == 0 { // deleted by someone else once finished
				w.Schedule(at+8*time.Second, func() { p.Delete(new(time.Duration)) })
			}
		})
	}
	w.Run(n * 10 * time.Second)
	if live := len(g.finished.live); live > s.TerminatedPodGCThreshold+1 {
		t.Errorf("%d finished pods live, want at most %d", live, s.TerminatedPodGCThreshold+1)
	}
	if h := len(g.finished.heap); h > 2*len(g.finished.live)+64 {
		t.Errorf("heap of %d for %d live pods: deleted pods pile up", h, len(g.finished.live))
	}
	finished := 0
	for _, p := range w.Pods() {
		if !p.Deleted() && p.Phase().Terminal() {
			finished++
		}
	}
	if finished != len(g.finished.live) || finished > s.TerminatedPodGCThreshold+1 {
		t.Errorf("%d finished pods in the API, PodGC knows %d", finished, len(g.finished.live))
	}
}
