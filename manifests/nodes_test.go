package manifests

import (
	"strings"
	"testing"
	"time"

	"github.com/podsim/podsim/model"
)

// nodeList is what kubectl get nodes -o yaml writes, cut down: a Ready
// node with reservations, a cordoned one, and one NotReady; a pod running
// on the first since before the snapshot, restarted twice.
const nodeList = `apiVersion: v1
kind: List
metadata: {resourceVersion: ""}
items:
- apiVersion: v1
  kind: Node
  metadata:
    name: a
    uid: 7d7b8f3e-1
    resourceVersion: "812"
    creationTimestamp: "2026-01-01T00:00:00Z"
    labels: {topology.kubernetes.io/zone: a}
    managedFields: [{manager: kubelet, operation: Update}]
  spec: {podCIDR: 10.0.0.0/24}
  status:
    capacity: {cpu: "4", memory: 16Gi, pods: "110", ephemeral-storage: 100Gi}
    allocatable: {cpu: 3800m, memory: 15Gi, pods: "110"}
    conditions:
    - {type: Ready, status: "True", reason: KubeletReady, lastHeartbeatTime: "2026-01-01T10:00:00Z", lastTransitionTime: "2026-01-01T00:00:10Z"}
    nodeInfo: {kubeletVersion: v1.34.1}
- apiVersion: v1
  kind: Node
  metadata: {name: b, labels: {topology.kubernetes.io/zone: b}}
  spec:
    unschedulable: true
    taints: [{key: node.kubernetes.io/unschedulable, effect: NoSchedule, timeAdded: "2026-01-01T09:00:00Z"}]
  status:
    capacity: {cpu: "2", memory: 8Gi, pods: "110"}
    conditions: [{type: Ready, status: "True"}]
- apiVersion: v1
  kind: Node
  metadata: {name: c}
  status:
    capacity: {cpu: "2", memory: 8Gi, pods: "110"}
    conditions: [{type: Ready, status: Unknown, reason: NodeStatusUnknown}]
- apiVersion: v1
  kind: Pod
  metadata: {name: web, creationTimestamp: "2026-01-01T09:00:00Z"}
  spec:
    nodeName: a
    containers: [{name: app, image: example/web:1, resources: {requests: {cpu: "3"}}}]
  status:
    phase: Running
    startTime: "2026-01-01T09:00:01Z"
    conditions: [{type: Ready, status: "True", lastTransitionTime: "2026-01-01T09:30:00Z"}]
    containerStatuses:
    - name: app
      restartCount: 2
      ready: true
      started: true
      state: {running: {startedAt: "2026-01-01T09:30:00Z"}}
      lastState: {terminated: {exitCode: 1, reason: Error, startedAt: "2026-01-01T09:20:00Z", finishedAt: "2026-01-01T09:29:50Z"}}
`

// Nodes of a List replace the default node: allocatable is what the
// scheduler counts, capacity what the Node reports; a cordoned node stays
// cordoned, a NotReady one starts Unknown; status, managedFields, uid and
// resourceVersion are read quietly. The snapshot's instant is its latest
// time (the heartbeat), and the pod runs on from its place.
func TestNodesOfASnapshot(t *testing.T) {
	s, warns := parseOK(t, nodeList)
	if warns != "" {
		t.Errorf("warnings:\n%s", warns)
	}
	w := s.Build()
	w.Run(time.Second)
	var names []string
	for _, n := range w.Nodes() {
		names = append(names, n.Name)
	}
	if got := strings.Join(names, " "); got != "a b c" {
		t.Fatalf("nodes %s, want a b c (no default node)", got)
	}
	a, b, c := w.Node("a"), w.Node("b"), w.Node("c")
	if a.Capacity.MilliCPU != 3800 || a.Total.MilliCPU != 4000 || a.Capacity.Memory != 15<<30 {
		t.Errorf("node a: allocatable %+v, capacity %+v", a.Capacity, a.Total)
	}
	if !a.Ready() || a.Labels["topology.kubernetes.io/zone"] != "a" || a.CreatedAt != -10*time.Hour {
		t.Errorf("node a: ready %v, labels %v", a.Ready(), a.Labels)
	}
	if !b.Unschedulable() || !b.Ready() {
		t.Errorf("node b: unschedulable %v, ready %v", b.Unschedulable(), b.Ready())
	}
	if cd, _ := c.Condition(model.Ready); cd.Status != model.StatusUnknown {
		t.Errorf("node c: Ready %s, want Unknown", cd.Status)
	}
	p := w.Pod("web")
	st := p.Status()
	cs := st.ContainerStatuses[0]
	if p.Phase() != model.Running || p.Node != a || cs.RestartCount != 2 || !cs.Ready || cs.State.Kind != model.StateRunning {
		t.Fatalf("pod web: %s on %v, %+v", p.Phase(), p.Node, cs)
	}
	if cs.State.StartedAt != -30*time.Minute || p.CreatedAt != -time.Hour || st.StartTime != -time.Hour+time.Second {
		t.Errorf("pod web: created %s, started %s, container started %s; want -1h, -59m59s, -30m", p.CreatedAt, st.StartTime, cs.State.StartedAt)
	}
	if cs.LastState.Reason != "Error" || cs.LastState.FinishedAt != -30*time.Minute-10*time.Second {
		t.Errorf("pod web: last state %+v", cs.LastState)
	}
}

// A pod whose controller is not among the objects runs as a bare pod,
// with a warning; a pod whose ReplicaSet belongs to a Deployment of the
// file is adopted by the Deployment, which makes no pod of its own.
func TestSnapshotOwners(t *testing.T) {
	src := `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: app, image: example/web:1}]}
---
apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: web-7c9f
  annotations: {deployment.kubernetes.io/revision: "3"}
  ownerReferences: [{apiVersion: apps/v1, kind: Deployment, name: web, controller: true, uid: x}]
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: app, image: example/web:1}]}
---
apiVersion: v1
kind: Pod
metadata:
  name: web-7c9f-x2x4q
  labels: {app: web}
  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: web-7c9f, controller: true, uid: y}]
spec: {containers: [{name: app, image: example/web:1}]}
status: {phase: Pending}
---
apiVersion: v1
kind: Pod
metadata:
  name: lonely
  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: gone, controller: true}]
spec: {containers: [{name: app, image: example/web:1}]}
`
	s, warns := parseOK(t, src)
	if !strings.Contains(warns, `x.yaml:36:3: warning: pod lonely: its controller ReplicaSet gone is not among the objects: it runs as a bare pod`) {
		t.Errorf("warnings:\n%s", warns)
	}
	w := s.Build()
	w.Run(time.Minute)
	var names []string
	for _, p := range w.Pods() {
		names = append(names, p.Name)
	}
	if got := strings.Join(names, " "); got != "lonely web-7c9f-x2x4q" {
		t.Errorf("pods %s, want lonely web-7c9f-x2x4q (adopted, none made)", got)
	}
	wl := w.Workload("web")
	if p := w.Pod("web-7c9f-x2x4q"); p.Owner() != wl || p.Phase() != model.Running {
		t.Errorf("web-7c9f-x2x4q: owner %v, phase %s", p.Owner(), p.Phase())
	}
	if rss := wl.ReplicaSets(nil); len(rss) != 1 || rss[0].Name != "web-7c9f" || rss[0].Revision != 3 || rss[0].Status.ReadyReplicas != 1 {
		t.Errorf("ReplicaSets %+v", rss)
	}
	if w.Pod("lonely").Owner() != nil {
		t.Error("lonely has an owner")
	}
}

// A pod on a NotReady node keeps the status the API held: running, its
// Ready condition False as the node controller left it.
func TestPodOnANotReadyNode(t *testing.T) {
	src := nodeList + `- apiVersion: v1
  kind: Pod
  metadata: {name: cut-off, creationTimestamp: "2026-01-01T09:00:00Z"}
  spec:
    nodeName: c
    containers: [{name: app, image: example/web:1}]
  status:
    phase: Running
    startTime: "2026-01-01T09:00:01Z"
    conditions: [{type: Ready, status: "False", lastTransitionTime: "2026-01-01T09:50:00Z"}]
    containerStatuses: [{name: app, ready: true, state: {running: {startedAt: "2026-01-01T09:00:02Z"}}}]
`
	s, _ := parseOK(t, src)
	w := s.Build()
	w.Run(0)
	p := w.Pod("cut-off")
	st := p.Status()
	if c, _ := st.Condition(model.Ready); p.Phase() != model.Running || c.Status != model.False {
		t.Errorf("cut-off: %s, Ready %s", p.Phase(), c.Status)
	}
}
