package model

import (
	"slices"
	"strings"
	"testing"
	"time"
)

func pct(v int) IntOrPercent { return IntOrPercent{Value: v, Percent: true} }

// The examples of ResolveFenceposts' doc comment, and the defaults.
func TestResolveFenceposts(t *testing.T) {
	for _, tc := range []struct {
		surge, unavailable IntOrPercent
		desired            int
		wantSurge, wantU   int
	}{
		{pct(0), pct(1), 2, 0, 1},
		{pct(0), pct(1), 1, 0, 1},
		{pct(1), pct(25), 2, 1, 0},
		{pct(1), pct(25), 1, 1, 0},
		{pct(1), pct(0), 2, 1, 0},
		{pct(25), pct(25), 4, 1, 1},
		{pct(25), pct(25), 3, 1, 0},
		{pct(25), pct(25), 10, 3, 2},
		{IntOrPercent{Value: 3}, IntOrPercent{Value: 2}, 10, 3, 2},
		{IntOrPercent{}, IntOrPercent{}, 5, 0, 1},
	} {
		s, u := resolveFenceposts(tc.surge, tc.unavailable, tc.desired)
		if s != tc.wantSurge || u != tc.wantU {
			t.Errorf("resolveFenceposts(%+v, %+v, %d) = %d, %d; want %d, %d", tc.surge, tc.unavailable, tc.desired, s, u, tc.wantSurge, tc.wantU)
		}
	}
}

func TestMaxUnavailableCapped(t *testing.T) {
	s := WorkloadSpec{Replicas: 2, MaxSurge: pct(0), MaxUnavailable: IntOrPercent{Value: 5}}
	if got := s.maxUnavailable(); got != 2 {
		t.Errorf("maxUnavailable = %d, want 2 (at most replicas)", got)
	}
	s.Strategy = Recreate
	if got, surge := s.maxUnavailable(), s.maxSurge(); got != 0 || surge != 0 {
		t.Errorf("Recreate: maxUnavailable %d, maxSurge %d; want 0, 0", got, surge)
	}
}

func TestNewRSNewReplicas(t *testing.T) {
	for _, tc := range []struct {
		spec           WorkloadSpec
		total, current int
		want           int
	}{
		{WorkloadSpec{Replicas: 10, MaxSurge: IntOrPercent{Value: 3}}, 10, 0, 3},       // a rollout starts
		{WorkloadSpec{Replicas: 10, MaxSurge: IntOrPercent{Value: 3}}, 11, 3, 5},       // old went down by 2
		{WorkloadSpec{Replicas: 10, MaxSurge: IntOrPercent{Value: 3}}, 13, 3, 3},       // at the surge limit
		{WorkloadSpec{Replicas: 10, MaxSurge: IntOrPercent{Value: 3}}, 0, 0, 10},       // a first ReplicaSet
		{WorkloadSpec{Replicas: 3, MaxSurge: pct(0), MaxUnavailable: pct(1)}, 2, 0, 1}, // no surge: 3 - 2
		{WorkloadSpec{Replicas: 4, Strategy: Recreate}, 4, 0, 4},
	} {
		if got := tc.spec.newRSNewReplicas(tc.total, tc.current); got != tc.want {
			t.Errorf("%+v: newRSNewReplicas(%d, %d) = %d, want %d", tc.spec, tc.total, tc.current, got, tc.want)
		}
	}
}

func TestProportion(t *testing.T) {
	for _, tc := range []struct {
		name                                                  string
		rs, maxReplicas, d, surge, status, toAdd, added, want int
	}{
		{"half of a scale from 10 to 20", 5, 12, 20, 2, 12, 10, 0, 4}, // 5*22/12 = 9.17 -> 9, +4
		{"capped by what is left", 5, 12, 20, 2, 12, 10, 8, 2},
		{"scale down", 6, 12, 5, 1, 12, -6, 0, -3}, // 6*6/12 = 3
		{"to zero", 6, 12, 0, 0, 12, -12, 0, -6},
		{"nothing to add", 6, 12, 10, 2, 12, 0, 0, 0},
		{"no annotation: the status", 4, 0, 16, 0, 8, 8, 0, 4},
	} {
		if got := proportion(tc.rs, tc.maxReplicas, tc.d, tc.surge, tc.status, tc.toAdd, tc.added); got != tc.want {
			t.Errorf("%s: proportion = %d, want %d", tc.name, got, tc.want)
		}
	}
}

func TestSortBySize(t *testing.T) {
	a := &replicaSet{name: "a", replicas: 3, created: 1 * time.Second}
	b := &replicaSet{name: "b", replicas: 3, created: 5 * time.Second}
	c := &replicaSet{name: "c", replicas: 7, created: 9 * time.Second}
	d := &replicaSet{name: "d", replicas: 3, created: 5*time.Second + time.Millisecond} // same second as b: by name
	names := func(rss []*replicaSet) string {
		var s []string
		for _, rs := range rss {
			s = append(s, rs.name)
		}
		return strings.Join(s, " ")
	}
	rss := []*replicaSet{a, b, c, d}
	sortBySize(rss, true)
	if got := names(rss); got != "c d b a" {
		t.Errorf("newer first: %s, want c d b a", got)
	}
	sortBySize(rss, false)
	if got := names(rss); got != "c a b d" {
		t.Errorf("older first: %s, want c a b d", got)
	}
}

// rolloutWorld is one roomy node and a Deployment "web" of replicas pods,
// ready at once, which rolls out to image "bad" at 1m: its pods crash two
// seconds after each start and never pass their readiness probe.
func rolloutWorld(t *testing.T, s WorkloadSpec) (*World, *Workload) {
	t.Helper()
	w := newWorld(1, DefaultSettings())
	w.AddNode(NodeSpec{Name: "a", Capacity: Resources{MilliCPU: 64000, Memory: 64 << 30, Pods: 110}})
	s.Kind, s.Name = KindDeployment, "web"
	s.Template = appSpec(100, nil, RestartAlways)
	s.Template.Containers[0].Readiness = &ProbeSpec{Handler: "httpGet", Period: 5 * time.Second, SuccessThreshold: 1, FailureThreshold: 3}
	wl := w.AddWorkload(s)
	w.Schedule(time.Minute, func() {
		bad := *wl.Template()
		bad.Containers = slices.Clone(bad.Containers)
		bad.Containers[0].Image = "bad"
		bad.Containers[0].Behavior = &Behavior{StartupTime: time.Minute, Runs: []RunSpec{{ExitAfter: 2 * time.Second, ExitCode: 1, Times: 1}}}
		wl.Rollout(&bad)
	})
	return w, wl
}

// scalingEvents lists the ScalingReplicaSet messages, with the ReplicaSets'
// names written old and new.
func scalingEvents(w *World, wl *Workload) []string {
	var out []string
	for _, e := range w.EventsFor(KindDeployment, wl.Spec.Name) {
		if e.Reason == "ScalingReplicaSet" {
			m := e.Message
			for i, rs := range wl.rc.rss {
				m = strings.ReplaceAll(m, rs.name, []string{"old", "new"}[i])
			}
			out = append(out, m)
		}
	}
	return out
}

// The example in reconcileOldReplicaSets' comment: 10 replicas, maxSurge 3,
// maxUnavailable 2, a new template whose pods never become available: the
// new ReplicaSet is created with 3, the old one goes to 8, the new one to
// 5, and there it stops (13 pods - 8 available wanted - 5 unavailable new).
func TestRollingUpdateStopsOnUnavailablePods(t *testing.T) {
	deadline := 2 * time.Minute
	w, wl := rolloutWorld(t, WorkloadSpec{Replicas: 10, MaxSurge: IntOrPercent{Value: 3}, MaxUnavailable: IntOrPercent{Value: 2},
		ProgressDeadline: &deadline})
	w.Run(10 * time.Minute)
	want := []string{
		"Scaled up replica set old from 0 to 10",
		"Scaled up replica set new from 0 to 3",
		"Scaled down replica set old from 10 to 8",
		"Scaled up replica set new from 3 to 5",
	}
	if got := scalingEvents(w, wl); !slices.Equal(got, want) {
		t.Errorf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	st := wl.ReplicaStatus()
	if st != (ReplicaStatus{Replicas: 13, UpdatedReplicas: 5, ReadyReplicas: 8, AvailableReplicas: 8, UnavailableReplicas: 5}) {
		t.Errorf("status %+v", st)
	}
	c, _ := wl.Condition(DeploymentProgressing)
	if c.Status != False || c.Reason != ReasonProgressDeadlineExceeded || c.LastTransitionTime != time.Minute+deadline+time.Second {
		t.Errorf("Progressing %+v, want False ProgressDeadlineExceeded at 3m1s", c)
	}
	if c, _ := wl.Condition(DeploymentAvailable); c.Status != True {
		t.Errorf("Available %+v, want True: 8 of 10 with maxUnavailable 2", c)
	}
}

// A scale during a stuck rollout is shared out in proportion
// (deployment controller's scale): from 10 to 20, the 8 old and 5 new
// pods were scaled for 13 (10 + maxSurge 3) and now get their share of 23.
func TestScaleDuringRolloutIsProportional(t *testing.T) {
	w, wl := rolloutWorld(t, WorkloadSpec{Replicas: 10, MaxSurge: IntOrPercent{Value: 3}, MaxUnavailable: IntOrPercent{Value: 2}})
	w.Schedule(5*time.Minute, func() { wl.Scale(20) })
	w.Run(6 * time.Minute)
	got := scalingEvents(w, wl)
	want := []string{"Scaled up replica set old from 8 to 14", "Scaled up replica set new from 5 to 9"}
	if len(got) < 2 || !slices.Equal(got[len(got)-2:], want) {
		t.Errorf("events:\n%s\nwant them to end with:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if old, nw := wl.rc.rss[0].replicas, wl.rc.rss[1].replicas; old+nw != 23 {
		t.Errorf("replicas %d + %d, want 23 (20 + maxSurge 3)", old, nw)
	}
}

// Recreate waits until the old pods are gone, then makes all new ones.
func TestRecreateWaitsForOldPods(t *testing.T) {
	w, wl := rolloutWorld(t, WorkloadSpec{Replicas: 3, Strategy: Recreate})
	wl.Spec.Template.Containers[0].Behavior = &Behavior{ShutdownTime: 7 * time.Second}
	w.Run(time.Minute + 6*time.Second)
	if got := scalingEvents(w, wl); !slices.Equal(got, []string{"Scaled up replica set old from 0 to 3", "Scaled down replica set old from 3 to 0"}) {
		t.Errorf("at 1m6s: %q", got)
	}
	w.Run(time.Minute + 7*time.Second)
	if got := scalingEvents(w, wl); len(got) != 3 || got[2] != "Scaled up replica set new from 0 to 3" {
		t.Errorf("at 1m7s: %q", got)
	}
}

// minReadySeconds: a pod is counted available once Ready for longer, when
// the controller looks again a second after that.
func TestMinReadySeconds(t *testing.T) {
	w := newWorld(1, DefaultSettings())
	w.AddNode(NodeSpec{Name: "a", Capacity: Resources{MilliCPU: 4000, Memory: 8 << 30, Pods: 110}})
	wl := w.AddWorkload(WorkloadSpec{Kind: KindReplicaSet, Name: "rs", Replicas: 2, MinReadySeconds: 10,
		Template: appSpec(100, nil, RestartAlways)})
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
