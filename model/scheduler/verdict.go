package scheduler

import (
	"slices"

	"github.com/podsim/podsim/model"
)

// verdictCache keeps, by Node.ID, nodeFilters' verdict on each node for
// the pods of one key, so that a scan filtering thousands of nodes per
// pod (a DoNotSchedule spread over a large cluster, where every try looks
// for numFeasibleNodesToFind nodes among the candidates) reads a slice in
// node order instead of every node.
//
// The key is what nodeFilters reads of a pod: its plan (so its spec,
// owner and labels), requests, priority and tolerations. A verdict holds
// while the node's pods (scheduler.nodeGens) and what the filters read of
// the nodes besides (scheduler.specGen: spec, taints, conditions,
// nominated pods) are as they were. A pod nominated to a node does not use
// the cache: fitsResources leaves the pod itself out of the node's
// nominated pods, so its verdict there is its own.
type verdictCache struct {
	key         uint32 // the key's number, counting changes of key; 0: none yet
	plan        *schedPlan
	request     int32
	priority    int32
	tolerations []model.Toleration
	byNode      []verdict // by Node.ID

	setsKey              uint32 // the key fitsBits, preferBits and classes are for; 0: none
	setsSpec             uint64 // the specGen they are for
	fitsBits, preferBits []uint64
	classes              []scoreClass
	classOf              []int8  // by Node.ID: the node's class, -1 if none
	classesOK            bool    // every node that passes is in a class
	dirty                []int32 // nodes whose pods changed since
}

// verdict is nodeFilters' verdict on one node.
type verdict struct {
	gen, spec    uint64 // the node's entry of nodeGens, and specGen, when kept
	key          uint32 // verdictCache.key when kept; 0: nothing kept
	fits, prefer bool
}

// use makes p's key the cache's and reports whether p may use the cache.
func (c *verdictCache) use(s *Scheduler, p *model.Pod) bool {
	if s.fullScan || p.PinnedNode() != "" || s.nominated[p] != nil || s.cy.interPod.active() {
		return false
	}
	pl := s.cy.plan
	req := s.of(p).request
	if c.key == 0 || c.plan != pl || c.request != req || c.priority != p.Priority() ||
		!slices.EqualFunc(c.tolerations, p.Tolerations(), sameToleration) {
		c.key++
		c.plan, c.request, c.priority = pl, req, p.Priority()
		c.tolerations = append(c.tolerations[:0], p.Tolerations()...)
	}
	return true
}

// cachedNodeFilters returns nodeFilters' verdict on node n, whose ID is id, for
// the pod of the try (which may use the cache): whether n passes, and
// prefer. n is read only if no verdict holds.
func (s *Scheduler) cachedNodeFilters(id int, n *model.Node) (fits, prefer bool) {
	c := &s.verdicts
	for len(c.byNode) <= id {
		c.byNode = append(c.byNode, verdict{})
	}
	v := &c.byNode[id]
	if gen := s.nodeGen(id); v.key != c.key || v.gen != gen || v.spec != s.specGen() {
		s.nodesRead++
		was := s.cy.preferTaints
		s.cy.preferTaints = false
		st := s.nodeFilters(n)
		prefer := s.cy.preferTaints
		s.cy.preferTaints = was
		*v = verdict{gen: gen, spec: s.specGen(), key: c.key, fits: st.fits(), prefer: prefer}
	}
	return v.fits, v.prefer
}

// The cache also keeps, for one key, the nodes that pass (fitsBits) and
// those with a PreferNoSchedule taint that TaintToleration lets pass
// (preferBits) as bit sets by Node.ID, and the nodes that pass grouped by
// their resource scores (classes): complete while the key and specGen are
// those they were built for. The nodes whose pods changed since are in
// dirty, and looked at again before the sets are read. A scan of the
// candidates of a spread on hostname then reads 64 nodes a word, and
// scores a class of nodes at once.

// maxScoreClasses is how many different resource scores the nodes that
// pass may have for the classes to be kept.
const maxScoreClasses = 16

// scoreClass is the nodes that pass with the same resource scores.
type scoreClass struct {
	fit, balanced int32
	members       int
	bits          []uint64 // by Node.ID
}

// touched notes that the pods of the node with ID id changed.
func (c *verdictCache) touched(id int) {
	if c.setsKey == 0 {
		return
	}
	if len(c.dirty) >= len(c.byNode) { // nobody reads the sets: stop keeping them
		c.setsKey, c.dirty = 0, c.dirty[:0]
		return
	}
	c.dirty = model.Grow(c.dirty, int32(id))
}

// verdictSets returns the bit sets for the key of the try (after use),
// brought up to date: rebuilt over every node if the key or specGen
// changed.
func (s *Scheduler) verdictSets() (fits, prefer []uint64) {
	c := &s.verdicts
	all := s.w.Nodes()
	words := (len(all) + 63) / 64
	if c.setsKey != c.key || c.setsSpec != s.specGen() || len(c.fitsBits) != words {
		c.fitsBits, c.preferBits = zeroed(c.fitsBits, words), zeroed(c.preferBits, words)
		c.classOf = c.classOf[:0]
		for range all {
			c.classOf = append(c.classOf, -1)
		}
		for i := range c.classes {
			c.classes[i].members = 0
			c.classes[i].bits = zeroed(c.classes[i].bits, words)
		}
		c.classesOK = true
		for _, n := range all {
			s.refresh(n.ID(), n)
		}
		c.setsKey, c.setsSpec, c.dirty = c.key, s.specGen(), c.dirty[:0]
		return c.fitsBits, c.preferBits
	}
	for _, id := range c.dirty {
		s.refresh(int(id), all[id])
	}
	c.dirty = c.dirty[:0]
	return c.fitsBits, c.preferBits
}

// zeroed returns b as n zero words.
func zeroed(b []uint64, n int) []uint64 {
	b = b[:0]
	for range n {
		b = append(b, 0)
	}
	return b
}

// refresh records the verdict on node n (ID id) in the sets, and its class.
func (s *Scheduler) refresh(id int, n *model.Node) {
	c := &s.verdicts
	fits, prefer := s.cachedNodeFilters(id, n)
	w, b := id>>6, uint64(1)<<(id&63)
	c.fitsBits[w] &^= b
	c.preferBits[w] &^= b
	if prefer {
		c.preferBits[w] |= b
	}
	if k := c.classOf[id]; k >= 0 {
		c.classes[k].members--
		c.classes[k].bits[w] &^= b
		c.classOf[id] = -1
	}
	if !fits {
		return
	}
	c.fitsBits[w] |= b
	if !c.classesOK {
		return
	}
	fit, balanced := s.resourceScores(int32(id), n, s.cy.p, s.of(s.cy.p).request)
	k := c.classFor(int32(fit), int32(balanced), len(c.fitsBits))
	if k < 0 {
		c.classesOK = false
		return
	}
	c.classes[k].members++
	c.classes[k].bits[w] |= b
	c.classOf[id] = int8(k)
}

// classFor returns the class of the scores fit and balanced, made if
// there is room (-1 if not).
func (c *verdictCache) classFor(fit, balanced int32, words int) int {
	free := -1
	for k := range c.classes {
		cl := &c.classes[k]
		if cl.members > 0 && cl.fit == fit && cl.balanced == balanced {
			return k
		}
		if cl.members == 0 && free < 0 {
			free = k
		}
	}
	if free < 0 {
		if len(c.classes) == maxScoreClasses {
			return -1
		}
		c.classes = append(c.classes, scoreClass{bits: zeroed(nil, words)})
		free = len(c.classes) - 1
	}
	c.classes[free].fit, c.classes[free].balanced = fit, balanced
	return free
}
