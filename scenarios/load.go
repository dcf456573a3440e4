package scenarios

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/podsim/podsim/internal/yamlstrict"
	"go.yaml.in/yaml/v3"
)

// APIVersion and KindScenario identify a scenario file.
const (
	APIVersion   = "podsim/v1"
	KindScenario = "Scenario"
)

// Scenario is a scenario file that was read, defaulted and validated, with
// the Kubernetes objects of the manifests it includes.
type Scenario struct {
	Path     string
	File     File
	Duration time.Duration // spec.duration, default 1h
	Seed     uint64        // spec.seed, default 1
	// Warnings are what does not stop a run but changes what Kubernetes
	// would do: fields and kinds accepted and not simulated, each as
	// "FILE:LINE:COL: warning: ...", in the order of the files.
	Warnings ErrorList

	pos       *Positions
	root      Pos          // where the document's root mapping starts
	sources   []Source     // the manifests included, for positions
	nodes     []*Node      // spec.nodes, then the included Nodes
	instant   time.Time    // the latest time the included objects hold (Objects.Instant)
	pods      []*Pod       // spec.pods, then the included pods
	workloads []*Workload  // spec.workloads, then the included workloads
	undecoded map[Pos]bool // where a value could not be decoded (it is zero)
}

// Pos returns where the value ptr points to was written in the scenario
// file (zero for a value of an included manifest).
func (s *Scenario) Pos(ptr any) Pos { return s.pos.Of(ptr) }

// Where formats the place of the value ptr points to as "FILE:LINE:COL":
// in the scenario file or in the manifest it was included from.
func (s *Scenario) Where(ptr any) string {
	file, p := s.locate(ptr, false)
	return file + ":" + p.String()
}

// locate returns the file and the place of the value ptr points to (of
// the key it was written under, with key, where there is one); a zero Pos
// if unknown.
func (s *Scenario) locate(ptr any, key bool) (string, Pos) {
	if key {
		if p := s.pos.KeyOf(ptr); !p.IsZero() {
			return s.Path, p
		}
		for i := range s.sources {
			if p := s.sources[i].Pos.KeyOf(ptr); !p.IsZero() {
				return s.sources[i].Path, p
			}
		}
	}
	if p := s.pos.Of(ptr); !p.IsZero() {
		return s.Path, p
	}
	for i := range s.sources {
		if p := s.sources[i].Pos.Of(ptr); !p.IsZero() {
			return s.sources[i].Path, p
		}
	}
	return s.Path, Pos{}
}

// locateMapKey is locate for the key of a map entry.
func (s *Scenario) locateMapKey(m any, key string) (string, Pos) {
	if p := s.pos.OfMapKey(m, key); !p.IsZero() {
		return s.Path, p
	}
	for i := range s.sources {
		if p := s.sources[i].Pos.OfMapKey(m, key); !p.IsZero() {
			return s.sources[i].Path, p
		}
	}
	return s.Path, Pos{}
}

// Nodes returns the node entries: the scenario's own, then the Nodes of
// the manifests it includes.
func (s *Scenario) Nodes() []*Node { return s.nodes }

// Pods returns the bare pods: the scenario's own, then those of the
// manifests it includes.
func (s *Scenario) Pods() []*Pod { return s.pods }

// Workloads returns the workloads: the scenario's own, then those of the
// manifests it includes.
func (s *Scenario) Workloads() []*Workload { return s.workloads }

// Sources returns the paths of the manifest files the scenario includes,
// in the order read.
func (s *Scenario) Sources() []string {
	out := make([]string, len(s.sources))
	for i := range s.sources {
		out[i] = s.sources[i].Path
	}
	return out
}

// An Includer reads Kubernetes manifests into the scenario's own types: a
// file (YAML documents, a v1 List, JSON) or a folder of them, as kubectl
// apply -f reads it. Package manifests implements it; this package knows
// nothing of the Kubernetes API types. Include's error is an ErrorList:
// problems in a manifest at its line and column, and without a position
// those of the path itself (a missing file), which the scenario reports
// at the entry of spec.include that named it.
type Includer interface {
	Include(path string) (*Objects, error)
}

// Objects are the Kubernetes objects of manifests that podsim simulates,
// in the scenario's own types.
type Objects struct {
	Nodes     []*Node // a cluster's Nodes (schema_snapshot.go)
	Pods      []*Pod
	Workloads []*Workload
	// Instant is the latest time the objects hold (a Node's heartbeat, a
	// container's start): the instant of a snapshot, zero if none.
	Instant  time.Time
	Sources  []Source  // the files they were read from
	Warnings ErrorList // kinds and fields accepted and not simulated
}

// Source is a manifest file and where each value read from it was written.
type Source struct {
	Path string
	Pos  *Positions
}

// add appends objs to the scenario's objects.
func (s *Scenario) add(objs *Objects) {
	s.nodes = append(s.nodes, objs.Nodes...)
	if objs.Instant.After(s.instant) {
		s.instant = objs.Instant
	}
	s.pods = append(s.pods, objs.Pods...)
	s.workloads = append(s.workloads, objs.Workloads...)
	s.sources = append(s.sources, objs.Sources...)
	s.Warnings = append(s.Warnings, objs.Warnings...)
}

// include reads the manifests of spec.include through inc, paths relative
// to the scenario file, after the scenario's own pods and workloads.
func (s *Scenario) include(inc Includer) ErrorList {
	sp := &s.File.Spec
	for i := range sp.Nodes {
		s.nodes = append(s.nodes, &sp.Nodes[i])
	}
	for i := range sp.Pods {
		s.pods = append(s.pods, &sp.Pods[i])
	}
	for i := range sp.Workloads {
		s.workloads = append(s.workloads, &sp.Workloads[i])
	}
	var errs ErrorList
	for i := range sp.Include {
		ref := &sp.Include[i]
		at := s.pos.Of(ref)
		switch {
		case *ref == "":
			errs.Add(s.Path, at, "include: want the path of a manifest file or folder")
			continue
		case inc == nil:
			errs.Add(s.Path, at, "include %s: manifests are not read here (read the scenario with package manifests)", *ref)
			continue
		}
		path := *ref
		if !filepath.IsAbs(path) {
			path = filepath.Join(filepath.Dir(s.Path), path)
		}
		objs, err := inc.Include(path)
		if err != nil {
			var list ErrorList
			if !errors.As(err, &list) {
				list = ErrorList{{Msg: err.Error()}}
			}
			for _, e := range list {
				if e.Pos.IsZero() {
					e = Error{File: s.Path, Pos: at, Msg: "include " + *ref + ": " + e.Msg}
				}
				errs = append(errs, e)
			}
			continue
		}
		s.add(objs)
	}
	return errs
}

// FromObjects returns the scenario of Kubernetes objects run as they are:
// named name, on the default cluster (one node, DefaultNodeName), every
// process healthy, for the default duration (1h) and seed (1). path names
// the manifests in messages. Its error, if any, is an ErrorList.
func FromObjects(path, name string, objs *Objects) (*Scenario, error) {
	s := &Scenario{Path: path, root: Pos{Line: 1, Col: 1}, pos: NewPositions(),
		File: File{APIVersion: APIVersion, Kind: KindScenario, Metadata: Metadata{Name: name}}}
	s.add(objs)
	errs := s.validate()
	errs.Sort()
	if err := errs.Err(); err != nil {
		return nil, err
	}
	s.setDefaults()
	return s, nil
}

// LoadFile reads, checks and defaults a scenario file (without manifests:
// see Parse). Its error, if any, is an ErrorList with every problem found.
func LoadFile(path string) (*Scenario, error) {
	data, err := ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, data)
}

// ReadFile reads a whole podsim file through the size limit
// (yamlstrict.MaxFileSize). Its error is an ErrorList naming the file.
func ReadFile(path string) ([]byte, error) { return yamlstrict.ReadFile(path) }

// OpenRegular opens a file for reading if it is a regular one (a named
// pipe, a device or a folder is refused before it is opened).
func OpenRegular(path string) (*os.File, error) { return yamlstrict.OpenRegular(path) }

// ReadAll reads a whole podsim file from r (standard input) through the
// same size limit; name names it in the error.
func ReadAll(name string, r io.Reader) ([]byte, error) {
	return yamlstrict.ReadAll(name, r, yamlstrict.MaxFileSize)
}

// ReadKind returns the kind of a YAML document ("Scenario", "Study", ...)
// without checking the rest, or "" if it has none or cannot be read.
func ReadKind(data []byte) string {
	doc, err := yamlstrict.ParseOne("", data)
	if err != nil || doc == nil || len(doc.Content) == 0 {
		return ""
	}
	root := resolveAliasChain(doc.Content[0])
	if root == nil || root.Kind != yaml.MappingNode {
		return ""
	}
	if i := findKey(root, "kind"); i >= 0 {
		if k := resolveAliasChain(root.Content[i+1]); k != nil && k.Kind == yaml.ScalarNode {
			return k.Value
		}
	}
	return ""
}

// Parse reads a scenario from data; path names it in messages. It reads
// no manifests: a scenario with spec.include is refused (ParseIncluding
// reads them).
func Parse(path string, data []byte) (*Scenario, error) { return ParseIncluding(path, data, nil) }

// ParseIncluding reads a scenario from data, and the manifests of its
// spec.include through inc; path names it in messages, and include paths
// are relative to it.
func ParseIncluding(path string, data []byte, inc Includer) (*Scenario, error) {
	doc, err := readDocument(path, data, KindScenario)
	if err != nil {
		return nil, err
	}
	return parseDoc(path, doc, inc)
}

// parseDoc decodes and validates a scenario document, and reads the
// manifests it includes through inc, like ParseIncluding.
func parseDoc(path string, doc *yaml.Node, inc Includer) (*Scenario, error) {
	s := &Scenario{Path: path, root: Pos{Line: 1, Col: 1}}
	if doc.Kind == yaml.DocumentNode && len(doc.Content) > 0 {
		s.root = nodePos(doc.Content[0])
	}
	pos, errs := decodeStrict(path, doc, &s.File)
	s.pos = pos
	s.Warnings = pos.Warnings()
	incErrs := s.include(inc)
	incErrs = append(incErrs, s.readCreates(inc)...)
	if len(incErrs) > 0 {
		// Without its manifests, the scenario's references to their
		// objects would only add noise.
		errs = append(errs, incErrs...)
	} else {
		s.undecoded = map[Pos]bool{}
		for _, e := range errs {
			s.undecoded[e.Pos] = true
		}
		errs = mergeErrors(errs, s.validate())
	}
	errs.Sort()
	if err := errs.Err(); err != nil {
		return nil, err
	}
	s.setDefaults()
	return s, nil
}

// setDefaults sets the duration and seed the file leaves out.
func (s *Scenario) setDefaults() {
	s.Duration = time.Hour
	if d := s.File.Spec.Duration; d != nil {
		s.Duration = d.D()
	}
	s.Seed = 1
	if s.File.Spec.Seed != nil {
		s.Seed = *s.File.Spec.Seed
	}
}

// readDocument reads the one YAML document of a podsim/v1 file of the given
// kind ("Scenario", "Study") through the guarded reader: not empty, a
// single document that does not expand past the budget, a mapping at the
// root. Its error, if any, is an ErrorList.
func readDocument(path string, data []byte, kind string) (*yaml.Node, error) {
	doc, err := yamlstrict.ParseOne(path, data)
	if err != nil {
		var list ErrorList
		if errors.As(err, &list) && len(list) == 1 && list[0].Msg == yamlstrict.ErrSecondDocument {
			list[0].Msg = "a " + strings.ToLower(kind) + " file holds one YAML document; found another"
			if m := manifestLine().FindSubmatch(data); m != nil && string(m[1]) != APIVersion {
				list[0].Msg += "; " + manifestHint(string(m[1]), "", kind)
			}
		}
		return nil, err
	}
	if doc == nil || len(doc.Content) == 0 || doc.Content[0].Tag == "!!null" {
		return nil, ErrorList{{File: path, Pos: Pos{Line: 1, Col: 1}, Msg: "empty file: want a podsim/v1 " + kind}}
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, ErrorList{{File: path, Pos: Pos{Line: root.Line, Col: root.Column}, Msg: "want a podsim/v1 " + kind + ": a mapping with apiVersion, kind, metadata and spec"}}
	}
	if i := findKey(root, "apiVersion"); i >= 0 {
		if v := root.Content[i+1]; v.Kind == yaml.ScalarNode && v.Value != APIVersion && kubernetesAPIVersion().MatchString(v.Value) {
			objKind := ""
			if j := findKey(root, "kind"); j >= 0 {
				objKind = root.Content[j+1].Value
			}
			return nil, ErrorList{{File: path, Pos: Pos{Line: v.Line, Col: v.Column}, Msg: manifestHint(v.Value, objKind, kind)}}
		}
	}
	return doc, nil
}

// kubernetesAPIVersion matches a Kubernetes apiVersion: v1, apps/v1,
// batch/v1, networking.k8s.io/v1, autoscaling/v2beta1, ...
var kubernetesAPIVersion = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([a-z0-9.-]+/)?v[0-9]+((alpha|beta)[0-9]+)?$`) })

// manifestLine finds a Kubernetes apiVersion at the start of a line.
var manifestLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^apiVersion:[ \t]*["']?(v[0-9]+|[a-z0-9.-]+/v[0-9]+\w*)["']?[ \t]*$`)
})

// manifestHint says what to do with a Kubernetes manifest given where a
// podsim file was expected.
func manifestHint(apiVersion, objKind, want string) string {
	what := apiVersion
	if objKind != "" {
		what += " " + objKind
	}
	return "this is a Kubernetes manifest (" + what + "), not a podsim/v1 " + want +
		": run it directly or list it under spec.include of a scenario (see docs/scenario-format.md)"
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

// ErrText is the text of a file error without the path an os error
// repeats: "no such file or directory", not "open f.yaml: no such ...".
func ErrText(err error) string { return yamlstrict.ErrText(err) }
