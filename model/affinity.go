package model

import "math"

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

// podTerm resolves the term for a pod of namespace ns
// (getNamespacesFromPodAffinityTerm: no namespaces and no namespace
// selector mean the pod's own namespace).
func (t *PodAffinityTerm) podTerm(ns string) podTerm {
	out := podTerm{sel: t.LabelSelector, namespaces: t.Namespaces, nsSel: t.NamespaceSelector}
	if len(t.Namespaces) == 0 && t.NamespaceSelector == nil {
		out.namespaces = []string{ns}
	}
	return out
}

// Reasons of the NodeAffinity and InterPodAffinity filters
// (pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go,
// interpodaffinity/filtering.go).
const (
	reasonNodeAffinity         = "node(s) didn't match Pod's node affinity/selector"
	reasonAffinityRules        = "node(s) didn't match pod affinity rules"
	reasonAntiAffinityRules    = "node(s) didn't match pod anti-affinity rules"
	reasonExistingAntiAffinity = "node(s) didn't satisfy existing pods anti-affinity rules"
)

// matchesNodeAffinity is the NodeAffinity filter: the node has every label
// of the nodeSelector, and satisfies one of the required terms if there
// are any. A daemon pod pinned to its node (affinityNode, which the
// DaemonSet controller writes as matchFields metadata.name in every term)
// also needs that node.
// MatchesNodeAffinity reports whether a pod of template s that is not
// pinned to a node may run on n by its node selector and required node
// affinity.
func (s *PodSpec) MatchesNodeAffinity(n *Node) bool { return matchesNodeAffinity(&Pod{Spec: s}, n) }

func matchesNodeAffinity(p *Pod, n *Node) bool {
	if len(p.Spec.NodeSelector) > 0 {
		for k, v := range p.Spec.NodeSelector { // order is moot: any mismatch rejects
			if have, ok := n.Labels[k]; !ok || have != v {
				return false
			}
		}
	}
	if p.affinityNode != "" && p.affinityNode != n.Name {
		return false
	}
	a := p.Spec.Affinity
	if a == nil || a.NodeAffinity == nil || len(a.NodeAffinity.Required) == 0 {
		return true
	}
	for i := range a.NodeAffinity.Required {
		t := &a.NodeAffinity.Required[i]
		if p.affinityNode == "" && t.matches(n) || p.affinityNode != "" && expressionsMatch(t, n) {
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

// hasRequiredNodeAffinity reports whether a pod's nodeSelector or required
// node affinity restricts where it may go.
func hasRequiredNodeAffinity(p *Pod) bool {
	a := p.Spec.Affinity
	return len(p.Spec.NodeSelector) > 0 || p.affinityNode != "" ||
		a != nil && a.NodeAffinity != nil && len(a.NodeAffinity.Required) > 0
}

// nodeAffinityScore is NodeAffinity's raw score: the weights of the
// preferred terms the node satisfies.
func nodeAffinityScore(p *Pod, n *Node) int64 {
	var sum int64
	for i := range p.Spec.Affinity.NodeAffinity.Preferred {
		t := &p.Spec.Affinity.NodeAffinity.Preferred[i]
		if t.Weight != 0 && t.Term.matches(n) {
			sum += int64(t.Weight)
		}
	}
	return sum
}

// hasPreferredNodeAffinity reports whether NodeAffinity scores the pod.
func hasPreferredNodeAffinity(p *Pod) bool {
	a := p.Spec.Affinity
	return a != nil && a.NodeAffinity != nil && len(a.NodeAffinity.Preferred) > 0
}

// keyedCounter is a counter read per domain of one topology key, with a
// weight for scores.
type keyedCounter struct {
	c      *podCounter
	dc     *domainCounts
	weight int64
}

// interPodFilter is the InterPodAffinity filter's state for one attempt
// (PreFilter): the incoming pod's required terms and the groups of
// existing pods whose required anti-affinity the pod matches.
type interPodFilter struct {
	affinity     []keyedCounter // one per required affinity term: pods matching all of them
	anywhere     bool           // some existing pod matches all of them (on a node with a term's key)
	selfAffinity bool           // the pod matches all its own required affinity terms
	anti         []keyedCounter
	existing     []*termGroup
}

// active reports whether the filter has anything to check.
func (f *interPodFilter) active() bool {
	return len(f.affinity) > 0 || len(f.anti) > 0 || len(f.existing) > 0
}

// prepare fills f for pod p with plan from the index.
func (f *interPodFilter) prepare(x *podIndex, p *Pod, plan *schedPlan) {
	f.affinity, f.anti, f.existing = plan.affinity, plan.anti, f.existing[:0]
	f.selfAffinity, f.anywhere = plan.selfAffinity, false
	for _, kc := range f.affinity {
		if kc.dc.total > 0 {
			f.anywhere = true
		}
	}
	for _, g := range x.groupL {
		if g.kind == requiredAntiAffinity && g.pods.domains[0].total > 0 && g.match.matches(p) {
			f.existing = append(f.existing, g)
		}
	}
}

// check returns the reason the node fails the filter, "" if it passes, and
// whether preemption cannot help (affinity rules).
func (f *interPodFilter) check(n *Node) (string, bool) {
	if len(f.affinity) > 0 {
		exist := true
		for _, kc := range f.affinity {
			k, ok := kc.dc.onNode(n)
			if !ok {
				return reasonAffinityRules, true // all topology labels must exist on the node
			}
			if k <= 0 {
				exist = false
			}
		}
		// The first of a series of pods with affinity to each other may go
		// anywhere if no pod matches yet and it matches its own terms.
		if !exist && (f.anywhere || !f.selfAffinity) {
			return reasonAffinityRules, true
		}
	}
	for _, kc := range f.anti {
		if k, _ := kc.dc.onNode(n); k > 0 {
			return reasonAntiAffinityRules, false
		}
	}
	for _, g := range f.existing {
		if k, _ := g.pods.domains[0].onNode(n); k > 0 {
			return reasonExistingAntiAffinity, false
		}
	}
	return "", false
}

// interPodScore is the InterPodAffinity score's state for one attempt
// (PreScore): weighted counts by topology domain.
type interPodScore struct {
	terms []keyedCounter
	any   bool // some term counts a pod: the plugin scores
}

// prepare fills s for pod p: its preferred terms (+weight per matching pod
// in the node's domain, -weight for anti-affinity), and the terms of
// existing pods that p matches: required affinity (+1, hardPodAffinityWeight),
// preferred affinity (+weight), preferred anti-affinity (-weight).
func (s *interPodScore) prepare(x *podIndex, p *Pod, plan *schedPlan) {
	s.terms = append(s.terms[:0], plan.preferredTerms...)
	for _, g := range x.groupL {
		dc := g.pods.domains[0]
		if g.kind == requiredAntiAffinity || dc.total == 0 || !g.match.matches(p) {
			continue
		}
		w := int64(g.weight)
		switch g.kind {
		case requiredAffinity:
			w = hardPodAffinityWeight
		case preferredAntiAffinity:
			w = -w
		}
		s.terms = append(s.terms, keyedCounter{dc: dc, weight: w})
	}
	s.any = false
	for _, kc := range s.terms {
		if kc.dc.total > 0 {
			s.any = true
		}
	}
}

// hardPodAffinityWeight is InterPodAffinityArgs' default.
const hardPodAffinityWeight = 1

// raw is the node's raw score.
func (s *interPodScore) raw(n *Node) int64 {
	var sum int64
	for _, kc := range s.terms {
		k, _ := kc.dc.onNode(n)
		sum += kc.weight * int64(k)
	}
	return sum
}

// normalizeInterPod is InterPodAffinity's NormalizeScore: scores scaled
// from the lowest (0) to the highest (100), all 0 when they are equal.
func normalizeInterPod(scores []int64) {
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
	for _, s := range scores {
		lo, hi = min(lo, s), max(hi, s)
	}
	for i, s := range scores {
		f := 0.0
		if hi > lo {
			f = float64(maxNodeScore) * (float64(s-lo) / float64(hi-lo))
		}
		scores[i] = int64(f)
	}
}
