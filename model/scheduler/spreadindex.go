package scheduler

import "math/bits"

// What a domainCounts keeps so that PodTopologySpread's PreFilter need not
// scan every domain per attempt (upstream's calPreFilterState does, over
// every node): the number of domains at each count, whence the fewest
// pods in a domain; and, for the one threshold last asked for, the set of
// domains at or under it, which a scan of a cluster of many hostnames
// walks instead of every node (schedulePod's fast scan).
//
// Both are kept as pods come and go, and rebuilt when the topology's
// domains change (a node added or deleted).
type domainSummary struct {
	gen     uint32  // topology.gen they were built for; 0: not built
	hist    []int32 // domains that exist, by count
	least   int32   // the fewest pods in a domain that exists
	domains int     // domains that exist

	under    int32    // the threshold of atMost
	underGen uint32   // topology.gen atMost was built for; 0: not built
	atMost   []uint64 // bit id: domain id exists and counts at most under
}

// summary returns dc's summary, rebuilt if the topology changed.
func (dc *domainCounts) summary() *domainSummary {
	s := &dc.sum
	if s.gen == dc.topo.gen {
		return s
	}
	s.gen = dc.topo.gen
	s.hist, s.domains, s.least = s.hist[:0], 0, 0
	for id, nodes := range dc.topo.nodes {
		if nodes == 0 {
			continue
		}
		k := max(dc.at(int32(id)), 0)
		for int(k) >= len(s.hist) {
			s.hist = append(s.hist, 0)
		}
		s.hist[k]++
		if s.domains == 0 || k < s.least {
			s.least = k
		}
		s.domains++
	}
	return s
}

// moved updates the summary for domain id, whose count went from a to b.
func (dc *domainCounts) moved(id int32, a, b int32) {
	s := &dc.sum
	if s.gen != dc.topo.gen || dc.topo.nodes[id] == 0 {
		return
	}
	a, b = max(a, 0), max(b, 0)
	for int(b) >= len(s.hist) {
		s.hist = append(s.hist, 0)
	}
	s.hist[a]--
	s.hist[b]++
	switch {
	case b < s.least:
		s.least = b
	case a == s.least && s.hist[a] == 0:
		for s.hist[s.least] == 0 {
			s.least++
		}
	}
	if s.underGen == dc.topo.gen {
		if b <= s.under {
			s.atMost[id>>6] |= 1 << (id & 63)
		} else {
			s.atMost[id>>6] &^= 1 << (id & 63)
		}
	}
}

// atMostSet returns the set of domains that exist and count at most t pods,
// as a bit set by domain id, kept up to date from now on until another t
// is asked for.
func (dc *domainCounts) atMostSet(t int32) []uint64 {
	s := &dc.sum
	if s.underGen == dc.topo.gen && s.under == t {
		return s.atMost
	}
	dc.summary() // moved keeps atMost only while the summary is current
	s.underGen, s.under = dc.topo.gen, t
	words := (len(dc.topo.nodes) + 63) / 64
	s.atMost = s.atMost[:0]
	for range words {
		s.atMost = append(s.atMost, 0)
	}
	for id, nodes := range dc.topo.nodes {
		if nodes > 0 && dc.at(int32(id)) <= t {
			s.atMost[id>>6] |= 1 << (id & 63)
		}
	}
	return s.atMost
}

// nextSet returns the first set bit of set at or after i, or -1.
func nextSet(set []uint64, i int) int {
	w := i >> 6
	if w >= len(set) {
		return -1
	}
	if x := set[w] >> (i & 63); x != 0 {
		return i + bits.TrailingZeros64(x)
	}
	for w++; w < len(set); w++ {
		if set[w] != 0 {
			return w<<6 + bits.TrailingZeros64(set[w])
		}
	}
	return -1
}
