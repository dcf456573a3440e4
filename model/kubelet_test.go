package model

import (
	"slices"
	"testing"
	"time"
)

// world builds a one-node world with one pod whose container "app" behaves as b.
func world(t *testing.T, policy RestartPolicy, b *Behavior, st Settings) (*World, *Pod) {
	t.Helper()
	w := newWorld(1, st)
	w.Subscribe(&Timeline{})
	w.AddNode(NodeSpec{Name: "n", Capacity: Resources{MilliCPU: 4000, Memory: 1 << 34, Pods: 110}})
	p := w.AddPod("p", &PodSpec{RestartPolicy: policy, TerminationGracePeriod: 30 * time.Second,
		Containers: []ContainerSpec{{Name: "app", Image: "img", PullPolicy: PullIfNotPresent, Behavior: b}}}, PodOptions{})
	return w, p
}

// starts lists the times (in seconds) at which container app started.
func starts(w *World) []float64 {
	var out []float64
	for _, c := range w.sinks[0].(*Timeline).Changes {
		if c.Kind == ChangeContainer && c.Container == "app" && c.State == StateRunning {
			out = append(out, c.T.Seconds())
		}
	}
	return out
}

func TestCrashBackoffSequence(t *testing.T) {
	dies := &Behavior{Runs: []RunSpec{{ExitAfter: 0, ExitCode: 1, Times: 1}}}
	tests := []struct {
		name  string
		st    func(*Settings)
		until time.Duration
		want  []float64
	}{
		{"kubernetes defaults", nil, 11 * time.Minute, []float64{0, 0, 10, 30, 70, 150, 310, 610}},
		{"KEP-4603 style 1s..60s", func(s *Settings) { s.CrashLoopBackOff.Initial, s.CrashLoopBackOff.Max = time.Second, time.Minute },
			210 * time.Second, []float64{0, 0, 1, 3, 7, 15, 31, 63, 123, 183}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := DefaultSettings()
			if tc.st != nil {
				tc.st(&st)
			}
			w, p := world(t, RestartAlways, dies, st)
			w.Run(tc.until)
			if got := starts(w); !slices.Equal(got, tc.want) {
				t.Errorf("starts = %v, want %v", got, tc.want)
			}
			ps := p.Status()
			cs, _ := ps.Container("app")
			if cs.State.Reason != ReasonCrashLoopBackOff {
				t.Errorf("state = %+v, want Waiting CrashLoopBackOff", cs.State)
			}
		})
	}
}

func TestCrashBackoffResetsAfterLongRun(t *testing.T) {
	// Three quick crashes (0, 0, 10, 30), then a run of 11 minutes: its exit
	// comes more than resetAfter (10m) after the last restart decision, so the
	// next restart is immediate and the delay starts over at 10s.
	b := &Behavior{Runs: []RunSpec{
		{ExitAfter: 0, ExitCode: 1, Times: 3},
		{ExitAfter: 11 * time.Minute, ExitCode: 1, Times: 1},
		{ExitAfter: 0, ExitCode: 1, Times: 1},
	}}
	w, _ := world(t, RestartAlways, b, DefaultSettings())
	w.Run(13 * time.Minute)
	want := []float64{0, 0, 10, 30, 690, 700, 720, 760}
	if got := starts(w); !slices.Equal(got, want) {
		t.Errorf("starts = %v, want %v", got, want)
	}
}

func TestRestartPolicies(t *testing.T) {
	tests := []struct {
		policy   RestartPolicy
		code     int32
		phase    Phase
		restarts int32
	}{
		{RestartAlways, 0, Running, 1},
		{RestartAlways, 1, Running, 1},
		{RestartOnFailure, 0, Succeeded, 0},
		{RestartOnFailure, 1, Running, 1},
		{RestartNever, 0, Succeeded, 0},
		{RestartNever, 1, Failed, 0},
	}
	for _, tc := range tests {
		b := &Behavior{Runs: []RunSpec{{ExitAfter: time.Minute, ExitCode: tc.code, Times: 1}, {Forever: true, Times: 1}}}
		w, p := world(t, tc.policy, b, DefaultSettings())
		w.Run(90 * time.Second)
		st := p.Status()
		cs, _ := st.Container("app")
		if p.Phase() != tc.phase || cs.RestartCount != tc.restarts {
			t.Errorf("%s exit %d: phase %s restarts %d, want %s %d", tc.policy, tc.code, p.Phase(), cs.RestartCount, tc.phase, tc.restarts)
		}
	}
}

func TestTerminalPhaseNeverChanges(t *testing.T) {
	b := &Behavior{Runs: []RunSpec{{ExitAfter: time.Second, ExitCode: 1, Times: 1}}}
	w, p := world(t, RestartNever, b, DefaultSettings())
	w.Run(time.Minute)
	if p.Phase() != Failed {
		t.Fatalf("phase %s, want Failed", p.Phase())
	}
	if !p.ExitContainer("app", 0) && p.Phase() != Failed {
		t.Errorf("phase moved off Failed")
	}
	if got := p.Phases(); !slices.Equal(got, []Phase{Pending, Running, Failed}) {
		t.Errorf("phases %v", got)
	}
}

func TestGetPhase(t *testing.T) {
	running := ContainerState{Kind: StateRunning}
	waiting := ContainerState{Kind: StateWaiting, Reason: ReasonContainerCreating}
	exit := func(code int32) ContainerState { return ContainerState{Kind: StateTerminated, ExitCode: code} }
	type cs struct {
		state, last ContainerState
		started     bool
	}
	tests := []struct {
		name    string
		policy  RestartPolicy
		init    []cs
		sidecar []bool
		regular []cs
		want    Phase
	}{
		{"all running", RestartAlways, nil, nil, []cs{{state: running}, {state: running}}, Running},
		{"one still creating", RestartAlways, nil, nil, []cs{{state: running}, {state: waiting}}, Pending},
		{"crash loop counts as stopped", RestartAlways, nil, nil,
			[]cs{{state: ContainerState{Kind: StateWaiting, Reason: ReasonCrashLoopBackOff}, last: exit(1)}}, Running},
		{"never: one failed, one running", RestartNever, nil, nil, []cs{{state: exit(1)}, {state: running}}, Running},
		{"never: all stopped, one failed", RestartNever, nil, nil, []cs{{state: exit(1)}, {state: exit(0)}}, Failed},
		{"onfailure: all succeeded", RestartOnFailure, nil, nil, []cs{{state: exit(0)}, {state: exit(0)}}, Succeeded},
		{"onfailure: a failure waits to restart", RestartOnFailure, nil, nil, []cs{{state: exit(1)}}, Running},
		{"init running", RestartAlways, []cs{{state: running}}, []bool{false}, []cs{{state: waiting}}, Pending},
		{"init failed under never", RestartNever, []cs{{state: exit(1)}}, []bool{false}, []cs{{state: waiting}}, Failed},
		{"init failed under always: pending", RestartAlways, []cs{{state: exit(1)}}, []bool{false}, []cs{{state: waiting}}, Pending},
		{"sidecar not started yet", RestartNever, []cs{{state: running}}, []bool{true}, []cs{{state: waiting}}, Pending},
		// The kubelet stops sidecars once the regular containers are done;
		// until then the sidecar keeps the pod Running.
		{"job done, sidecar not stopped yet", RestartNever, []cs{{state: running, started: true}}, []bool{true}, []cs{{state: exit(0)}}, Running},
		{"job done, sidecar stopped", RestartNever, []cs{{state: exit(143), started: false}}, []bool{true}, []cs{{state: exit(0)}}, Succeeded},
	}
	for _, tc := range tests {
		p := &podState{Pod: &Pod{Spec: &PodSpec{RestartPolicy: tc.policy}}}
		for i, c := range tc.init {
			spec := &ContainerSpec{Name: "i", Sidecar: tc.sidecar[i]}
			p.init = append(p.init, &container{spec: spec, status: &ContainerStatus{State: c.state, LastState: c.last, Started: c.started}})
		}
		for _, c := range tc.regular {
			st := ContainerStatus{State: c.state, LastState: c.last}
			k := &container{spec: &ContainerSpec{Name: "c"}, status: &st}
			if c.state.Kind != StateWaiting || c.last.Kind != 0 {
				k.runs = 1
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
	w := newWorld(1, DefaultSettings())
	w.AddNode(NodeSpec{Name: "n", Capacity: Resources{MilliCPU: 4000, Memory: 1 << 34, Pods: 110}})
	p := w.AddPod("p", &PodSpec{RestartPolicy: RestartAlways, TerminationGracePeriod: 30 * time.Second,
		Containers: []ContainerSpec{{Name: "app", Image: "nginx", PullPolicy: PullAlways}}}, PodOptions{})
	w.Run(time.Minute)
	if p.Phase() != Running {
		t.Fatalf("phase %s, want Running", p.Phase())
	}
}

func TestForceDeleteRemovesAtOnceEvenOnAnUnreachableNode(t *testing.T) {
	w, p := world(t, RestartAlways, nil, DefaultSettings())
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
	st := DefaultSettings()
	b := &Behavior{StartupTime: time.Hour}
	for _, tc := range []struct {
		policy RestartPolicy
		want   []float64
		phase  Phase
	}{
		{RestartAlways, []float64{0, 30, 60, 90, 120, 190}, Running},
		// OnFailure restarts after a probe kill even on exit 0, in the same
		// sync; but once that restart is refused by the backoff, the next
		// sync sees a container that exited 0, which OnFailure leaves be.
		{RestartOnFailure, []float64{0, 30, 60, 90, 120}, Succeeded},
	} {
		w := newWorld(1, st)
		w.Subscribe(&Timeline{})
		w.AddNode(NodeSpec{Name: "n", Capacity: Resources{MilliCPU: 4000, Memory: 1 << 34, Pods: 110}})
		p := w.AddPod("p", &PodSpec{RestartPolicy: tc.policy, TerminationGracePeriod: 30 * time.Second,
			Containers: []ContainerSpec{{Name: "app", Image: "img", PullPolicy: PullIfNotPresent, Behavior: b,
				Liveness: &ProbeSpec{Handler: "httpGet", Period: 10 * time.Second, Timeout: time.Second, SuccessThreshold: 1, FailureThreshold: 3}}}}, PodOptions{})
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
	for _, mode := range []KubeletSync{SyncExact, SyncRealistic} {
		st := DefaultSettings()
		st.KubeletSync = mode
		w := newWorld(3, st)
		var tl Timeline
		w.Subscribe(&tl)
		w.AddNode(NodeSpec{Name: "n", Capacity: Resources{MilliCPU: 4000, Memory: 1 << 34, Pods: 110}})
		b := &Behavior{}
		b.ProbeFailures[Liveness] = []Window{{From: 12 * time.Second, SinceStart: true}}
		live := &ProbeSpec{Handler: "exec", Period: 5 * time.Second, Timeout: time.Second, SuccessThreshold: 1, FailureThreshold: 1}
		w.AddPod("p", &PodSpec{RestartPolicy: RestartAlways, TerminationGracePeriod: 0,
			Containers: []ContainerSpec{{Name: "app", Image: "img", PullPolicy: PullIfNotPresent, Behavior: b, Liveness: live}}}, PodOptions{})
		w.Run(20 * time.Minute)
		var started time.Duration
		kills := 0
		for _, c := range tl.Changes {
			switch {
			case c.Kind == ChangeContainer && c.State == StateRunning:
				started = c.T
			case c.Kind == ChangeEvent && c.Reason == "Killing":
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
