package scheduler

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/podsim/podsim/model"
)

func TestNormalizers(t *testing.T) {
	s := []int64{0, 1, 2, 4}
	defaultNormalize(s, true)
	if fmt.Sprint(s) != "[100 75 50 0]" {
		t.Errorf("reversed: %v", s)
	}
	s = []int64{0, 0}
	defaultNormalize(s, true)
	if fmt.Sprint(s) != "[100 100]" {
		t.Errorf("reversed zeros: %v", s)
	}
	s = []int64{-50, 0, 50}
	normalizeInterPod(s)
	if fmt.Sprint(s) != "[0 50 100]" {
		t.Errorf("inter-pod: %v", s)
	}
}

func TestResourceScores(t *testing.T) {
	w := newWorld(1, model.DefaultSettings())
	n := w.AddNode(model.NodeSpec{Name: "n", Capacity: model.Resources{MilliCPU: 4000, Memory: 8 << 30, Pods: 110}})
	w.AddPod("a", appSpec(1000, nil, model.RestartAlways), model.PodOptions{}) // 1 cpu, 64Mi
	w.Run(0)
	p := w.AddPod("b", &model.PodSpec{Containers: []model.ContainerSpec{{Name: "c"}}}, model.PodOptions{}) // nothing: 100m, 200Mi for the score
	// LeastAllocated: cpu (4000-1100)/4000 = 72, memory (8192-264)/8192 = 96: 84.
	if got := leastAllocated(n, schedOf(w).nodeOf(n).nonZero, schedOf(w).nonZero(p)); got != 84 {
		t.Errorf("leastAllocated %d, want 84", got)
	}
	q := model.Resources{MilliCPU: 1000, Memory: 4 << 30, Pods: 1} // a pod's requests
	// BalancedAllocation: cpu 2000/4000 = .5, memory (64Mi+4Gi)/8Gi = .5078: 100*(1-.0039) = 99.
	if got := balancedAllocation(n, q); got != 99 {
		t.Errorf("balancedAllocation %d, want 99", got)
	}
}

func TestPickCandidate(t *testing.T) {
	type victim struct {
		prio    int32
		started time.Duration
	}
	victims := map[*model.Pod]victim{}
	pod := func(prio int32, started time.Duration) *model.Pod {
		p := &model.Pod{Name: fmt.Sprint("v-", len(victims))}
		victims[p] = victim{prio, started}
		return p
	}
	prio := func(p *model.Pod) int32 { return victims[p].prio }
	start := func(p *model.Pod) time.Duration { return victims[p].started }
	nodes := []*model.Node{{Name: "a"}, {Name: "b"}, {Name: "c"}}
	for _, tc := range []struct {
		name string
		cs   []candidate
		want string
	}{
		{"fewest budget violations", []candidate{
			{node: nodes[0], victims: []*model.Pod{pod(1, 0)}, violations: 1},
			{node: nodes[1], victims: []*model.Pod{pod(5, 0), pod(5, 0)}}}, "b"},
		{"lowest highest priority", []candidate{
			{node: nodes[0], victims: []*model.Pod{pod(5, 0)}},
			{node: nodes[1], victims: []*model.Pod{pod(3, 0), pod(3, 0)}}}, "b"},
		{"lowest sum of priorities", []candidate{
			{node: nodes[0], victims: []*model.Pod{pod(5, 0), pod(4, 0)}},
			{node: nodes[1], victims: []*model.Pod{pod(5, 0), pod(1, 0)}}}, "b"},
		{"fewest victims", []candidate{
			{node: nodes[0], victims: []*model.Pod{pod(5, 0), pod(-1<<31, 0)}},
			{node: nodes[1], victims: []*model.Pod{pod(5, 0)}}}, "b"},
		{"latest start of the top victims", []candidate{
			{node: nodes[0], victims: []*model.Pod{pod(5, time.Minute)}},
			{node: nodes[1], victims: []*model.Pod{pod(5, 2*time.Minute)}},
			{node: nodes[2], victims: []*model.Pod{pod(5, time.Second)}}}, "b"},
		{"then the first", []candidate{
			{node: nodes[2], victims: []*model.Pod{pod(5, 0)}},
			{node: nodes[0], victims: []*model.Pod{pod(5, 0)}}}, "c"},
	} {
		if got := pickCandidate(tc.cs, prio, start).node.Name; got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
}

// TestMinDomains: with fewer zones than minDomains the fewest counts as 0,
// so maxSkew 1 allows one pod per zone and the rest wait.
func TestMinDomains(t *testing.T) {
	w := newWorld(1, model.DefaultSettings())
	for i := range 2 {
		w.AddNode(model.NodeSpec{Name: fmt.Sprint("n-", i), Capacity: model.Resources{MilliCPU: 8000, Memory: 8 << 30, Pods: 110},
			Labels: map[string]string{model.LabelZone: fmt.Sprint("z", i)}})
	}
	spec := appSpec(100, nil, model.RestartAlways)
	sel := &model.LabelSelector{MatchLabels: map[string]string{"app": "a"}}
	spec.TopologySpreadConstraints = []model.TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: model.LabelZone, DoNotSchedule: true, LabelSelector: sel, MinDomains: 3}}
	wl := w.AddWorkload(model.WorkloadSpec{Kind: model.KindReplicaSet, Name: "a", Template: spec, Options: model.PodOptions{Labels: sel.MatchLabels}, Replicas: 4})
	w.Run(time.Minute)
	bound := 0
	for _, p := range wl.Pods() {
		if p.Node != nil {
			bound++
		}
	}
	if bound != 2 {
		t.Errorf("%d pods bound, want 2 (one per zone)", bound)
	}
	c, _ := wl.Pods()[3].Condition(model.PodScheduled)
	if !strings.HasPrefix(c.Message, "0/2 nodes are available: 2 node(s) didn't match pod topology spread constraints.") {
		t.Errorf("message %q", c.Message)
	}
}

// TestPodAffinityNamespaces: a pod affinity term selects pods of its own
// pod's namespace, unless it names namespaces or a namespace selector
// (getNamespacesFromPodAffinityTerm); the same labels in another namespace
// do not count.
func TestPodAffinityNamespaces(t *testing.T) {
	db := map[string]string{"app": "db"}
	for _, tc := range []struct {
		name   string
		term   model.PodAffinityTerm
		placed bool
	}{
		{"own namespace", model.PodAffinityTerm{LabelSelector: &model.LabelSelector{MatchLabels: db}}, false},
		{"namespaces", model.PodAffinityTerm{LabelSelector: &model.LabelSelector{MatchLabels: db}, Namespaces: []string{"data"}}, true},
		{"every namespace", model.PodAffinityTerm{LabelSelector: &model.LabelSelector{MatchLabels: db}, NamespaceSelector: &model.LabelSelector{}}, true},
		{"namespace by label", model.PodAffinityTerm{LabelSelector: &model.LabelSelector{MatchLabels: db},
			NamespaceSelector: &model.LabelSelector{MatchLabels: map[string]string{model.LabelNamespaceName: "data"}}}, true},
		{"another namespace by label", model.PodAffinityTerm{LabelSelector: &model.LabelSelector{MatchLabels: db},
			NamespaceSelector: &model.LabelSelector{MatchLabels: map[string]string{model.LabelNamespaceName: "web"}}}, false},
	} {
		w := newWorld(1, model.DefaultSettings())
		for i := range 3 {
			w.AddNode(model.NodeSpec{Name: fmt.Sprint("n-", i), Capacity: model.Resources{MilliCPU: 4000, Memory: 8 << 30, Pods: 110}})
		}
		w.AddPod("db", appSpec(100, nil, model.RestartAlways), model.PodOptions{Namespace: "data", Labels: db})
		w.Run(time.Second)
		spec := appSpec(100, nil, model.RestartAlways)
		tc.term.TopologyKey = model.LabelHostname
		spec.Affinity = &model.Affinity{PodAffinity: &model.PodAffinity{Required: []model.PodAffinityTerm{tc.term}}}
		w.AddPod("app", spec, model.PodOptions{Namespace: "web"})
		w.Run(2 * time.Second)
		dbPod, app := w.Pod("data/db"), w.Pod("web/app")
		switch {
		case tc.placed && app.Node != dbPod.Node:
			t.Errorf("%s: app on %v, want db's node %s", tc.name, app.Node, dbPod.Node.Name)
		case !tc.placed && app.Node != nil:
			t.Errorf("%s: app on %s, want it unschedulable", tc.name, app.Node.Name)
		}
		recountIndex(t, w)
	}
}

// TestHostOnlySpreadScores: where only the hostname constraint has domains
// (no zone labels under the system defaults), the scores by count table
// equal the general path's, node by node.
func TestHostOnlySpreadScores(t *testing.T) {
	w := newWorld(7, model.DefaultSettings())
	for i := range 40 {
		w.AddNode(model.NodeSpec{Name: fmt.Sprint("n-", i), Capacity: model.Resources{MilliCPU: 8000, Memory: 8 << 30, Pods: 110}})
	}
	labels := map[string]string{"app": "a"}
	wl := w.AddWorkload(model.WorkloadSpec{Kind: model.KindReplicaSet, Name: "a", Template: appSpec(100, nil, model.RestartAlways),
		Options: model.PodOptions{Labels: labels}, Replicas: 97})
	w.Run(time.Second)
	s := schedOf(w)
	p := wl.Pods()[0] // the scores of a pod of the template: its own plan
	s.preFilter(p)
	nodes := w.Nodes()
	ss := &s.cy.spreadScore
	ss.prepare(w, p, s.cy.plan, nodes)
	if !ss.hostOnlyEverywhere() {
		t.Fatal("the system defaults without zone labels should score by hostname alone")
	}
	want := make([]int64, len(nodes))
	ss.score(nodes, want, make([]bool, len(nodes)))
	counts := make([]int32, len(nodes))
	lo, hi := int32(math.MaxInt32), int32(0)
	for i, n := range nodes {
		counts[i] = ss.cons[ss.host].c.onNode(n)
		lo, hi = min(lo, counts[i]), max(hi, counts[i])
	}
	if lo == hi {
		t.Fatalf("every node has %d pods: the test compares nothing", lo)
	}
	got := make([]int64, len(nodes))
	ss.addHostScores(got, counts, lo, hi)
	for i := range nodes {
		if got[i] != weightPodTopologySpread*want[i] {
			t.Errorf("node %s with %d pods: %d, want %d", nodes[i].Name, counts[i], got[i], weightPodTopologySpread*want[i])
		}
	}
}
