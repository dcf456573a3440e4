package scheduler

import (
	"math"

	"github.com/podsim/podsim/model"
)

// Scoring (prioritizeNodes): each score plugin gives every feasible node
// 0..100 after its NormalizeScore, times its weight in the default profile
// (pkg/scheduler/apis/config/v1/default_plugins.go); the highest total
// wins, and ties go to one of the best at random (selectHost's reservoir
// sampling is a uniform draw among them), from the scheduler's stream. A
// plugin that gives every node the same score is skipped: it cannot change
// the choice.

// maxNodeScore is framework.MaxNodeScore.
const maxNodeScore = 100

// Weights of the score plugins podsim models.
const (
	weightTaintToleration    = 3
	weightNodeAffinity       = 2
	weightNodeResourcesFit   = 1
	weightPodTopologySpread  = 2
	weightInterPodAffinity   = 2
	weightBalancedAllocation = 1
)

// Requests counted for a container that asks for none, in scores
// (pkg/scheduler/util/pod_resources.go).
const (
	defaultMilliCPURequest = 100
	defaultMemoryRequest   = 200 << 20
)

// nonZeroRequests is the pod's request as the scores count it: a container
// without a cpu or memory request counts the defaults.
func nonZeroRequests(s *model.PodSpec) model.Resources {
	return s.RequestsWith(func(r model.Resources) model.Resources {
		if r.MilliCPU == 0 {
			r.MilliCPU = defaultMilliCPURequest
		}
		if r.Memory == 0 {
			r.Memory = defaultMemoryRequest
		}
		return r
	})
}

// selectHost scores the feasible nodes of the try and returns the best. One
// pass over the nodes gathers every plugin's raw score (a node's memory is
// read once); the normalizations and weights follow on the scores alone.
func (s *Scheduler) selectHost(p *model.Pod) *model.Node {
	cy := &s.cy
	k := len(cy.feasibleIDs)
	total := grow(cy.total, k)
	taints, affinity, spread, inter := grow(cy.raw[0], k), grow(cy.raw[1], k), grow(cy.raw[2], k), grow(cy.raw[3], k)
	cy.total, cy.raw = total, [4][]int64{taints, affinity, spread, inter}

	asked := p.Requests()
	bestEffort := asked.MilliCPU == 0 && asked.Memory == 0
	preferred := hasPreferredNodeAffinity(p)
	ss := &cy.spreadScore
	spreads := len(cy.plan.soft) > 0
	var hostCounts []int32 // the hostname constraint's counts by Node.id, when it alone scores
	var kLo, kHi int32
	// A try that may be scored by pickByResources does not look its
	// feasible nodes up: the system default spreading needs only their
	// count.
	byResources := !cy.preferTaints && !preferred && (!spreads || cy.plan.softDefault)
	var nodes []*model.Node
	if !byResources {
		nodes = s.feasibleNodes()
	}
	if spreads {
		ss.prepareFor(s.w, p, cy.plan, k, nodes)
		if ss.hostOnlyEverywhere() {
			hostCounts = ss.cons[ss.host].c.perNode
			kLo = math.MaxInt32
			for len(cy.hostK) < k {
				cy.hostK = append(cy.hostK, 0)
			}
		}
	}
	is := &cy.interScore
	is.prepare(&s.index, p, cy.plan)
	if byResources && !is.any && (hostCounts != nil || !spreads) {
		var counter *podCounter
		if hostCounts != nil {
			counter = ss.cons[ss.host].c
		}
		return s.feasibleAt(s.pickByResources(p, counter))
	}
	nodes = s.feasibleNodes()
	ss.feasible = nodes // weigh reads them
	taintsVary := false
	ids := cy.feasibleIDs
	req := s.of(p).request
	for i, n := range nodes {
		id := ids[i]
		fit, balanced := s.resourceScores(id, n, p, req)
		total[i] = weightNodeResourcesFit * fit
		if !bestEffort {
			total[i] += weightBalancedAllocation * balanced
		}
		if cy.preferTaints {
			taints[i] = intolerablePreferNoSchedule(p, n)
			taintsVary = taintsVary || taints[i] != taints[0]
		}
		if preferred {
			affinity[i] = nodeAffinityScore(p, n)
		}
		if is.any {
			inter[i] = is.raw(n)
		}
		if hostCounts != nil {
			c := countAt(hostCounts, id)
			cy.hostK[i], kLo, kHi = c, min(kLo, c), max(kHi, c)
		}
	}
	if taintsVary {
		defaultNormalize(taints, true)
		addWeighted(total, taints, weightTaintToleration)
	}
	if preferred {
		defaultNormalize(affinity, false)
		addWeighted(total, affinity, weightNodeAffinity)
	}
	switch {
	case hostCounts != nil:
		ss.addHostScores(total, cy.hostK[:k], kLo, kHi)
	case spreads:
		for len(cy.ignored) < k {
			cy.ignored = append(cy.ignored, false)
		}
		ss.score(nodes, spread, cy.ignored[:k])
		addWeighted(total, spread, weightPodTopologySpread)
	}
	if is.any {
		normalizeInterPod(inter)
		addWeighted(total, inter, weightInterPodAffinity)
	}
	return nodes[s.pickBest(total)]
}

// pickByResources is selectHost when only the resource scores and, if
// hostCounts is not nil (the hostname constraint's counts by Node.ID),
// PodTopologySpread's hostname score can tell the feasible nodes apart:
// the same totals in one tight pass over the feasible nodes' IDs, and the
// same pick. It returns the index of the node picked among the feasible
// nodes, which it does not look up unless a memo must be filled.
func (s *Scheduler) pickByResources(p *model.Pod, counter *podCounter) int {
	cy := &s.cy
	ids := cy.feasibleIDs
	k := len(ids)
	total := grow(cy.total, k)
	cy.total = total
	if n := s.w.NodesAdded(); len(s.memos) < n {
		s.memos = model.Extend(s.memos, n)
	}
	memos := s.memos
	req := s.of(p).request
	asked := p.Requests()
	balanced := int64(weightBalancedAllocation) // 0 for a best-effort pod
	if asked.MilliCPU == 0 && asked.Memory == 0 {
		balanced = 0
	}
	var hostCounts []int32
	if counter != nil {
		hostCounts = counter.perNode
	}
	s.tries++
	key := windowKey{first: ids[0], k: int32(k), req: req, balanced: balanced, counter: counter, gen: s.specGen()}
	if cy.byID {
		if w := s.windowOf(key, ids); w != nil {
			if i, ok := s.pickFromWindow(w, hostCounts); ok {
				w.used = s.tries
				s.windowHits++
				return i
			}
		}
	}
	for i, id := range ids { // the memos first: the loops below call nothing
		if memos[id].request != req+1 {
			s.resourceScores(id, s.feasibleAt(i), p, req)
		}
	}
	if hostCounts == nil {
		for i, id := range ids {
			m := &memos[id]
			total[i] = weightNodeResourcesFit*int64(m.fit) + balanced*int64(m.balanced)
		}
		if cy.byID {
			s.keepWindow(key, ids, total, nil, nil, 0, 0)
		}
		return s.pickTop(total, nil, nil, 0)
	}
	for len(cy.hostK) < k {
		cy.hostK = append(cy.hostK, 0)
	}
	hostK := cy.hostK[:k]
	lo, hi := int32(math.MaxInt32), int32(0)
	for i, id := range ids {
		m := &memos[id]
		total[i] = weightNodeResourcesFit*int64(m.fit) + balanced*int64(m.balanced)
		c := countAt(hostCounts, id)
		hostK[i], lo, hi = c, min(lo, c), max(hi, c)
	}
	norm := cy.spreadScore.hostNorm(lo, hi)
	if cy.byID {
		s.keepWindow(key, ids, total, hostK, norm, lo, hi)
	}
	return s.pickTop(total, hostK, norm, lo)
}

// pickTop is pickBest over the totals base[i] + norm[k[i]-lo] (base[i]
// alone if k is nil) in one pass: it keeps the positions of the nodes
// that tie for the best total so far, and draws among those of the best.
func (s *Scheduler) pickTop(base []int64, k []int32, norm []int64, lo int32) int {
	cy := &s.cy
	for len(cy.tied) < len(base) {
		cy.tied = append(cy.tied, 0)
	}
	tied := cy.tied[:len(base)]
	best, n := int64(math.MinInt64), 0
	if k == nil {
		for i, t := range base {
			if t > best {
				best, n = t, 0
			}
			tied[n] = int32(i)
			if t == best {
				n++
			}
		}
	} else {
		k = k[:len(base)]
		for i, t := range base {
			t += norm[k[i]-lo]
			if t > best {
				best, n = t, 0
			}
			tied[n] = int32(i)
			if t == best {
				n++
			}
		}
	}
	r := 0
	if n > 1 {
		r = s.rand.IntN(n)
	}
	return int(tied[r])
}

// pickBest returns the index of the highest of total, or of one of those
// that tie for it: the draw is among them in their order, from the
// scheduler's stream, only if there are several.
func (s *Scheduler) pickBest(total []int64) int { return s.pickTop(total, nil, nil, 0) }

func grow(b []int64, n int) []int64 {
	if cap(b) < n {
		return make([]int64, n)
	}
	return b[:n]
}

func addWeighted(total, part []int64, weight int64) {
	for i := range total {
		total[i] += weight * part[i]
	}
}

// defaultNormalize is helper.DefaultNormalizeScore: scores scaled so that
// the highest is 100 (reverse: 100 minus that); all 0, or all 100 when
// reversed, if the highest is 0.
func defaultNormalize(scores []int64, reverse bool) {
	var hi int64
	for _, s := range scores {
		hi = max(hi, s)
	}
	for i, s := range scores {
		if hi == 0 {
			s = 0
		} else {
			s = maxNodeScore * s / hi
		}
		if reverse {
			s = maxNodeScore - s
		}
		scores[i] = s
	}
}

// resourceMemo keeps a node's resource scores for one request while the
// pods holding resources there do not change (podsChanged forgets it):
// most nodes a try scores are the ones the try before scored, for a pod
// asking the same (of the same ReplicaSet, say).
type resourceMemo struct {
	request       int32 // podSched.request, +1 (0: nothing kept)
	fit, balanced int32
}

// resourceScores returns leastAllocated and balancedAllocation for p on n,
// whose ID is id, req p's requests' number (podState.request): n is read
// only if the memo does not hold.
func (s *Scheduler) resourceScores(id int32, n *model.Node, p *model.Pod, req int32) (fit, balanced int64) {
	for len(s.memos) <= int(id) {
		s.memos = append(s.memos, resourceMemo{})
	}
	m := &s.memos[id]
	if m.request != req+1 {
		*m = resourceMemo{request: req + 1,
			fit: int32(leastAllocated(n, s.nodeOf(n).nonZero, s.reqByID[req].nonZero)), balanced: int32(balancedAllocation(n, p.Requests()))}
	}
	return int64(m.fit), int64(m.balanced)
}

// leastAllocated is NodeResourcesFit's score (LeastAllocated, cpu and
// memory weighing 1 each): the free share of each after placing the pod,
// counting the scores' nonzero requests (held: the node's pods', nonZero:
// the pod's), 0..100, averaged.
func leastAllocated(n *model.Node, held, nonZero model.Resources) int64 {
	var sum, weights int64
	for _, r := range [2][2]int64{
		{held.MilliCPU + nonZero.MilliCPU, n.Capacity.MilliCPU},
		{held.Memory + nonZero.Memory, n.Capacity.Memory},
	} {
		requested, capacity := r[0], r[1]
		if capacity == 0 {
			continue
		}
		weights++
		if requested <= capacity {
			sum += (capacity - requested) * maxNodeScore / capacity
		}
	}
	if weights == 0 {
		return 0
	}
	return sum / weights
}

// balancedAllocation is NodeResourcesBalancedAllocation's score: 100 times
// one less the standard deviation of the cpu and memory fractions the
// node's requests would use with the pod's, req (each at most 1).
func balancedAllocation(n *model.Node, req model.Resources) int64 {
	var fractions [2]float64
	k := 0
	used := n.Allocated()
	for _, r := range [2][2]int64{
		{used.MilliCPU + req.MilliCPU, n.Capacity.MilliCPU},
		{used.Memory + req.Memory, n.Capacity.Memory},
	} {
		if r[1] == 0 {
			continue
		}
		fractions[k] = min(float64(r[0])/float64(r[1]), 1)
		k++
	}
	std := 0.0
	if k == 2 {
		std = fractions[0] - fractions[1]
		if std < 0 {
			std = -std
		}
		std /= 2
	}
	return int64((1 - std) * maxNodeScore)
}

// intolerablePreferNoSchedule is TaintToleration's raw score: the node's
// PreferNoSchedule taints the pod does not tolerate.
func intolerablePreferNoSchedule(p *model.Pod, n *model.Node) int64 {
	var k int64
	for i := range n.Taints {
		if t := &n.Taints[i]; t.Effect == "PreferNoSchedule" && !p.Tolerates(*t) {
			k++
		}
	}
	return k
}
