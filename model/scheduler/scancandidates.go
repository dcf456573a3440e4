package scheduler

import (
	"math/bits"

	"github.com/podsim/podsim/model"
)

// scanCandidates is scan over every node of the cluster for a pod with a
// DoNotSchedule spread on kubernetes.io/hostname, when the nodes that may
// pass it are known (spreadFilter.hostCandidates): it filters only those,
// in the same order, and finds the same feasible nodes and the same count
// processed. The nodes it skips would have been filtered out, and why
// matters only to a try that finds no node: then, as when the candidates
// are not known, it reports false and the caller scans every node.
func (s *Scheduler) scanCandidates(want int) (processed int, ok bool) {
	cy := &s.cy
	all := s.w.Nodes()
	if s.fullScan || cy.spread.cons == nil || cy.p.PinnedNode() != "" || len(all) != s.w.NodesAdded() {
		return 0, false // a node was deleted: positions are not ids
	}
	set, t, ok := cy.spread.hostCandidates()
	if !ok || len(t.nodes) != len(all) {
		return 0, false // not every node has its own hostname
	}
	// Every node that was ever added exists and has a hostname of its
	// own: the domain ids, given in order of appearance, are the nodes'
	// ids and positions.
	start := s.nextStartNodeIndex % len(all)
	last := -1
	cached := s.verdicts.use(s, cy.p)
	if cached && len(cy.spread.cons) == 1 {
		return s.scanWords(set, want) // the set is exactly the nodes that pass the spread
	}
	for pass, from := range [2]int{start, 0} {
		for j := nextSet(set, from); j >= 0 && (pass == 0 || j < start); j = nextSet(set, j+1) {
			n := all[j] // its id and its hostname's domain id are j
			last = j
			if !s.candidateFits(j, n, cached) {
				continue
			}
			cy.feasibleIDs = append(cy.feasibleIDs, int32(j))
			if cy.feasible = append(cy.feasible, n); len(cy.feasible) == want {
				return (last-start+len(all))%len(all) + 1, true
			}
		}
	}
	if len(cy.feasible) == 0 {
		cy.preferTaints = false
		return 0, false
	}
	return len(all), true
}

// candidateFits reports whether node n, whose ID is id, passes the
// filters, as filter does; cached says whether the try may use the
// verdict cache, and then n is read only if no verdict holds.
func (s *Scheduler) candidateFits(id int, n *model.Node, cached bool) bool {
	if !cached {
		return s.filter(n).fits()
	}
	s.filtered++
	fits, prefer := s.cachedNodeFilters(id, n)
	s.cy.preferTaints = s.cy.preferTaints || prefer
	if !fits {
		return false
	}
	why, _ := s.cy.spread.check(int32(id)) // InterPodAffinity is not active (verdictCache.use)
	return why == ""
}

// scanWords is scanCandidates for a pod that may use the verdict cache and
// whose one spread constraint is on hostname, set the nodes that pass it:
// the nodes that pass every filter are set & the cache's fitsBits, read 64
// at a time. When only the resource scores can tell the feasible nodes
// apart, it picks the node by the cache's classes (pickByClass) and puts
// it in cy.picked; otherwise it lists the feasible nodes.
func (s *Scheduler) scanWords(set []uint64, want int) (processed int, ok bool) {
	cy := &s.cy
	all := s.w.Nodes()
	fits, prefer := s.verdictSets()
	start := s.nextStartNodeIndex % len(all)
	found, visited, last := 0, 0, -1
	spans := [2][2]int{{start, len(all)}, {0, start}}
walk:
	for _, span := range spans {
		for w := span[0] >> 6; w<<6 < span[1]; w++ {
			cand := set[w] & wordRange(w, span[0], span[1])
			if cand == 0 {
				continue
			}
			pass := cand & fits[w]
			if need := want - found; bits.OnesCount64(pass) >= need {
				for range need - 1 {
					pass &= pass - 1
				}
				last = w<<6 + bits.TrailingZeros64(pass)
				found = want
				cand &= wordRange(w, 0, last+1)
				visited += bits.OnesCount64(cand)
				cy.preferTaints = cy.preferTaints || cand&prefer[w] != 0
				break walk
			}
			found += bits.OnesCount64(pass)
			visited += bits.OnesCount64(cand)
			cy.preferTaints = cy.preferTaints || cand&prefer[w] != 0
		}
	}
	s.filtered += uint64(visited)
	if found == 0 {
		cy.preferTaints = false
		return 0, false
	}
	processed = len(all)
	if last >= 0 {
		processed = (last-start+len(all))%len(all) + 1
		if last >= start {
			spans = [2][2]int{{start, last + 1}, {0, 0}}
		} else {
			spans[1][1] = last + 1
		}
	}
	if found > 1 && s.byClass() {
		cy.picked = s.pickByClass(set, spans)
		s.classPicks++
		return processed, true
	}
	for _, span := range spans {
		for w := span[0] >> 6; w<<6 < span[1]; w++ {
			for pass := set[w] & fits[w] & wordRange(w, span[0], span[1]); pass != 0; pass &= pass - 1 {
				j := w<<6 + bits.TrailingZeros64(pass)
				cy.feasibleIDs, cy.feasible = append(cy.feasibleIDs, int32(j)), append(cy.feasible, all[j])
			}
		}
	}
	return processed, true
}

// byClass reports whether the feasible nodes of the try may be scored by
// class: every node's score is its resource scores (no PreferNoSchedule
// taint among the nodes scanned, no preferred node affinity, no
// PodTopologySpread score, no InterPodAffinity score) and every feasible
// node is in a class.
func (s *Scheduler) byClass() bool {
	cy := &s.cy
	if !s.verdicts.classesOK || cy.preferTaints || len(cy.plan.soft) > 0 || hasPreferredNodeAffinity(cy.p) {
		return false
	}
	cy.interScore.prepare(&s.index, cy.p, cy.plan)
	return !cy.interScore.any
}

// pickByClass is selectHost over the feasible nodes of the classes, set
// and the spans of node IDs scanned, in scan order: the classes with the
// best total tie, and the pick among their nodes is the same draw from the
// same nodes in the same order.
func (s *Scheduler) pickByClass(set []uint64, spans [2][2]int) *model.Node {
	c := &s.verdicts
	req := s.cy.p.Requests()
	bestEffort := req.MilliCPU == 0 && req.Memory == 0
	var best int64 = -1
	ties, tied := 0, uint32(0) // the nodes of the best classes, and those classes as bits
	for k := range c.classes {
		cl := &c.classes[k]
		if cl.members == 0 {
			continue
		}
		n := 0
		for _, span := range spans {
			for w := span[0] >> 6; w<<6 < span[1]; w++ {
				n += bits.OnesCount64(cl.bits[w] & set[w] & wordRange(w, span[0], span[1]))
			}
		}
		if n == 0 {
			continue
		}
		total := weightNodeResourcesFit * int64(cl.fit)
		if !bestEffort {
			total += weightBalancedAllocation * int64(cl.balanced)
		}
		switch {
		case total > best:
			best, ties, tied = total, n, 1<<k
		case total == best:
			ties, tied = ties+n, tied|1<<k
		}
	}
	r := 0
	if ties > 1 {
		r = s.rand.IntN(ties)
	}
	for _, span := range spans {
		for w := span[0] >> 6; w<<6 < span[1]; w++ {
			var mine uint64
			for t := tied; t != 0; t &= t - 1 {
				mine |= c.classes[bits.TrailingZeros32(t)].bits[w]
			}
			mine &= set[w] & wordRange(w, span[0], span[1])
			if k := bits.OnesCount64(mine); r >= k {
				r -= k
				continue
			}
			for range r {
				mine &= mine - 1
			}
			return s.w.Nodes()[w<<6+bits.TrailingZeros64(mine)]
		}
	}
	panic("pickByClass: fewer tied nodes than counted")
}

// wordRange is the mask of word w of a bit set that keeps the bits from
// from (included) to to (excluded).
func wordRange(w, from, to int) uint64 {
	lo, hi := max(from-w<<6, 0), min(to-w<<6, 64)
	if lo >= hi {
		return 0
	}
	m := ^uint64(0) << lo
	if hi < 64 {
		m &= 1<<hi - 1
	}
	return m
}
