package scenarios

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// expanders are the Cluster Autoscaler's expanders podsim models
// (cluster-autoscaler/expander).
var expanders = []string{"least-waste", "random", "most-pods", "priority", "price"}

// nodeAutoscaling checks spec.nodeGroups and spec.clusterAutoscaler.
func (v *validator) nodeAutoscaling(na *NodeAutoscaling) {
	seen := map[string]bool{}
	for i := range na.NodeGroups {
		g := &na.NodeGroups[i]
		v.item(g)
		v.nodeGroup(g)
		if seen[g.Name] && g.Name != "" {
			v.at(&g.Name, "duplicate node group name %q", g.Name)
		}
		seen[g.Name] = true
	}
	if ca := na.ClusterAutoscaler; ca != nil {
		v.hereFile, v.here = v.s.Path, v.s.root
		v.clusterAutoscaler(ca, len(na.NodeGroups))
	}
}

// nodeGroup checks one node group: its name, sizes, template, boot time
// and price, and stamps out the names of its min nodes.
func (v *validator) nodeGroup(g *NodeGroup) {
	v.name(&g.Name, g, "node group")
	minSize := 0
	if g.Min != nil {
		if minSize = *g.Min; minSize < 0 {
			v.at(g.Min, "min must not be negative")
			minSize = 0
		}
	}
	switch {
	case g.Max == nil:
		v.at(g, "node group %s: max is required", g.Name)
	case *g.Max < 1:
		v.at(g.Max, "max must be at least 1")
	case *g.Max < minSize:
		v.at(g.Max, "max (%d) must not be less than min (%d)", *g.Max, minSize)
	case *g.Max > MaxNodes:
		v.at(g.Max, "max %d: a scenario has at most %d nodes", *g.Max, MaxNodes)
	}
	t := &g.Template
	for k := range t.Capacity {
		if !slices.Contains(resourceNames, k) && !strings.Contains(k, "/") {
			v.atMapKey(&t.Capacity, k, "unknown resource %q: want cpu, memory, pods or ephemeral-storage", k)
		}
	}
	v.labels(&t.Labels)
	v.taints(t.Taints)
	if g.Zone != "" && (len(g.Zone) > 63 || !qualifiedNamePart().MatchString(g.Zone)) {
		v.at(&g.Zone, "zone %s: want at most 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit", quoteValue(g.Zone))
	}
	if b := g.BootTime; b != nil {
		if d, fixed := b.FixedValue(); fixed && d < 0 {
			v.at(b, "bootTime must not be negative")
		}
	}
	if p := g.PricePerHour; p != nil && !(*p >= 0) {
		v.at(p, "pricePerHour must not be negative")
	}
	if v.nodeCount += minSize; v.nodeCount > MaxNodes {
		v.at(g, "%d nodes: a scenario has at most %d nodes", v.nodeCount, MaxNodes)
		return
	}
	for _, name := range GroupNodeNames(g.Name, minSize) {
		if v.nodes[name] {
			v.at(&g.Name, "node group %s: its node %q has the name of a node of spec.nodes", g.Name, name)
		}
		v.nodes[name] = true
	}
}

// GroupNodeNames returns the names of a node group's first n nodes:
// <group>-0 ... <group>-(n-1).
func GroupNodeNames(group string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = group + "-" + strconv.Itoa(i)
	}
	return out
}

// groupOfNode returns the node group whose nodes are named like name
// (<group>-<n>), or nil.
func (v *validator) groupOfNode(name string) *NodeGroup {
	i := strings.LastIndexByte(name, '-')
	if i <= 0 {
		return nil
	}
	if _, err := strconv.Atoi(name[i+1:]); err != nil {
		return nil
	}
	for j := range v.s.File.Spec.NodeGroups {
		if g := &v.s.File.Spec.NodeGroups[j]; g.Name == name[:i] {
			return g
		}
	}
	return nil
}

// clusterAutoscaler checks the Cluster Autoscaler's flags.
func (v *validator) clusterAutoscaler(ca *ClusterAutoscaler, groups int) {
	if groups == 0 {
		v.atKey(&v.s.File.Spec.ClusterAutoscaler, "clusterAutoscaler: spec.nodeGroups lists no node group for it to resize")
	}
	if ca.Expander != "" && !slices.Contains(expanders, ca.Expander) {
		v.at(&ca.Expander, "expander %q: want one of %s%s", ca.Expander, strings.Join(expanders, ", "), suggestion(ca.Expander, expanders))
	}
	if ca.Expander == "priority" && len(ca.Priorities) == 0 {
		v.at(&ca.Expander, "the priority expander needs priorities: {PRIORITY: [GROUP-NAME-REGEX, ...]}")
	}
	for _, res := range ca.Priorities {
		for i := range res {
			if _, err := regexp.Compile(res[i]); err != nil {
				v.at(&res[i], "priorities: %q is not a regular expression: %v", res[i], err)
			}
		}
	}
	if d := ca.ScanInterval; d != nil && d.D() <= 0 {
		v.at(d, "scanInterval must be positive")
	}
	for _, d := range []*Duration{ca.ScaleDownUnneededTime, ca.ScaleDownDelayAfterAdd, ca.ScaleDownDelayAfterDelete,
		ca.ScaleDownDelayAfterFailure, ca.MaxNodeProvisionTime, ca.InitialNodeGroupBackoff, ca.MaxNodeGroupBackoff, ca.NodeGroupBackoffReset} {
		if d != nil && d.D() < 0 {
			v.at(d, "must not be negative")
		}
	}
	if t := ca.ScaleDownUtilizationThreshold; t != nil && !(*t >= 0 && *t <= 1) {
		v.at(t, "scaleDownUtilizationThreshold must be between 0 and 1")
	}
	for _, n := range []*int{ca.MaxGracefulTerminationSec, ca.MaxEmptyBulkDelete, ca.MaxNodesTotal} {
		if n != nil && *n < 0 {
			v.at(n, "must not be negative")
		}
	}
	if ca.MaxEmptyBulkDelete != nil && *ca.MaxEmptyBulkDelete == 0 {
		v.at(ca.MaxEmptyBulkDelete, "maxEmptyBulkDelete must be at least 1")
	}
}

// nodeGroupFault checks a nodeGroupBootFailure: a known group, a positive for.
func (v *validator) nodeGroupFault(f *NodeGroupFault) {
	known := make([]string, 0, len(v.s.File.Spec.NodeGroups))
	for i := range v.s.File.Spec.NodeGroups {
		known = append(known, v.s.File.Spec.NodeGroups[i].Name)
	}
	switch {
	case f.Group == "":
		v.at(f, "nodeGroupBootFailure: group is required")
	case !slices.Contains(known, f.Group):
		v.at(&f.Group, "no node group called %q%s", f.Group, suggestion(f.Group, known))
	}
	if f.For != nil {
		if d, fixed := f.For.FixedValue(); fixed && d <= 0 {
			v.at(f.For, "for must be positive")
		}
	}
}

// expectNodeGroup checks a node group check: a known group, counts only
// with one, pendingPods without one.
func (v *validator) expectNodeGroup(e *Expect) {
	if e.NodeGroup == "" {
		for _, r := range []*IntRange{e.Nodes, e.ReadyNodes} {
			if r != nil {
				v.atKey(r, "nodes and readyNodes are checked on a node group (nodeGroup: its name)")
			}
		}
		return
	}
	var known []string // node groups, and Karpenter's NodePools, named the same way
	for i := range v.s.File.Spec.NodeGroups {
		known = append(known, v.s.File.Spec.NodeGroups[i].Name)
	}
	for _, w := range v.nodePools {
		known = append(known, w.Metadata.Name)
	}
	if !slices.Contains(known, e.NodeGroup) {
		v.at(&e.NodeGroup, "no node group or NodePool called %q%s", e.NodeGroup, suggestion(e.NodeGroup, known))
	}
	if e.PendingPods != nil {
		v.atKey(e.PendingPods, "pendingPods counts the whole cluster's: it goes without nodeGroup")
	}
	if e.Nodes == nil && e.ReadyNodes == nil {
		v.at(e, "a node group expectation checks nodes, readyNodes or both")
	}
}
