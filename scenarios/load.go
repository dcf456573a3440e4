package scenarios

import (
	"errors"
	"io"
	"regexp"
	"strings"
	"time"

	"github.com/podsim/podsim/internal/yamlstrict"
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
	root     Pos // where the document's root mapping starts
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
	data, err := ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, data)
}

// ReadFile reads a whole podsim file through the size limit
// (yamlstrict.MaxFileSize). Its error is an ErrorList naming the file.
func ReadFile(path string) ([]byte, error) { return yamlstrict.ReadFile(path) }

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

// Parse reads a scenario from data; path names it in messages.
func Parse(path string, data []byte) (*Scenario, error) {
	doc, err := readDocument(path, data, KindScenario)
	if err != nil {
		return nil, err
	}
	return parseDoc(path, doc)
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
			if m := manifestLine.FindSubmatch(data); m != nil && string(m[1]) != APIVersion {
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
		if v := root.Content[i+1]; v.Kind == yaml.ScalarNode && v.Value != APIVersion && kubernetesAPIVersion.MatchString(v.Value) {
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
var kubernetesAPIVersion = regexp.MustCompile(`^([a-z0-9.-]+/)?v[0-9]+((alpha|beta)[0-9]+)?$`)

// manifestLine finds a Kubernetes apiVersion at the start of a line.
var manifestLine = regexp.MustCompile(`(?m)^apiVersion:[ \t]*["']?(v[0-9]+|[a-z0-9.-]+/v[0-9]+\w*)["']?[ \t]*$`)

// manifestHint says what to do with a Kubernetes manifest given where a
// podsim file was expected.
func manifestHint(apiVersion, objKind, want string) string {
	what := apiVersion
	if objKind != "" {
		what += " " + objKind
	}
	return "this is a Kubernetes manifest (" + what + "), not a podsim/v1 " + want +
		": put its object under spec.pods (a Pod) or spec.workloads (a ReplicaSet, Deployment, Job or DaemonSet) of a scenario (see docs/scenario-format.md)"
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
