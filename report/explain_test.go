package report

import (
	"strings"
	"testing"
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/scenarios"
)

// fakeAutoscaler explains the pod big and the node node-1, and nothing
// else.
type fakeAutoscaler struct{}

func (fakeAutoscaler) Active() bool { return true }

func (fakeAutoscaler) ExplainPod(p *model.Pod) string {
	if p.Name == "big" {
		return "node group g: max node group size reached (3/3)\nnode group h: Insufficient cpu"
	}
	return ""
}

func (fakeAutoscaler) ExplainNode(n *model.Node) string {
	if n.Name == "node-1" {
		return "pod default/small blocks its removal: not replicated (no controller)"
	}
	return ""
}

// runTooBig runs tooBig to at, with the fake autoscaler if auto.
func runTooBig(t *testing.T, at time.Duration, auto bool) *model.World {
	t.Helper()
	s, err := scenarios.Parse("c.yaml", []byte(tooBig))
	if err != nil {
		t.Fatal(err)
	}
	r := s.Start(scenarios.RunOptions{Until: at, Attach: func(w *model.World) {
		if auto {
			w.Register(fakeAutoscaler{})
		}
	}})
	r.Run(nil)
	return r.World
}

func explain(t *testing.T, w *model.World) string {
	t.Helper()
	var b strings.Builder
	if err := WriteExplain(&b, w); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestExplainWithAutoscaler(t *testing.T) {
	const sched = "0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."
	got := explain(t, runTooBig(t, 30*time.Second, true))
	want := `At 30s: 2 pods Pending and not scheduled.

Pod default/big (Pending for 30s)
  Scheduler:  ` + sched + `
  Autoscaler: node group g: max node group size reached (3/3)
              node group h: Insufficient cpu

Pod default/gone (Pending for 30s)
  Scheduler:  ` + sched + `
  Autoscaler: <none>

Node node-1
  Autoscaler: pod default/small blocks its removal: not replicated (no controller)
`
	if got != want {
		t.Errorf("explain:\n%s\nwant:\n%s", got, want)
	}
	// At 2m gone is deleted, and only big waits.
	if got := explain(t, runTooBig(t, 2*time.Minute, true)); !strings.HasPrefix(got, "At 2m: 1 pod Pending and not scheduled.\n\nPod default/big (Pending for 2m)\n") ||
		strings.Contains(got, "gone") {
		t.Errorf("explain at 2m:\n%s\nwant big alone", got)
	}
}

func TestExplainWithoutAutoscaler(t *testing.T) {
	got := explain(t, runTooBig(t, 30*time.Second, false))
	if strings.Contains(got, "Autoscaler:") || !strings.HasSuffix(got, "\nNo node autoscaler in this scenario (spec.clusterAutoscaler with spec.nodeGroups, "+
		"or a Karpenter NodePool): nothing adds a node for a Pending pod or removes an idle one.\n") ||
		!strings.Contains(got, "Pod default/big (Pending for 30s)\n  Scheduler:  0/1 nodes are available: 1 Insufficient cpu.") {
		t.Errorf("explain without an autoscaler:\n%s", got)
	}
	// A gated pod, which the scheduler does not try, says why it waits.
	s, err := scenarios.Parse("g.yaml", []byte(`apiVersion: podsim/v1
kind: Scenario
metadata: {name: gated}
spec:
  duration: 1m
  pods:
    - metadata: {name: held}
      spec:
        schedulingGates: [{name: example.com/hold}]
        containers: [{name: app, image: example/app:1}]
`))
	if err != nil {
		t.Fatal(err)
	}
	r := s.Start(scenarios.RunOptions{Until: s.Duration})
	r.Run(nil)
	if got := explain(t, r.World); !strings.Contains(got, "Pod default/held (Pending for 60s)\n  Scheduler:  SchedulingGated: Scheduling is blocked due to non-empty scheduling gates\n") {
		t.Errorf("a gated pod:\n%s", got)
	}
}

// describe shows the autoscaler's account of a Pending pod in a section
// of its own before the events, and nothing for a bound pod or with no
// autoscaler.
func TestDescribeAutoscalerSection(t *testing.T) {
	describe := func(w *model.World, name string) (string, string) {
		p := w.Pod(model.Key(model.DefaultNamespace, name))
		var text, js strings.Builder
		if err := WriteDescribePod(&text, w, p); err != nil {
			t.Fatal(err)
		}
		if err := WriteDescribePodJSON(&js, w, p); err != nil {
			t.Fatal(err)
		}
		return text.String(), js.String()
	}
	w := runTooBig(t, 30*time.Second, true)
	text, js := describe(w, "big")
	want := "Autoscaler:\n  node group g: max node group size reached (3/3)\n  node group h: Insufficient cpu\nEvents:\n"
	if !strings.Contains(text, want) {
		t.Errorf("describe big:\n%s\nwant the section\n%s", text, want)
	}
	if !strings.Contains(js, `"autoscaler": "node group g: max node group size reached (3/3)\nnode group h: Insufficient cpu"`) {
		t.Errorf("describe big -o json:\n%s\nwant its autoscaler", js)
	}
	for _, name := range []string{"small", "gone"} {
		if text, js := describe(w, name); strings.Contains(text, "Autoscaler") || strings.Contains(js, "autoscaler") {
			t.Errorf("describe %s (bound, or of which the autoscaler says nothing) has an Autoscaler section:\n%s\n%s", name, text, js)
		}
	}
	if text, js := describe(runTooBig(t, 30*time.Second, false), "big"); strings.Contains(text, "Autoscaler") || strings.Contains(js, "autoscaler") {
		t.Errorf("describe big with no autoscaler has an Autoscaler section:\n%s\n%s", text, js)
	}
}

// describe node/NAME: kubectl's view of what podsim models, with the
// autoscaler's account of the node in its own section.
func TestDescribeNodeAutoscalerSection(t *testing.T) {
	w := runTooBig(t, 30*time.Second, true)
	var b strings.Builder
	if err := WriteDescribeNode(&b, w, w.Node("node-1")); err != nil {
		t.Fatal(err)
	}
	want := `Name:               node-1
Roles:              <none>
Labels:             beta.kubernetes.io/arch=amd64
                    beta.kubernetes.io/os=linux
                    kubernetes.io/arch=amd64
                    kubernetes.io/hostname=node-1
                    kubernetes.io/os=linux
Annotations:        <none>
CreationTimestamp:  Thu, 01 Jan 1970 00:00:00 +0000
Taints:             <none>
Unschedulable:      false
Conditions:
  Type    Status  LastTransitionTime                Reason         Message
  ----    ------  ------------------                ------         -------
  Ready   True    Thu, 01 Jan 1970 00:00:00 +0000   KubeletReady   kubelet is posting ready status
Capacity:
  cpu:     4
  memory:  16Gi
  pods:    110
Allocatable:
  cpu:                4
  memory:             16Gi
  pods:               110
Non-terminated Pods:  (1 in total)
  Namespace           Name     CPU Requests  CPU Limits  Memory Requests  Memory Limits  Age
  ---------           ----     ------------  ----------  ---------------  -------------  ---
  default             small    1 (25%)       0 (0%)      0 (0%)           0 (0%)         30s
Allocated resources:
  (Total limits may be over 100 percent, i.e., overcommitted.)
  Resource  Requests  Limits
  --------  --------  ------
  cpu       1 (25%)   0 (0%)
  memory    0 (0%)    0 (0%)
Autoscaler:
  pod default/small blocks its removal: not replicated (no controller)
Events:  <none>
`
	if got := b.String(); got != want {
		t.Errorf("describe node-1:\n%s\nwant:\n%s", got, want)
	}
	b.Reset()
	if err := WriteDescribeNode(&b, runTooBig(t, 30*time.Second, false), w.Node("node-1")); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "Autoscaler") {
		t.Errorf("describe node-1 with no autoscaler:\n%s", b.String())
	}
}
