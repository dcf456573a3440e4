package report

import (
	"slices"
	"strconv"
	"time"
	"unsafe"

	"github.com/podsim/podsim/model"
)

// ChangeJSON appends changes as JSON objects: flat as AppendJSON writes
// them, or indented. It remembers what it wrote last, so that writing a
// change allocates nothing once they are known and mostly copies: the
// escaped form of strings (a run repeats the same names, reasons and
// messages); by kind, the bytes up to the kind for the time it wrote last
// (the changes of one instant come together); by pod, its namespace and
// name; and the bytes between the pod and the restart count, by the rest
// of the change (a crash loop writes the same few changes at other
// times). Not for use by two goroutines at once.
type ChangeJSON struct {
	keys      *jsonKeys
	strs      stringCache
	heads     [16]jsonHead         // by kind
	fronts    *[frontSets]frontSet // made at the first change Append writes
	bodies    *[bodySets]bodySet   // made at the first change
	tails     *[128]jsonTail       // by restart count; made at the first change
	scratch   []byte               // where a head or a front is written first
	world     *model.World         // whose pods' fronts are kept in podFronts (FindPodsIn), if any
	podFronts []frontSlot          // by pod ID
	// The table of bodies pays where changes repeat: a crash loop, or a
	// fleet of pods taking turns (its slot is chosen by the addresses of
	// the reason and message, which the model interns, so a thousand
	// pods' "Back-off restarting failed container c in pod P" take a
	// thousand slots: 93% of the crash-loop fleet's lines hit). Where
	// nothing repeats a miss costs more than writing the body: each window
	// of bodyWindow lines looked up whose hits are under a fifth turns it
	// off for the next bodySkip lines.
	probes, hits, skip int
}

// The tables are small on purpose (bodies 204 KiB, fronts 108 KiB): a miss
// costs a line written again, but a table that does not stay in the
// processor's nearer caches beside the model costs a cache miss on every
// line. With 4,096 sets instead of 512, each table hit more often (the
// fleet's fronts 99.8% against 87%) and run -o jsonl took 4-10% longer:
// the 1,000-pod fleet 172-183 ms against 166-170, 10,000 pods 591 against
// 535 ms, capacity-at-scale 131 against 118 ms (interleaved runs).
const (
	bodyBits   = 9
	bodySets   = 1 << bodyBits
	bodyWindow = 256
	bodySkip   = 4096
)

// jsonHead is what a change of one kind writes before its namespace and
// pod, at the time t: the opening brace, the time and the kind.
type jsonHead struct {
	t time.Duration
	n uint8 // the length of b's bytes; 0: none yet
	b [64]byte
}

// jsonTail is what a container's change with some restart count writes
// after its body.
type jsonTail struct {
	n uint8 // the length of b's bytes; 0: none yet; tooLong: longer than b
	b [32]byte
}

const tooLong = 255

// jsonBody is what a change whose fields are c writes after its pod and
// before its restart count; and the closing brace, but for a container's
// change. Its capacity is at least 128 bytes.
type jsonBody struct {
	c    bodyKey
	body []byte
}

// bodyKey is what a change's body is written from (176 bytes a slot).
type bodyKey struct {
	container, node, workload, object, reason, message, typ, status string
	from, to                                                        model.Phase
	kind                                                            model.ChangeKind
	state                                                           model.StateKind
	combined, dropped, hasExitCode                                  bool
	plain                                                           bool // node, workload, object, from and to are empty
	exitCode                                                        int32
}

func keyOf(c *model.Change) bodyKey {
	return bodyKey{c.Container, c.Node, c.Workload, c.Object, c.Reason, c.Message, c.Type, c.Status, c.From, c.To,
		c.Kind, c.State, c.Combined, c.Dropped, c.HasExitCode,
		len(c.Node)|len(c.Workload)|len(c.Object)|len(c.From)|len(c.To) == 0, c.ExitCode}
}

// sameBody reports whether c writes the body k was written from: its
// strings are compared by their bytes' address and length, as the model
// passes the same (interned) strings again. Equal strings elsewhere in
// memory make a miss, which writes the body again, never a wrong line: a
// slot keeps its strings alive, so their bytes are neither moved nor
// reused, and nothing in podsim builds a string over a buffer it later
// rewrites (unsafe.String). What differs most often comes first.
func sameBody(k *bodyKey, c *model.Change) bool {
	if !at(k.message, c.Message) || k.kind != c.Kind || !at(k.reason, c.Reason) || !at(k.typ, c.Type) ||
		k.state != c.State || k.exitCode != c.ExitCode || k.hasExitCode != c.HasExitCode ||
		k.combined != c.Combined || k.dropped != c.Dropped || !at(k.status, c.Status) || !at(k.container, c.Container) {
		return false
	}
	if k.plain { // the rest is empty in most changes: one test
		return len(c.Node)|len(c.Workload)|len(c.Object)|len(c.From)|len(c.To) == 0
	}
	return at(k.node, c.Node) && at(k.workload, c.Workload) && at(k.object, c.Object) &&
		at(string(k.from), string(c.From)) && at(string(k.to), string(c.To))
}

// addr is the address of s's bytes, as a number.
func addr(s string) uint64 { return uint64(uintptr(unsafe.Pointer(unsafe.StringData(s)))) }

// bodySlot is the slot of c's body (Fibonacci hashing of what tells a
// run's bodies apart).
func bodySlot(c *model.Change) uint64 {
	h := uint64(c.Kind) | uint64(c.State)<<8 | bit(c.Combined)<<16 | bit(c.Dropped)<<17
	h += addr(c.Reason)*7 + addr(c.Message)*5 + addr(c.Type)*3 + addr(c.Status) + addr(c.Node)
	return h * 0x9e3779b97f4a7c15 >> (64 - bodyBits)
}

// bit is 1 for true.
func bit(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// IndentedJSON returns an encoder that writes each change as AppendJSON
// does, indented as json.Indent(dst, flat, prefix, indent) would indent it.
func IndentedJSON(prefix, indent string) *ChangeJSON {
	k := indentKeys(prefix, indent, true)
	return &ChangeJSON{keys: &k}
}

// AppendJSON appends c as one JSON object (no newline) to b.
func AppendJSON(b []byte, c *model.Change) []byte {
	e := ChangeJSON{keys: &flatKeys}
	return e.tail(e.rest(e.writeFront(e.writeHead(b, c), c), c), c)
}

// Append appends c as one JSON object to b: a pod's line from the pieces
// it remembers, each copied in blocks of 16 bytes (copies the compiler
// writes out, with no call) into b's spare capacity, which Append makes
// lineSlack first. What follows the pod's name is looked up in the table
// of bodies, which a fleet's pods thus share: their changes differ by
// little more than the pod.
func (e *ChangeJSON) Append(b []byte, c *model.Change) []byte {
	if int(c.Kind) >= len(e.heads) || c.Pod == "" || e.fronts == nil {
		return e.appendOther(b, c)
	}
	h := &e.heads[c.Kind]
	if h.t != c.T || h.n == 0 {
		e.setHead(h, c)
	}
	var f *frontSlot
	if p := e.podOf(c); p != nil {
		if n := p.ID() + 1; n > len(e.podFronts) {
			e.podFronts = append(e.podFronts, make([]frontSlot, n-len(e.podFronts))...)
		}
		if f = &e.podFronts[p.ID()]; f.n == 0 || !at(f.pod, c.Pod) || !at(f.ns, c.Namespace) {
			e.setFront(f, c)
		}
	} else {
		fs := &e.fronts[addr(c.Pod)*0x9e3779b97f4a7c15>>(64-frontBits)]
		if f = &fs.w[fs.mru&1]; f.n == 0 || !at(f.pod, c.Pod) || !at(f.ns, c.Namespace) {
			f = e.frontOther(fs, c)
		}
	}
	if h.n == 0 || f.n == 0 { // longer than their blocks
		return e.appendOther(b, c)
	}
	if cap(b)-len(b) < lineSlack {
		b = slices.Grow(b, lineSlack)
	}
	p := unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), len(b))
	put(p, unsafe.Pointer(&h.b), int(h.n))
	put(unsafe.Add(p, h.n), unsafe.Pointer(&f.esc), int(f.n))
	b = b[:len(b)+int(h.n)+int(f.n)]
	if e.skip > 0 {
		e.skip--
		return e.tail(e.rest(b, c), c)
	}
	if e.probes++; e.probes == bodyWindow {
		if e.hits*5 < e.probes {
			e.skip = bodySkip
		}
		e.probes, e.hits = 0, 0
	}
	bs := &e.bodies[bodySlot(c)]
	s := &bs.w[bs.mru&1]
	if len(s.body) > 0 && sameBody(&s.c, c) {
		e.hits++
	} else {
		s = e.bodyOther(bs, c)
	}
	if n := len(s.body); n <= 128 { // the body's capacity is at least 128, b's spare at least 384
		p, q := unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), len(b)), unsafe.Pointer(unsafe.SliceData(s.body))
		put(p, q, n)
		if n > 64 {
			put(unsafe.Add(p, 64), unsafe.Add(q, 64), n-64)
		}
		b = b[:len(b)+n]
	} else {
		b = append(b, s.body...)
	}
	if c.Kind == model.ChangeContainer {
		if r := c.RestartCount; r >= 0 && int(r) < len(e.tails) && cap(b)-len(b) >= 32 {
			t := &e.tails[r]
			if t.n == 0 {
				e.scratch = e.tail(e.scratch[:0], c)
				t.n = tooLong
				if len(e.scratch) <= len(t.b) {
					t.n = uint8(copy(t.b[:], e.scratch))
				}
			}
			if t.n != tooLong {
				put(unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), len(b)), unsafe.Pointer(&t.b), int(t.n))
				return b[:len(b)+int(t.n)]
			}
		}
		b = e.tail(b, c)
	}
	return b
}

// FindPodsIn has e keep the front of a change that names a pod (its
// namespace and name) by the pod world says it is
// (model.World.ChangeNamesPod), in a slice by the pod's ID: a fleet's
// rows go round its pods in order, so the slice is read in order, where
// the table of fronts by address is read at random, and it holds every
// pod. Call it before the world is populated.
func (e *ChangeJSON) FindPodsIn(world *model.World) { e.world = world }

// podOf is the pod c names, if e finds pods by the world's.
func (e *ChangeJSON) podOf(c *model.Change) *model.Pod {
	if e.world == nil {
		return nil
	}
	return e.world.ChangeNamesPod()
}

// appendOther is Append for a change that is not a pod's, or not yet
// through the tables, or whose pieces are too long for their blocks.
func (e *ChangeJSON) appendOther(b []byte, c *model.Change) []byte {
	if e.fronts == nil {
		e.fronts, e.bodies, e.tails = new([frontSets]frontSet), new([bodySets]bodySet), new([128]jsonTail)
		if int(c.Kind) < len(e.heads) && c.Pod != "" {
			return e.Append(b, c)
		}
	}
	return e.tail(e.rest(e.writeFront(e.writeHead(b, c), c), c), c)
}

// lineSlack is the spare capacity Append makes before it writes a line:
// room for the blocks it copies (a head and a front of 64 bytes, a body of
// 128).
const lineSlack = 512

// put copies the first n bytes at src (at most 64 of them) to dst, in
// blocks of 16 bytes: 32 bytes if n is at most 32, else 64. Those bytes
// at src and at dst are the caller's.
func put(dst, src unsafe.Pointer, n int) {
	*(*[16]byte)(dst) = *(*[16]byte)(src)
	*(*[16]byte)(unsafe.Add(dst, 16)) = *(*[16]byte)(unsafe.Add(src, 16))
	if n > 32 {
		*(*[16]byte)(unsafe.Add(dst, 32)) = *(*[16]byte)(unsafe.Add(src, 32))
		*(*[16]byte)(unsafe.Add(dst, 48)) = *(*[16]byte)(unsafe.Add(src, 48))
	}
}

// setHead writes c's head into h; h.n is 0 if it is longer than h.b.
func (e *ChangeJSON) setHead(h *jsonHead, c *model.Change) {
	e.scratch = e.writeHead(e.scratch[:0], c)
	h.t, h.n = c.T, 0
	if len(e.scratch) <= len(h.b) {
		h.n = uint8(copy(h.b[:], e.scratch))
	}
}

// setFront writes c's front into f; f.n is 0 if it is longer than f.esc.
func (e *ChangeJSON) setFront(f *frontSlot, c *model.Change) {
	e.scratch = e.writeFront(e.scratch[:0], c)
	f.pod, f.ns, f.n = c.Pod, c.Namespace, 0
	if len(e.scratch) <= len(f.esc) {
		f.n = uint8(copy(f.esc[:], e.scratch))
	}
}

// fill writes c's body into slot s.
func (e *ChangeJSON) fill(s *jsonBody, c *model.Change) {
	s.c = keyOf(c)
	if s.body == nil {
		s.body = make([]byte, 0, 128)
	}
	s.body = e.rest(s.body[:0], c)
	if c.Kind != model.ChangeContainer {
		s.body = append(s.body, e.keys[keyEnd]...)
	}
}

// writeHead appends the opening brace, c's time and its kind.
func (e *ChangeJSON) writeHead(b []byte, c *model.Change) []byte {
	b = append(b, e.keys[keyT]...)
	if c.T%time.Second == 0 {
		b = strconv.AppendInt(b, int64(c.T/time.Second), 10) // what appendFloat writes for whole seconds
	} else {
		b = appendFloat(b, Seconds(c.T))
	}
	return append(append(append(append(b, e.keys[keyKind]...), '"'), c.Kind.String()...), '"') // a kind's name needs no escaping
}

// tail appends a container's restart count and the closing brace.
func (e *ChangeJSON) tail(b []byte, c *model.Change) []byte {
	if c.Kind == model.ChangeContainer {
		b = append(b, e.keys[keyRestartCount]...)
		b = strconv.AppendInt(b, int64(c.RestartCount), 10)
	}
	return append(b, e.keys[keyEnd]...)
}

// writeFront appends c's namespace and pod.
func (e *ChangeJSON) writeFront(b []byte, c *model.Change) []byte {
	if !same(c.Namespace, model.DefaultNamespace) {
		b = e.field(b, keyNamespace, c.Namespace) // "" is left out
	}
	return e.field(b, keyPod, c.Pod)
}

// The fronts of pods' lines (writeFront) are kept by pod in sets of two
// slots: a fleet's changes go round its pods, more of them than
// stringCache holds. A slot holds its bytes, so that a hit reads one place.
type frontSet struct {
	w   [2]frontSlot
	mru uint8 // the slot used last
}

type frontSlot struct {
	pod, ns string
	n       uint8 // the length of esc's bytes; 0: none (or the front is longer)
	esc     [64]byte
}

const (
	frontBits = 9 // see bodyBits
	frontSets = 1 << frontBits
)

// frontOther returns the slot of c's namespace and pod when the slot of
// its set used last is not it (Append looks there first), filled if it
// was not in the table: the model passes a pod's own name, whose bytes
// stay where they are, so their address picks the set (Fibonacci hashing)
// and tells the pods apart (at).
func (e *ChangeJSON) frontOther(set *frontSet, c *model.Change) *frontSlot {
	i := set.mru&1 ^ 1
	set.mru = i
	f := &set.w[i]
	if f.n == 0 || !at(f.pod, c.Pod) || !at(f.ns, c.Namespace) {
		e.setFront(f, c)
	}
	return f
}

// The bodies are kept in sets of two slots.
type bodySet struct {
	w   [2]jsonBody
	mru uint8 // the slot used last
}

// bodyOther returns the slot of c's body when the slot of its set used
// last is not it (Append looks there first), filled if it was not in the
// table.
func (e *ChangeJSON) bodyOther(set *bodySet, c *model.Change) *jsonBody {
	i := set.mru&1 ^ 1
	set.mru = i
	s := &set.w[i]
	if len(s.body) > 0 && sameBody(&s.c, c) {
		e.hits++
	} else {
		e.fill(s, c)
	}
	return s
}

// at reports whether a and b are the same bytes in memory.
func at(a, b string) bool {
	return len(a) == len(b) && unsafe.StringData(a) == unsafe.StringData(b)
}

// rest appends c's keys and values from node to exitCode.
func (e *ChangeJSON) rest(b []byte, c *model.Change) []byte {
	k := e.keys
	b = e.field(b, keyNode, c.Node)
	b = e.field(b, keyWorkload, c.Workload)
	b = e.field(b, keyObject, c.Object)
	b = e.field(b, keyContainer, c.Container)
	b = e.field(b, keyFrom, string(c.From))
	b = e.field(b, keyTo, string(c.To))
	if c.Kind == model.ChangeContainer {
		b = append(b, k[keyState]...)
		b = append(append(append(b, '"'), c.State.String()...), '"')
	}
	if c.Kind == model.ChangeNode {
		b = e.field(b, keyCondition, c.Type)
	} else {
		b = e.field(b, keyType, c.Type)
	}
	b = e.field(b, keyStatus, c.Status)
	b = e.field(b, keyReason, c.Reason)
	b = e.field(b, keyMessage, c.Message)
	if c.Combined {
		b = append(append(b, k[keyCombined]...), "true"...)
	}
	if c.Dropped {
		b = append(append(b, k[keyDropped]...), "true"...)
	}
	if c.Kind == model.ChangeContainer && c.HasExitCode {
		b = append(b, k[keyExitCode]...)
		b = strconv.AppendInt(b, int64(c.ExitCode), 10)
	}
	return b
}

// field appends the key and its value unless value is empty (omitempty).
func (e *ChangeJSON) field(b []byte, key int, value string) []byte {
	if value == "" {
		return b
	}
	return e.strs.appendAfter(b, key, e.keys[key], value)
}

// same is a == b, without a call when both are the same bytes.
func same(a, b string) bool {
	return len(a) == len(b) && (len(a) == 0 || unsafe.StringData(a) == unsafe.StringData(b) || a == b)
}
