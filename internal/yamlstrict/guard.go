package yamlstrict

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"

	"go.yaml.in/yaml/v3"
)

// MaxFileSize is the largest YAML file podsim reads: 16 MiB, some 500
// times the 150,000-pod envelope scenario. Longer input, /dev/zero or an
// endless pipe included, is refused after reading MaxFileSize+1 bytes.
const MaxFileSize = 16 << 20

// Expansion budget: a document may expand, through aliases (*name) and
// merge keys (<<), to at most ExpansionFactor times its own number of nodes
// plus ExpansionBase nodes, and never more than MaxExpansion. A
// literal document always fits; a few kilobytes of chained anchors cannot
// pass.
const (
	ExpansionFactor = 10
	ExpansionBase   = 1_000_000
	MaxExpansion    = 20_000_000
)

const expansionMessage = "document too large: aliases and merge keys (<<) expand to too many values"

// ReadFile reads a whole file of at most MaxFileSize bytes. Its error is
// an ErrorList naming the file. Anything but a regular file (a named
// pipe, a device, a socket, a folder) is refused before it is opened:
// opening a pipe blocks until a writer comes, and no signal ends it.
func ReadFile(path string) ([]byte, error) {
	f, err := OpenRegular(path)
	if err != nil {
		return nil, ErrorList{{File: path, Msg: ErrText(err)}}
	}
	defer f.Close()
	return ReadAll(path, f, MaxFileSize)
}

// OpenRegular opens path for reading if it is a regular file (through
// symbolic links), and refuses anything else before opening it.
func OpenRegular(path string) (*os.File, error) {
	if err := regular(os.Stat(path)); err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	if err := regular(f.Stat()); err != nil { // replaced since the first look
		f.Close()
		return nil, err
	}
	return f, nil
}

// regular is the error of a file that is not a regular one, if fi is not.
func regular(fi os.FileInfo, err error) error {
	switch {
	case err != nil:
		return err
	case fi.IsDir():
		return errors.New("is a directory")
	case !fi.Mode().IsRegular():
		return fmt.Errorf("not a regular file (%s): podsim reads files, and standard input as -", fileKind(fi.Mode()))
	}
	return nil
}

// fileKind names the type of a file that is not a regular one.
func fileKind(m os.FileMode) string {
	switch {
	case m&os.ModeNamedPipe != 0:
		return "a named pipe"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m&os.ModeCharDevice != 0:
		return "a character device"
	case m&os.ModeDevice != 0:
		return "a device"
	}
	return "mode " + m.Type().String()
}

// ReadAll reads r to its end, or fails once it has more than limit bytes
// (reading limit+1 of them, never more), at the line and column of the
// first byte past the limit. name names the input in the error, an
// ErrorList.
func ReadAll(name string, r io.Reader, limit int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, ErrorList{{File: name, Msg: ErrText(err)}}
	}
	if int64(len(data)) > limit {
		// The position is that of the first byte past the limit.
		line := bytes.Count(data[:limit], []byte{'\n'}) + 1
		col := int(limit) - (bytes.LastIndexByte(data[:limit], '\n') + 1) + 1
		return nil, ErrorList{{File: name, Pos: Pos{Line: line, Col: col}, Msg: "file too large: more than " + sizeText(limit)}}
	}
	return data, nil
}

// sizeText is "16 MiB", "256 MiB" or "1000 bytes".
func sizeText(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return strconv.FormatInt(n>>20, 10) + " MiB"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// ErrText is the text of a file error without the path an os error
// repeats: "no such file or directory", not "open f.yaml: no such ...".
func ErrText(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// ParseOne parses data, which must hold at most one YAML document, into a
// node tree without decoding or expanding anything, and checks its
// expansion. doc is nil for an empty input. The error, an ErrorList,
// reports a syntax error, a second document or a document that expands
// too much.
func ParseOne(path string, data []byte) (doc *yaml.Node, err error) {
	var d yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&d); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil
		}
		return nil, ErrorList{SyntaxErrorIn(path, data, err)}
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		return nil, ErrorList{{File: path, Pos: Pos{extra.Line, extra.Column}, Msg: ErrSecondDocument}}
	}
	if e := CheckExpansion(path, &d); e != nil {
		return nil, ErrorList{*e}
	}
	return &d, nil
}

// ErrSecondDocument is ParseOne's message for a file with several
// documents.
const ErrSecondDocument = "a podsim file holds one YAML document; found another"

// SyntaxError turns a YAML syntax error into a positioned Error.
func SyntaxError(path string, err error) Error {
	msg := err.Error()
	for len(msg) > 6 && msg[:6] == "yaml: " {
		msg = msg[6:]
	}
	if rest, ok := cutPrefix(msg, "line "); ok {
		i := 0
		for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
			i++
		}
		if i > 0 && len(rest) > i+2 && rest[i:i+2] == ": " {
			line, _ := strconv.Atoi(rest[:i])
			return Error{File: path, Pos: Pos{line, 1}, Msg: "invalid YAML: " + rest[i+2:]}
		}
	}
	return Error{File: path, Pos: Pos{1, 1}, Msg: "invalid YAML: " + msg}
}

func cutPrefix(s, p string) (string, bool) {
	if len(s) >= len(p) && s[:len(p)] == p {
		return s[len(p):], true
	}
	return s, false
}

// CountNodes counts the nodes of a tree without following aliases, each
// node once however many parents it has.
func CountNodes(n *yaml.Node) int {
	seen := map[*yaml.Node]bool{}
	var walk func(*yaml.Node) int
	walk = func(n *yaml.Node) int {
		if n == nil || seen[n] {
			return 0
		}
		seen[n] = true
		c := 1
		for _, ch := range n.Content {
			c += walk(ch)
		}
		return c
	}
	return walk(n)
}

// expansionBudget is how many values a document of n's size may expand to.
func expansionBudget(n *yaml.Node) int {
	return min(ExpansionFactor*CountNodes(n)+ExpansionBase, MaxExpansion)
}

// Why our own count: go.yaml.in/yaml/v3 expands merge keys in
// decoder.merge (decode.go) whenever it decodes a mapping into Go values
// (yaml.Unmarshal, Node.Decode), and its alias budget (decoder.unmarshal:
// "excessive aliasing") counts values against a ratio that chained merges
// never exceed, so 2 KB of them run for hours. Parsing into a yaml.Node
// expands nothing. So this package parses into nodes only, checks the
// whole tree here, and hands the library (Node.Decode, for scalars and any
// values) only pieces of a tree that passed.

// CheckExpansion counts the values the document (or node) n expands to
// when every alias is replaced by its anchor's value and every merge key
// (<<) by the mappings it merges, each use counted again, aliases and
// merges together. It returns nil if they fit the budget, else an error at
// the innermost value that overflows it. It takes time linear in the size
// of the tree, however much it would expand.
func CheckExpansion(file string, n *yaml.Node) *Error {
	budget := expansionBudget(n)
	c := expansionCounter{budget: budget, size: map[*yaml.Node]int{}}
	if c.count(n) > budget && c.at != nil {
		return &Error{File: file, Pos: NodePos(c.at), Msg: fmt.Sprintf("%s (more than %d)", expansionMessage, budget)}
	}
	return nil
}

type expansionCounter struct {
	budget int
	size   map[*yaml.Node]int // expanded size, capped at budget+1; -1 while counting
	at     *yaml.Node         // the first node found to expand past the budget
}

// count returns n's expanded size, at most budget+1.
func (c *expansionCounter) count(n *yaml.Node) int {
	if n == nil {
		return 0
	}
	switch s, ok := c.size[n]; {
	case ok && s < 0:
		return 1 // a cycle: the decoder reports it
	case ok:
		return s
	}
	c.size[n] = -1
	total := 1
	if n.Kind == yaml.AliasNode {
		total += c.count(n.Alias)
	}
	for _, ch := range n.Content {
		total = min(total+c.count(ch), c.budget+1)
	}
	total = min(total, c.budget+1)
	if total > c.budget && c.at == nil {
		c.at = n
	}
	c.size[n] = total
	return total
}
