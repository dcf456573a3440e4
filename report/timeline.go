package report

import (
	"bytes"
	"encoding/json"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/podsim/podsim/model"
)

// JSONL is a sink that writes each change as one line of JSON as the run
// goes (the contract's `-o jsonl`, scenario-v1.md section 5). Keys come in
// the contract's order: t, kind, pod, node, workload, object, container,
// from, to, state, type, condition, status, reason, message, combined,
// dropped, exitCode, restartCount; empty strings are left out; combined and
// dropped are only on an event the correlator combined or the spam filter
// kept from the API; exitCode and restartCount are only on container
// changes. The bytes are those encoding/json would write.
//
// NewJSONL's writes each line as it comes (give it a buffered writer);
// NewJSONLBuffered's holds lines until Flush. The first write error stops
// it; Err and Flush return it.
type JSONL struct {
	w    io.Writer
	enc  ChangeJSON
	buf  []byte
	held int // NewJSONLBuffered's size; 0: each line is written as it comes
	err  error
}

// NewJSONL returns a sink writing JSON lines to w, each as it comes.
func NewJSONL(w io.Writer) *JSONL {
	return &JSONL{w: w, enc: ChangeJSON{keys: &flatKeys}, buf: make([]byte, 0, 256)}
}

// NewJSONLBuffered returns a sink writing JSON lines to w in writes of
// about size bytes: it holds lines until they fill size, and Flush writes
// out those it holds. Lines are built in place, where a bufio.Writer
// would copy each.
func NewJSONLBuffered(w io.Writer, size int) *JSONL {
	return &JSONL{w: w, enc: ChangeJSON{keys: &flatKeys}, buf: make([]byte, 0, size+4096), held: size}
}

// Change writes c as one line.
func (j *JSONL) Change(c *model.Change) {
	if j.err != nil {
		return
	}
	j.buf = append(j.enc.Append(j.buf, c), '\n')
	if len(j.buf) >= j.held {
		_, j.err = j.w.Write(j.buf)
		j.buf = j.buf[:0]
	}
}

// Flush writes out the lines held, if any.
func (j *JSONL) Flush() error {
	if j.err == nil && len(j.buf) > 0 {
		_, j.err = j.w.Write(j.buf)
		j.buf = j.buf[:0]
	}
	return j.err
}

// Err is the first error writing failed with, if any.
func (j *JSONL) Err() error { return j.err }

// podRef names a pod in a sink's maps without building its key: the
// namespace and name of a change.
type podRef struct{ ns, name string }

// The keys of a change's JSON object, in the contract's order.
const (
	keyT = iota
	keyKind
	keyNamespace
	keyPod
	keyNode
	keyWorkload
	keyObject
	keyContainer
	keyFrom
	keyTo
	keyState
	keyType
	keyCondition
	keyStatus
	keyReason
	keyMessage
	keyCombined
	keyDropped
	keyExitCode
	keyRestartCount
	keyEnd // the closing brace
	nKeys
)

var keyNames = [nKeys]string{"t", "kind", "namespace", "pod", "node", "workload", "object", "container", "from", "to",
	"state", "type", "condition", "status", "reason", "message", "combined", "dropped", "exitCode", "restartCount", ""}

// jsonKeys holds what is written before each key's value: the opening
// brace or the separator, the key and the colon; and the closing brace.
type jsonKeys [nKeys]string

// flatKeys are those of AppendJSON: one line, no spaces.
var flatKeys = indentKeys("", "", false)

// indentKeys returns the keys as json.Indent(dst, flat, prefix, indent)
// lays them out when indented, else as AppendJSON writes them.
func indentKeys(prefix, indent string, indented bool) jsonKeys {
	var k jsonKeys
	open, sep, colon, end := "{", ",", ":", "}"
	if indented {
		open, sep, colon, end = "{\n"+prefix+indent, ",\n"+prefix+indent, ": ", "\n"+prefix+"}"
	}
	for i, name := range keyNames {
		switch i {
		case keyT:
			k[i] = open + `"` + name + `"` + colon
		case keyEnd:
			k[i] = end
		default:
			k[i] = sep + `"` + name + `"` + colon
		}
	}
	return k
}

// ChangeJSON appends changes as JSON objects: flat as AppendJSON writes
// them, or indented. It remembers what it wrote last: the escaped form of
// strings (a run repeats the same names, reasons and messages), and the
// bytes between a change's time and its restart count, by the rest of the
// change (a crash loop writes the same few changes at other times), so
// writing a change allocates nothing once they are known and mostly copies.
// Not for use by two goroutines at once.
type ChangeJSON struct {
	keys   *jsonKeys
	strs   stringCache
	fronts *frontCache          // made at the first change Append writes
	bodies *[bodySlots]jsonBody // made at the first change
	// The table of bodies pays where changes repeat: a crash loop, or a
	// fleet of pods taking turns (its slot is chosen by the addresses of
	// the reason and message, which the model interns, so a thousand
	// pods' "Back-off restarting failed container c in pod P" take a
	// thousand slots: 96% of the crash-loop fleet's lines hit). Where
	// nothing repeats a miss costs more than writing the body: each window
	// of bodyWindow lines looked up whose hits are under a fifth turns it
	// off for the next bodySkip lines.
	probes, hits, skip int
	// The key kind and each kind's quoted name, by kind, made on first use.
	kinds [8][]byte
	// The time Append wrote last, and its bytes: the changes of one
	// instant come together.
	lastT    time.Duration
	lastHead []byte
}

const (
	bodyBits   = 12
	bodySlots  = 1 << bodyBits
	bodyWindow = 256
	bodySkip   = 4096
)

// jsonBody is what a change without its time, namespace, pod and restart
// count writes after its pod and before its restart count.
type jsonBody struct {
	c    bodyKey
	ok   bool
	body []byte
}

// bodyKey is what rest writes of a change.
type bodyKey struct {
	node, workload, object, container, from, to, typ, status, reason, message string
	kind                                                                      model.ChangeKind
	state                                                                     model.StateKind
	combined, dropped, hasExitCode                                            bool
	exitCode                                                                  int32
}

func keyOf(c *model.Change) bodyKey {
	return bodyKey{c.Node, c.Workload, c.Object, c.Container, string(c.From), string(c.To), c.Type, c.Status, c.Reason,
		c.Message, c.Kind, c.State, c.Combined, c.Dropped, c.HasExitCode, c.ExitCode}
}

// is reports whether c's body is k's. Its strings are compared by
// their bytes' address and length only, as the model passes the same
// (interned) strings again: equal strings elsewhere in memory make a miss,
// which writes the body again, never a wrong line: a slot keeps its
// strings alive, so their bytes are neither moved nor reused, and nothing
// in podsim builds a string over a buffer it later rewrites
// (unsafe.String).
func (k *bodyKey) is(c *model.Change) bool {
	return k.kind == c.Kind && k.state == c.State && k.combined == c.Combined && k.dropped == c.Dropped &&
		k.hasExitCode == c.HasExitCode && k.exitCode == c.ExitCode &&
		at(k.reason, c.Reason) && at(k.message, c.Message) && at(k.typ, c.Type) && at(k.status, c.Status) &&
		at(k.container, c.Container) && at(k.node, c.Node) && at(k.workload, c.Workload) &&
		at(k.object, c.Object) && at(k.from, string(c.From)) && at(k.to, string(c.To))
}

// at reports whether a and b are the same bytes in memory (any two empty
// strings are).
func at(a, b string) bool {
	return len(a) == len(b) && (len(a) == 0 || unsafe.StringData(a) == unsafe.StringData(b))
}

// same is a == b, without a call when both are the same bytes.
func same(a, b string) bool {
	return len(a) == len(b) && (len(a) == 0 || unsafe.StringData(a) == unsafe.StringData(b) || a == b)
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
	return e.tail(e.body(e.head(b, c), c), c)
}

// Append appends c as one JSON object to b. What follows the pod's name
// is looked up in the table of bodies, which a fleet's pods thus share: their
// changes differ by little more than the pod.
func (e *ChangeJSON) Append(b []byte, c *model.Change) []byte {
	b = e.head(b, c)
	if e.fronts == nil {
		e.fronts = new(frontCache)
	}
	b = e.front(b, c)
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
	if e.bodies == nil {
		e.bodies = new([bodySlots]jsonBody)
	}
	h := uint64(c.Kind)*31 + uint64(c.State)*17 + uint64(len(c.Container))*11 + uint64(uintptr(unsafe.Pointer(unsafe.StringData(c.Reason))))*7 +
		uint64(uintptr(unsafe.Pointer(unsafe.StringData(c.Message))))*5 + uint64(len(c.Type))*3 + uint64(len(c.Status)) + uint64(len(c.Workload))*19 + uint64(len(c.Node))*23
	s := &e.bodies[h*0x9e3779b97f4a7c15>>(64-bodyBits)]
	if !s.ok || !s.c.is(c) {
		s.c, s.ok = keyOf(c), true
		s.body = e.rest(s.body[:0], c)
	} else {
		e.hits++
	}
	return e.tail(append(b, s.body...), c)
}

// head appends the opening brace and c's time.
func (e *ChangeJSON) head(b []byte, c *model.Change) []byte {
	if c.T == e.lastT && len(e.lastHead) > 0 {
		return append(b, e.lastHead...)
	}
	mark := len(b)
	b = e.writeHead(b, c)
	e.lastT, e.lastHead = c.T, append(e.lastHead[:0], b[mark:]...)
	return b
}

// writeHead is head without its memory of the last time.
func (e *ChangeJSON) writeHead(b []byte, c *model.Change) []byte {
	b = append(b, e.keys[keyT]...)
	if c.T%time.Second == 0 {
		return strconv.AppendInt(b, int64(c.T/time.Second), 10) // what appendFloat writes for whole seconds
	}
	return appendFloat(b, Seconds(c.T))
}

// tail appends a container's restart count and the closing brace.
func (e *ChangeJSON) tail(b []byte, c *model.Change) []byte {
	if c.Kind == model.ChangeContainer {
		b = append(b, e.keys[keyRestartCount]...)
		b = strconv.AppendInt(b, int64(c.RestartCount), 10)
	}
	return append(b, e.keys[keyEnd]...)
}

// body appends c's keys and values from kind to exitCode.
func (e *ChangeJSON) body(b []byte, c *model.Change) []byte { return e.rest(e.front(b, c), c) }

// front appends c's kind, namespace and pod: once Append made the table of
// fronts, a pod's through it.
func (e *ChangeJSON) front(b []byte, c *model.Change) []byte {
	if e.fronts == nil || c.Pod == "" || int(c.Kind) >= len(e.kinds) {
		return e.writeFront(b, c)
	}
	// The model passes a pod's own name, whose bytes stay where they are:
	// their address and the kind pick the slot (Fibonacci hashing).
	h := (uint64(uintptr(unsafe.Pointer(unsafe.StringData(c.Pod))))<<3 | uint64(c.Kind)) * 0x9e3779b97f4a7c15 >> (64 - frontBits)
	f := &e.fronts[h]
	if len(f.esc) > 0 && f.kind == c.Kind && same(f.pod, c.Pod) && same(f.ns, c.Namespace) {
		return append(b, f.esc...)
	}
	mark := len(b)
	b = e.writeFront(b, c)
	f.pod, f.ns, f.kind, f.esc = c.Pod, c.Namespace, c.Kind, append(f.esc[:0], b[mark:]...)
	return b
}

// writeFront is front without the table of fronts.
func (e *ChangeJSON) writeFront(b []byte, c *model.Change) []byte {
	if int(c.Kind) < len(e.kinds) && e.fronts != nil { // Append's, not a one-off AppendJSON's
		k := &e.kinds[c.Kind]
		if *k == nil {
			*k = append(append(append([]byte(e.keys[keyKind]), '"'), c.Kind.String()...), '"') // a kind's name needs no escaping
		}
		b = append(b, *k...)
	} else {
		b = append(append(append(append(b, e.keys[keyKind]...), '"'), c.Kind.String()...), '"')
	}
	if !same(c.Namespace, model.DefaultNamespace) {
		b = e.field(b, keyNamespace, c.Namespace) // "" is left out
	}
	return e.field(b, keyPod, c.Pod)
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

// frontCache holds the fronts of a pod's lines (front), by the pod and
// the kind: a fleet's changes go round its pods, more of them than
// stringCache holds.
type frontCache [1 << frontBits]struct {
	pod, ns string
	kind    model.ChangeKind
	esc     []byte
}

const frontBits = 14

// stringCache remembers the escaped JSON form of the strings a writer
// wrote last, with the key written before each, one per slot of a small
// table chosen by a string's length and ends and the key: a hit costs a
// comparison (one of pointers when the model passes the same string
// again) and a copy.
type stringCache [64]struct {
	raw string
	key int // what esc starts with: the key of appendAfter, -1 for none
	esc []byte
}

// append appends s as appendString does.
func (sc *stringCache) append(b []byte, s string) []byte { return sc.appendAfter(b, -1, "", s) }

// appendAfter appends prefix, which key names, and then s as appendString
// does.
func (sc *stringCache) appendAfter(b []byte, key int, prefix, s string) []byte {
	if len(s) == 0 || len(s) > 256 {
		return appendString(append(b, prefix...), s)
	}
	e := &sc[(uint(len(s))*31+uint(s[0])*7+uint(s[len(s)-1])+uint(key)*5)&63]
	if len(e.esc) > 0 && e.key == key && e.raw == s {
		return append(b, e.esc...)
	}
	mark := len(b)
	b = appendString(append(b, prefix...), s)
	e.raw, e.key, e.esc = s, key, append(e.esc[:0], b[mark:]...)
	return b
}

// appendFloat formats f as encoding/json does.
func appendFloat(b []byte, f float64) []byte {
	format := byte('f')
	if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// e-09 -> e-9, as encoding/json writes it.
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// appendString appends s as a JSON string, escaped as encoding/json does
// without HTML escaping. Printable ASCII, quotes and backslashes (a
// kubelet's "Container image \"c\" already present" on every restart) are
// written here; a string with a control character or beyond ASCII goes to
// encoding/json whole.
func appendString(b []byte, s string) []byte {
	mark := len(b)
	b = append(b, '"')
	// Eight bytes at a time while none needs a look (most names,
	// reasons and messages are plain ASCII), then byte by byte.
	i := 0
	for ; i+8 <= len(s) && plain8(s[i:i+8]); i += 8 {
	}
	start := 0
	for ; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			b = append(b, s[start:i]...)
			b = append(b, '\\', c)
			start = i + 1
		case c < 0x20 || c >= utf8.RuneSelf:
			return appendStringSlow(b[:mark], s)
		}
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// plain8 reports whether none of the eight bytes of s is a quote, a
// backslash, a control character or beyond ASCII (a SWAR test on one
// word: a byte of x-0x20 or of x with its top bit set is below 0x20 or not
// ASCII; a zero byte of x^'"' or x^'\\' is a quote or a backslash). A
// borrow marks only bytes above one already marked, so the test is exact.
func plain8(s string) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	x := uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
	q, bs := x^('"'*ones), x^('\\'*ones)
	return ((x-0x20*ones)|x|(q-ones)&^q|(bs-ones)&^bs)&highs == 0
}

func appendStringSlow(b []byte, s string) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return append(b, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))...)
}

// Seconds is virtual time as a JSON number of seconds.
func Seconds(d time.Duration) float64 { return d.Seconds() }

// WriteJSONL writes a whole timeline as JSON lines, one object per change.
func WriteJSONL(w io.Writer, changes []model.Change) error {
	j := NewJSONL(w)
	for i := range changes {
		j.Change(&changes[i])
	}
	return j.Err()
}

// Object names what a change is about: pod/web, pod/web/app, node/n,
// job/migrate, ...; an object of a namespace other than default is
// prefixed with it: shop/pod/web.
func Object(c *model.Change) string { return string(appendObject(nil, c)) }

// appendObject appends what Object returns to b.
func appendObject(b []byte, c *model.Change) []byte {
	if c.Namespace != "" && c.Namespace != model.DefaultNamespace {
		b = append(b, c.Namespace...)
		b = append(b, '/')
	}
	switch {
	case c.Workload != "" && c.Object != "":
		for i := 0; i < len(c.Object); i++ { // strings.ToLower, without a string
			ch := c.Object[i]
			if ch >= utf8.RuneSelf {
				b = append(b, strings.ToLower(c.Object[i:])...)
				break
			}
			if 'A' <= ch && ch <= 'Z' {
				ch += 'a' - 'A'
			}
			b = append(b, ch)
		}
		b = append(b, '/')
		return append(b, c.Workload...)
	case c.Workload != "":
		return append(append(b, "workload/"...), c.Workload...)
	case c.Kind == model.ChangeNode || (c.Node != "" && c.Pod == ""):
		return append(append(b, "node/"...), c.Node...)
	}
	b = append(append(b, "pod/"...), c.Pod...)
	if c.Container != "" {
		b = append(append(b, '/'), c.Container...)
	}
	return b
}

// Describe says in words what one change was.
func Describe(c *model.Change) string { return string(appendDescribe(nil, c)) }

// appendDescribe appends what Describe returns to b.
func appendDescribe(b []byte, c *model.Change) []byte {
	switch c.Kind {
	case model.ChangePhase:
		b = append(b, "phase "...)
		if c.From != "" {
			b = append(append(b, c.From...), " -> "...)
		}
		return append(b, c.To...)
	case model.ChangeContainer:
		b = append(b, c.State.String()...)
		sep := " ("
		if c.Reason != "" {
			b = append(append(b, sep...), c.Reason...)
			sep = ", "
		}
		if c.HasExitCode {
			b = append(append(b, sep...), "exit "...)
			b = strconv.AppendInt(b, int64(c.ExitCode), 10)
			sep = ", "
		}
		if c.State == model.StateRunning || c.RestartCount > 0 {
			b = append(append(b, sep...), "restarts "...)
			b = strconv.AppendInt(b, int64(c.RestartCount), 10)
			sep = ", "
		}
		if sep == ", " {
			b = append(b, ')')
		}
		return b
	case model.ChangeCondition, model.ChangeNode, model.ChangeWorkload:
		b = append(b, c.Type...)
		if c.Status == "" {
			return append(b, " removed"...)
		}
		b = append(append(b, '='), c.Status...)
		if c.Reason != "" {
			b = append(append(append(b, " ("...), c.Reason...), ')')
		}
		return b
	case model.ChangeEvent:
		b = append(append(append(append(b, c.Type...), ' '), c.Reason...), ": "...)
		if c.Combined {
			b = append(b, "(combined from similar events): "...)
		}
		b = append(b, c.Message...)
		if c.Dropped {
			b = append(b, " (dropped by the spam filter)"...)
		}
		return b
	case model.ChangePod:
		b = append(b, c.Reason...)
		if c.Message != "" {
			b = append(append(append(b, " ("...), c.Message...), ')')
		}
		return b
	case model.ChangeClient:
		return append(append(append(b, c.Object...), ": "...), c.Message...)
	}
	return append(b, c.Kind.String()...)
}
