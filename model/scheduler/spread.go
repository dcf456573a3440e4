package scheduler

import (
	"math"

	"github.com/podsim/podsim/model"
)

// Reasons of the PodTopologySpread filter
// (pkg/scheduler/framework/plugins/podtopologyspread/plugin.go).
const (
	reasonSpread        = "node(s) didn't match pod topology spread constraints"
	reasonSpreadNoLabel = reasonSpread + " (missing required label)"
)

// systemDefaultSpread are the constraints PodTopologySpread gives a pod
// with none of its own that a ReplicaSet or StatefulSet owns
// (systemDefaultConstraints): spread on hostname with maxSkew 3 and on
// zone with maxSkew 5, both ScheduleAnyway.
var systemDefaultSpread = []model.TopologySpreadConstraint{
	{TopologyKey: model.LabelHostname, MaxSkew: 3},
	{TopologyKey: model.LabelZone, MaxSkew: 5},
}

// spreadConstraint is a constraint resolved for a pod: its selector as a
// counter of the index.
type spreadConstraint struct {
	c           *podCounter
	dc          *domainCounts // per domain of key
	key         string
	maxSkew     int32
	minDomains  int32
	selfMatch   bool // the pod itself matches the selector
	honorAffin  bool
	honorTaints bool
}

// eligible reports whether node n's pods count for a constraint of pod p
// (matchNodeInclusionPolicies), given that it has every key of keys.
func (c *spreadConstraint) eligible(p *model.Pod, n *model.Node) bool {
	if c.honorAffin && !model.MatchesNodeAffinity(p, n) {
		return false
	}
	return !c.honorTaints || model.UntoleratedTaint(p, n) == nil
}

// hasKeys reports whether the node has every topology key of cs.
func hasKeys(n *model.Node, cs []spreadConstraint) bool {
	for i := range cs {
		if c := &cs[i]; c.key != model.LabelHostname && c.dc.topo.domainOf(n) < 0 { // every node has a hostname
			return false
		}
	}
	return true
}

// countsFromIndex reports whether the index's counts per domain are the
// constraints' counts for pod p: every node that has a key is eligible.
// That holds when the pod's node affinity and taints leave no node out,
// and a node with one constraint's key has the others' (beyond hostname,
// which every node has, at most one key).
func countsFromIndex(p *model.Pod, cs []spreadConstraint) bool {
	other := ""
	for i := range cs {
		c := &cs[i]
		if c.honorTaints || c.honorAffin && hasRequiredNodeAffinity(p) {
			return false
		}
		if c.key != model.LabelHostname {
			if other != "" && other != c.key {
				return false
			}
			other = c.key
		}
	}
	return true
}

// countEligible fills counts (by domain id of c's key) with the pods of c
// over the nodes that have every key of cs and are eligible for p (the
// scan upstream's PreFilter and PreScore do, over per-node counts instead
// of pods), and marks the domains that have such a node in present.
func countEligible(w *model.World, p *model.Pod, c *spreadConstraint, cs []spreadConstraint, counts []int32, present []bool) ([]int32, []bool) {
	t := c.dc.topo
	counts, present = counts[:0], present[:0]
	for range t.nodes {
		counts, present = append(counts, 0), append(present, false)
	}
	for _, n := range w.Nodes() {
		if !hasKeys(n, cs) || !c.eligible(p, n) {
			continue
		}
		id := t.domainOf(n)
		counts[id] += c.c.onNode(n)
		present[id] = true
	}
	return counts, present
}

// spreadFilter is the PodTopologySpread filter's state for one attempt
// (PreFilter): for each DoNotSchedule constraint, the pods per domain, the
// fewest in a domain and the number of domains.
type spreadFilter struct {
	cons      []spreadConstraint
	fromIndex bool // the counts are the index's (countsFromIndex)
	prep      []spreadPrep
	scratch   [][]int32
	present   [][]bool
}

type spreadPrep struct {
	counts  []int32 // by domain id
	min     int32
	domains int
}

func (f *spreadFilter) prepare(w *model.World, p *model.Pod, cons []spreadConstraint) {
	f.cons = cons
	f.prep = f.prep[:0]
	f.fromIndex = countsFromIndex(p, cons)
	for i := range cons {
		c := &cons[i]
		var pr spreadPrep
		if f.fromIndex {
			pr.counts = c.dc.counts
			pr.min, pr.domains = c.dc.min()
		} else {
			for len(f.scratch) <= i {
				f.scratch, f.present = append(f.scratch, nil), append(f.present, nil)
			}
			f.scratch[i], f.present[i] = countEligible(w, p, c, cons, f.scratch[i], f.present[i])
			pr.counts = f.scratch[i]
			for id, ok := range f.present[i] {
				if k := pr.counts[id]; ok && (pr.domains == 0 || k < pr.min) {
					pr.min = k
				}
				if ok {
					pr.domains++
				}
			}
		}
		f.prep = append(f.prep, pr)
	}
}

// hostCandidates returns, when the counts are the index's and a
// constraint is on kubernetes.io/hostname, the hostname domains (by id)
// where a node passes that constraint: a superset of the nodes that pass
// the filter. ok is false otherwise.
func (f *spreadFilter) hostCandidates() (set []uint64, t *topology, ok bool) {
	if !f.fromIndex {
		return nil, nil, false
	}
	for i := range f.cons {
		c := &f.cons[i]
		if c.key != model.LabelHostname {
			continue
		}
		least := f.prep[i].least(c)
		self := int32(0)
		if c.selfMatch {
			self = 1
		}
		return c.dc.atMostSet(c.maxSkew + least - self), c.dc.topo, true
	}
	return nil, nil, false
}

// least is the count a domain's is measured against: the fewest in a
// domain, 0 while there are fewer domains than minDomains.
func (pr *spreadPrep) least(c *spreadConstraint) int32 {
	if pr.domains < int(max(c.minDomains, 1)) {
		return 0
	}
	return pr.min
}

// check returns the reason the node with ID node fails the filter ("" if
// it passes) and whether preemption cannot help (a missing topology
// label): the node's domain, with the pod, may have at most maxSkew pods
// more than the domain with the fewest (0 while there are fewer domains
// than minDomains).
func (f *spreadFilter) check(node int32) (string, bool) {
	for i := range f.cons {
		c := &f.cons[i]
		id := c.dc.topo.domainOfID(node)
		if id < 0 {
			return reasonSpreadNoLabel, true
		}
		pr := &f.prep[i]
		least := pr.least(c)
		self := int32(0)
		if c.selfMatch {
			self = 1
		}
		if countAt(pr.counts, id)+self-least > c.maxSkew {
			return reasonSpread, false
		}
	}
	return "", false
}

// spreadScore is the PodTopologySpread score's state for one attempt
// (PreScore): for each ScheduleAnyway constraint, its weight by the
// number of domains among the feasible nodes, and the pods per domain.
type spreadScore struct {
	cons       []spreadConstraint
	requireAll bool // nodes without every key are not scored (not with the system defaults)
	weights    []float64
	counts     [][]int32 // by constraint, then domain id; nil for hostname: read per node
	scratch    [][]int32
	present    [][]bool
	feasible   []*model.Node
	seen       []uint32 // by domain id: the attempt that last saw it
	attempt    uint32
	// host is the one constraint on kubernetes.io/hostname (-1: none, or
	// several); a node whose score comes from it alone reads its score,
	// computed once per attempt and count, from hostRaw.
	host        int
	hostRaw     []int64
	hostSeen    []uint32 // by count: the attempt that computed hostRaw
	hostAttempt uint32
	norm        []int64 // addHostScores' weighted scores by count
}

func (s *spreadScore) prepare(w *model.World, p *model.Pod, plan *schedPlan, feasible []*model.Node) {
	s.prepareFor(w, p, plan, len(feasible), feasible)
}

// prepareFor is prepare for k feasible nodes, feasible, which may be nil
// under the system defaults (no constraint then reads them here); weigh
// reads s.feasible, which must then be set before score.
func (s *spreadScore) prepareFor(w *model.World, p *model.Pod, plan *schedPlan, k int, feasible []*model.Node) {
	s.cons, s.requireAll = plan.soft, !plan.softDefault
	s.weights, s.counts = s.weights[:0], s.counts[:0]
	s.hostAttempt++
	s.host = -1
	for i := range s.cons {
		if s.cons[i].key == model.LabelHostname {
			if s.host >= 0 {
				s.host = -2
			} else if s.host == -1 {
				s.host = i
			}
		}
	}
	s.host = max(s.host, -1)
	fromIndex := countsFromIndex(p, s.cons)
	s.feasible = feasible
	for i := range s.cons {
		c := &s.cons[i]
		wt := math.NaN() // weighed when a node needs it
		switch {
		case c.key == model.LabelHostname && !s.requireAll:
			wt = math.Log(float64(k + 2))
		case c.key == model.LabelHostname:
			size := 0
			for _, n := range feasible {
				if !s.ignored(n) {
					size++
				}
			}
			wt = math.Log(float64(size + 2))
		}
		s.weights = append(s.weights, wt)
		switch {
		case c.key == model.LabelHostname:
			s.counts = append(s.counts, nil)
		case fromIndex:
			s.counts = append(s.counts, c.dc.counts)
		default:
			for len(s.scratch) <= i {
				s.scratch, s.present = append(s.scratch, nil), append(s.present, nil)
			}
			cs := s.cons
			if !s.requireAll {
				cs = cs[i : i+1]
			}
			s.scratch[i], s.present[i] = countEligible(w, p, c, cs, s.scratch[i], s.present[i])
			s.counts = append(s.counts, s.scratch[i])
		}
	}
}

// score fills out with the normalised score of each node (NormalizeScore
// included) and ignored with whether it is left out.
func (s *spreadScore) score(nodes []*model.Node, out []int64, ignored []bool) {
	lo, hi := int64(math.MaxInt64), int64(0)
	var hostCounter *podCounter
	if s.host >= 0 {
		hostCounter = s.cons[s.host].c
	}
	for i, n := range nodes {
		ign := s.ignored(n)
		ignored[i] = ign
		var raw int64
		if hostCounter != nil && s.hostOnly(n) {
			raw = s.hostRawOf(max(hostCounter.onNode(n), 0))
		} else {
			raw = s.raw(n)
		}
		out[i] = raw
		if !ign {
			lo, hi = min(lo, raw), max(hi, raw)
		}
	}
	for i, raw := range out {
		switch {
		case ignored[i]:
			out[i] = 0
		case hi == 0:
			out[i] = maxNodeScore
		default:
			out[i] = maxNodeScore * (hi + lo - raw) / hi
		}
	}
}

// hostOnlyEverywhere reports whether every node's score comes from the
// hostname constraint alone: no node has the key of another constraint (a
// cluster without zone labels under the system defaults), and no node is
// left out for lacking one.
func (s *spreadScore) hostOnlyEverywhere() bool {
	if s.host < 0 || s.requireAll && len(s.cons) > 1 {
		return false
	}
	for i := range s.cons {
		if i != s.host && s.cons[i].dc.topo.labelled() {
			return false
		}
	}
	return true
}

// addHostScores adds to total the weighted, normalised score of each node
// when every score comes from the hostname constraint (hostOnlyEverywhere):
// counts holds each node's matching pods, between lo and hi. The raw score
// grows with the count, so the extremes are those of lo and hi, and each
// count's normalised score is computed once.
func (s *spreadScore) addHostScores(total []int64, counts []int32, lo, hi int32) {
	norm := s.hostNorm(lo, hi)
	for i, k := range counts {
		total[i] += norm[k-lo]
	}
}

// hostNorm returns the weighted, normalised score of a node with k pods,
// at k-lo, for k from lo to hi, the extremes of the counts of the nodes
// scored, when every score comes from the hostname constraint.
func (s *spreadScore) hostNorm(lo, hi int32) []int64 {
	rawLo, rawHi := s.hostRawOf(lo), s.hostRawOf(hi)
	s.norm = s.norm[:0]
	for k := lo; k <= hi; k++ {
		v := int64(maxNodeScore)
		if rawHi != 0 {
			v = maxNodeScore * (rawHi + rawLo - s.hostRawOf(k)) / rawHi
		}
		s.norm = append(s.norm, weightPodTopologySpread*v)
	}
	return s.norm
}

// hostRawOf is the raw score of a node whose score comes from the hostname
// constraint alone, with k pods on it: computed once per attempt and k.
func (s *spreadScore) hostRawOf(k int32) int64 {
	for int(k) >= len(s.hostRaw) {
		s.hostRaw, s.hostSeen = append(s.hostRaw, 0), append(s.hostSeen, 0)
	}
	if s.hostSeen[k] != s.hostAttempt {
		s.hostSeen[k], s.hostRaw[k] = s.hostAttempt, int64(math.Round(0+s.hostTerm(k)))
	}
	return s.hostRaw[k]
}

// raw is the node's raw score: for each constraint whose key the node
// has, the pods in its domain times the constraint's weight, plus
// maxSkew-1, summed in order; rounded.
func (s *spreadScore) raw(n *model.Node) int64 {
	var sum float64
	for i := range s.cons {
		c := &s.cons[i]
		var k int32
		if s.counts[i] == nil {
			k = c.c.onNode(n) // hostname: every node has it
		} else {
			id := c.dc.topo.domainOf(n)
			if id < 0 {
				continue
			}
			k = countAt(s.counts[i], id)
		}
		if math.IsNaN(s.weights[i]) {
			s.weigh(i)
		}
		sum += float64(k)*s.weights[i] + float64(c.maxSkew-1)
	}
	return int64(math.Round(sum))
}

// hostOnly reports whether no constraint but the hostname one has a domain
// on n.
func (s *spreadScore) hostOnly(n *model.Node) bool {
	for i := range s.cons {
		if i != s.host && s.cons[i].dc.topo.domainOf(n) >= 0 {
			return false
		}
	}
	return true
}

// hostTerm is the hostname constraint's term for k pods on the node.
func (s *spreadScore) hostTerm(k int32) float64 {
	return float64(k)*s.weights[s.host] + float64(s.cons[s.host].maxSkew-1)
}

// weigh sets the weight of constraint i, not on hostname: by the number of
// its domains among the feasible nodes that are scored (with the system
// defaults, the nodes without the key make one domain more).
func (s *spreadScore) weigh(i int) {
	t := s.cons[i].dc.topo
	for len(s.seen) < len(t.nodes) {
		s.seen = append(s.seen, 0)
	}
	s.attempt++
	size, missing := 0, false
	for _, n := range s.feasible {
		if s.ignored(n) {
			continue
		}
		id := t.domainOf(n)
		switch {
		case id < 0 && !missing:
			missing = true
			size++
		case id >= 0 && s.seen[id] != s.attempt:
			s.seen[id] = s.attempt
			size++
		}
	}
	s.weights[i] = math.Log(float64(size + 2))
}

// ignored reports whether node n is left out of the scores (0).
func (s *spreadScore) ignored(n *model.Node) bool { return s.requireAll && !hasKeys(n, s.cons) }
