package scenarios

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

var resourceNames = []string{"cpu", "memory", "pods", "ephemeral-storage"}

func (v *validator) node(n *Node) {
	v.name(&n.Name, n, "node")
	for k := range n.Capacity {
		if !slices.Contains(resourceNames, k) && !strings.Contains(k, "/") {
			v.atMapKey(&n.Capacity, k, "unknown resource %q: want cpu, memory, pods or ephemeral-storage", k)
		}
	}
	count := 1
	if n.Count != nil {
		count = *n.Count
		switch {
		case count < 1:
			v.at(n.Count, "count must be at least 1")
		case count > MaxNodes:
			v.at(n.Count, "count %d: a scenario has at most %d nodes", count, MaxNodes)
			count = 1
		}
	}
	if before := v.nodeCount; before <= MaxNodes {
		v.nodeCount = min(before+max(count, 1), MaxNodes+1)
		if v.nodeCount > MaxNodes && (n.Count == nil || *n.Count <= MaxNodes) {
			v.at(n, "%d nodes: a scenario has at most %d nodes, counts expanded", before+max(count, 1), MaxNodes)
		}
	}
	if v.nodeCount > MaxNodes {
		return // do not stamp out names past the limit
	}
	for _, name := range ExpandNodeNames(n.Name, count) {
		if v.nodes[name] {
			v.at(&n.Name, "duplicate node name %q", name)
		}
		v.nodes[name] = true
	}
	if n.MTBF != nil && n.MTBF.D() < time.Second {
		v.at(n.MTBF, "mtbf must be at least 1s")
	}
	v.nodeShutdown(&n.NodeShutdown, &v.s.File.Spec.Settings.NodeShutdown)
	if p := n.PricePerHour; p != nil && !(*p >= 0 && *p <= maxPricePerHour) {
		v.at(p, "pricePerHour must be a number from 0 to 1e9")
	}
	if n.RepairTime != nil && n.MTBF == nil {
		v.atKey(&n.RepairTime, "repairTime goes with mtbf (a nodeFailure fault takes for)")
	}
	v.labels(&n.Labels)
	v.taints(n.Taints)
}

// taints checks a node's taints: a key and a known effect.
func (v *validator) taints(ts []Taint) {
	for i := range ts {
		t := &ts[i]
		if t.Key == "" {
			v.at(t, "taint: key is required")
		} else if p := keyProblem(t.Key); p != "" {
			v.at(&t.Key, "taint key %s: %s", quoteValue(t.Key), p)
		}
		if !slices.Contains([]string{"NoSchedule", "PreferNoSchedule", "NoExecute"}, t.Effect) {
			v.at(t, "taint effect %q: want NoSchedule, PreferNoSchedule or NoExecute", t.Effect)
		}
	}
}

// ExpandNodeNames returns the names a node entry stamps out: itself, or
// name-0 ... name-(count-1).
func ExpandNodeNames(name string, count int) []string {
	if count <= 1 {
		return []string{name}
	}
	out := make([]string, count)
	for i := range out {
		out[i] = fmt.Sprintf("%s-%d", name, i)
	}
	return out
}

func (v *validator) nodeRef(name *string, parent any) bool {
	switch {
	case *name == "":
		v.at(parent, "node is required")
		return false
	case !v.nodes[*name] && !(len(v.s.nodes) == 0 && len(v.s.File.Spec.NodeGroups) == 0 && !v.s.hasNodePools() && *name == DefaultNodeName) &&
		!v.karpenterNode(*name) && v.groupOfNode(*name) == nil:
		v.at(name, "no node called %q%s", *name, v.nodeHint(*name))
		return false
	}
	return true
}
