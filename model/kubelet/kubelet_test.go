package kubelet

import (
	"slices"
	"testing"
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/model/kubelet/prober"
)

// world builds a one-node world with one pod whose container "app" behaves as b.
func world(t *testing.T, policy model.RestartPolicy, b *model.Behavior, st model.Settings) (*model.World, *model.Pod) {
	t.Helper()
	w := newWorld(1, st)
	w.Subscribe(&model.Timeline{})
	w.AddNode(model.NodeSpec{Name: "n", Capacity: model.Resources{MilliCPU: 4000, Memory: 1 << 34, Pods: 110}})
	p := w.AddPod("p", &model.PodSpec{RestartPolicy: policy, TerminationGracePeriod: 30 * time.Second,
		Containers: []model.ContainerSpec{{Name: "app", Image: "img", PullPolicy: model.PullIfNotPresent, Behavior: b}}}, model.PodOptions{})
	return w, p
}

// starts lists the times (in seconds) at which container app started.
func starts(w *model.World) []float64 {
	var out []float64
	for _, c := range timelines[w].Changes {
		if c.Kind == model.ChangeContainer && c.Container == "app" && c.State == model.StateRunning {
			out = append(out, c.T.Seconds())
		}
	}
	return out
}

func TestCrashBackoffSequence(t *testing.T) {
	dies := &model.Behavior{Runs: []model.RunSpec{{ExitAfter: 0, ExitCode: 1, Times: 1}}}
	tests := []struct {
		name  string
		st    func(*model.Settings)
		until time.Duration
		want  []float64
	}{
		{"kubernetes defaults", nil, 11 * time.Minute, []float64{0, 0, 10, 30, 70, 150, 310, 610}},
		{"KEP-4603 style 1s..60s", func(s *model.Settings) { s.CrashLoopBackOff.Initial, s.CrashLoopBackOff.Max = time.Second, time.Minute },
			210 * time.Second, []float64{0, 0, 1, 3, 7, 15, 31, 63, 123, 183}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := model.DefaultSettings()
			if tc.st != nil {
				tc.st(&st)
			}
			w, p := world(t, model.RestartAlways, dies, st)
			w.Run(tc.until)
			if got := starts(w); !slices.Equal(got, tc.want) {
				t.Errorf("starts = %v, want %v", got, tc.want)
			}
			ps := p.Status()
			cs, _ := ps.Container("app")
			if cs.State.Reason != model.ReasonCrashLoopBackOff {
				t.Errorf("state = %+v, want Waiting CrashLoopBackOff", cs.State)
			}
		})
	}
}

func TestCrashBackoffResetsAfterLongRun(t *testing.T) {
	// Three quick crashes (0, 0, 10, 30), then a run of 11 minutes: its exit
	// comes more than resetAfter (10m) after the last restart decision, so the
	// next restart is immediate and the delay starts over at 10s.
	b := &model.Behavior{Runs: []model.RunSpec{
		{ExitAfter: 0, ExitCode: 1, Times: 3},
		{ExitAfter: 11 * time.Minute, ExitCode: 1, Times: 1},
		{ExitAfter: 0, ExitCode: 1, Times: 1},
	}}
	w, _ := world(t, model.RestartAlways, b, model.DefaultSettings())
	w.Run(13 * time.Minute)
	want := []float64{0, 0, 10, 30, 690, 700, 720, 760}
	if got := starts(w); !slices.Equal(got, want) {
		t.Errorf("starts = %v, want %v", got, want)
	}
}

func TestRestartPolicies(t *testing.T) {
	tests := []struct {
		policy   model.RestartPolicy
		code     int32
		phase    model.Phase
		restarts int32
	}{
		{model.RestartAlways, 0, model.Running, 1},
		{model.RestartAlways, 1, model.Running, 1},
		{model.RestartOnFailure, 0, model.Succeeded, 0},
		{model.RestartOnFailure, 1, model.Running, 1},
		{model.RestartNever, 0, model.Succeeded, 0},
		{model.RestartNever, 1, model.Failed, 0},
	}
	for _, tc := range tests {
		b := &model.Behavior{Runs: []model.RunSpec{{ExitAfter: time.Minute, ExitCode: tc.code, Times: 1}, {Forever: true, Times: 1}}}
		w, p := world(t, tc.policy, b, model.DefaultSettings())
		w.Run(90 * time.Second)
		st := p.Status()
		cs, _ := st.Container("app")
		if p.Phase() != tc.phase || cs.RestartCount != tc.restarts {
			t.Errorf("%s exit %d: phase %s restarts %d, want %s %d", tc.policy, tc.code, p.Phase(), cs.RestartCount, tc.phase, tc.restarts)
		}
	}
}

func TestTerminalPhaseNeverChanges(t *testing.T) {
	b := &model.Behavior{Runs: []model.RunSpec{{ExitAfter: time.Second, ExitCode: 1, Times: 1}}}
	w, p := world(t, model.RestartNever, b, model.DefaultSettings())
	w.Run(time.Minute)
	if p.Phase() != model.Failed {
		t.Fatalf("phase %s, want Failed", p.Phase())
	}
	if !p.ExitContainer("app", 0) && p.Phase() != model.Failed {
		t.Errorf("phase moved off Failed")
	}
	if got := p.Phases(); !slices.Equal(got, []model.Phase{model.Pending, model.Running, model.Failed}) {
		t.Errorf("phases %v", got)
	}
}

func TestGetPhase(t *testing.T) {
	running := model.ContainerState{Kind: model.StateRunning}
	waiting := model.ContainerState{Kind: model.StateWaiting, Reason: model.ReasonContainerCreating}
	exit := func(code int32) model.ContainerState {
		return model.ContainerState{Kind: model.StateTerminated, ExitCode: code}
	}
	type cs struct {
		state, last model.ContainerState
		started     bool
	}
	tests := []struct {
		name    string
		policy  model.RestartPolicy
		init    []cs
		sidecar []bool
		regular []cs
		want    model.Phase
	}{
		{"all running", model.RestartAlways, nil, nil, []cs{{state: running}, {state: running}}, model.Running},
		{"one still creating", model.RestartAlways, nil, nil, []cs{{state: running}, {state: waiting}}, model.Pending},
		{"crash loop counts as stopped", model.RestartAlways, nil, nil,
			[]cs{{state: model.ContainerState{Kind: model.StateWaiting, Reason: model.ReasonCrashLoopBackOff}, last: exit(1)}}, model.Running},
		{"never: one failed, one running", model.RestartNever, nil, nil, []cs{{state: exit(1)}, {state: running}}, model.Running},
		{"never: all stopped, one failed", model.RestartNever, nil, nil, []cs{{state: exit(1)}, {state: exit(0)}}, model.Failed},
		{"onfailure: all succeeded", model.RestartOnFailure, nil, nil, []cs{{state: exit(0)}, {state: exit(0)}}, model.Succeeded},
		{"onfailure: a failure waits to restart", model.RestartOnFailure, nil, nil, []cs{{state: exit(1)}}, model.Running},
		{"init running", model.RestartAlways, []cs{{state: running}}, []bool{false}, []cs{{state: waiting}}, model.Pending},
		{"init failed under never", model.RestartNever, []cs{{state: exit(1)}}, []bool{false}, []cs{{state: waiting}}, model.Failed},
		{"init failed under always: pending", model.RestartAlways, []cs{{state: exit(1)}}, []bool{false}, []cs{{state: waiting}}, model.Pending},
		{"sidecar not started yet", model.RestartNever, []cs{{state: running}}, []bool{true}, []cs{{state: waiting}}, model.Pending},
		// The kubelet stops sidecars once the regular containers are done;
		// until then the sidecar keeps the pod Running.
		{"job done, sidecar not stopped yet", model.RestartNever, []cs{{state: running, started: true}}, []bool{true}, []cs{{state: exit(0)}}, model.Running},
		{"job done, sidecar stopped", model.RestartNever, []cs{{state: exit(143), started: false}}, []bool{true}, []cs{{state: exit(0)}}, model.Succeeded},
	}
	for _, tc := range tests {
		p := &podState{Pod: &model.Pod{Spec: &model.PodSpec{RestartPolicy: tc.policy}}}
		for i, c := range tc.init {
			spec := &model.ContainerSpec{Name: "i", Sidecar: tc.sidecar[i]}
			p.init = append(p.init, &container{Container: prober.Container{Spec: spec, Status: &model.ContainerStatus{State: c.state, LastState: c.last, Started: c.started}}})
		}
		for _, c := range tc.regular {
			st := model.ContainerStatus{State: c.state, LastState: c.last}
			k := &container{Container: prober.Container{Spec: &model.ContainerSpec{Name: "c"}, Status: &st}}
			if c.state.Kind != model.StateWaiting || c.last.Kind != 0 {
				k.Run.Starts = 1
			}
			p.regular = append(p.regular, k)
		}
		if got := p.computePhase(); got != tc.want {
			t.Errorf("%s: phase %s, want %s", tc.name, got, tc.want)
		}
	}
}

func TestPullAlwaysWithInstantPullStarts(t *testing.T) {
	// An untagged or :latest image defaults to imagePullPolicy Always; with a
	// 0s pull the container must still start.
	w := newWorld(1, model.DefaultSettings())
	w.AddNode(model.NodeSpec{Name: "n", Capacity: model.Resources{MilliCPU: 4000, Memory: 1 << 34, Pods: 110}})
	p := w.AddPod("p", &model.PodSpec{RestartPolicy: model.RestartAlways, TerminationGracePeriod: 30 * time.Second,
		Containers: []model.ContainerSpec{{Name: "app", Image: "nginx", PullPolicy: model.PullAlways}}}, model.PodOptions{})
	w.Run(time.Minute)
	if p.Phase() != model.Running {
		t.Fatalf("phase %s, want Running", p.Phase())
	}
}

func TestForceDeleteRemovesAtOnceEvenOnAnUnreachableNode(t *testing.T) {
	w, p := world(t, model.RestartAlways, nil, model.DefaultSettings())
	w.Schedule(time.Minute, func() { w.Node("n").Partition(nil) })
	w.Schedule(2*time.Minute, func() { p.Delete(new(time.Duration)) })
	w.Run(3 * time.Minute)
	if !p.Deleted() || p.DeletedAt() != 2*time.Minute {
		t.Errorf("deleted %v at %v, want removed at 2m", p.Deleted(), p.DeletedAt())
	}
}

func TestProbeKillRestartsWeighTheRunBefore(t *testing.T) {
	// A liveness probe that always fails, 3 x 10s: the kubelet kills at 30s,
	// 60s, 90s, 120s and restarts at once each time (its backoff check sees
	// the run before the killed one), then waits from 150s.
	st := model.DefaultSettings()
	b := &model.Behavior{StartupTime: time.Hour}
	for _, tc := range []struct {
		policy model.RestartPolicy
		want   []float64
		phase  model.Phase
	}{
		{model.RestartAlways, []float64{0, 30, 60, 90, 120, 190}, model.Running},
		// OnFailure restarts after a probe kill even on exit 0, in the same
		// sync; but once that restart is refused by the backoff, the next
		// sync sees a container that exited 0, which OnFailure leaves be.
		{model.RestartOnFailure, []float64{0, 30, 60, 90, 120}, model.Succeeded},
	} {
		w := newWorld(1, st)
		w.Subscribe(&model.Timeline{})
		w.AddNode(model.NodeSpec{Name: "n", Capacity: model.Resources{MilliCPU: 4000, Memory: 1 << 34, Pods: 110}})
		p := w.AddPod("p", &model.PodSpec{RestartPolicy: tc.policy, TerminationGracePeriod: 30 * time.Second,
			Containers: []model.ContainerSpec{{Name: "app", Image: "img", PullPolicy: model.PullIfNotPresent, Behavior: b,
				Liveness: &model.ProbeSpec{Handler: "httpGet", Period: 10 * time.Second, Timeout: time.Second, SuccessThreshold: 1, FailureThreshold: 3}}}}, model.PodOptions{})
		w.Run(200 * time.Second)
		if got := starts(w); !slices.Equal(got, tc.want) || p.Phase() != tc.phase {
			t.Errorf("%s: starts = %v, phase %s; want %v, %s", tc.policy, got, p.Phase(), tc.want, tc.phase)
		}
	}
}

// TestSinceStartWindowFollowsEachStart checks that a liveness window since
// each start fails every run at the first probe 12s or more after its start,
// wherever the restarts drift.
func TestSinceStartWindowFollowsEachStart(t *testing.T) {
	for _, mode := range []model.KubeletSync{model.SyncExact, model.SyncRealistic} {
		st := model.DefaultSettings()
		st.KubeletSync = mode
		w := newWorld(3, st)
		var tl model.Timeline
		w.Subscribe(&tl)
		w.AddNode(model.NodeSpec{Name: "n", Capacity: model.Resources{MilliCPU: 4000, Memory: 1 << 34, Pods: 110}})
		b := &model.Behavior{}
		b.ProbeFailures[model.Liveness] = []model.Window{{From: 12 * time.Second, SinceStart: true}}
		live := &model.ProbeSpec{Handler: "exec", Period: 5 * time.Second, Timeout: time.Second, SuccessThreshold: 1, FailureThreshold: 1}
		w.AddPod("p", &model.PodSpec{RestartPolicy: model.RestartAlways, TerminationGracePeriod: 0,
			Containers: []model.ContainerSpec{{Name: "app", Image: "img", PullPolicy: model.PullIfNotPresent, Behavior: b, Liveness: live}}}, model.PodOptions{})
		w.Run(20 * time.Minute)
		var started time.Duration
		kills := 0
		for _, c := range tl.Changes {
			switch {
			case c.Kind == model.ChangeContainer && c.State == model.StateRunning:
				started = c.T
			case c.Kind == model.ChangeEvent && c.Reason == "Killing":
				kills++
				if since := c.T - started; since < 12*time.Second || since >= 17*time.Second {
					t.Fatalf("%s: killed at %s, %s after its start at %s; want the first tick 12s or more after", mode, c.T, since, started)
				}
			}
		}
		if kills < 5 {
			t.Errorf("%s: %d liveness kills in 20m, want a kill per run", mode, kills)
		}
	}
}
