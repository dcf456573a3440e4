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
// It buffers nothing beyond one line: give it a buffered writer. The first
// write error stops it; Err returns it.
type JSONL struct {
	w   io.Writer
	buf []byte
	err error
}

// NewJSONL returns a sink writing JSON lines to w.
func NewJSONL(w io.Writer) *JSONL { return &JSONL{w: w, buf: make([]byte, 0, 256)} }

// Change writes c as one line.
func (j *JSONL) Change(c *model.Change) {
	if j.err != nil {
		return
	}
	j.buf = AppendJSON(j.buf[:0], c)
	j.buf = append(j.buf, '\n')
	_, j.err = j.w.Write(j.buf)
}

// Err is the first error writing failed with, if any.
func (j *JSONL) Err() error { return j.err }

// podRef names a pod in a sink's maps without building its key: the
// namespace and name of a change.
type podRef struct{ ns, name string }

// AppendJSON appends c as one JSON object (no newline) to b.
func AppendJSON(b []byte, c *model.Change) []byte {
	b = append(b, `{"t":`...)
	if c.T%time.Second == 0 {
		b = strconv.AppendInt(b, int64(c.T/time.Second), 10) // what appendFloat writes for whole seconds
	} else {
		b = appendFloat(b, Seconds(c.T))
	}
	b = append(b, `,"kind":`...)
	b = appendString(b, c.Kind.String())
	if c.Namespace != model.DefaultNamespace {
		b = appendField(b, "namespace", c.Namespace) // "" is left out
	}
	b = appendField(b, "pod", c.Pod)
	b = appendField(b, "node", c.Node)
	b = appendField(b, "workload", c.Workload)
	b = appendField(b, "object", c.Object)
	b = appendField(b, "container", c.Container)
	b = appendField(b, "from", string(c.From))
	b = appendField(b, "to", string(c.To))
	if c.Kind == model.ChangeContainer {
		b = appendField(b, "state", c.State.String())
	}
	if c.Kind == model.ChangeNode {
		b = appendField(b, "condition", c.Type)
	} else {
		b = appendField(b, "type", c.Type)
	}
	b = appendField(b, "status", c.Status)
	b = appendField(b, "reason", c.Reason)
	b = appendField(b, "message", c.Message)
	if c.Combined {
		b = append(b, `,"combined":true`...)
	}
	if c.Dropped {
		b = append(b, `,"dropped":true`...)
	}
	if c.Kind == model.ChangeContainer {
		if c.HasExitCode {
			b = append(b, `,"exitCode":`...)
			b = strconv.AppendInt(b, int64(c.ExitCode), 10)
		}
		b = append(b, `,"restartCount":`...)
		b = strconv.AppendInt(b, int64(c.RestartCount), 10)
	}
	return append(b, '}')
}

// appendField appends ,"key":"value" unless value is empty (omitempty).
func appendField(b []byte, key, value string) []byte {
	if value == "" {
		return b
	}
	b = append(b, ',', '"')
	b = append(b, key...)
	b = append(b, '"', ':')
	return appendString(b, value)
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
	start := 0
	for i := 0; i < len(s); i++ {
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

// AppendIndented appends flat, one JSON object of one level as AppendJSON
// writes it, indented as json.Indent(dst, flat, prefix, indent) indents
// it, without its cost.
func AppendIndented(b, flat []byte, prefix, indent string) []byte {
	inString := false
	for i := 0; i < len(flat); i++ {
		ch := flat[i]
		switch {
		case inString:
			b = append(b, ch)
			if ch == '\\' && i+1 < len(flat) {
				i++
				b = append(b, flat[i])
			} else if ch == '"' {
				inString = false
			}
		case ch == '"':
			inString = true
			b = append(b, ch)
		case ch == '{' && i+1 < len(flat) && flat[i+1] == '}':
			b = append(b, '{', '}')
			i++
		case ch == '{':
			b = append(b, '{', '\n')
			b = append(append(b, prefix...), indent...)
		case ch == ',':
			b = append(b, ',', '\n')
			b = append(append(b, prefix...), indent...)
		case ch == ':':
			b = append(b, ':', ' ')
		case ch == '}':
			b = append(append(append(b, '\n'), prefix...), '}')
		default:
			b = append(b, ch)
		}
	}
	return b
}
