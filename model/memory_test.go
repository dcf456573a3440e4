package model

import (
	"math"
	"strings"
	"testing"
	"time"
)

// eventLines is a sink keeping the events, as "T reason message".
type eventLines []string

func (l *eventLines) Change(c *Change) {
	if c.Kind == ChangeEvent {
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
	st := DefaultSettings()
	st.EvictionHard = MemoryThreshold{}
	w := newWorld(1, st)
	log := new(eventLines)
	w.Subscribe(log)
	w.AddNode(NodeSpec{Name: "n", Capacity: Resources{MilliCPU: 4000, Memory: 1 << 30, Pods: 110}})
	add := func(name string, use int64, req, lim Resources) *Pod {
		return w.AddPod(name, &PodSpec{NodeName: "n", RestartPolicy: RestartAlways, TerminationGracePeriod: 30 * time.Second,
			Containers: []ContainerSpec{{Name: name, Image: "i", PullPolicy: PullIfNotPresent, Requests: req, Limits: lim,
				Behavior: &Behavior{Usage: Resources{Memory: use << 20}}}}}, PodOptions{})
	}
	g := Resources{MilliCPU: 100, Memory: 600 << 20}
	add("guaranteed", 500, g, g)
	add("burstable", 300, Resources{Memory: 100 << 20}, Resources{})
	w.Run(time.Second)
	if e := log.find("SystemOOM"); e != "" {
		t.Fatalf("800Mi of 1Gi: %s", e)
	}
	add("besteffort", 300, Resources{}, Resources{}) // 1100Mi
	w.Run(2 * time.Second)
	if e := log.find("SystemOOM"); !strings.HasSuffix(e, "victim process: besteffort, pid: 1003") {
		t.Fatalf("got %q, want the BestEffort container killed", e)
	}
	if adj := oomScoreAdj(w.Pod("burstable"), w.Pod("burstable").regular[0], 1<<30); adj != 903 {
		t.Errorf("Burstable with 100Mi of 1Gi: oom_score_adj %d, want 1000 - 1000*100Mi/1Gi = 903", adj)
	}
	if adj := oomScoreAdj(w.Pod("guaranteed"), w.Pod("guaranteed").regular[0], 1<<30); adj != -997 {
		t.Errorf("Guaranteed: oom_score_adj %d, want -997", adj)
	}
}

// A leak grows the container's memory linearly from its start: it is
// OOM-killed at the instant it passes its limit, and restarts from its
// steady use; the node's peak is the most it used.
func TestLeakIsOOMKilledAtItsLimit(t *testing.T) {
	w := newWorld(1, DefaultSettings())
	log := new(eventLines)
	w.Subscribe(log)
	n := w.AddNode(NodeSpec{Name: "n", Capacity: Resources{MilliCPU: 4000, Memory: 1 << 30, Pods: 110}})
	p := w.AddPod("leaky", &PodSpec{NodeName: "n", RestartPolicy: RestartAlways, TerminationGracePeriod: 30 * time.Second,
		Containers: []ContainerSpec{{Name: "app", Image: "i", PullPolicy: PullIfNotPresent, Limits: Resources{Memory: 200 << 20},
			Behavior: &Behavior{Usage: Resources{Memory: 100 << 20}, LeakMemory: 10 << 20, LeakPer: time.Minute}}}}, PodOptions{})
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
	if app.RestartCount != 1 || app.LastState.Reason != ReasonOOMKilled || killed <= 10*time.Minute || killed > 10*time.Minute+time.Millisecond {
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
	w := newWorld(1, DefaultSettings())
	n := w.AddNode(NodeSpec{Name: "n", Capacity: Resources{MilliCPU: 4000, Memory: 1 << 30, Pods: 110}})
	n.watchMemoryUse()
	m := n.mem
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
			m.leaks = append(m.leaks, leak{b: &Behavior{LeakMemory: l[0], LeakPer: time.Duration(l[1])}, start: time.Duration(i) * time.Second})
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
	w := newWorld(1, DefaultSettings())
	w.AddNode(NodeSpec{Name: "n", Capacity: Resources{MilliCPU: 4000, Memory: 16 << 30, Pods: 110}})
	w.EnableUsage()
	spec := &PodSpec{RestartPolicy: RestartAlways, TerminationGracePeriod: 30 * time.Second, Containers: []ContainerSpec{
		{Name: "big", Image: "i", PullPolicy: PullIfNotPresent, Limits: Resources{Memory: 100 << 20},
			Behavior: &Behavior{Usage: Resources{Memory: 200 << 20}}},
		{Name: "busy", Image: "i", PullPolicy: PullIfNotPresent, Limits: Resources{MilliCPU: 500},
			Behavior: &Behavior{Usage: Resources{MilliCPU: 900}}}}}
	p := w.AddPod("p", spec, PodOptions{})
	w.Run(time.Minute)
	st := p.Status()
	big, _ := st.Container("big")
	if big.RestartCount < 2 || big.LastState.Reason != ReasonOOMKilled || big.LastState.ExitCode != 137 {
		t.Errorf("big: %+v, want OOM-killed and restarted", big)
	}
	if cpu, _, _ := p.Usage("busy"); cpu != 500 {
		t.Errorf("busy uses %dm CPU, want 500m (its limit)", cpu)
	}
}
