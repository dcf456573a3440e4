package scenarios

import (
	"strings"
	"testing"
	"time"

	"github.com/podsim/podsim/model"
)

// Every problem of a NodePool and of spec.instanceTypes is reported at its
// line and column, with a suggestion where one fits.
func TestKarpenterErrorsHavePositions(t *testing.T) {
	const src = `apiVersion: podsim/v1
kind: Scenario
metadata: {name: t}
spec:
  instanceTypes:
    - {name: m5.large, capacity: {cpu: "2", memroy: 8Gi}, pricePerHour: 0.1}
    - {name: m5.large, capacity: {cpu: "2", memory: 8Gi}}
  workloads:
    - apiVersion: karpenter.sh/v1
      kind: NodePool
      metadata: {name: default, namespace: web}
      spec:
        replicas: 2
        template:
          spec:
            containers: [{name: app, image: x}]
            requirements:
              - {key: karpenter.sh/capacity-type, operator: Inn, values: [spot]}
              - {key: zone, operator: Exists, values: [a]}
              - {key: gen, operator: Gt, values: [x]}
            taints: [{key: gpu, effect: NoSchedul}]
            expireAfter: 30d
        disruption:
          consolidationPolicy: WhenEmty
          consolidateAfter: 1.5m
          budgets: [{nodes: "110%"}, {nodes: "1", reasons: [Drift]}]
        limits: {cpus: "10"}
        weight: 0
    - apiVersion: apps/v1
      kind: Deployment
      metadata: {name: web}
      spec:
        weight: 3
        template: {spec: {expireAfter: 1h, containers: [{name: app, image: x}]}}
  expect:
    - event: {node: default-bcdfg, reason: DisruptionBlocked}
    - event: {node: other-bcdfg, reason: DisruptionBlocked}
`
	_, err := Parse("s.yaml", []byte(src))
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{
		`s.yaml:6:45: unknown resource "memroy": want cpu, memory, pods or ephemeral-storage; did you mean "memory"?`,
		`s.yaml:6:7: instance type "m5.large": capacity needs memory`,
		`s.yaml:7:14: instance type "m5.large" is listed twice`,
		`s.yaml:7:7: instance type "m5.large": pricePerHour is required`,
		`s.yaml:11:44: a NodePool is cluster-scoped: it has no namespace`,
		`s.yaml:13:9: a NodePool's spec has no replicas`,
		`s.yaml:16:13: a NodePool's template.spec has no containers`,
		`s.yaml:18:61: requirement operator "Inn": want In, NotIn, Exists, DoesNotExist, Gt, Lt; did you mean "In"?`,
		`s.yaml:19:55: requirement zone Exists takes no values`,
		`s.yaml:20:50: requirement gen Gt: "x" is not an integer`,
		`s.yaml:21:22: taint effect "NoSchedul": want NoSchedule, PreferNoSchedule or NoExecute; did you mean "NoSchedule"?`,
		`s.yaml:22:26: expireAfter "30d": want a duration of s, m and h (720h) or Never`,
		`s.yaml:24:32: consolidationPolicy "WhenEmty": want WhenEmptyOrUnderutilized or WhenEmpty; did you mean "WhenEmpty"?`,
		`s.yaml:25:29: consolidateAfter "1.5m"`,
		`s.yaml:26:21: budget nodes "110%"`,
		`s.yaml:26:60: budget reason "Drift": want Underutilized, Empty or Drifted; did you mean "Drifted"?`,
		`s.yaml:27:18: limit "cpus": podsim limits cpu, memory and nodes; did you mean "cpu"?`,
		`s.yaml:28:17: weight must be between 1 and 100`,
		`s.yaml:33:9: a Deployment (only a NodePool) has no weight`,
		`s.yaml:34:27: a pod's spec (only a NodePool's template) has no expireAfter`,
		`s.yaml:37:21: no node called "other-bcdfg"`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("missing %q in\n%v", want, err)
		}
	}
	if strings.Contains(err.Error(), "default-bcdfg") {
		t.Errorf("a node name Karpenter may give is refused:\n%v", err)
	}
}

// runLibrary runs a library scenario to its end.
func runLibrary(t *testing.T, path string) *model.World {
	t.Helper()
	s, err := LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r := s.Start(RunOptions{Until: s.Duration})
	if end := r.Run(nil); end != model.Finished {
		t.Fatalf("run ended %v", end)
	}
	return r.World
}

// The burst gets one node of the cheapest instance type that holds the
// eight pods, with Karpenter's labels, and no other.
func TestKarpenterLaunchesCheapestType(t *testing.T) {
	w := runLibrary(t, "karpenter/burst.yaml")
	var launched []*model.Node
	for _, n := range w.Nodes() {
		if n.Group != "" {
			launched = append(launched, n)
		}
	}
	if len(launched) != 1 {
		t.Fatalf("%d nodes launched, want 1", len(launched))
	}
	n := launched[0]
	for k, want := range map[string]string{"node.kubernetes.io/instance-type": "c5.2xlarge", "karpenter.sh/nodepool": "default",
		"karpenter.sh/capacity-type": "on-demand", "kubernetes.io/hostname": n.Name} {
		if got := n.Labels[k]; got != want {
			t.Errorf("label %s = %q, want %q", k, got, want)
		}
	}
	if n.Group != "default" || n.PricePerHour != 0.34 {
		t.Errorf("group %q, price %v", n.Group, n.PricePerHour)
	}
	if got := w.ExplainNode(n); !strings.Contains(got, "fit nowhere cheaper") {
		t.Errorf("ExplainNode = %q", got)
	}
}

// A pod the NodePool's limits leave pending says why, to explain and in
// its FailedScheduling event.
func TestKarpenterExplainsLimits(t *testing.T) {
	w := runLibrary(t, "karpenter/limits.yaml")
	p := w.Pod("web-5")
	if p == nil || p.Node != nil {
		t.Fatal("web-5 is not pending")
	}
	want := "Karpenter: all available instance types exceed limits for nodepool (NodePool=default)"
	if got := w.ExplainPod(p); got != want {
		t.Errorf("ExplainPod = %q, want %q", got, want)
	}
	if got := w.ExplainPod(w.Pod("web-0")); got != "" {
		t.Errorf("a running pod is explained: %q", got)
	}
}

// A node of a NodePool whose expireAfter passes is drained and deleted,
// and its pods' replacements get a new node.
func TestKarpenterExpiresNodes(t *testing.T) {
	const src = `apiVersion: podsim/v1
kind: Scenario
metadata: {name: t}
spec:
  duration: 5m
  instanceTypes: [{name: m5.large, capacity: {cpu: "2", memory: 8Gi}, pricePerHour: 0.1, bootTime: 30s}]
  workloads:
    - apiVersion: karpenter.sh/v1
      kind: NodePool
      metadata: {name: short}
      spec:
        template: {spec: {expireAfter: 2m}}
        disruption: {consolidateAfter: Never}
    - apiVersion: apps/v1
      kind: Deployment
      metadata: {name: web}
      spec:
        replicas: 1
        template: {spec: {containers: [{name: app, image: x, resources: {requests: {cpu: "1"}}}]}}
`
	s, err := Parse("s.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	r := s.Start(RunOptions{Until: s.Duration})
	r.Run(nil)
	w := r.World
	if first := w.Node("short-mstd4"); first == nil || !first.Gone() {
		t.Fatalf("the first node is not gone at 5m: %v", first)
	}
	if len(w.Nodes()) != 1 || w.Nodes()[0].Group != "short" {
		t.Fatalf("nodes at 5m: %d", len(w.Nodes()))
	}
	evs := w.EventsFor("Pod", "web-0")
	found := false
	for _, e := range evs {
		found = found || e.Reason() == "Evicted" && e.Message() == "Evicted pod: Forceful Termination"
	}
	if !found {
		t.Error("web-0 was not evicted by the expiry")
	}
}

// A NodePool replaced by one with another template (a new label) drifts
// the nodes launched from the old one: each is replaced by a node of the
// new template, then drained and deleted (Drifted).
func TestKarpenterReplacesDriftedNodes(t *testing.T) {
	s, err := LoadFile("karpenter/burst.yaml")
	if err != nil {
		t.Fatal(err)
	}
	r := s.Start(RunOptions{Until: s.Duration})
	r.To(2*time.Minute, nil)
	w := r.World
	old := w.Node("default-mstd4")
	if old == nil || old.Gone() {
		t.Fatal("no node default-mstd4 at 2m")
	}
	var pool *Workload
	for _, wl := range s.workloads {
		if wl.Kind == kindNodePool {
			pool = wl
		}
	}
	np := nodePoolSpec(pool)
	np.Labels = map[string]string{"team": "web"}
	np.Hash = templateHash(np)
	w.AddNodePool(np)
	r.To(5*time.Minute, nil)
	if !old.Gone() {
		t.Fatal("the drifted node is still there at 5m")
	}
	var repl *model.Node
	for _, n := range w.Nodes() {
		if n.Group == "default" {
			repl = n
		}
	}
	if repl == nil || repl.Labels["team"] != "web" || len(repl.Pods()) != 8 {
		t.Fatalf("replacement %v", repl)
	}
	found := false
	for _, e := range w.EventsFor("Node", old.Name) {
		found = found || e.Reason() == "DisruptionTerminating" && e.Message() == "Disrupting Node: Drifted"
	}
	if !found {
		t.Error("no DisruptionTerminating Drifted event")
	}
}

// A pod nominated to a node still booting says so; once bound, nothing.
func TestKarpenterExplainsNomination(t *testing.T) {
	s, err := LoadFile("karpenter/burst.yaml")
	if err != nil {
		t.Fatal(err)
	}
	r := s.Start(RunOptions{Until: s.Duration})
	r.To(30*time.Second, nil)
	w := r.World
	want := "Karpenter: nominated to nodeclaim/default-mstd4, node/default-mstd4, which is booting"
	if got := w.ExplainPod(w.Pod("web-2")); got != want {
		t.Errorf("at 30s ExplainPod = %q, want %q", got, want)
	}
	r.To(time.Minute, nil)
	if got := w.ExplainPod(w.Pod("web-2")); got != "" {
		t.Errorf("at 1m ExplainPod = %q, want none", got)
	}
}

// NodePools are tried heaviest first; a pod that does not tolerate a
// NodePool's taint goes to the next one; a label requirement labels the
// node and the pod's nodeSelector finds it. (The tolerant pod is too big to
// join the first NodeClaim, which would come before a new one.)
func TestKarpenterWeightTaintsRequirements(t *testing.T) {
	const src = `apiVersion: podsim/v1
kind: Scenario
metadata: {name: t}
spec:
  duration: 2m
  instanceTypes: [{name: m5.large, capacity: {cpu: "2", memory: 8Gi}, pricePerHour: 0.1, bootTime: 10s}]
  workloads:
    - apiVersion: karpenter.sh/v1
      kind: NodePool
      metadata: {name: general}
      spec: {template: {spec: {requirements: [{key: team, operator: In, values: [web]}]}}}
    - apiVersion: karpenter.sh/v1
      kind: NodePool
      metadata: {name: special}
      spec:
        weight: 50
        template: {spec: {taints: [{key: special, effect: NoSchedule}]}}
  pods:
    - metadata: {name: plain}
      spec: {nodeSelector: {team: web}, containers: [{name: app, image: x, resources: {requests: {cpu: "1"}}}]}
    - metadata: {name: tolerant}
      spec:
        tolerations: [{key: special, operator: Exists}]
        containers: [{name: app, image: x, resources: {requests: {cpu: 1500m}}}]
`
	s, err := Parse("s.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	r := s.Start(RunOptions{Until: s.Duration})
	r.Run(nil)
	w := r.World
	for pod, pool := range map[string]string{"plain": "general", "tolerant": "special"} {
		p := w.Pod(pod)
		if p.Node == nil || p.Node.Group != pool {
			t.Errorf("%s on %v, want a node of %s", pod, p.Node, pool)
		}
	}
	if n := w.Pod("plain").Node; n != nil && n.Labels["team"] != "web" {
		t.Errorf("general's node labels %v", n.Labels)
	}
}

// A scenario runs one node autoscaler: a NodePool beside node groups and
// the Cluster Autoscaler is refused at the NodePool.
func TestOneNodeAutoscaler(t *testing.T) {
	const src = `apiVersion: podsim/v1
kind: Scenario
metadata: {name: t}
spec:
  nodeGroups: [{name: pool, max: 3}]
  clusterAutoscaler: {}
  instanceTypes: [{name: m5.large, capacity: {cpu: "2", memory: 8Gi}, pricePerHour: 0.1}]
  workloads:
    - {apiVersion: karpenter.sh/v1, kind: NodePool, metadata: {name: default}, spec: {template: {spec: {}}}}
`
	_, err := Parse("s.yaml", []byte(src))
	want := `s.yaml:9:70: NodePool "default" beside spec.nodeGroups or spec.clusterAutoscaler: a scenario runs one node autoscaler, Karpenter or the Cluster Autoscaler`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("error %v, want %q", err, want)
	}
}

// A nodePoolUpdate fault names a NodePool of the scenario and sets at
// least one label.
func TestNodePoolUpdateFaultErrors(t *testing.T) {
	const src = `apiVersion: podsim/v1
kind: Scenario
metadata: {name: t}
spec:
  instanceTypes: [{name: m5.large, capacity: {cpu: "2", memory: 8Gi}, pricePerHour: 0.1}]
  workloads:
    - {apiVersion: karpenter.sh/v1, kind: NodePool, metadata: {name: default}, spec: {template: {spec: {}}}}
  faults:
    - {at: 1m, nodePoolUpdate: {nodePool: defualt, labels: {team: web}}}
    - {at: 1m, nodePoolUpdate: {nodePool: default}}
`
	_, err := Parse("s.yaml", []byte(src))
	for _, want := range []string{
		`s.yaml:9:43: no NodePool called "defualt"; did you mean "default"?`,
		`s.yaml:10:32: nodePoolUpdate: labels are required (the template labels to set)`,
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("missing %q in\n%v", want, err)
		}
	}
}

// The drift library scenario: the node launched before the NodePool's
// template changed is replaced by one with the new label, and deleted.
func TestNodePoolUpdateDrifts(t *testing.T) {
	w := runLibrary(t, "karpenter/drift.yaml")
	if n := w.Node("default-mstd4"); n == nil || !n.Gone() {
		t.Fatal("the node of the old template is not deleted")
	}
	var repl *model.Node
	for _, n := range w.Nodes() {
		if n.Group == "default" {
			repl = n
		}
	}
	if repl == nil || repl.Labels["team"] != "web" {
		t.Fatalf("replacement %v, want a node labelled team=web", repl)
	}
}
