package karpenter

import (
	"maps"
	"slices"
	"strconv"

	"github.com/podsim/podsim/model"
)

// wellKnown are the labels an instance type's offering sets
// (pkg/apis/v1/labels.go WellKnownLabels, those podsim models): a
// requirement on one narrows the instance types, never labels the node.
var wellKnown = map[string]bool{LabelInstanceType: true, LabelCapacityType: true, LabelZone: true,
	"topology.kubernetes.io/region": true, "kubernetes.io/arch": true, "kubernetes.io/os": true, LabelNodePool: true}

// nodeLabels are the labels of a node pool launches with instance type
// it: the template's labels, a value of each requirement In on another
// key (the first one listed, as a NodeClaim's requirements label it), the
// instance type's labels, its name, its capacity type (on-demand unless
// it says) and the NodePool's name.
func nodeLabels(pool *model.NodePool, it *model.InstanceType) map[string]string {
	l := maps.Clone(pool.Labels)
	if l == nil {
		l = map[string]string{}
	}
	for _, r := range pool.Requirements {
		if _, set := l[r.Key]; r.Operator == "In" && len(r.Values) > 0 && !set && !wellKnown[r.Key] {
			l[r.Key] = r.Values[0]
		}
	}
	maps.Copy(l, it.Labels)
	l[LabelInstanceType] = it.Name
	if l[LabelCapacityType] == "" {
		l[LabelCapacityType] = capacityOnDemand
	}
	l[LabelNodePool] = pool.Name
	l[labelRegistered] = "true"
	return l
}

// compatible reports whether the nodes of instance type it satisfy every
// requirement of pool, and if not the first it does not.
func compatible(pool *model.NodePool, it *model.InstanceType) (bool, *model.NodeRequirement) {
	l := nodeLabels(pool, it)
	for i := range pool.Requirements {
		if r := &pool.Requirements[i]; !satisfied(r, l) {
			return false, r
		}
	}
	return true, nil
}

// satisfied evaluates one requirement against a node's labels as a node
// selector requirement is (Gt and Lt compare integers).
func satisfied(r *model.NodeRequirement, l map[string]string) bool {
	v, ok := l[r.Key]
	switch r.Operator {
	case "In":
		return ok && slices.Contains(r.Values, v)
	case "NotIn":
		return !ok || !slices.Contains(r.Values, v)
	case "Exists":
		return ok
	case "DoesNotExist":
		return !ok
	case "Gt", "Lt":
		if !ok || len(r.Values) != 1 {
			return false
		}
		a, err1 := strconv.ParseInt(v, 10, 64)
		b, err2 := strconv.ParseInt(r.Values[0], 10, 64)
		if err1 != nil || err2 != nil {
			return false
		}
		return r.Operator == "Gt" && a > b || r.Operator == "Lt" && a < b
	}
	return false
}

// nodeSpec is the node pool launches with instance type it, named name.
// Startup taints are not put on it: nothing in podsim would lift them.
func nodeSpec(name string, pool *model.NodePool, it *model.InstanceType) model.NodeSpec {
	return model.NodeSpec{Name: name, Labels: nodeLabels(pool, it), Capacity: it.Capacity, Taints: pool.Taints,
		Group: pool.Name, PricePerHour: it.PricePerHour}
}

// ephemeral are the taints Karpenter ignores on a node in flight
// (pkg/scheduling/taints.go KnownEphemeralTaints): they go away once it
// is up.
func ephemeral(t model.Taint) bool {
	switch t.Key {
	case model.TaintNotReady, "node.kubernetes.io/unreachable", "node.cloudprovider.kubernetes.io/uninitialized", "karpenter.sh/unregistered":
		return true
	}
	return false
}
