package scenarios

import (
	"github.com/podsim/podsim/internal/yamlstrict"
	"go.yaml.in/yaml/v3"
)

// The strict YAML reader lives in internal/yamlstrict; these names keep
// the scenario code and its callers as they were.
type (
	// Pos is a 1-based line and column in a file.
	Pos = yamlstrict.Pos
	// Error is one problem found in a file.
	Error = yamlstrict.Error
	// ErrorList holds every problem found in a file or a suite.
	ErrorList = yamlstrict.ErrorList
	// Positions remembers where each decoded value was written.
	Positions = yamlstrict.Positions
)

// Ignore registers Kubernetes API field names that are accepted and ignored
// on struct type T; see yamlstrict.Ignore.
func Ignore[T any](keys ...string) { yamlstrict.Ignore[T](keys...) }

// Unmodelled registers Kubernetes API field names that are accepted on
// struct type T with a warning saying what is lost; see
// yamlstrict.Unmodelled.
func Unmodelled[T any](lost map[string]string) { yamlstrict.Unmodelled[T](lost) }

func decodeStrict(file string, node *yaml.Node, out any) (*Positions, ErrorList) {
	return yamlstrict.Decode(file, node, out)
}

// NewPositions returns an empty Positions.
func NewPositions() *Positions { return yamlstrict.NewPositions() }

func describeNode(n *yaml.Node) string { return yamlstrict.DescribeNode(n) }
func quoteValue(s string) string       { return yamlstrict.QuoteValue(s) }
func suggestName(name string, candidates []string) string {
	return yamlstrict.SuggestName(name, candidates)
}
func nodePos(n *yaml.Node) Pos { return yamlstrict.NodePos(n) }
func isNull(n *yaml.Node) bool { return yamlstrict.IsNull(n) }
