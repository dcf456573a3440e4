package eviction

import (
	"strings"
	"testing"
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/model/kubelet"
	"github.com/podsim/podsim/model/kubelet/oom"
	"github.com/podsim/podsim/model/scheduler"
)

// testWorld is the core with the parts it holds, the OOM killers and the
// eviction manager
// (cluster.New, which adds every part, imports this package).
func testWorld(seed uint64, s model.Settings) *model.World {
	w := model.NewCore(seed, s)
	w.Register(kubelet.New())
	w.Register(scheduler.New(w))
	w.RegisterCoreParts()
	w.Register(oom.New(w))
	w.Register(New(w))
	return w
}

// eventLines is a sink keeping the events, as "T reason message".
type eventLines []string

func (l *eventLines) Change(c *model.Change) {
	if c.Kind == model.ChangeEvent {
		*l = append(*l, c.T.String()+" "+c.Reason+" "+c.Message)
	}
}

// find returns the first entry with this reason, or "".
func (l eventLines) find(reason string) string {
	for _, e := range l {
		if strings.Contains(e, " "+reason+" ") {
			return e
		}
	}
	return ""
}

// memoryWorld is a world with one node of 1Gi and a pod per use given (in
// MiB, with a request of 100Mi), bound to it in order.
func memoryWorld(st model.Settings, uses ...int64) (*model.World, *eventLines, []*model.Pod) {
	w := testWorld(1, st)
	log := new(eventLines)
	w.Subscribe(log)
	w.AddNode(model.NodeSpec{Name: "n", Capacity: model.Resources{MilliCPU: 4000, Memory: 1 << 30, Pods: 110}})
	w.EnableUsage()
	var pods []*model.Pod
	for i, mib := range uses {
		spec := &model.PodSpec{NodeName: "n", RestartPolicy: model.RestartAlways, TerminationGracePeriod: 30 * time.Second,
			Containers: []model.ContainerSpec{{Name: "app", Image: "i", PullPolicy: model.PullIfNotPresent, Requests: model.Resources{Memory: 100 << 20},
				Behavior: &model.Behavior{Usage: model.Resources{Memory: mib << 20}, ShutdownTime: time.Minute}}}}
		pods = append(pods, w.AddPod(string(rune('a'+i)), spec, model.PodOptions{}))
	}
	return w, log, pods
}

// A soft threshold sets MemoryPressure at once but evicts only once it has
// been met at every check for its grace period, and gives the pod
// min(evictionMaxPodGracePeriod, its own) to stop: it goes Failed when its
// container has.
func TestSoftEvictionWaitsForItsGracePeriod(t *testing.T) {
	st := model.DefaultSettings()
	st.EvictionHard = model.MemoryThreshold{}
	st.EvictionSoft = model.MemoryThreshold{Percentage: 0.25} // 256Mi of 1Gi
	st.EvictionSoftGracePeriod = 30 * time.Second
	st.EvictionMaxPodGracePeriod = 10 * time.Second
	w, log, pods := memoryWorld(st, 400, 400) // 224Mi available
	w.Run(35 * time.Second)
	if c, ok := w.Node("n").Condition("MemoryPressure"); !ok || c.Status != model.True {
		t.Fatalf("MemoryPressure %+v at 35s, want True since the check at 10s", c)
	}
	if e := log.find("Evicted"); e != "" {
		t.Fatalf("evicted before the grace period: %s", e)
	}
	w.Run(45 * time.Second)
	want := "40s Evicted The node was low on resource: memory. Threshold quantity: 256Mi, available: 224Mi. " +
		"Container app was using 400Mi, request is 100Mi, has larger consumption of memory. "
	if e := log.find("Evicted"); e != want {
		t.Fatalf("got %q, want %q", e, want)
	}
	if e := log.find("EvictionThresholdMet"); !strings.HasPrefix(e, "40s ") {
		t.Errorf("EvictionThresholdMet: %q, want at 40s", e)
	}
	if p := pods[0]; p.Phase() != model.Running || p.Status().Reason != "" {
		t.Errorf("at 45s the evicted pod is %s (%q), want Running while its container stops", p.Phase(), p.Status().Reason)
	}
	w.Run(55 * time.Second)
	p := pods[0]
	ps := p.Status()
	app, _ := ps.Container("app")
	if p.Phase() != model.Failed || p.Status().Reason != "Evicted" || app.State.ExitCode != 137 || app.RestartCount != 0 {
		t.Errorf("at 55s: %s %q, app %+v; want Failed Evicted, killed at the end of its 10s grace, not restarted", p.Phase(), p.Status().Reason, app)
	}
	if pods[1].Phase() != model.Running {
		t.Errorf("the second pod is %s, want Running: one eviction per check, and the first freed enough", pods[1].Phase())
	}
}
