package prober

import (
	"fmt"
	"slices"
	"testing"
	"time"
	"unsafe"

	"github.com/podsim/podsim/model"
)

// fakeTarget is a container as a test drives it, in place of the
// kubelet's: the test starts its run; it records what the workers ask.
type fakeTarget struct {
	Container
	w     *model.World
	m     Manager
	kills []string // "<kind> at <time>"
	// Started and Ready as UpdateReady last made them.
	started, ready bool
}

func (t *fakeTarget) StartupTime() time.Duration { return 0 }
func (t *fakeTarget) WillRestart(int32) bool     { return true }
func (t *fakeTarget) RequestSync()               {}
func (t *fakeTarget) Prober() *Manager           { return &t.m }
func (t *fakeTarget) KillForProbe(k model.ProbeKind, _ *model.ProbeSpec) {
	t.kills = append(t.kills, fmt.Sprintf("%s at %s", k, t.w.Now()))
}
func (t *fakeTarget) UpdateReady() {
	t.started, t.ready = t.Probes.StartedReady(t.Status.State.Kind == model.StateRunning, t.Run.Starts)
}

// probed runs a pod bound to its node whose container starts at 1s, with
// a liveness probe every 10s (3 failures) that fails from 35s and a
// readiness probe every 5s, for 2 minutes, its workers made by a Manager
// for a fakeTarget; it returns the target and the Unhealthy messages.
func probed(t *testing.T, everyTick bool) (*fakeTarget, []string) {
	t.Helper()
	w := model.NewCore(1, model.DefaultSettings())
	w.SetProbeEveryTick(everyTick)
	tl := &model.Timeline{}
	w.Subscribe(tl)
	w.AddNode(model.NodeSpec{Name: "n", Capacity: model.Resources{MilliCPU: 4000, Memory: 8 << 30, Pods: 110}})
	probe := func(period time.Duration) *model.ProbeSpec {
		return &model.ProbeSpec{Handler: "exec", Period: period, Timeout: time.Second, SuccessThreshold: 1, FailureThreshold: 3}
	}
	spec := &model.PodSpec{NodeName: "n", RestartPolicy: model.RestartAlways, TerminationGracePeriod: 30 * time.Second,
		Containers: []model.ContainerSpec{{Name: "c", Image: "c", Liveness: probe(10 * time.Second), Readiness: probe(5 * time.Second),
			Behavior: &model.Behavior{ProbeFailures: [3][]model.Window{model.Liveness: {{From: 35 * time.Second}}}}}}}
	p := w.AddPod("p", spec, model.PodOptions{})
	ft := &fakeTarget{w: w, Container: Container{Spec: &p.Spec.Containers[0], Status: p.StatusOf(0)}}
	ft.m.AddContainer(&ft.Container, ft, p)
	w.Run(time.Second)
	ft.Run.Starts = 1
	p.SetContainerState(0, model.ContainerState{Kind: model.StateRunning, StartedAt: time.Second})
	ft.Probes.Wake()
	w.Run(2 * time.Minute)
	var msgs []string
	for _, ch := range tl.Changes {
		if ch.Kind == model.ChangeEvent && ch.Reason == "Unhealthy" {
			msgs = append(msgs, ch.Message)
		}
	}
	return ft, msgs
}

// The prober alone, through its Target: the readiness worker makes the
// container ready at its first tick; the liveness worker fails at 40s,
// 50s and 60s and has the container killed at 60s, once (it holds until
// a new run), whether every tick runs or only those that can do
// something, which are fewer.
func TestWorkersThroughTarget(t *testing.T) {
	var ticks [2][model.Startup + 1]int64
	for i, everyTick := range []bool{false, true} {
		ft, msgs := probed(t, everyTick)
		if want := []string{"Liveness at 1m0s"}; !slices.Equal(ft.kills, want) {
			t.Errorf("everyTick %v: kills %q, want %q", everyTick, ft.kills, want)
		}
		want := "Liveness probe failed: command terminated with exit code 1"
		if len(msgs) != 3 || msgs[0] != want || msgs[2] != want {
			t.Errorf("everyTick %v: Unhealthy messages %q, want 3 of %q", everyTick, msgs, want)
		}
		if !ft.started || !ft.ready {
			t.Errorf("everyTick %v: started %v ready %v, want both", everyTick, ft.started, ft.ready)
		}
		ticks[i] = ft.Probes.Ticks()
	}
	if skip, every := ticks[0][model.Liveness], ticks[1][model.Liveness]; every != 12 || skip >= every {
		t.Errorf("liveness ticks: %d skipping, %d every tick; want 12 every tick and fewer skipping", skip, every)
	}
}

// Reserve has the next n workers come from one array: each next to the
// last.
func TestReserveTakesOneArray(t *testing.T) {
	var m Manager
	const n = 600
	m.Reserve(n)
	prev := m.workers.New()
	for i := 1; i < n; i++ {
		w := m.workers.New()
		if uintptr(unsafe.Pointer(w))-uintptr(unsafe.Pointer(prev)) != unsafe.Sizeof(worker{}) {
			t.Fatalf("worker %d is not next to worker %d", i, i-1)
		}
		prev = w
	}
}
