package yamlstrict

import (
	"bytes"
	"fmt"
	"strings"
)

// SyntaxErrorIn is SyntaxError for an error decoding data. The YAML
// parser reports "did not find expected key" (or '-' indicator) at the
// start of the block it was in, often lines above the mistake; when a later line's
// indentation matches none of the blocks open above it (a key indented
// one space too few or too many), the error points at that line instead.
func SyntaxErrorIn(path string, data []byte, err error) Error {
	e := SyntaxError(path, err)
	if strings.Contains(e.Msg, "found a tab character") {
		// The parser names the line before the tab's: point at the tab.
		if line, col := firstIndentTab(data, e.Pos.Line); line > 0 {
			e.Pos = Pos{line, col}
		}
		return e
	}
	if !strings.HasSuffix(e.Msg, "did not find expected key") && !strings.HasSuffix(e.Msg, "did not find expected '-' indicator") {
		return e
	}
	if line, col, near := misindented(data, e.Pos.Line); line > 0 {
		e.Pos = Pos{line, col}
		var parts []string
		for _, l := range near {
			parts = append(parts, fmt.Sprintf("line %d is indented %d", l.line, l.indent))
		}
		e.Msg += fmt.Sprintf(": this line's indentation (%d) matches no block above it (%s)", col-1, strings.Join(parts, ", "))
	}
	return e
}

// level is an open block: the indentation of its keys and the line that
// set it.
type level struct{ indent, line int }

// misindented returns the first line at or after line from-2 (1-based)
// that is deeper than the innermost block open above it although the line
// before opened none, or that goes back to an indentation between two
// open blocks; its first column; and the innermost block it does not line
// up with: the block below it and the one it closes, or the line before
// it. 0 if there is none. Lines inside a block scalar (| or >) or a
// flow collection spread over lines are skipped; a document separator
// closes every block.
func misindented(data []byte, from int) (int, int, []level) {
	var levels []level // the open blocks, by increasing indentation
	opens := false     // the line before opened a block
	var prev level     // the line before: its key's indentation
	scalar := -1       // inside a block scalar of a key at this indentation
	flow := 0          // open [ and { of a flow collection
	for i, raw := range bytes.Split(data, []byte("\n")) {
		n, text := i+1, strings.TrimRight(string(raw), " \r")
		body := strings.TrimLeft(text, " ")
		indent := len(text) - len(body)
		switch {
		case strings.HasPrefix(body, "---"):
			levels, opens, scalar, flow = nil, false, -1, 0
			continue
		case body == "" || body[0] == '#' || scalar >= 0 && indent > scalar:
			continue
		case flow > 0:
			flow += brackets(body)
			continue
		}
		scalar = -1
		var closed level // the innermost block this line closes, if any
		for len(levels) > 0 && levels[len(levels)-1].indent > indent {
			closed, levels = levels[len(levels)-1], levels[:len(levels)-1]
		}
		switch top := len(levels) - 1; {
		case top >= 0 && levels[top].indent < indent && !opens:
			if n >= from-2 { // a deeper line may be read as the scalar above it, and fail a line or two on
				if closed.line == 0 {
					return n, indent + 1, []level{prev} // deeper than the line before
				}
				return n, indent + 1, []level{levels[top], closed}
			}
			levels = append(levels, level{indent, n})
		case top < 0 || levels[top].indent < indent:
			levels = append(levels, level{indent, n})
		}
		for body == "-" || strings.HasPrefix(body, "- ") { // an item's content is a block of its own
			rest := strings.TrimLeft(body[1:], " ")
			indent += len(body) - len(rest)
			body = rest
			if body != "" {
				levels = append(levels, level{indent, n})
			}
		}
		prev = level{indent, n}
		value := body
		if k := strings.Index(body, ": "); k >= 0 {
			value = strings.TrimSpace(body[k+2:])
		} else if strings.HasSuffix(body, ":") {
			value = ""
		}
		if c := strings.Index(value, " #"); c >= 0 {
			value = strings.TrimSpace(value[:c])
		}
		opens = value == "" || value[0] == '&' || value[0] == '!'
		if value != "" && (value[0] == '|' || value[0] == '>') {
			scalar = indent
		}
		flow = brackets(value)
	}
	return 0, 0, nil
}

// brackets is how many more [ and { than ] and } s has.
func brackets(s string) int {
	return strings.Count(s, "[") + strings.Count(s, "{") - strings.Count(s, "]") - strings.Count(s, "}")
}

// firstIndentTab returns the line (1-based, at or after from) and column
// of the first tab in a line's indentation, or 0.
func firstIndentTab(data []byte, from int) (int, int) {
	for i, l := range strings.Split(string(data), "\n") {
		if i+1 < from {
			continue
		}
		for j := 0; j < len(l) && (l[j] == ' ' || l[j] == '\t'); j++ {
			if l[j] == '\t' {
				return i + 1, j + 1
			}
		}
	}
	return 0, 0
}
