package report

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/sim"
)

// NoAutoscaler is what explain and describe say of a world with no node
// autoscaler: nothing adds a node for a Pending pod.
const NoAutoscaler = "no node autoscaler in this scenario (spec.clusterAutoscaler with spec.nodeGroups, or a Karpenter NodePool): " +
	"nothing adds a node for a Pending pod or removes an idle one"

// PendingUnscheduled reports whether p waits for a node: Pending, bound
// to none, not being deleted (as the pendingPods check counts it).
func PendingUnscheduled(p *model.Pod) bool {
	return !p.Deleted() && !p.Terminating() && p.Node == nil && p.Phase() == model.Pending
}

// SchedulerSays is the scheduler's last word on p: the message of its
// latest FailedScheduling event, or else of its PodScheduled condition
// when not True (a gated pod), or "" when it has not tried yet.
func SchedulerSays(world *model.World, p *model.Pod) string {
	var last *model.Event
	for _, e := range world.EventsFor("Pod", p.Key()) {
		if e.Reason() == "FailedScheduling" && (last == nil || e.LastOccurred >= last.LastOccurred) {
			last = e
		}
	}
	if last != nil {
		return strings.TrimSpace(last.Message())
	}
	st := p.Status()
	if c, ok := st.Condition(model.PodScheduled); ok && c.Status != model.True && c.Message != "" {
		return c.Reason + ": " + c.Message
	}
	return ""
}

// explained is what explain says at one instant: the Pending
// unscheduled pods in namespace and name order, the nodes the node
// autoscaler explains in name order with what it says of each, and
// whether there is an autoscaler at all.
type explained struct {
	pods  []*model.Pod
	nodes []*model.Node
	says  []string // of nodes[i]
	auto  bool
	all   int // nodes in the cluster
}

func explainNow(world *model.World) explained {
	var e explained
	for _, p := range world.Pods() {
		if PendingUnscheduled(p) {
			e.pods = append(e.pods, p)
		}
	}
	slices.SortFunc(e.pods, func(a, b *model.Pod) int {
		return cmp.Or(cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name))
	})
	e.auto = world.HasScaleExplainer()
	nodes := slices.Clone(world.Nodes())
	e.all = len(nodes)
	slices.SortFunc(nodes, func(a, b *model.Node) int { return cmp.Compare(a.Name, b.Name) })
	for _, n := range nodes {
		if s := world.ExplainNode(n); s != "" {
			e.nodes, e.says = append(e.nodes, n), append(e.says, s)
		}
	}
	return e
}

// WriteExplain writes `podsim explain`: why, at the world's instant, each
// Pending unscheduled pod waits (what the scheduler said of it last, and
// what the node autoscaler says: World.ExplainPod), and why each node the
// autoscaler has something to say of is not removed (World.ExplainNode).
// Pods and nodes are in namespace and name order. With no autoscaler it
// says so.
func WriteExplain(w io.Writer, world *model.World) error {
	now := world.Now()
	e := explainNow(world)
	var b strings.Builder
	fmt.Fprintf(&b, "At %s: %s Pending and not scheduled.\n", sim.FormatTime(now), countOf(len(e.pods), "pod", "pods"))
	for _, p := range e.pods {
		fmt.Fprintf(&b, "\nPod %s/%s (Pending for %s)\n", p.Namespace, p.Name, HumanDuration(now-p.CreatedAt))
		explainField(&b, "Scheduler:", cmp.Or(SchedulerSays(world, p), "<not tried yet>"))
		if n := p.NominatedNodeName(); n != "" {
			explainField(&b, "Nominated:", n+" (preemption: waiting for its victims to go)")
		}
		if e.auto {
			explainField(&b, "Autoscaler:", cmp.Or(world.ExplainPod(p), "<none>"))
		}
	}
	switch {
	case !e.auto:
		fmt.Fprintf(&b, "\n%s.\n", strings.ToUpper(NoAutoscaler[:1])+NoAutoscaler[1:])
	case len(e.nodes) == 0:
		fmt.Fprintf(&b, "\nNodes: the autoscaler says nothing of any of the %s.\n", countOf(e.all, "node", "nodes"))
	}
	for i, n := range e.nodes {
		fmt.Fprintf(&b, "\nNode %s\n", n.Name)
		explainField(&b, "Autoscaler:", e.says[i])
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// explainJSON is `podsim explain -o json`.
type explainJSON struct {
	At            float64           `json:"at"`            // the virtual time, seconds
	HasAutoscaler bool              `json:"hasAutoscaler"` // a node autoscaler is in the scenario
	Pods          []explainPodJSON  `json:"pods"`
	Nodes         []explainNodeJSON `json:"nodes"` // those the autoscaler explains
}

type explainPodJSON struct {
	Namespace      string  `json:"namespace"`
	Name           string  `json:"name"`
	PendingSeconds float64 `json:"pendingSeconds"`
	Scheduler      string  `json:"scheduler,omitempty"`
	NominatedNode  string  `json:"nominatedNode,omitempty"`
	Autoscaler     string  `json:"autoscaler,omitempty"`
}

type explainNodeJSON struct {
	Name       string `json:"name"`
	Autoscaler string `json:"autoscaler"`
}

// WriteExplainJSON writes what WriteExplain says as one JSON document.
func WriteExplainJSON(w io.Writer, world *model.World) error {
	now := world.Now()
	e := explainNow(world)
	doc := explainJSON{At: Seconds(now), HasAutoscaler: e.auto, Pods: []explainPodJSON{}, Nodes: []explainNodeJSON{}}
	for _, p := range e.pods {
		doc.Pods = append(doc.Pods, explainPodJSON{Namespace: p.Namespace, Name: p.Name, PendingSeconds: Seconds(now - p.CreatedAt),
			Scheduler: SchedulerSays(world, p), NominatedNode: p.NominatedNodeName(), Autoscaler: world.ExplainPod(p)})
	}
	for i, n := range e.nodes {
		doc.Nodes = append(doc.Nodes, explainNodeJSON{Name: n.Name, Autoscaler: e.says[i]})
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

// PodAutoscalerSays is the node autoscaler's account of p if p is
// Pending unscheduled (World.ExplainPod), else "": describe's Autoscaler
// section.
func PodAutoscalerSays(world *model.World, p *model.Pod) string {
	if !PendingUnscheduled(p) {
		return ""
	}
	return world.ExplainPod(p)
}

// autoscaler prints describe's "Autoscaler:" section, a node autoscaler's
// account (podsim's own: kubectl has none), if there is one: its lines
// indented one level.
func (d *describer) autoscaler(text string) {
	if text == "" {
		return
	}
	d.line(0, "Autoscaler:")
	for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		d.line(1, "%s", line)
	}
}

// explainField writes "  Label:      text", its text's further lines aligned
// under its first.
func explainField(b *strings.Builder, label, text string) {
	pad := strings.Repeat(" ", 14)
	for i, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		if i == 0 {
			fmt.Fprintf(b, "  %-12s%s\n", label, line)
		} else {
			fmt.Fprintf(b, "%s%s\n", pad, line)
		}
	}
}

// countOf is "1 pod", "3 pods", "no pods".
func countOf(n int, one, many string) string {
	switch n {
	case 0:
		return "no " + many
	case 1:
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
