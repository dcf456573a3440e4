package scheduler

import (
	"math"

	"github.com/podsim/podsim/model"
)

// podTermOf resolves the term t for a pod of namespace ns
// (getNamespacesFromPodAffinityTerm: no namespaces and no namespace
// selector mean the pod's own namespace).
func podTermOf(t *model.PodAffinityTerm, ns string) podTerm {
	out := podTerm{sel: t.LabelSelector, namespaces: t.Namespaces, nsSel: t.NamespaceSelector}
	if len(t.Namespaces) == 0 && t.NamespaceSelector == nil {
		out.namespaces = []string{ns}
	}
	return out
}

// Reasons of the InterPodAffinity filter
// (pkg/scheduler/framework/plugins/interpodaffinity/filtering.go).
const (
	reasonAffinityRules        = "node(s) didn't match pod affinity rules"
	reasonAntiAffinityRules    = "node(s) didn't match pod anti-affinity rules"
	reasonExistingAntiAffinity = "node(s) didn't satisfy existing pods anti-affinity rules"
)

// nodeAffinityScore is NodeAffinity's raw score: the weights of the
// preferred terms the node satisfies.
func nodeAffinityScore(p *model.Pod, n *model.Node) int64 {
	var sum int64
	for i := range p.Spec.Affinity.NodeAffinity.Preferred {
		t := &p.Spec.Affinity.NodeAffinity.Preferred[i]
		if t.Weight != 0 && t.Term.Matches(n) {
			sum += int64(t.Weight)
		}
	}
	return sum
}

// hasRequiredNodeAffinity reports whether a pod's nodeSelector or required
// node affinity restricts where it may go.
func hasRequiredNodeAffinity(p *model.Pod) bool {
	a := p.Spec.Affinity
	return len(p.Spec.NodeSelector) > 0 || p.PinnedNode() != "" ||
		a != nil && a.NodeAffinity != nil && len(a.NodeAffinity.Required) > 0
}

// hasPreferredNodeAffinity reports whether NodeAffinity scores the pod.
func hasPreferredNodeAffinity(p *model.Pod) bool {
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
func (f *interPodFilter) prepare(x *podIndex, p *model.Pod, plan *schedPlan) {
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
func (f *interPodFilter) check(n *model.Node) (string, bool) {
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
func (s *interPodScore) prepare(x *podIndex, p *model.Pod, plan *schedPlan) {
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
func (s *interPodScore) raw(n *model.Node) int64 {
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
