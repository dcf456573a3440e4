package scenarios

import (
	"bytes"
	"errors"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// APIVersion and KindScenario identify a scenario file.
const (
	APIVersion   = "podsim/v1"
	KindScenario = "Scenario"
)

// Scenario is a scenario file that was read, defaulted and validated.
type Scenario struct {
	Path     string
	File     File
	Duration time.Duration // spec.duration, default 1h
	Seed     uint64        // spec.seed, default 1
	pos      *Positions
}

// Pos returns where the value ptr points to was written in the file.
func (s *Scenario) Pos(ptr any) Pos { return s.pos.Of(ptr) }

// Where formats the place of the value ptr points to as "FILE:LINE:COL".
func (s *Scenario) Where(ptr any) string {
	p := s.pos.Of(ptr)
	return s.Path + ":" + p.String()
}

// LoadFile reads, checks and defaults a scenario file. Its error, if any, is
// an ErrorList with every problem found.
func LoadFile(path string) (*Scenario, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, ErrorList{{File: path, Msg: ErrText(err)}}
	}
	return Parse(path, data)
}

// ReadKind returns the kind of a YAML document ("Scenario", "Study", ...)
// without checking the rest, or "" if it has none.
func ReadKind(data []byte) string {
	var head struct {
		Kind string `yaml:"kind"`
	}
	_ = yaml.Unmarshal(data, &head)
	return head.Kind
}

// Parse reads a scenario from data; path names it in messages.
func Parse(path string, data []byte) (*Scenario, error) {
	doc, err := readDocument(path, data, KindScenario)
	if err != nil {
		return nil, err
	}
	return parseDoc(path, doc)
}

// readDocument reads the one YAML document of a podsim/v1 file of the given
// kind ("Scenario", "Study"): not empty, a single document, a mapping at the
// root. Its error, if any, is an ErrorList.
func readDocument(path string, data []byte, kind string) (*yaml.Node, error) {
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, ErrorList{{File: path, Pos: Pos{1, 1}, Msg: "empty file: want a podsim/v1 " + kind}}
		}
		return nil, ErrorList{yamlError(path, err)}
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		return nil, ErrorList{{File: path, Pos: Pos{extra.Line, extra.Column}, Msg: "a " + strings.ToLower(kind) + " file holds one YAML document; found another"}}
	}
	if len(doc.Content) == 0 || doc.Content[0].Tag == "!!null" {
		return nil, ErrorList{{File: path, Pos: Pos{1, 1}, Msg: "empty file: want a podsim/v1 " + kind}}
	}
	if root := doc.Content[0]; root.Kind != yaml.MappingNode {
		return nil, ErrorList{{File: path, Pos: Pos{root.Line, root.Column}, Msg: "want a podsim/v1 " + kind + ": a mapping with apiVersion, kind, metadata and spec"}}
	}
	return &doc, nil
}

// mergeErrors adds the validation errors to the decoding ones, leaving out
// those at a place that already has a decoding error: a value that could not
// be decoded is zero, and saying so again would only confuse.
func mergeErrors(decoding, validation ErrorList) ErrorList {
	bad := map[Pos]bool{}
	for _, e := range decoding {
		bad[e.Pos] = true
	}
	for _, e := range validation {
		if !bad[e.Pos] {
			decoding = append(decoding, e)
		}
	}
	return decoding
}

var yamlLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// yamlError turns a YAML syntax error into a positioned Error.
func yamlError(path string, err error) Error {
	msg := err.Error()
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		return Error{File: path, Pos: Pos{line, 1}, Msg: "invalid YAML: " + m[2]}
	}
	return Error{File: path, Pos: Pos{1, 1}, Msg: "invalid YAML: " + trimYAML(msg)}
}

func trimYAML(s string) string {
	for len(s) > 6 && s[:6] == "yaml: " {
		s = s[6:]
	}
	return s
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
