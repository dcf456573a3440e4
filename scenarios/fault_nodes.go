package scenarios

import (
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/podsim/podsim/model"
)

// Node faults and actions name one node, or by a label selector every
// node whose labels include the selector's (as `kubectl drain -l`):
// {at: 1h, nodeFailure: {selector: {topology.kubernetes.io/zone: b}}}.
// The nodes are picked when the fault acts, among those not deleted.

// nodesOf returns the nodes r names now: its node, or the nodes its
// selector matches, by name.
func nodesOf(w *model.World, r *NodeRef) []*model.Node {
	if len(r.Selector) == 0 {
		if n := w.Node(r.Node); n != nil {
			return []*model.Node{n}
		}
		return nil
	}
	var out []*model.Node
	for _, n := range w.Nodes() {
		if !n.Gone() && hasLabels(n.Labels, r.Selector) {
			out = append(out, n)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// hasLabels reports whether labels include every pair of sel.
func hasLabels(labels, sel map[string]string) bool {
	for k, v := range sel {
		if l, ok := labels[k]; !ok || l != v {
			return false
		}
	}
	return true
}

// eachNode is an action on every node r names.
func eachNode(c *faultWorld, r *NodeRef, do func(n *model.Node)) func() {
	return func() {
		for _, n := range nodesOf(c.w, r) {
			do(n)
		}
	}
}

// nodeTarget checks a node fault's or action's node, or its selector: one
// of them, a node of the scenario, a selector that some node matches.
func (v *validator) nodeTarget(r *NodeRef, parent any) bool {
	switch {
	case len(r.Selector) == 0:
		return v.nodeRef(&r.Node, parent)
	case r.Node != "":
		v.atKey(&r.Selector, "node and selector: name one node, or select nodes by their labels, not both")
		return false
	}
	for _, n := range v.s.nodes {
		count := 1
		if n.Count != nil {
			count = *n.Count
		}
		for _, name := range ExpandNodeNames(n.Name, min(count, MaxNodes)) {
			labels := map[string]string{"kubernetes.io/hostname": name}
			maps.Copy(labels, n.Labels)
			if hasLabels(labels, r.Selector) {
				return true
			}
		}
	}
	var pairs []string
	for k, val := range r.Selector {
		pairs = append(pairs, k+"="+val)
	}
	slices.Sort(pairs)
	v.atKey(&r.Selector, "selector %s: no node has these labels", strings.Join(pairs, ","))
	return false
}
