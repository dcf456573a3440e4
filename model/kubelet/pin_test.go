package kubelet

import (
	"testing"
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/model/kubelet/prober"
)

// Tests that pin rules a mutation probe could drop without any other test
// noticing. Each names the rule it pins.

// events returns the times of the pod's events with reason.
func eventTimes(w *model.World, pod, reason string) []time.Duration {
	var out []time.Duration
	for _, c := range timelines[w].Changes {
		if c.Kind == model.ChangeEvent && c.Pod == pod && c.Reason == reason {
			out = append(out, c.T)
		}
	}
	return out
}

// TestProbeWaitsForInitialDelay pins doProbe's initialDelay check: a
// liveness probe that always fails, every 10s after an initial delay of
// 35s, probes first at 40s (the first tick whose whole seconds since the
// start reach 35), every tick run or the no-op ones skipped.
func TestProbeWaitsForInitialDelay(t *testing.T) {
	for _, everyTick := range []bool{true, false} {
		b := &model.Behavior{ProbeFailures: [3][]model.Window{model.Liveness: {{From: 0}}}}
		w, p := world(t, model.RestartAlways, b, model.DefaultSettings())
		w.SetProbeEveryTick(everyTick)
		p.Spec.Containers[0].Liveness = &model.ProbeSpec{Handler: "exec", InitialDelay: 35 * time.Second, Period: 10 * time.Second,
			Timeout: time.Second, SuccessThreshold: 1, FailureThreshold: 1}
		w.Run(45 * time.Second)
		got := eventTimes(w, "p", "Unhealthy")
		if len(got) == 0 || got[0] != 40*time.Second {
			t.Errorf("everyTick=%v: Unhealthy at %v, want first at 40s", everyTick, got)
		}
	}
}

// TestPreStopTimeCountsInWholeSeconds pins the preStop hook's truncation:
// the kubelet takes the hook's time off the grace period in whole seconds.
// Grace 10s, a hook of 2.5s and an app that never exits on SIGTERM:
// SIGTERM at 2.5s with 10s - 2s = 8s left, so SIGKILL at 10.5s after the
// delete (not at 10s, as an exact subtraction would give).
func TestPreStopTimeCountsInWholeSeconds(t *testing.T) {
	b := &model.Behavior{ShutdownTime: time.Hour, PreStop: model.HookBehavior{Duration: 2500 * time.Millisecond}}
	w, p := world(t, model.RestartAlways, b, model.DefaultSettings())
	p.Spec.Containers[0].PreStop = "exec"
	grace := 10 * time.Second
	w.Schedule(time.Minute, func() { p.Delete(&grace) })
	w.Run(2 * time.Minute)
	var killedAt time.Duration = -1
	for _, c := range timelines[w].Changes {
		if c.Kind == model.ChangeContainer && c.State == model.StateTerminated {
			killedAt = c.T
			if c.ExitCode != 137 {
				t.Errorf("exit code %d, want 137 (SIGKILL)", c.ExitCode)
			}
		}
	}
	if want := time.Minute + 10500*time.Millisecond; killedAt != want {
		t.Errorf("container terminated at %s, want %s", killedAt, want)
	}
}

// TestPendingSidecarKeepsPodPending pins computePhase's pendingSidecar rule
// where nothing else keeps the pod Pending: a sidecar runs but has not
// started (its startup probe has not passed), and the regular container's
// status is not Running or Terminated (it waits in CrashLoopBackOff, which
// counts as stopped): upstream's getPhase says Pending, not Running.
func TestPendingSidecarKeepsPodPending(t *testing.T) {
	p := &podState{Pod: &model.Pod{Spec: &model.PodSpec{RestartPolicy: model.RestartAlways}}}
	p.init = []*container{{Container: prober.Container{Spec: &model.ContainerSpec{Name: "side", Sidecar: true},
		Status: &model.ContainerStatus{State: model.ContainerState{Kind: model.StateRunning}}}}}
	p.regular = []*container{{Container: prober.Container{Spec: &model.ContainerSpec{Name: "app"}, Run: prober.Run{Starts: 1},
		Status: &model.ContainerStatus{State: model.ContainerState{Kind: model.StateWaiting, Reason: model.ReasonCrashLoopBackOff},
			LastState: model.ContainerState{Kind: model.StateTerminated, ExitCode: 1}}}}}
	if got := p.computePhase(); got != model.Pending {
		t.Errorf("sidecar running, not started; app in CrashLoopBackOff: phase %s, want Pending", got)
	}
	p.init[0].Status.Started = true
	if got := p.computePhase(); got != model.Running {
		t.Errorf("sidecar started; app in CrashLoopBackOff: phase %s, want Running", got)
	}
}

// TestSchedulerScoresMemory pins memory in LeastAllocated's score: two
// nodes with the same free CPU, node a with most of its memory taken. A
// pod that asks for memory goes to b; scoring CPU alone would tie, and
// the first node scanned (a) would win.
func TestSchedulerScoresMemory(t *testing.T) {
	w := newWorld(1, model.DefaultSettings())
	w.Subscribe(&model.Timeline{})
	for _, n := range []string{"a", "b"} {
		w.AddNode(model.NodeSpec{Name: n, Capacity: model.Resources{MilliCPU: 4000, Memory: 8 << 30, Pods: 110}})
	}
	spec := func(node string, cpu, mem int64) *model.PodSpec {
		return &model.PodSpec{RestartPolicy: model.RestartAlways, NodeName: node, Containers: []model.ContainerSpec{{Name: "app", Image: "img",
			PullPolicy: model.PullIfNotPresent, Requests: model.Resources{MilliCPU: cpu, Memory: mem}}}}
	}
	w.AddPod("big", spec("a", 0, 6<<30), model.PodOptions{})
	p := w.AddPod("p", spec("", 500, 1<<30), model.PodOptions{})
	w.Run(time.Second)
	if p.Node == nil || p.Node.Name != "b" {
		t.Errorf("pod placed on %s, want b (more free memory)", p.Node.Name)
	}
}

// TestFailedPostStartWaitsForTheKillAndTheBackoff: a postStart hook that
// fails at once gets the container killed (5s to shut down); the kubelet
// does not start it again while the old process is still being killed,
// and each restart waits for the crash backoff from the kill's end. (It
// used to restart at once while the kill ran, and once the backoff had
// grown to its maximum, loop forever at one instant.)
func TestFailedPostStartWaitsForTheKillAndTheBackoff(t *testing.T) {
	b := &model.Behavior{ShutdownTime: 5 * time.Second, PostStart: model.HookBehavior{Fail: true}}
	w, p := world(t, model.RestartAlways, b, model.DefaultSettings())
	p.Spec.Containers[0].PostStart = "exec"
	for n := 0; ; n++ {
		at, ok := w.Engine().Peek()
		if !ok || at > 20*time.Minute {
			break
		}
		if n == 100000 {
			t.Fatalf("no end at %s: a loop", at)
		}
		w.Engine().Step()
	}
	started := eventTimes(w, "p", "Started")
	var ended []time.Duration
	for _, c := range timelines[w].Changes {
		if c.Kind == model.ChangeContainer && c.State == model.StateTerminated {
			ended = append(ended, c.T)
		}
	}
	// Kills end 5s after each start; backoff 10s, 20s, ... from each end:
	// starts at 0, 5 (the first restart is immediate), 20, 45, 90, ...
	want := []time.Duration{0, 5, 20, 45, 90, 175, 340, 645, 950}
	if len(started) != len(want) {
		t.Fatalf("started at %v, want %v s", started, want)
	}
	for i := range want {
		if started[i] != want[i]*time.Second {
			t.Errorf("start %d at %s, want %ds", i, started[i], want[i])
		}
		if i > 0 && started[i] < ended[i-1] {
			t.Errorf("start %d at %s before the kill of run %d ended at %s", i, started[i], i-1, ended[i-1])
		}
	}
}
