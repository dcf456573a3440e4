package model

// Affinity is a pod's spec.affinity.
type Affinity struct {
	NodeAffinity    *NodeAffinity
	PodAffinity     *PodAffinity
	PodAntiAffinity *PodAffinity
}

// NodeAffinity is spec.affinity.nodeAffinity: Required are the ORed terms
// of requiredDuringSchedulingIgnoredDuringExecution (none: no requirement),
// Preferred the weighted terms of preferredDuringScheduling....
type NodeAffinity struct {
	Required  []NodeSelectorTerm
	Preferred []PreferredSchedulingTerm
}

// PreferredSchedulingTerm is a node selector term worth Weight (1-100).
type PreferredSchedulingTerm struct {
	Weight int32
	Term   NodeSelectorTerm
}

// PodAffinity is spec.affinity.podAffinity or podAntiAffinity: its
// required terms, all of which must hold, and its weighted preferences.
type PodAffinity struct {
	Required  []PodAffinityTerm
	Preferred []WeightedPodAffinityTerm
}

// PodAffinityTerm selects pods (by labels, in Namespaces or the namespaces
// NamespaceSelector matches; neither: the pod's own) and names the
// topology key whose domains count.
type PodAffinityTerm struct {
	LabelSelector     *LabelSelector
	Namespaces        []string
	NamespaceSelector *LabelSelector
	TopologyKey       string
}

// WeightedPodAffinityTerm is a pod affinity term worth Weight (1-100).
type WeightedPodAffinityTerm struct {
	Weight int32
	Term   PodAffinityTerm
}

// TopologySpreadConstraint is one of a pod's
// spec.topologySpreadConstraints, with Kubernetes' defaults as zero values.
type TopologySpreadConstraint struct {
	MaxSkew     int32
	TopologyKey string
	// DoNotSchedule is whenUnsatisfiable DoNotSchedule (a filter);
	// otherwise ScheduleAnyway (a score).
	DoNotSchedule bool
	LabelSelector *LabelSelector // nil: selects no pod
	MinDomains    int32          // 0: unset (1)
	// IgnoreNodeAffinity is nodeAffinityPolicy Ignore: count the pods on
	// nodes the pod's nodeSelector and required node affinity exclude too.
	IgnoreNodeAffinity bool
	// HonorNodeTaints is nodeTaintsPolicy Honor: leave out nodes with a
	// taint the pod does not tolerate.
	HonorNodeTaints bool
	// MatchLabelKeys adds, for each key the pod has, its value to the
	// selector.
	MatchLabelKeys []string
}

// MatchesNodeAffinity reports whether a pod of template s that is not
// pinned to a node may run on n by its node selector and required node
// affinity.
func (s *PodSpec) MatchesNodeAffinity(n *Node) bool { return MatchesNodeAffinity(&Pod{Spec: s}, n) }

// MatchesNodeAffinity is the NodeAffinity filter, a core rule the
// scheduler, the DaemonSet controller and the node autoscalers share
// (nodefit.go): n has every label of p's nodeSelector, and satisfies one
// of its required terms if there are any. A daemon pod pinned to its node
// (affinityNode, which the DaemonSet controller writes as matchFields
// metadata.name in every term) also needs that node.
func MatchesNodeAffinity(p *Pod, n *Node) bool {
	if len(p.Spec.NodeSelector) > 0 {
		for k, v := range p.Spec.NodeSelector { // order is moot: any mismatch rejects
			if have, ok := n.Labels[k]; !ok || have != v {
				return false
			}
		}
	}
	if an := p.options().affinityNode; an != "" && an != n.Name {
		return false
	}
	a := p.Spec.Affinity
	if a == nil || a.NodeAffinity == nil || len(a.NodeAffinity.Required) == 0 {
		return true
	}
	for i := range a.NodeAffinity.Required {
		t := &a.NodeAffinity.Required[i]
		if an := p.options().affinityNode; an == "" && t.matches(n) || an != "" && expressionsMatch(t, n) {
			return true
		}
	}
	return false
}

// expressionsMatch reports whether n satisfies the term's matchExpressions:
// the DaemonSet controller replaced its matchFields with the node's name,
// checked apart.
func expressionsMatch(t *NodeSelectorTerm, n *Node) bool {
	for i := range t.MatchExpressions {
		if !t.MatchExpressions[i].matches(n.Labels) {
			return false
		}
	}
	return true
}
