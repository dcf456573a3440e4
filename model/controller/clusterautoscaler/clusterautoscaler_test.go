package clusterautoscaler_test

import (
	"strings"
	"testing"
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/model/cluster"
)

// world is a cluster with one node group (its min nodes added) and the
// Cluster Autoscaler with upstream's defaults.
func world(t *testing.T, g model.NodeGroup, ca func(*model.ClusterAutoscalerSettings)) *model.World {
	t.Helper()
	st := model.DefaultSettings()
	s := model.DefaultClusterAutoscaler()
	if ca != nil {
		ca(&s)
	}
	g.Template.Group = g.Name
	st.NodeGroups, st.ClusterAutoscaler = []model.NodeGroup{g}, &s
	w := cluster.New(1, st)
	for i := range g.Min {
		spec := g.Template
		spec.Name = g.Name + "-" + string(rune('0'+i))
		w.AddNode(spec)
	}
	return w
}

var twoCores = model.NodeSpec{Capacity: model.Resources{MilliCPU: 2000, Memory: 8 << 30, Pods: 110}}

func deployment(w *model.World, name string, replicas int, cpu int64) *model.Workload {
	return w.AddWorkload(model.WorkloadSpec{Kind: model.KindDeployment, Name: name, Replicas: replicas,
		Options:  model.PodOptions{Labels: map[string]string{"app": name}},
		Template: &model.PodSpec{Containers: []model.ContainerSpec{{Name: "c", Image: "img", Requests: model.Resources{MilliCPU: cpu}}}}})
}

func groupNodes(w *model.World, group string) (nodes, ready int) {
	for _, n := range w.Nodes() {
		if !n.Gone() && n.Group == group {
			nodes++
			if n.Ready() {
				ready++
			}
		}
	}
	return nodes, ready
}

// Six pods of 900m need three more 2-core nodes: one scale-up at the
// first scan, the nodes Ready after their boot.
func TestScaleUpBinpacks(t *testing.T) {
	w := world(t, model.NodeGroup{Name: "pool", Min: 1, Max: 10, Template: twoCores, BootTime: time.Minute}, nil)
	deployment(w, "web", 8, 900)
	w.Run(10 * time.Second)
	if n, r := groupNodes(w, "pool"); n != 4 || r != 1 {
		t.Fatalf("at 10s: %d nodes, %d Ready; want 4, 1", n, r)
	}
	w.Run(80 * time.Second)
	for _, p := range w.Pods() {
		if p.Node == nil {
			t.Errorf("%s unscheduled at 80s", p.Name)
		}
	}
}

// A group at its max says so on the pod, and explains it.
func TestMaxSizeReached(t *testing.T) {
	w := world(t, model.NodeGroup{Name: "pool", Min: 1, Max: 1, Template: twoCores}, nil)
	deployment(w, "web", 2, 1500)
	w.Run(10 * time.Second)
	p := w.Pod("web-1")
	evs := w.EventsFor("Pod", p.Key())
	found := false
	for _, e := range evs {
		if e.Reason() == "NotTriggerScaleUp" && e.Message() == "pod didn't trigger scale-up: 1 max node group size reached" {
			found = true
		}
	}
	if !found {
		t.Errorf("no NotTriggerScaleUp event: %v", evs)
	}
	if got := w.ExplainPod(p); !strings.Contains(got, "max node group size reached") {
		t.Errorf("ExplainPod = %q", got)
	}
}

// Nodes that never boot are deleted after maxNodeProvisionTime and the
// group backs off 5m, then 10m.
func TestProvisionTimeoutBacksOff(t *testing.T) {
	w := world(t, model.NodeGroup{Name: "pool", Min: 0, Max: 10, Template: twoCores}, nil)
	w.FailNodeBoot("pool", true)
	deployment(w, "web", 1, 500)
	w.Run(10 * time.Second)
	if n, _ := groupNodes(w, "pool"); n != 1 {
		t.Fatalf("at 10s: %d nodes, want 1", n)
	}
	w.Run(15*time.Minute + 10*time.Second)
	if n, _ := groupNodes(w, "pool"); n != 0 {
		t.Fatalf("after maxNodeProvisionTime: %d nodes, want 0", n)
	}
	if got := w.ExplainPod(w.Pod("web-0")); !strings.Contains(got, "in backoff after failed scale-up (until 20m10s)") {
		t.Errorf("ExplainPod = %q", got)
	}
	w.Run(20*time.Minute + 20*time.Second)
	if n, _ := groupNodes(w, "pool"); n != 1 {
		t.Errorf("after the backoff: %d nodes, want 1 (a new try)", n)
	}
}

// An unneeded node goes after scaleDownUnneededTime, not under min; a
// pod under a budget that allows no disruption keeps it.
func TestScaleDown(t *testing.T) {
	for _, pdb := range []bool{false, true} {
		w := world(t, model.NodeGroup{Name: "pool", Min: 1, Max: 3, Template: twoCores}, func(s *model.ClusterAutoscalerSettings) {
			s.ScaleDownDelayAfterAdd = 0
		})
		deployment(w, "a", 1, 1500)
		b := deployment(w, "b", 1, 1000)
		w.Run(time.Minute)
		deployment(w, "db", 1, 200)
		if pdb {
			w.AddPodDisruptionBudget(model.PDBSpec{Name: "db", Selector: map[string]string{"app": "db"}, MinAvailable: &model.IntOrPercent{Value: 1}})
		}
		b.Scale(0)
		w.Run(20 * time.Minute)
		n, _ := groupNodes(w, "pool")
		want := 1
		if pdb {
			want = 2
			if got := w.ExplainNode(w.Node("pool-1")); got != "cannot be removed: not enough pod disruption budget to move default/db-0" {
				t.Errorf("ExplainNode = %q", got)
			}
		}
		if n != want {
			t.Errorf("pdb %v: %d nodes at 20m, want %d", pdb, n, want)
		}
	}
}

// Each drain rule keeps an underutilized node, with upstream's words.
func TestDrainRulesBlock(t *testing.T) {
	spec := &model.PodSpec{Containers: []model.ContainerSpec{{Name: "c", Image: "img", Requests: model.Resources{MilliCPU: 100}}}}
	for _, tc := range []struct {
		name string
		add  func(w *model.World)
		want string
	}{
		{"bare pod", func(w *model.World) { w.AddPod("p", spec, model.PodOptions{}) }, "cannot be removed: default/p is not replicated"},
		{"safe-to-evict true", func(w *model.World) {
			w.AddPod("p", spec, model.PodOptions{Annotations: map[string]string{"cluster-autoscaler.kubernetes.io/safe-to-evict": "true"}})
		}, ""},
		{"safe-to-evict false", func(w *model.World) {
			w.AddWorkload(model.WorkloadSpec{Kind: model.KindReplicaSet, Name: "rs", Replicas: 1, Template: spec,
				Options: model.PodOptions{Annotations: map[string]string{"cluster-autoscaler.kubernetes.io/safe-to-evict": "false"}}})
		}, "cannot be removed: pod annotated as not safe to evict present: rs-0"},
		{"kube-system", func(w *model.World) {
			w.AddWorkload(model.WorkloadSpec{Kind: model.KindReplicaSet, Name: "dns", Replicas: 1, Template: spec,
				Options: model.PodOptions{Namespace: "kube-system"}})
		}, "cannot be removed: non-daemonset, non-mirrored, non-pdb-assigned kube-system pod present: dns-0"},
	} {
		w := world(t, model.NodeGroup{Name: "pool", Min: 1, Max: 3, Template: twoCores}, nil)
		w.AddNode(model.NodeSpec{Name: "other", Capacity: twoCores.Capacity, Taints: []model.Taint{{Key: "k", Effect: "NoSchedule"}}})
		tc.add(w)
		w.Run(30 * time.Second)
		w.Node("other").Untaint("k")
		w.Run(time.Minute)
		got := w.ExplainNode(w.Node("pool-0"))
		if tc.want == "" && strings.HasPrefix(got, "cannot") || tc.want != "" && got != tc.want {
			t.Errorf("%s: ExplainNode = %q, want %q", tc.name, got, tc.want)
		}
	}
}
