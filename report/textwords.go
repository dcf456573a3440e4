package report

import "github.com/podsim/podsim/model"

// recentWords remembers the index of the words (appendDescribe) of the
// changes written lately by what they are written from, as the JSON
// writer remembers its bodies (bodyKey, sameBody): the model passes the
// same strings again, so a row's words are most often found here without
// being written out and looked up by their text.
type recentWords [wordsSlots]wordsSlot

const wordsSlots = 512

// slot's index takes bodySlot's bits for all of wordsSlots' (a first
// run's changes, restart count 0, add none of their own): bodyBits must
// be at least 9. This does not compile otherwise.
const _ = uint(bodyBits - 9)

// wordsSlot is a slot of recentWords: what a change's words are written
// from, and 1 + the index of the words (0: empty).
type wordsSlot struct {
	key      bodyKey
	restarts int32
	word     uint32
}

// slot returns the slot of c's words.
func (r *recentWords) slot(c *model.Change) *wordsSlot {
	return &r[(bodySlot(c)^uint64(c.RestartCount)*0x9e3779b97f4a7c15>>54)%wordsSlots]
}

// holds reports whether slot s has c's words.
func (s *wordsSlot) holds(c *model.Change) bool {
	return s.word != 0 && s.restarts == c.RestartCount && sameBody(&s.key, c)
}

// keep makes slot s hold c's words, of index word.
func (s *wordsSlot) keep(c *model.Change, word uint32) {
	s.key, s.restarts, s.word = keyOf(c), c.RestartCount, word+1
}

// objectsKept bounds the sources an objectTable holds (about 120 bytes
// each, with its index): past it, the model is making new strings for
// the objects it writes, which no table keyed by address finds again.
var objectsKept = 1 << 17 // a variable for the tests

// sourceIndex is the hash index of objectTable's sources: open
// addressing, linear probing, at most half full.
type sourceIndex struct {
	refs []sourceRef // a power of two long
}

// sourceRef is an entry of sourceIndex: the hash of a source and 1 + its
// index in its table (0: empty).
type sourceRef struct {
	hash uint64
	src  uint32
}

// first returns the position of hash h's first candidate and the entry
// there; next the following ones. The candidates end at an empty entry.
func (x *sourceIndex) first(h uint64) (uint64, sourceRef) {
	if len(x.refs) == 0 {
		return 0, sourceRef{}
	}
	i := h >> 32 & uint64(len(x.refs)-1)
	return i, x.refs[i]
}

func (x *sourceIndex) next(i uint64) (uint64, sourceRef) {
	i = (i + 1) & uint64(len(x.refs)-1)
	return i, x.refs[i]
}

// put enters source src (1 + its index) of hash h, the table's n-th;
// it grows the index to keep it at most half full.
func (x *sourceIndex) put(h uint64, src uint32, n int) {
	if 2*n > len(x.refs) {
		old := x.refs
		x.refs = make([]sourceRef, max(2*len(old), 1024))
		for _, r := range old {
			if r.src != 0 {
				x.enter(r)
			}
		}
	}
	x.enter(sourceRef{h, src})
}

func (x *sourceIndex) enter(r sourceRef) {
	i, at := x.first(r.hash)
	for at.src != 0 {
		i, at = x.next(i)
	}
	x.refs[i] = r
}

// objectTable finds the index of a change's object (appendObject) by the
// strings it is written from, compared by address as recentWords
// compares them. Unlike recentWords, it forgets nothing until it holds
// objectsKept sources, then starts over: a fleet's objects (two a pod)
// outnumber a small cache's slots, and a pod's rows come round only after
// every other pod's, so a cache missed most of them (63% of the fleet's
// rows), each then written out and looked up by its text.
type objectTable struct {
	index sourceIndex
	srcs  []objectSlot
}

// objectHash hashes what objectSlot.holds compares.
func objectHash(c *model.Change) uint64 {
	h := addr(c.Pod)*7 + addr(c.Node)*5 + addr(c.Workload)*3 + addr(c.Container) + addr(c.Namespace)*11 + addr(c.Object)*13
	if c.Kind == model.ChangeNode {
		h++
	}
	return h * 0x9e3779b97f4a7c15
}

// find returns the index of c's object, of hash h, and whether the table
// holds it.
func (t *objectTable) find(c *model.Change, h uint64) (uint32, bool) {
	for i, r := t.index.first(h); r.src != 0; i, r = t.index.next(i) {
		if r.hash == h {
			if s := &t.srcs[r.src-1]; s.holds(c) {
				return s.obj - 1, true
			}
		}
	}
	return 0, false
}

// add makes the table hold c's object, of hash h and index obj.
func (t *objectTable) add(c *model.Change, h uint64, obj uint32) {
	if len(t.srcs) >= objectsKept {
		t.srcs, t.index = t.srcs[:0], sourceIndex{}
	}
	t.srcs = append(t.srcs, objectSlot{})
	t.srcs[len(t.srcs)-1].keep(c, obj)
	t.index.put(h, uint32(len(t.srcs)), len(t.srcs))
}

// objectSlot is a source of objectTable: the fields appendObject reads,
// and 1 + the index of the object.
type objectSlot struct {
	namespace, workload, object, node, pod, container string
	isNode                                            bool // a node's change
	obj                                               uint32
}

// holds reports whether slot s has c's object.
func (s *objectSlot) holds(c *model.Change) bool {
	return s.obj != 0 && at(s.pod, c.Pod) && at(s.container, c.Container) && at(s.node, c.Node) &&
		at(s.workload, c.Workload) && at(s.namespace, c.Namespace) && at(s.object, c.Object) && s.isNode == (c.Kind == model.ChangeNode)
}

// keep makes slot s hold c's object, of index obj.
func (s *objectSlot) keep(c *model.Change, obj uint32) {
	*s = objectSlot{c.Namespace, c.Workload, c.Object, c.Node, c.Pod, c.Container, c.Kind == model.ChangeNode, obj + 1}
}
