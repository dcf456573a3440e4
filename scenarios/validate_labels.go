package scenarios

import (
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Label keys and values as the API server checks them
// (k8s.io/apimachinery/pkg/util/validation: IsQualifiedName,
// IsValidLabelValue): a key is a name of at most 63 characters, optionally
// after a DNS subdomain prefix of at most 253 and a slash; a value is
// empty or such a name. Taint keys are keys too.
var (
	qualifiedNamePart = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$`) })
	dnsSubdomain      = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`)
	})
)

// keyProblem says what is wrong with a label or taint key, or "".
func keyProblem(k string) string {
	parts := strings.Split(k, "/")
	name := parts[len(parts)-1]
	switch {
	case len(parts) > 2:
		return "a key is a name, optionally after a prefix and a slash (example.com/my-name), with one slash"
	case len(parts) == 2 && (parts[0] == "" || len(parts[0]) > 253 || !dnsSubdomain().MatchString(parts[0])):
		return "its prefix must be a DNS subdomain (lowercase letters, digits, '-' and '.', at most 253)"
	case name == "" || len(name) > 63 || !qualifiedNamePart().MatchString(name):
		return "its name must be 1 to 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit"
	}
	return ""
}

// labels checks a mapping of labels (at m) as the API server does.
func (v *validator) labels(m *map[string]string) {
	keys := make([]string, 0, len(*m))
	for k := range *m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if p := keyProblem(k); p != "" {
			v.atMapKey(m, k, "label key %s: %s", quoteValue(k), p)
		}
		if val := (*m)[k]; val != "" && (len(val) > 63 || !qualifiedNamePart().MatchString(val)) {
			v.atMapKey(m, k, "label %s: value %s: want at most 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit (or empty)", quoteValue(k), quoteValue(val))
		}
	}
}
