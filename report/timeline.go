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
	return &JSONL{w: w, enc: ChangeJSON{keys: &lineKeys}, buf: make([]byte, 0, 256)}
}

// NewJSONLBuffered returns a sink writing JSON lines to w in writes of
// about size bytes: it holds lines until they fill size, and Flush writes
// out those it holds. Lines are built in place, where a bufio.Writer
// would copy each.
func NewJSONLBuffered(w io.Writer, size int) *JSONL {
	return &JSONL{w: w, enc: ChangeJSON{keys: &lineKeys}, buf: make([]byte, 0, size+4096), held: size}
}

// FindPodsIn has j find what it writes of a change naming a pod by the pod
// (ChangeJSON.FindPodsIn). Call it before the world is populated.
func (j *JSONL) FindPodsIn(world *model.World) { j.enc.FindPodsIn(world) }

// Change writes c as one line.
func (j *JSONL) Change(c *model.Change) {
	if j.err != nil {
		return
	}
	j.buf = j.enc.Append(j.buf, c) // its keys end a line
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

// lineKeys are those of JSONL: flatKeys, and a newline after the closing
// brace.
var lineKeys = func() jsonKeys { k := flatKeys; k[keyEnd] += "\n"; return k }()

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
