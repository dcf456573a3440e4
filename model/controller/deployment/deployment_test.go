package deployment

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/model/controller/replicaset"
	"github.com/podsim/podsim/model/kubelet"
	"github.com/podsim/podsim/model/scheduler"
)

func pct(v int) model.IntOrPercent { return model.IntOrPercent{Value: v, Percent: true} }

// The examples of ResolveFenceposts' doc comment, and the defaults.
func TestResolveFenceposts(t *testing.T) {
	for _, tc := range []struct {
		surge, unavailable model.IntOrPercent
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
		{model.IntOrPercent{Value: 3}, model.IntOrPercent{Value: 2}, 10, 3, 2},
		{model.IntOrPercent{}, model.IntOrPercent{}, 5, 0, 1},
	} {
		s, u := resolveFenceposts(tc.surge, tc.unavailable, tc.desired)
		if s != tc.wantSurge || u != tc.wantU {
			t.Errorf("resolveFenceposts(%+v, %+v, %d) = %d, %d; want %d, %d", tc.surge, tc.unavailable, tc.desired, s, u, tc.wantSurge, tc.wantU)
		}
	}
}

func TestMaxUnavailableCapped(t *testing.T) {
	s := model.WorkloadSpec{Replicas: 2, MaxSurge: pct(0), MaxUnavailable: model.IntOrPercent{Value: 5}}
	if got := maxUnavailable(&s); got != 2 {
		t.Errorf("maxUnavailable = %d, want 2 (at most replicas)", got)
	}
	s.Strategy = model.Recreate
	if got, surge := maxUnavailable(&s), maxSurge(&s); got != 0 || surge != 0 {
		t.Errorf("model.Recreate: maxUnavailable %d, maxSurge %d; want 0, 0", got, surge)
	}
}

func TestNewRSNewReplicas(t *testing.T) {
	for _, tc := range []struct {
		spec           model.WorkloadSpec
		total, current int
		want           int
	}{
		{model.WorkloadSpec{Replicas: 10, MaxSurge: model.IntOrPercent{Value: 3}}, 10, 0, 3}, // a rollout starts
		{model.WorkloadSpec{Replicas: 10, MaxSurge: model.IntOrPercent{Value: 3}}, 11, 3, 5}, // old went down by 2
		{model.WorkloadSpec{Replicas: 10, MaxSurge: model.IntOrPercent{Value: 3}}, 13, 3, 3}, // at the surge limit
		{model.WorkloadSpec{Replicas: 10, MaxSurge: model.IntOrPercent{Value: 3}}, 0, 0, 10}, // a first ReplicaSet
		{model.WorkloadSpec{Replicas: 3, MaxSurge: pct(0), MaxUnavailable: pct(1)}, 2, 0, 1}, // no surge: 3 - 2
		{model.WorkloadSpec{Replicas: 4, Strategy: model.Recreate}, 4, 0, 4},
	} {
		if got := newRSNewReplicas(&tc.spec, tc.total, tc.current); got != tc.want {
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
	a := &model.ReplicaSet{Name: "a", Replicas: 3, Created: 1 * time.Second}
	b := &model.ReplicaSet{Name: "b", Replicas: 3, Created: 5 * time.Second}
	c := &model.ReplicaSet{Name: "c", Replicas: 7, Created: 9 * time.Second}
	d := &model.ReplicaSet{Name: "d", Replicas: 3, Created: 5*time.Second + time.Millisecond} // same second as b: by name
	names := func(rss []*model.ReplicaSet) string {
		var s []string
		for _, rs := range rss {
			s = append(s, rs.Name)
		}
		return strings.Join(s, " ")
	}
	rss := []*model.ReplicaSet{a, b, c, d}
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
func rolloutWorld(t *testing.T, s model.WorkloadSpec) (*model.World, *model.Workload) {
	t.Helper()
	w := newWorld()
	w.AddNode(model.NodeSpec{Name: "a", Capacity: model.Resources{MilliCPU: 64000, Memory: 64 << 30, Pods: 110}})
	s.Kind, s.Name = model.KindDeployment, "web"
	s.Template = appSpec(100)
	s.Template.Containers[0].Readiness = &model.ProbeSpec{Handler: "httpGet", Period: 5 * time.Second, SuccessThreshold: 1, FailureThreshold: 3}
	wl := w.AddWorkload(s)
	w.Schedule(time.Minute, func() {
		bad := *wl.Template()
		bad.Containers = slices.Clone(bad.Containers)
		bad.Containers[0].Image = "bad"
		bad.Containers[0].Behavior = &model.Behavior{StartupTime: time.Minute, Runs: []model.RunSpec{{ExitAfter: 2 * time.Second, ExitCode: 1, Times: 1}}}
		wl.Rollout(&bad)
	})
	return w, wl
}

// scalingEvents lists the ScalingReplicaSet messages, with the ReplicaSets'
// names written old and new.
func scalingEvents(w *model.World, wl *model.Workload) []string {
	var out []string
	for _, e := range w.EventsFor(model.KindDeployment, wl.Spec.Name) {
		if e.Reason() == "ScalingReplicaSet" {
			m := e.Message()
			for i, rs := range wl.ReplicaControl().Sets {
				m = strings.ReplaceAll(m, rs.Name, []string{"old", "new"}[i])
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
	w, wl := rolloutWorld(t, model.WorkloadSpec{Replicas: 10, MaxSurge: model.IntOrPercent{Value: 3}, MaxUnavailable: model.IntOrPercent{Value: 2},
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
	if st != (model.ReplicaStatus{Replicas: 13, UpdatedReplicas: 5, ReadyReplicas: 8, AvailableReplicas: 8, UnavailableReplicas: 5}) {
		t.Errorf("status %+v", st)
	}
	c, _ := wl.Condition(model.DeploymentProgressing)
	if c.Status != model.False || c.Reason != model.ReasonProgressDeadlineExceeded || c.LastTransitionTime != time.Minute+deadline+time.Second {
		t.Errorf("Progressing %+v, want model.False ProgressDeadlineExceeded at 3m1s", c)
	}
	if c, _ := wl.Condition(model.DeploymentAvailable); c.Status != model.True {
		t.Errorf("Available %+v, want model.True: 8 of 10 with maxUnavailable 2", c)
	}
}

// A scale during a stuck rollout is shared out in proportion
// (deployment controller's scale): from 10 to 20, the 8 old and 5 new
// pods were scaled for 13 (10 + maxSurge 3) and now get their share of 23.
func TestScaleDuringRolloutIsProportional(t *testing.T) {
	w, wl := rolloutWorld(t, model.WorkloadSpec{Replicas: 10, MaxSurge: model.IntOrPercent{Value: 3}, MaxUnavailable: model.IntOrPercent{Value: 2}})
	w.Schedule(5*time.Minute, func() { wl.Scale(20) })
	w.Run(6 * time.Minute)
	got := scalingEvents(w, wl)
	want := []string{"Scaled up replica set old from 8 to 14", "Scaled up replica set new from 5 to 9"}
	if len(got) < 2 || !slices.Equal(got[len(got)-2:], want) {
		t.Errorf("events:\n%s\nwant them to end with:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if old, nw := wl.ReplicaControl().Sets[0].Replicas, wl.ReplicaControl().Sets[1].Replicas; old+nw != 23 {
		t.Errorf("replicas %d + %d, want 23 (20 + maxSurge 3)", old, nw)
	}
}

// model.Recreate waits until the old pods are gone, then makes all new ones.
func TestRecreateWaitsForOldPods(t *testing.T) {
	w, wl := rolloutWorld(t, model.WorkloadSpec{Replicas: 3, Strategy: model.Recreate})
	wl.Spec.Template.Containers[0].Behavior = &model.Behavior{ShutdownTime: 7 * time.Second}
	w.Run(time.Minute + 6*time.Second)
	if got := scalingEvents(w, wl); !slices.Equal(got, []string{"Scaled up replica set old from 0 to 3", "Scaled down replica set old from 3 to 0"}) {
		t.Errorf("at 1m6s: %q", got)
	}
	w.Run(time.Minute + 7*time.Second)
	if got := scalingEvents(w, wl); len(got) != 3 || got[2] != "Scaled up replica set new from 0 to 3" {
		t.Errorf("at 1m7s: %q", got)
	}
}

// newWorld is a world with the scheduler, the ReplicaSet and Deployment
// controllers and what asks an owner to sync (cluster.New, which imports
// this package, adds the rest).
func newWorld() *model.World {
	w := model.NewCore(1, model.DefaultSettings())
	w.Register(kubelet.New())
	w.Register(scheduler.New(w))
	w.RegisterCoreParts()
	rsc := replicaset.New(w)
	w.RegisterWorkloadController(model.KindReplicaSet, rsc)
	w.RegisterWorkloadController(model.KindDeployment, New(w, rsc))
	return w
}

// appSpec is a pod of one container asking for cpu millicores.
func appSpec(cpu int64) *model.PodSpec {
	return &model.PodSpec{RestartPolicy: model.RestartAlways, TerminationGracePeriod: 30 * time.Second,
		Containers: []model.ContainerSpec{{Name: "app", Image: "img", PullPolicy: model.PullIfNotPresent,
			Requests: model.Resources{MilliCPU: cpu, Memory: 64 << 20}}}}
}
