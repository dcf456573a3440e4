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

// recentObjects remembers the index of the objects (appendObject) of the
// changes written lately by the strings they are written from, compared
// by address as recentWords compares them.
type recentObjects [objectSlots]objectSlot

// objectSlots is a power of two, objectBits the bits of a slot's number. A
// fleet's objects outnumber the slots, but more of them did not make the
// text timeline faster: a larger table misses in the processor's caches
// instead (bench/README.md, "Comparing two builds").
const (
	objectBits  = 8
	objectSlots = 1 << objectBits
)

// objectSlot is a slot of recentObjects: the fields appendObject reads,
// and 1 + the index of the object (0: empty).
type objectSlot struct {
	namespace, workload, object, node, pod, container string
	isNode                                            bool // a node's change
	obj                                               uint32
}

// slot returns the slot of c's object.
func (r *recentObjects) slot(c *model.Change) *objectSlot {
	h := addr(c.Pod)*7 + addr(c.Node)*5 + addr(c.Workload)*3 + addr(c.Container) + uint64(c.Kind)
	return &r[h*0x9e3779b97f4a7c15>>(64-objectBits)]
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
