package yamlstrict

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// Error is one problem found in a file.
type Error struct {
	File string
	Pos  Pos
	Msg  string
}

// Error returns "FILE:LINE:COL: Msg", or "FILE: Msg" if the position is
// unknown. An empty File is left out.
func (e Error) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		b.WriteByte(':')
	}
	if !e.Pos.IsZero() {
		b.WriteString(e.Pos.String())
		b.WriteByte(':')
	}
	if b.Len() > 0 {
		b.WriteByte(' ')
	}
	writeCut(&b, e.Msg)
	return b.String()
}

// writeCut writes msg with every quoted value in it longer than 40
// characters shortened as QuoteValue shortens it: a message never echoes
// a huge value whole.
func writeCut(b *strings.Builder, msg string) {
	for {
		i := strings.IndexByte(msg, '"')
		if i < 0 {
			b.WriteString(msg)
			return
		}
		b.WriteString(msg[:i])
		q, err := strconv.QuotedPrefix(msg[i:])
		if err != nil {
			b.WriteByte('"')
			msg = msg[i+1:]
			continue
		}
		msg = msg[i+len(q):]
		if v, err := strconv.Unquote(q); err == nil && utf8.RuneCountInString(v) > 40 {
			q = QuoteValue(v)
		}
		b.WriteString(q)
	}
}

// ErrorList holds every problem found in a file or a suite.
type ErrorList []Error

// Error returns one Error() per line.
func (l ErrorList) Error() string {
	lines := make([]string, len(l))
	for i, e := range l {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// Add appends a problem. With no args, format is used as is.
func (l *ErrorList) Add(file string, p Pos, format string, args ...any) {
	msg := format
	if len(args) > 0 {
		msg = fmt.Sprintf(format, args...)
	}
	*l = append(*l, Error{File: file, Pos: p, Msg: msg})
}

// Sort sorts the list by file, line, column, then message (stable).
func (l ErrorList) Sort() {
	slices.SortStableFunc(l, compareErrors)
}

func compareErrors(a, b Error) int {
	if c := strings.Compare(a.File, b.File); c != 0 {
		return c
	}
	if a.Pos.Line != b.Pos.Line {
		return a.Pos.Line - b.Pos.Line
	}
	if a.Pos.Col != b.Pos.Col {
		return a.Pos.Col - b.Pos.Col
	}
	return strings.Compare(a.Msg, b.Msg)
}

// Err returns nil if the list is empty, else the list.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

func scalarError(n *yaml.Node, t reflect.Type) string {
	msg := "cannot use " + QuoteValue(n.Value) + " as " + wantDesc(t)
	tag := n.ShortTag()
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if t == timeDurationType {
			return msg + " such as 30s, 5m or 1h30m"
		}
		if tag == "!!int" || tag == "!!float" {
			return msg + ": out of range"
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if tag == "!!int" || tag == "!!float" {
			if strings.HasPrefix(n.Value, "-") {
				return msg + ": must not be negative"
			}
			return msg + ": out of range"
		}
	case reflect.Bool:
		return msg + " (want true or false)"
	}
	return msg
}

func wantDesc(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if t == timeDurationType {
			return "a duration"
		}
		return "an integer"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "a sequence"
	case reflect.Struct, reflect.Map:
		return "a mapping"
	}
	return t.String()
}

// DescribeNode says what n is, for "expected X, found Y" messages.
func DescribeNode(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a sequence"
	case yaml.AliasNode:
		return "an alias"
	case yaml.DocumentNode:
		return "a document"
	case yaml.ScalarNode:
		v := QuoteValue(n.Value)
		switch n.ShortTag() {
		case "!!null":
			return "null"
		case "!!bool":
			return "the boolean " + n.Value
		case "!!int":
			return "the integer " + n.Value
		case "!!float":
			return "the number " + n.Value
		case "!!str":
			return "the string " + v
		}
		return v
	}
	return "nothing"
}

// QuoteValue quotes a user's scalar for a message, shortening long ones.
func QuoteValue(s string) string { return strconv.Quote(CutValue(s)) }

// CutValue shortens a user's value for a message to 40 characters, the
// last three "...".
func CutValue(s string) string {
	const max = 40
	if len(s) > max && utf8.RuneCountInString(s) > max {
		s = string([]rune(s)[:max-3]) + "..."
	}
	return s
}

// adoptError reports an error returned by UnmarshalYAML for node n. An Error
// or ErrorList keeps its own positions (filled in from n when zero).
func (d *decoder) adoptError(n *yaml.Node, err error) {
	var list ErrorList
	var one Error
	var onePtr *Error
	var te *yaml.TypeError
	switch {
	case errors.As(err, &list):
	case errors.As(err, &one):
		list = ErrorList{one}
	case errors.As(err, &onePtr) && onePtr != nil:
		list = ErrorList{*onePtr}
	case errors.As(err, &te):
		for _, s := range te.Errors {
			list = append(list, Error{Msg: stripLinePrefix(s)})
		}
	default:
		list = ErrorList{{Msg: CleanYAMLError(err)}}
	}
	for _, e := range list {
		if e.File == "" {
			e.File = d.file
		}
		if e.Pos.IsZero() {
			e.Pos = NodePos(n)
		}
		if e.Msg == "" {
			e.Msg = "invalid value"
		}
		d.errs = append(d.errs, e)
	}
}

// CleanYAMLError turns an error from yaml.v3 into a short message without
// "yaml: " and "line N: " prefixes. It returns "" for a nil error.
func CleanYAMLError(err error) string {
	if err == nil {
		return ""
	}
	var te *yaml.TypeError
	if errors.As(err, &te) && len(te.Errors) > 0 {
		msgs := make([]string, len(te.Errors))
		for i, s := range te.Errors {
			msgs[i] = stripLinePrefix(s)
		}
		return strings.Join(msgs, "; ")
	}
	msg := err.Error()
	for strings.HasPrefix(msg, "yaml: ") {
		msg = strings.TrimPrefix(msg, "yaml: ")
	}
	msg = stripLinePrefix(msg)
	if msg == "" {
		msg = "invalid value"
	}
	return msg
}

func stripLinePrefix(s string) string {
	s = strings.TrimSpace(s)
	for strings.HasPrefix(s, "yaml: ") {
		s = strings.TrimPrefix(s, "yaml: ")
	}
	if rest, ok := strings.CutPrefix(s, "line "); ok {
		if i := strings.Index(rest, ": "); i > 0 {
			if _, err := strconv.Atoi(rest[:i]); err == nil {
				return rest[i+2:]
			}
		}
	}
	return s
}
