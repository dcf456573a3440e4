package manifests

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/podsim/podsim/internal/yamlstrict"
)

// Every field of the Kubernetes types podsim simulates has a treatment:
// modelled (a field of the scenario type), ignored quietly, or accepted
// with a warning. A field of a newer k8s.io/api that nobody classified
// fails here, so that it is decided and documented, not left to the
// generic "podsim does not know this field" warning.
func TestEveryFieldHasATreatment(t *testing.T) {
	var missing []string
	seen := map[[2]reflect.Type]bool{}
	var walk func(k, s reflect.Type, path string)
	walk = func(k, s reflect.Type, path string) {
		for k.Kind() == reflect.Pointer || k.Kind() == reflect.Slice || k.Kind() == reflect.Map {
			k = k.Elem()
		}
		s = scenarioStruct(s)
		if s == nil || k.Kind() != reflect.Struct || reflect.PointerTo(k).Implements(jsonUnmarshaler) || seen[[2]reflect.Type{k, s}] {
			return
		}
		seen[[2]reflect.Type{k, s}] = true
		for _, name := range jsonFields(k).names {
			ft := jsonFields(k).byName[name]
			if st, ok := yamlstrict.FieldType(s, name); ok {
				walk(ft, st, path+"."+name)
				continue
			}
			if ignored, unmodelled, _ := yamlstrict.Treatment(s, name); !ignored && !unmodelled {
				missing = append(missing, path+"."+name+" ("+typeName(k)+", scenario type "+s.Name()+")")
			}
		}
	}
	for g, info := range kinds() {
		if info.as != nil {
			walk(info.typ, info.as, g.apiVersion+" "+g.kind)
		}
	}
	slices.Sort(missing)
	if len(missing) > 0 {
		t.Errorf("fields without a treatment (add them to Ignore or Unmodelled in scenarios/schema.go, and to docs/scenario-format.md):\n  %s", strings.Join(missing, "\n  "))
	}
}
