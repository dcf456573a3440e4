package oom

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/model/kubelet"
	"github.com/podsim/podsim/model/scheduler"
)

// newWorld is the core with the parts it holds and the OOM killers
// (cluster.New, which adds every part, imports this package).
func newWorld(seed uint64, s model.Settings) (*model.World, *Killer) {
	w := model.NewCore(seed, s)
	w.Register(kubelet.New())
	w.Register(scheduler.New(w))
	w.RegisterCoreParts()
	k := New(w)
	w.Register(k)
	return w, k
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

// When the node's memory in use passes its capacity the kernel kills the
// container with the highest oom_badness: BestEffort before Burstable
// before Guaranteed whatever they use, then by use.
func TestSystemOOMKillsByOOMScore(t *testing.T) {
	st := model.DefaultSettings()
	st.EvictionHard = model.MemoryThreshold{}
	w, _ := newWorld(1, st)
	log := new(eventLines)
	w.Subscribe(log)
	w.AddNode(model.NodeSpec{Name: "n", Capacity: model.Resources{MilliCPU: 4000, Memory: 1 << 30, Pods: 110}})
	add := func(name string, use int64, req, lim model.Resources) *model.Pod {
		return w.AddPod(name, &model.PodSpec{NodeName: "n", RestartPolicy: model.RestartAlways, TerminationGracePeriod: 30 * time.Second,
			Containers: []model.ContainerSpec{{Name: name, Image: "i", PullPolicy: model.PullIfNotPresent, Requests: req, Limits: lim,
				Behavior: &model.Behavior{Usage: model.Resources{Memory: use << 20}}}}}, model.PodOptions{})
	}
	g := model.Resources{MilliCPU: 100, Memory: 600 << 20}
	add("guaranteed", 500, g, g)
	add("burstable", 300, model.Resources{Memory: 100 << 20}, model.Resources{})
	w.Run(time.Second)
	if e := log.find("SystemOOM"); e != "" {
		t.Fatalf("800Mi of 1Gi: %s", e)
	}
	add("besteffort", 300, model.Resources{}, model.Resources{}) // 1100Mi
	w.Run(2 * time.Second)
	if e := log.find("SystemOOM"); !strings.HasSuffix(e, "victim process: besteffort, pid: 1003") {
		t.Fatalf("got %q, want the BestEffort container killed", e)
	}
	if adj := oomScoreAdj(w.Pod("burstable"), 0, 1<<30); adj != 903 {
		t.Errorf("Burstable with 100Mi of 1Gi: oom_score_adj %d, want 1000 - 1000*100Mi/1Gi = 903", adj)
	}
	if adj := oomScoreAdj(w.Pod("guaranteed"), 0, 1<<30); adj != -997 {
		t.Errorf("Guaranteed: oom_score_adj %d, want -997", adj)
	}
}

// A leak grows the container's memory linearly from its start: it is
// OOM-killed at the instant it passes its limit, and restarts from its
// steady use; the node's peak is the most it used.
func TestLeakIsOOMKilledAtItsLimit(t *testing.T) {
	w, _ := newWorld(1, model.DefaultSettings())
	log := new(eventLines)
	w.Subscribe(log)
	n := w.AddNode(model.NodeSpec{Name: "n", Capacity: model.Resources{MilliCPU: 4000, Memory: 1 << 30, Pods: 110}})
	p := w.AddPod("leaky", &model.PodSpec{NodeName: "n", RestartPolicy: model.RestartAlways, TerminationGracePeriod: 30 * time.Second,
		Containers: []model.ContainerSpec{{Name: "app", Image: "i", PullPolicy: model.PullIfNotPresent, Limits: model.Resources{Memory: 200 << 20},
			Behavior: &model.Behavior{Usage: model.Resources{Memory: 100 << 20}, LeakMemory: 10 << 20, LeakPer: time.Minute}}}}, model.PodOptions{})
	w.Run(5 * time.Minute)
	if _, mem, _ := p.Usage(""); mem != 150<<20 {
		t.Errorf("after 5m: %d bytes, want 150Mi", mem)
	}
	w.Run(11 * time.Minute)
	ps := p.Status()
	app, _ := ps.Container("app")
	// 100Mi + 10Mi/min passes 200Mi one byte after 10m: the first instant
	// floor(10Mi*t/1m) > 100Mi.
	killed := app.LastState.FinishedAt
	if app.RestartCount != 1 || app.LastState.Reason != model.ReasonOOMKilled || killed <= 10*time.Minute || killed > 10*time.Minute+time.Millisecond {
		t.Errorf("app %+v: want OOM-killed just after 10m and restarted", app)
	}
	if peak := n.PeakMemory(); peak < 200<<20 || peak > 200<<20+1 {
		t.Errorf("peak %d, want 200Mi (the use at the kill)", peak)
	}
	if _, mem, _ := p.Usage(""); mem >= 120<<20 {
		t.Errorf("after the restart: %d bytes, want the leak started over", mem)
	}
	if e := log.find("SystemOOM"); e != "" {
		t.Errorf("a cgroup OOM is no system OOM: %s", e)
	}
}

// crossing is the first nanosecond the leaks take the node past its
// capacity, whatever their rates: one before it the node still fits.
func TestCrossingIsTheFirstInstantPast(t *testing.T) {
	w, k := newWorld(1, model.DefaultSettings())
	n := w.AddNode(model.NodeSpec{Name: "n", Capacity: model.Resources{MilliCPU: 4000, Memory: 1 << 30, Pods: 110}})
	k.PodUsesMemory(nil, n)
	m := k.of(n)
	for _, c := range []struct {
		fixed int64
		leaks [][2]int64 // memory, per
	}{
		{800 << 20, [][2]int64{{10 << 20, int64(time.Minute)}}},
		{100 << 20, [][2]int64{{7 << 20, int64(13 * time.Second)}, {3, int64(time.Hour)}, {1 << 20, int64(time.Minute)}}},
		{1<<30 - 1, [][2]int64{{1, int64(time.Hour)}}},
		{0, [][2]int64{{1, int64(time.Hour)}, {1, int64(time.Hour)}, {1, int64(time.Hour)}}}, // never: 7.7MB by the end of time
	} {
		m.fixed, m.leaks = c.fixed, m.leaks[:0]
		for i, l := range c.leaks {
			m.leaks = append(m.leaks, leak{b: &model.Behavior{LeakMemory: l[0], LeakPer: time.Duration(l[1])}, start: time.Duration(i) * time.Second})
		}
		now := 5 * time.Second
		at := m.crossing(now)
		if at == math.MaxInt64 && m.useAt(at) <= 1<<30 {
			continue
		}
		if at <= now || m.useAt(at) <= 1<<30 || m.useAt(at-1) > 1<<30 {
			t.Errorf("%+v: crossing at %v: use %d there, %d a nanosecond before", c, at, m.useAt(at), m.useAt(at-1))
		}
	}
}

// A container whose use passes its memory limit with no traffic at all is
// OOM-killed as it starts, and restarts through the crash backoff; its CPU
// is capped at its limit while it runs.
func TestUsageOverLimitIsOOMKilled(t *testing.T) {
	w, _ := newWorld(1, model.DefaultSettings())
	w.AddNode(model.NodeSpec{Name: "n", Capacity: model.Resources{MilliCPU: 4000, Memory: 16 << 30, Pods: 110}})
	w.EnableUsage()
	spec := &model.PodSpec{RestartPolicy: model.RestartAlways, TerminationGracePeriod: 30 * time.Second, Containers: []model.ContainerSpec{
		{Name: "big", Image: "i", PullPolicy: model.PullIfNotPresent, Limits: model.Resources{Memory: 100 << 20},
			Behavior: &model.Behavior{Usage: model.Resources{Memory: 200 << 20}}},
		{Name: "busy", Image: "i", PullPolicy: model.PullIfNotPresent, Limits: model.Resources{MilliCPU: 500},
			Behavior: &model.Behavior{Usage: model.Resources{MilliCPU: 900}}}}}
	p := w.AddPod("p", spec, model.PodOptions{})
	w.Run(time.Minute)
	st := p.Status()
	big, _ := st.Container("big")
	if big.RestartCount < 2 || big.LastState.Reason != model.ReasonOOMKilled || big.LastState.ExitCode != 137 {
		t.Errorf("big: %+v, want OOM-killed and restarted", big)
	}
	if cpu, _, _ := p.Usage("busy"); cpu != 500 {
		t.Errorf("busy uses %dm CPU, want 500m (its limit)", cpu)
	}
}
