package model

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"
)

func TestRequirementMatches(t *testing.T) {
	labels := map[string]string{"disk": "ssd", "gen": "3", "name": "x"}
	for _, tc := range []struct {
		r    Requirement
		want bool
	}{
		{Requirement{Key: "disk", Operator: OpIn, Values: []string{"hdd", "ssd"}}, true},
		{Requirement{Key: "disk", Operator: OpNotIn, Values: []string{"ssd"}}, false},
		{Requirement{Key: "zone", Operator: OpNotIn, Values: []string{"a"}}, true}, // a missing key is not in any set
		{Requirement{Key: "zone", Operator: OpIn, Values: []string{"a"}}, false},
		{Requirement{Key: "disk", Operator: OpExists}, true},
		{Requirement{Key: "disk", Operator: OpDoesNotExist}, false},
		{Requirement{Key: "gen", Operator: OpGt, Values: []string{"2"}}, true},
		{Requirement{Key: "gen", Operator: OpGt, Values: []string{"3"}}, false},
		{Requirement{Key: "gen", Operator: OpLt, Values: []string{"4"}}, true},
		{Requirement{Key: "name", Operator: OpGt, Values: []string{"1"}}, false}, // not an integer
		{Requirement{Key: "zone", Operator: OpLt, Values: []string{"1"}}, false},
	} {
		if got := tc.r.matches(labels); got != tc.want {
			t.Errorf("%s %s %v: %v, want %v", tc.r.Key, tc.r.Operator, tc.r.Values, got, tc.want)
		}
	}
	var none *LabelSelector
	if none.Matches(labels) || !(&LabelSelector{}).Matches(labels) {
		t.Error("a nil selector must match nothing, an empty one everything")
	}
}

func TestResolvePriority(t *testing.T) {
	i32 := func(v int32) *int32 { return &v }
	classes := []PriorityClass{{Name: "low", Value: 10, GlobalDefault: true}, {Name: "lower", Value: 5, GlobalDefault: true},
		{Name: "batch", Value: 100, PreemptionPolicy: PreemptNever}}
	for _, tc := range []struct {
		class    string
		priority *int32
		policy   string
		want     int32
		wantPol  string
		err      string
	}{
		{"", nil, "", 5, PreemptLowerPriority, ""}, // the lowest of two global defaults
		{"batch", nil, "", 100, PreemptNever, ""},
		{"system-node-critical", nil, "", 2000001000, PreemptLowerPriority, ""},
		{"gold", nil, "", 0, "", "no PriorityClass with name gold was found"},
		{"batch", i32(100), "", 100, PreemptNever, ""},
		{"batch", i32(7), "", 0, "", "the integer value of priority (7) must not be provided"},
		{"low", nil, PreemptNever, 0, "", "the string value of PreemptionPolicy (Never) must not be provided"},
	} {
		got, pol, err := ResolvePriority(classes, tc.class, tc.priority, tc.policy)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%q: error %v, want %q", tc.class, err, tc.err)
		case tc.err == "" && (err != nil || got != tc.want || pol != tc.wantPol):
			t.Errorf("%q: %d %s %v, want %d %s", tc.class, got, pol, err, tc.want, tc.wantPol)
		}
	}
	// Without classes, a pod's own policy stands.
	if _, pol, _ := ResolvePriority(nil, "", nil, PreemptNever); pol != PreemptNever {
		t.Errorf("policy %s, want Never", pol)
	}
}

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
	w := newWorld(1, DefaultSettings())
	n := w.AddNode(NodeSpec{Name: "n", Capacity: Resources{MilliCPU: 4000, Memory: 8 << 30, Pods: 110}})
	w.AddPod("a", appSpec(1000, nil, RestartAlways), PodOptions{}) // 1 cpu, 64Mi
	w.Run(0)
	p := w.AddPod("b", &PodSpec{Containers: []ContainerSpec{{Name: "c"}}}, PodOptions{}) // nothing: 100m, 200Mi for the score
	// LeastAllocated: cpu (4000-1100)/4000 = 72, memory (8192-264)/8192 = 96: 84.
	if got := leastAllocated(n, w.sched.nodeOf(n).nonZero, w.sched.nonZero(p)); got != 84 {
		t.Errorf("leastAllocated %d, want 84", got)
	}
	q := &Pod{requests: Resources{MilliCPU: 1000, Memory: 4 << 30, Pods: 1}}
	// BalancedAllocation: cpu 2000/4000 = .5, memory (64Mi+4Gi)/8Gi = .5078: 100*(1-.0039) = 99.
	if got := balancedAllocation(n, q); got != 99 {
		t.Errorf("balancedAllocation %d, want 99", got)
	}
}

func TestPickCandidate(t *testing.T) {
	w := newWorld(1, DefaultSettings())
	pod := func(prio int32, started time.Duration) *Pod {
		p := &Pod{w: w}
		p.priority = prio
		p.status.Started, p.status.StartTime = true, started
		return p
	}
	nodes := []*Node{{Name: "a"}, {Name: "b"}, {Name: "c"}}
	for _, tc := range []struct {
		name string
		cs   []candidate
		want string
	}{
		{"fewest budget violations", []candidate{
			{node: nodes[0], victims: []*Pod{pod(1, 0)}, violations: 1},
			{node: nodes[1], victims: []*Pod{pod(5, 0), pod(5, 0)}}}, "b"},
		{"lowest highest priority", []candidate{
			{node: nodes[0], victims: []*Pod{pod(5, 0)}},
			{node: nodes[1], victims: []*Pod{pod(3, 0), pod(3, 0)}}}, "b"},
		{"lowest sum of priorities", []candidate{
			{node: nodes[0], victims: []*Pod{pod(5, 0), pod(4, 0)}},
			{node: nodes[1], victims: []*Pod{pod(5, 0), pod(1, 0)}}}, "b"},
		{"fewest victims", []candidate{
			{node: nodes[0], victims: []*Pod{pod(5, 0), pod(-1<<31, 0)}},
			{node: nodes[1], victims: []*Pod{pod(5, 0)}}}, "b"},
		{"latest start of the top victims", []candidate{
			{node: nodes[0], victims: []*Pod{pod(5, time.Minute)}},
			{node: nodes[1], victims: []*Pod{pod(5, 2*time.Minute)}},
			{node: nodes[2], victims: []*Pod{pod(5, time.Second)}}}, "b"},
		{"then the first", []candidate{
			{node: nodes[2], victims: []*Pod{pod(5, 0)}},
			{node: nodes[0], victims: []*Pod{pod(5, 0)}}}, "c"},
	} {
		if got := pickCandidate(tc.cs).node.Name; got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
}

// TestMinDomains: with fewer zones than minDomains the fewest counts as 0,
// so maxSkew 1 allows one pod per zone and the rest wait.
func TestMinDomains(t *testing.T) {
	w := newWorld(1, DefaultSettings())
	for i := range 2 {
		w.AddNode(NodeSpec{Name: fmt.Sprint("n-", i), Capacity: Resources{MilliCPU: 8000, Memory: 8 << 30, Pods: 110},
			Labels: map[string]string{LabelZone: fmt.Sprint("z", i)}})
	}
	spec := appSpec(100, nil, RestartAlways)
	sel := &LabelSelector{MatchLabels: map[string]string{"app": "a"}}
	spec.TopologySpreadConstraints = []TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: LabelZone, DoNotSchedule: true, LabelSelector: sel, MinDomains: 3}}
	wl := w.AddWorkload(WorkloadSpec{Kind: KindReplicaSet, Name: "a", Template: spec, Options: PodOptions{Labels: sel.MatchLabels}, Replicas: 4})
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
	c, _ := wl.Pods()[3].status.Condition(PodScheduled)
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
		term   PodAffinityTerm
		placed bool
	}{
		{"own namespace", PodAffinityTerm{LabelSelector: &LabelSelector{MatchLabels: db}}, false},
		{"namespaces", PodAffinityTerm{LabelSelector: &LabelSelector{MatchLabels: db}, Namespaces: []string{"data"}}, true},
		{"every namespace", PodAffinityTerm{LabelSelector: &LabelSelector{MatchLabels: db}, NamespaceSelector: &LabelSelector{}}, true},
		{"namespace by label", PodAffinityTerm{LabelSelector: &LabelSelector{MatchLabels: db},
			NamespaceSelector: &LabelSelector{MatchLabels: map[string]string{LabelNamespaceName: "data"}}}, true},
		{"another namespace by label", PodAffinityTerm{LabelSelector: &LabelSelector{MatchLabels: db},
			NamespaceSelector: &LabelSelector{MatchLabels: map[string]string{LabelNamespaceName: "web"}}}, false},
	} {
		w := newWorld(1, DefaultSettings())
		for i := range 3 {
			w.AddNode(NodeSpec{Name: fmt.Sprint("n-", i), Capacity: Resources{MilliCPU: 4000, Memory: 8 << 30, Pods: 110}})
		}
		w.AddPod("db", appSpec(100, nil, RestartAlways), PodOptions{Namespace: "data", Labels: db})
		w.Run(time.Second)
		spec := appSpec(100, nil, RestartAlways)
		tc.term.TopologyKey = LabelHostname
		spec.Affinity = &Affinity{PodAffinity: &PodAffinity{Required: []PodAffinityTerm{tc.term}}}
		w.AddPod("app", spec, PodOptions{Namespace: "web"})
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
	w := newWorld(7, DefaultSettings())
	for i := range 40 {
		w.AddNode(NodeSpec{Name: fmt.Sprint("n-", i), Capacity: Resources{MilliCPU: 8000, Memory: 8 << 30, Pods: 110}})
	}
	labels := map[string]string{"app": "a"}
	wl := w.AddWorkload(WorkloadSpec{Kind: KindReplicaSet, Name: "a", Template: appSpec(100, nil, RestartAlways),
		Options: PodOptions{Labels: labels}, Replicas: 97})
	w.Run(time.Second)
	s := &w.sched
	p := &Pod{w: w, Spec: wl.Spec.Template, Labels: labels, owner: wl, requests: wl.Spec.Template.Requests()}
	s.preFilter(p)
	nodes := w.nodes
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
