package scenarios

import (
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/podsim/podsim/internal/yamlstrict"
	"go.yaml.in/yaml/v3"
)

// KindStudy identifies a study file: a what-if sweep over a base scenario.
const KindStudy = "Study"

// StudyFormats are the output formats a study may ask for.
var StudyFormats = []string{"text", "markdown", "csv", "json"}

// StudyFile is a study file as written.
type StudyFile struct {
	APIVersion string    `yaml:"apiVersion"`
	Kind       string    `yaml:"kind"`
	Metadata   Metadata  `yaml:"metadata"`
	Spec       StudySpec `yaml:"spec"`
}

// StudySpec is the body of a study.
type StudySpec struct {
	Scenario   string      `yaml:"scenario"` // the base scenario, relative to the study file
	Seeds      *int        `yaml:"seeds"`    // runs per cell, default 5
	Duration   *Duration   `yaml:"duration"` // overrides the scenario's spec.duration
	Parameters []Parameter `yaml:"parameters"`
	Metrics    []string    `yaml:"metrics"` // default: every metric
	Output     StudyOutput `yaml:"output"`
}

// Parameter is one axis of the grid: a setting or field of the base
// scenario (Path), or several that change together (Paths, each value then
// a list with one item per path), and the values it takes.
type Parameter struct {
	Name   string      `yaml:"name"`
	Path   string      `yaml:"path"`
	Paths  []string    `yaml:"paths"`
	Values []yaml.Node `yaml:"values"`
	Labels []string    `yaml:"labels"`
}

// StudyOutput are the defaults of `podsim sweep`'s -o and --plots, and how
// the plots count.
type StudyOutput struct {
	Format string `yaml:"format"`
	Plots  string `yaml:"plots"` // folder, relative to the working directory
	// Restarts is what the restarts plot counts: RestartsPerPod (the
	// default, as the table's pod.restarts) or RestartsTotal.
	Restarts string `yaml:"restarts"`
}

// The values of a study's output.restarts.
const (
	RestartsPerPod = "perPod" // restarts so far per pod created so far
	RestartsTotal  = "total"  // restarts so far of every pod together
)

// Study is a study file that was read and checked, with the scenario of
// every cell of its grid built and validated.
type Study struct {
	Path     string
	File     StudyFile
	Base     *Scenario // the base scenario as written
	Seeds    int       // runs per cell
	Duration time.Duration
	Params   []string // a name per parameter, for column headers
	Cells    []Cell   // the grid, the first parameter varying slowest; without expectations
	// Source and BaseSource are the bytes of the study file and of the
	// base scenario file, as read.
	Source, BaseSource []byte
	pos                *Positions
}

// Cell is one point of a study's grid.
type Cell struct {
	Labels   []string // the value of each parameter, as written
	Scenario *Scenario
}

// studyLine marks the positions of nodes that a study put into a
// scenario: their line is the study file's plus studyLine, so that errors
// about them point into the study file.
const studyLine = 1 << 24

// LoadStudy reads a study, its base scenario, and builds and validates the
// scenario of every cell. metrics are the known metric names. Its error, if
// any, is an ErrorList with every problem found.
//
// The base scenario's manifests (spec.include) are read through inc, once
// for every cell when inc keeps what it read.
func LoadStudy(path string, metrics []string, inc Includer) (*Study, error) {
	data, err := ReadFile(path)
	if err != nil {
		return nil, err
	}
	doc, err := readDocument(path, data, KindStudy)
	if err != nil {
		return nil, err
	}
	st := &Study{Path: path, Source: data}
	pos, errs := decodeStrict(path, doc, &st.File)
	st.pos = pos
	errs = mergeErrors(errs, st.validate(metrics, nodePos(doc.Content[0])))
	errs.Sort()
	if err := errs.Err(); err != nil {
		return nil, err
	}
	sp := &st.File.Spec
	st.Seeds = 5
	if sp.Seeds != nil {
		st.Seeds = *sp.Seeds
	}
	base := sp.Scenario
	if !filepath.IsAbs(base) {
		base = filepath.Join(filepath.Dir(path), base)
	}
	bdata, err := ReadFile(base)
	if err != nil {
		var list ErrorList
		if errors.As(err, &list) && len(list) == 1 {
			err = errors.New(list[0].Msg)
		}
		return nil, ErrorList{{File: path, Pos: pos.Of(&sp.Scenario), Msg: fmt.Sprintf("scenario %s: %s", base, err.Error())}}
	}
	if k := ReadKind(bdata); k != KindScenario {
		return nil, ErrorList{{File: path, Pos: pos.Of(&sp.Scenario), Msg: fmt.Sprintf("scenario %s is a %q, not a Scenario", base, k)}}
	}
	st.BaseSource = bdata
	bdoc, err := readDocument(base, bdata, KindScenario)
	if err != nil {
		return nil, err
	}
	cells := 1
	for i := range sp.Parameters {
		cells *= len(sp.Parameters[i].Values) // at most MaxCells: validated
	}
	if n := yamlstrict.CountNodes(bdoc); mulSat(cells, n, MaxStudyNodes) > MaxStudyNodes {
		return nil, ErrorList{{File: path, Pos: pos.Of(&sp.Parameters), Msg: fmt.Sprintf("%d cells of a base scenario of %d YAML values: a study builds at most %d values", cells, n, MaxStudyNodes)}}
	}
	if st.Base, err = parseDoc(base, bdoc, inc); err != nil {
		return nil, err
	}
	if err := st.sameTargets(bdoc).Err(); err != nil {
		return nil, err
	}
	if err := st.buildCells(base, bdoc, inc); err != nil {
		return nil, err
	}
	st.Duration = st.Cells[0].Scenario.Duration
	return st, nil
}

func (p *Parameter) paths() []string {
	if p.Path != "" {
		return []string{p.Path}
	}
	return p.Paths
}

func (p *Parameter) name() string {
	if p.Name != "" {
		return p.Name
	}
	return strings.Join(p.paths(), ",")
}

// label is how value j of the parameter is shown.
func (p *Parameter) label(j int) string {
	if p.Labels != nil {
		return p.Labels[j]
	}
	v := &p.Values[j]
	if len(p.paths()) > 1 {
		parts := make([]string, len(v.Content))
		for i, c := range v.Content {
			parts[i] = nodeText(c)
		}
		return strings.Join(parts, ", ")
	}
	return nodeText(v)
}

// nodeText is a value as a short flow-style string: 30s, {uniform: {min: 1s, max: 2s}}.
func nodeText(n *yaml.Node) string {
	if n.Kind == yaml.ScalarNode {
		return n.Value
	}
	c := copyNode(n, 0, map[*yaml.Node]*yaml.Node{})
	setFlow(c)
	out, err := yaml.Marshal(c)
	if err != nil {
		return "?"
	}
	return strings.TrimSpace(string(out))
}

func setFlow(n *yaml.Node) {
	n.Style |= yaml.FlowStyle
	for _, c := range n.Content {
		setFlow(c)
	}
}

// buildCells makes the scenario of every cell: the base document with each
// parameter's value put in at its path, then decoded and validated as any
// scenario file is.
func (s *Study) buildCells(base string, bdoc *yaml.Node, inc Includer) error {
	sp := &s.File.Spec
	for i := range sp.Parameters {
		s.Params = append(s.Params, sp.Parameters[i].name())
	}
	n := 1
	for i := range sp.Parameters {
		n *= len(sp.Parameters[i].Values)
	}
	var errs ErrorList
	seen := map[Error]bool{}
	idx := make([]int, len(sp.Parameters))
	for c := 0; c < n; c++ {
		// The first parameter varies slowest.
		rest := c
		for i := len(sp.Parameters) - 1; i >= 0; i-- {
			k := len(sp.Parameters[i].Values)
			idx[i] = rest % k
			rest /= k
		}
		doc := copyNode(bdoc, 0, map[*yaml.Node]*yaml.Node{})
		dropExpect(doc)
		var cellErrs ErrorList
		cell := Cell{}
		if sp.Duration != nil {
			d := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: sp.Duration.String()}
			p := s.pos.Of(sp.Duration)
			d.Line, d.Column = p.Line+studyLine, p.Col
			s.set(doc, "duration", d, s.pos.KeyOf(sp.Duration), &cellErrs)
		}
		for i := range sp.Parameters {
			p := &sp.Parameters[i]
			v := &p.Values[idx[i]]
			cell.Labels = append(cell.Labels, p.label(idx[i]))
			if paths := p.paths(); len(paths) == 1 {
				s.set(doc, paths[0], v, s.pos.Of(&p.Path), &cellErrs)
			} else if v.Kind == yaml.SequenceNode && len(v.Content) == len(paths) {
				for j, ph := range paths {
					s.set(doc, ph, v.Content[j], s.pos.Of(&p.Paths[j]), &cellErrs)
				}
			}
		}
		{ // even with a bad path: the others' problems are worth reporting
			sc, err := parseDoc(base, doc, inc)
			if err != nil {
				var list ErrorList
				if errors.As(err, &list) {
					cellErrs = append(cellErrs, list...)
				} else {
					cellErrs.Add(base, Pos{}, "%s", err.Error())
				}
			}
			cell.Scenario = sc
		}
		for _, e := range cellErrs {
			if e.Pos.Line >= studyLine {
				e.File, e.Pos.Line = s.Path, e.Pos.Line-studyLine
			}
			if !seen[e] {
				seen[e] = true
				errs = append(errs, e)
			}
		}
		s.Cells = append(s.Cells, cell)
	}
	errs.Sort()
	return errs.Err()
}

// dropExpect removes spec.expect from a scenario document. A sweep checks
// no expectations, so a cell need not meet them: with the study's duration
// it often could not (an expectation at 25m in a 1m run).
func dropExpect(doc *yaml.Node) {
	root := doc
	if root.Kind == yaml.DocumentNode && len(root.Content) > 0 {
		root = root.Content[0]
	}
	if root = resolveAliasChain(root); root == nil || root.Kind != yaml.MappingNode {
		return
	}
	i := findKey(root, "spec")
	if i < 0 {
		return
	}
	if spec := resolveAliasChain(root.Content[i+1]); spec != nil && spec.Kind == yaml.MappingNode {
		if j := findKey(spec, "expect"); j >= 0 {
			spec.Content = slices.Delete(spec.Content, j, j+2)
		}
	}
}

// copyNode deep-copies a YAML tree, adding lineOffset to every line;
// aliases point into the copy.
func copyNode(n *yaml.Node, lineOffset int, done map[*yaml.Node]*yaml.Node) *yaml.Node {
	if n == nil {
		return nil
	}
	if c, ok := done[n]; ok {
		return c
	}
	c := *n
	c.Line += lineOffset
	done[n] = &c
	c.Content = make([]*yaml.Node, len(n.Content))
	for i, ch := range n.Content {
		c.Content[i] = copyNode(ch, lineOffset, done)
	}
	if n.Alias != nil {
		c.Alias = copyNode(n.Alias, lineOffset, done)
	}
	return &c
}

// pathStep is one step of a parameter path: a field, or a list item by
// index or by name.
type pathStep struct {
	field string
	index int    // with sel: -1 unless selected by index
	name  string // with sel: the item's metadata.name or name
	sel   bool
}

var pathSegment = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([A-Za-z][A-Za-z0-9_]*)((?:\[[^\[\]]+\])*)$`) })

// parsePath splits "workloads[api].spec.replicas" into steps. A leading
// "spec." is optional: paths are within the scenario's spec.
func parsePath(path string) ([]pathStep, error) {
	p := strings.TrimPrefix(path, "spec.")
	if p == "" {
		return nil, fmt.Errorf("empty path")
	}
	var steps []pathStep
	for _, seg := range strings.Split(p, ".") {
		m := pathSegment().FindStringSubmatch(seg)
		if m == nil {
			return nil, fmt.Errorf("invalid path %q: want fields separated by dots, each with optional [index] or [name], e.g. workloads[api].spec.replicas", path)
		}
		steps = append(steps, pathStep{field: m[1]})
		for _, sel := range strings.Split(strings.Trim(m[2], "[]"), "][") {
			if sel == "" {
				continue
			}
			st := pathStep{sel: true, index: -1}
			if i, err := strconv.Atoi(sel); err == nil {
				if i < 0 {
					return nil, fmt.Errorf("invalid path %q: index %d is negative", path, i)
				}
				st.index = i
			} else {
				st.name = sel
			}
			steps = append(steps, st)
		}
	}
	return steps, nil
}

// set puts a copy of value at path in the scenario document doc. Fields that
// are missing on the way are added (the decoder then checks their names);
// list items must exist. Problems are reported at where (the path in the
// study file).
func (s *Study) set(doc *yaml.Node, path string, value *yaml.Node, where Pos, errs *ErrorList) {
	steps, err := parsePath(path)
	if err != nil {
		errs.Add(s.Path, where, "%s", err.Error())
		return
	}
	fail := func(format string, args ...any) {
		errs.Add(s.Path, where, "path %s: %s", path, fmt.Sprintf(format, args...))
	}
	cur := doc
	if cur.Kind == yaml.DocumentNode && len(cur.Content) > 0 {
		cur = cur.Content[0]
	}
	steps = append([]pathStep{{field: "spec"}}, steps...)
	val := copyNode(value, studyLine, map[*yaml.Node]*yaml.Node{})
	if value.Line >= studyLine { // made by the study itself
		val = copyNode(value, 0, map[*yaml.Node]*yaml.Node{})
	}
	walked := ""
	for i, st := range steps {
		last := i == len(steps)-1
		cur = resolveAliasChain(cur)
		if cur == nil {
			fail("%s is an alias that goes nowhere", walked)
			return
		}
		if !st.sel {
			if walked != "" {
				walked += "."
			}
			walked += st.field
			if cur.Kind != yaml.MappingNode {
				fail("%s is not a mapping", strings.TrimSuffix(strings.TrimSuffix(walked, st.field), "."))
				return
			}
			var next *yaml.Node
			for j := 0; j+1 < len(cur.Content); j += 2 {
				if k := resolveAliasChain(cur.Content[j]); k != nil && k.Value == st.field {
					next = cur.Content[j+1]
					if last {
						cur.Content[j+1] = val
						return
					}
				}
			}
			if next == nil || isNull(next) {
				if !last && steps[i+1].sel {
					fail("%s has no list items to select from", walked)
					return
				}
				key := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: st.field, Line: where.Line + studyLine, Column: where.Col}
				if last {
					next = val
				} else {
					next = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: where.Line + studyLine, Column: where.Col}
				}
				if old := findKey(cur, st.field); old >= 0 {
					cur.Content[old+1] = next
				} else {
					cur.Content = append(cur.Content, key, next)
				}
				if last {
					return
				}
			}
			cur = next
			continue
		}
		if cur.Kind != yaml.SequenceNode {
			fail("%s is not a list", walked)
			return
		}
		var item = -1
		if st.index >= 0 {
			if st.index >= len(cur.Content) {
				fail("%s has %d items; there is no [%d]", walked, len(cur.Content), st.index)
				return
			}
			item = st.index
			walked += "[" + strconv.Itoa(st.index) + "]"
		} else {
			for j, it := range cur.Content {
				if itemName(it) == st.name {
					item = j
					break
				}
			}
			if item < 0 {
				fail("%s has no item named %q", walked, st.name)
				return
			}
			walked += "[" + st.name + "]"
		}
		if last {
			cur.Content[item] = val
			return
		}
		cur = cur.Content[item]
	}
}

func findKey(m *yaml.Node, key string) int {
	for j := 0; j+1 < len(m.Content); j += 2 {
		if k := resolveAliasChain(m.Content[j]); k != nil && k.Value == key {
			return j
		}
	}
	return -1
}

// itemName is a list item's metadata.name, or its name.
func itemName(n *yaml.Node) string {
	n = resolveAliasChain(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return ""
	}
	if i := findKey(n, "metadata"); i >= 0 {
		if md := resolveAliasChain(n.Content[i+1]); md != nil && md.Kind == yaml.MappingNode {
			if j := findKey(md, "name"); j >= 0 {
				return md.Content[j+1].Value
			}
		}
	}
	if i := findKey(n, "name"); i >= 0 {
		return n.Content[i+1].Value
	}
	return ""
}
