package report

import (
	"bytes"
	"cmp"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/podsim/podsim/model"
)

// WriteDescribeNode writes the node as `kubectl describe node` shows it
// (staging/src/k8s.io/kubectl/pkg/describe/describe.go, describeNode and
// describeNodeResource), at the world's current time, with what podsim
// models: name, roles, labels, creation, taints, cordon, conditions (no
// heartbeat column: serve's Node has it), capacity and allocatable, the
// pods not in a terminal phase with their requests and limits, the
// resources they hold, and events. Lease, addresses and system info are
// left out (docs/describe-vs-kubectl.md). A node autoscaler's account of
// why the node is not removed (World.ExplainNode), podsim's own, is an
// "Autoscaler:" section before the events when it has one.
func WriteDescribeNode(w io.Writer, world *model.World, n *model.Node) error {
	now := world.Now()
	var buf bytes.Buffer
	tw := tabwriter.NewWriter(&buf, 0, 8, 2, ' ', 0)
	d := &describer{w: tw, world: world}

	d.line(0, "Name:\t%s", n.Name)
	d.line(0, "Roles:\t%s", NodeRoles(n.Labels))
	d.labels("Labels", n.Labels)
	d.line(0, "Annotations:\t<none>")
	d.line(0, "CreationTimestamp:\t%s", d.date(n.CreatedAt))
	d.taints(n.Taints)
	d.line(0, "Unschedulable:\t%v", n.Unschedulable())
	if len(n.Conditions) > 0 {
		d.line(0, "Conditions:")
		d.line(1, "Type\tStatus\tLastTransitionTime\tReason\tMessage")
		d.line(1, "----\t------\t------------------\t------\t-------")
		for _, c := range n.Conditions {
			d.line(1, "%s \t%s \t%s \t%s \t%s", c.Type, c.Status, d.date(c.LastTransitionTime), c.Reason, c.Message)
		}
	}
	total := n.Total
	if total == (model.Resources{}) {
		total = n.Capacity
	}
	d.nodeResources("Capacity", total)
	d.nodeResources("Allocatable", n.Capacity)
	d.nodePods(n, now)
	d.autoscaler(world.ExplainNode(n))
	d.events(sortedEvents(world.EventsFor("Node", n.Name)), now)
	if d.err != nil {
		return d.err
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, line := range strings.SplitAfter(buf.String(), "\n") {
		if line == "" {
			continue
		}
		if _, err := io.WriteString(w, strings.TrimRight(line, " \n")+"\n"); err != nil {
			return err
		}
	}
	return nil
}

// NodeRoles is kubectl's findNodeRoles (its ROLES column): the
// node-role.kubernetes.io/ label suffixes and kubernetes.io/role, sorted,
// each once, comma-separated; <none> without any.
func NodeRoles(labels map[string]string) string {
	var roles []string
	for k, v := range labels {
		switch {
		case strings.HasPrefix(k, "node-role.kubernetes.io/"):
			if r := strings.TrimPrefix(k, "node-role.kubernetes.io/"); r != "" {
				roles = append(roles, r)
			}
		case k == "kubernetes.io/role" && v != "":
			roles = append(roles, v)
		}
	}
	if len(roles) == 0 {
		return "<none>"
	}
	slices.Sort(roles)
	return strings.Join(slices.Compact(roles), ",")
}

// taints prints kubectl's Taints, sorted by effect then key
// (printTaintsMultilineWithIndent), each as Taint.ToString.
func (d *describer) taints(ts []model.Taint) {
	if len(ts) == 0 {
		d.line(0, "Taints:\t<none>")
		return
	}
	ts = slices.Clone(ts)
	slices.SortFunc(ts, func(a, b model.Taint) int { return strings.Compare(a.Effect+","+a.Key, b.Effect+","+b.Key) })
	for i, t := range ts {
		s := t.Key
		if t.Value != "" {
			s += "=" + t.Value
		}
		s += ":" + t.Effect
		if i == 0 {
			d.line(0, "Taints:\t%s", s)
		} else {
			d.line(0, "\t%s", s)
		}
	}
}

// nodeResources prints a node's resource list, by name.
func (d *describer) nodeResources(title string, r model.Resources) {
	d.line(0, "%s:", title)
	d.line(0, "  cpu:\t%s", FormatCPU(r.MilliCPU))
	d.line(0, "  memory:\t%s", FormatMemory(r.Memory))
	d.line(0, "  pods:\t%d", r.Pods)
}

// nodePods prints kubectl's Non-terminated Pods table and Allocated
// resources (describeNodeResource): the pods bound to n that are not
// Succeeded or Failed, in the API's order (namespace, then name), each
// with its requests and limits and their share of n's allocatable,
// truncated to a whole percent.
func (d *describer) nodePods(n *model.Node, now time.Duration) {
	var pods []*model.Pod
	for _, p := range n.Pods() {
		if !p.Deleted() && !p.Phase().Terminal() {
			pods = append(pods, p)
		}
	}
	slices.SortFunc(pods, func(a, b *model.Pod) int {
		return cmp.Or(cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name))
	})
	alloc := n.Capacity
	d.line(0, "Non-terminated Pods:\t(%d in total)", len(pods))
	d.line(1, "Namespace\tName\t\tCPU Requests\tCPU Limits\tMemory Requests\tMemory Limits\tAge")
	d.line(1, "---------\t----\t\t------------\t----------\t---------------\t-------------\t---")
	var reqs, lims model.Resources
	for _, p := range pods {
		req, lim := p.Spec.Requests(), podLimits(p.Spec)
		reqs.MilliCPU, reqs.Memory = reqs.MilliCPU+req.MilliCPU, reqs.Memory+req.Memory
		lims.MilliCPU, lims.Memory = lims.MilliCPU+lim.MilliCPU, lims.Memory+lim.Memory
		d.line(1, "%s\t%s\t\t%s (%d%%)\t%s (%d%%)\t%s (%d%%)\t%s (%d%%)\t%s", p.Namespace, p.Name,
			FormatCPU(req.MilliCPU), percent(req.MilliCPU, alloc.MilliCPU), FormatCPU(lim.MilliCPU), percent(lim.MilliCPU, alloc.MilliCPU),
			FormatMemory(req.Memory), percent(req.Memory, alloc.Memory), FormatMemory(lim.Memory), percent(lim.Memory, alloc.Memory),
			HumanDuration(now-p.CreatedAt))
	}
	d.line(0, "Allocated resources:")
	d.line(0, "  (Total limits may be over 100 percent, i.e., overcommitted.)")
	d.line(1, "Resource\tRequests\tLimits")
	d.line(1, "--------\t--------\t------")
	d.line(1, "cpu\t%s (%d%%)\t%s (%d%%)", FormatCPU(reqs.MilliCPU), percent(reqs.MilliCPU, alloc.MilliCPU), FormatCPU(lims.MilliCPU), percent(lims.MilliCPU, alloc.MilliCPU))
	d.line(1, "memory\t%s (%d%%)\t%s (%d%%)", FormatMemory(reqs.Memory), percent(reqs.Memory, alloc.Memory), FormatMemory(lims.Memory), percent(lims.Memory, alloc.Memory))
}

// podLimits is a pod's limits as kubectl's PodLimits adds them up, as
// model.PodSpec.Requests does requests: the sum over its containers and
// sidecars, or an init container's (with the sidecars before it) if
// larger.
func podLimits(s *model.PodSpec) model.Resources {
	var sum, initMax, sidecars model.Resources
	for _, c := range s.InitContainers {
		initMax.MilliCPU = max(initMax.MilliCPU, c.Limits.MilliCPU+sidecars.MilliCPU)
		initMax.Memory = max(initMax.Memory, c.Limits.Memory+sidecars.Memory)
		if c.Sidecar {
			sidecars.MilliCPU += c.Limits.MilliCPU
			sidecars.Memory += c.Limits.Memory
		}
	}
	sum = sidecars
	for _, c := range s.Containers {
		sum.MilliCPU += c.Limits.MilliCPU
		sum.Memory += c.Limits.Memory
	}
	return model.Resources{MilliCPU: max(sum.MilliCPU, initMax.MilliCPU), Memory: max(sum.Memory, initMax.Memory)}
}

// percent is part of whole in whole percent, truncated, as kubectl's
// int64(fraction); 0 of an unknown whole.
func percent(part, whole int64) int64 {
	if whole <= 0 {
		return 0
	}
	return int64(float64(part) / float64(whole) * 100)
}
