package manifests

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/podsim/podsim/internal/yamlstrict"
	"go.yaml.in/yaml/v3"
)

// checker walks the YAML of one Kubernetes object beside its Go type from
// k8s.io/api, as the API server's strict decoding would: a field the type
// does not have is an error, and so is a value of the wrong kind. Beside a
// simulated object it also walks the scenario type the object becomes,
// and warns where a field is accepted but not simulated (the treatment
// registered in package scenarios with Ignore and Unmodelled).
type checker struct {
	file   string
	errs   ErrorList
	warns  ErrorList
	active map[*yaml.Node]bool // aliases being followed
}

var jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()

// check walks n, a value of Go type t; s is the scenario type it becomes
// (nil where nothing is simulated below this point).
func (c *checker) check(n *yaml.Node, t, s reflect.Type) {
	for n.Kind == yaml.AliasNode {
		if n.Alias == nil || c.active[n] {
			c.errs.Add(c.file, yamlstrict.NodePos(n), "anchor %q refers to itself", n.Value)
			return
		}
		c.active[n] = true
		defer delete(c.active, n)
		n = n.Alias
	}
	if yamlstrict.IsNull(n) {
		return // null is the zero value, as for the API server
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if s != nil {
		s = scenarioStruct(s)
	}
	if reflect.PointerTo(t).Implements(jsonUnmarshaler) {
		c.leaf(n, t)
		return
	}
	switch t.Kind() {
	case reflect.Struct:
		c.object(n, t, s)
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 { // []byte: base64 text
			c.scalar(n, reflect.TypeFor[string]())
			return
		}
		if n.Kind != yaml.SequenceNode {
			c.errorf(n, "expected a list, found %s", yamlstrict.DescribeNode(n))
			return
		}
		for _, item := range n.Content {
			c.check(item, t.Elem(), s)
		}
	case reflect.Map:
		if n.Kind != yaml.MappingNode {
			c.errorf(n, "expected a mapping, found %s", yamlstrict.DescribeNode(n))
			return
		}
		seen := map[string]yamlstrict.Pos{}
		for _, p := range c.pairs(n) {
			if _, ok := c.key(p.Key, seen, "key"); ok {
				c.check(p.Value, t.Elem(), nil) // every map of the API has string keys
			}
		}
	case reflect.Interface:
	default:
		c.scalar(n, t)
	}
}

// object checks a mapping against struct type t (and scenario type s).
func (c *checker) object(n *yaml.Node, t, s reflect.Type) {
	if n.Kind != yaml.MappingNode {
		c.errorf(n, "expected a mapping, found %s", yamlstrict.DescribeNode(n))
		return
	}
	fields := jsonFields(t)
	seen := map[string]yamlstrict.Pos{}
	for _, p := range c.pairs(n) {
		key, ok := c.key(p.Key, seen, "field")
		if !ok {
			continue
		}
		ft, ok := fields.byName[key]
		if !ok {
			msg := fmt.Sprintf("unknown field %q in %s", key, typeName(t))
			if why := removedFields[fieldOf{t, key}]; why != "" {
				c.errs.Add(c.file, yamlstrict.NodePos(p.Key), "%s: %s", msg, why)
				continue
			}
			if sug := yamlstrict.SuggestName(key, fields.names); sug != "" {
				msg += fmt.Sprintf("; did you mean %q?", sug)
			}
			c.errs.Add(c.file, yamlstrict.NodePos(p.Key), "%s", msg)
			continue
		}
		var child reflect.Type
		if s != nil {
			if st, modelled := yamlstrict.FieldType(s, key); modelled {
				child = st
			} else if ignored, unmodelled, lost := yamlstrict.Treatment(s, key); unmodelled {
				c.warns.Add(c.file, yamlstrict.NodePos(p.Key), "%s", yamlstrict.UnmodelledMessage(key, lost))
			} else if !ignored {
				// Every field of the types podsim simulates is listed
				// (a test checks it); a newer API field gets a warning.
				c.warns.Add(c.file, yamlstrict.NodePos(p.Key), "%s", yamlstrict.UnmodelledMessage(key, "podsim does not know this field"))
			}
		}
		c.check(p.Value, ft, child)
	}
}

// leaf checks a value whose Go type decodes itself from JSON (a quantity,
// an int-or-string, a time) by decoding it.
func (c *checker) leaf(n *yaml.Node, t reflect.Type) {
	v, err := toJSON(c.file, n)
	if err != nil {
		c.errs = append(c.errs, err...)
		return
	}
	data, merr := json.Marshal(v)
	if merr == nil {
		merr = reflect.New(t).Interface().(json.Unmarshaler).UnmarshalJSON(data)
	}
	if merr != nil {
		c.errorf(n, "%s: %s", yamlstrict.QuoteValue(n.Value), strings.TrimPrefix(merr.Error(), "json: "))
	}
}

// scalar checks that a scalar node fits Go type t as JSON would take it:
// a string is not a number, a boolean or a mapping, an integer fits.
func (c *checker) scalar(n *yaml.Node, t reflect.Type) {
	if n.Kind != yaml.ScalarNode {
		c.errorf(n, "expected %s, found %s", want(t), yamlstrict.DescribeNode(n))
		return
	}
	tag := n.ShortTag()
	ok := true
	switch t.Kind() {
	case reflect.String:
		ok = tag != "!!int" && tag != "!!float" && tag != "!!bool"
		if !ok {
			c.errorf(n, "expected a string, found %s (quote it: %q)", yamlstrict.DescribeNode(n), n.Value)
			return
		}
	case reflect.Bool:
		ok = tag == "!!bool"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		_, err := strconv.ParseInt(intText(n), 0, t.Bits())
		ok = tag == "!!int" && err == nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		_, err := strconv.ParseUint(intText(n), 0, t.Bits())
		ok = tag == "!!int" && err == nil
	case reflect.Float32, reflect.Float64:
		ok = tag == "!!int" || tag == "!!float"
	}
	if !ok {
		c.errorf(n, "cannot use %s as %s", yamlstrict.DescribeNode(n), want(t))
	}
}

// intText is an integer's text as strconv reads it (0o17 for YAML's 0o17,
// no underscores).
func intText(n *yaml.Node) string { return strings.ReplaceAll(n.Value, "_", "") }

func want(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean (true or false)"
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Uint8, reflect.Uint16, reflect.Uint32:
		return fmt.Sprintf("an integer of %d bits", t.Bits())
	case reflect.Int, reflect.Int64, reflect.Uint, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	}
	return "a " + t.Kind().String()
}

func (c *checker) errorf(n *yaml.Node, format string, args ...any) {
	c.errs.Add(c.file, yamlstrict.NodePos(n), format, args...)
}

// pairs returns a mapping's pairs with merge keys (<<) expanded.
func (c *checker) pairs(n *yaml.Node) []yamlstrict.Pair {
	pairs, errs := yamlstrict.Pairs(c.file, n)
	c.errs = append(c.errs, errs...)
	return pairs
}

// key returns a mapping key's text, reporting a key that is not a scalar
// or that is repeated (what names it: "field", "key").
func (c *checker) key(k *yaml.Node, seen map[string]yamlstrict.Pos, what string) (string, bool) {
	if k == nil || k.Kind != yaml.ScalarNode {
		if k != nil {
			c.errorf(k, "expected a key, found %s", yamlstrict.DescribeNode(k))
		}
		return "", false
	}
	if first, dup := seen[k.Value]; dup {
		c.errorf(k, "duplicate %s %q (already set at %s)", what, k.Value, first)
		return "", false
	}
	seen[k.Value] = yamlstrict.NodePos(k)
	return k.Value, true
}

var (
	yamlNode        = reflect.TypeFor[yaml.Node]()
	yamlUnmarshaler = reflect.TypeFor[yaml.Unmarshaler]()
)

// scenarioStruct strips pointers, slices and maps from a scenario type
// down to the struct whose fields say what is simulated, or nil where
// nothing below is read: a raw YAML node (a probe's handler) or a value
// that decodes itself (a quantity).
func scenarioStruct(t reflect.Type) reflect.Type {
	for {
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
			t = t.Elem()
		case reflect.Struct:
			if t == yamlNode || reflect.PointerTo(t).Implements(yamlUnmarshaler) {
				return nil
			}
			return t
		default:
			return nil
		}
	}
}

func typeName(t reflect.Type) string {
	if t.PkgPath() == ownTypes {
		// A NodePool's types (nodepool.go), named as karpenter's v1.
		return "v1." + strings.ToUpper(t.Name()[:1]) + t.Name()[1:]
	}
	if p := t.PkgPath(); p != "" {
		return p[strings.LastIndexByte(p, '/')+1:] + "." + t.Name() // v1.Container
	}
	return t.String()
}

// ownTypes is this package's path: the Go types of the kinds k8s.io/api
// does not have.
var ownTypes = reflect.TypeFor[nodePool]().PkgPath()

// structFields are a struct type's JSON field names and their types.
type structFields struct {
	byName map[string]reflect.Type
	names  []string // in declaration order, for suggestions
}

var fieldCache sync.Map // reflect.Type -> *structFields

// jsonFields lists the JSON fields of struct type t as encoding/json reads
// them, embedded structs (json:",inline" or untagged) flattened.
func jsonFields(t reflect.Type) *structFields {
	if f, ok := fieldCache.Load(t); ok {
		return f.(*structFields)
	}
	f := &structFields{byName: map[string]reflect.Type{}}
	var add func(reflect.Type)
	add = func(t reflect.Type) {
		for i := range t.NumField() {
			sf := t.Field(i)
			tag := sf.Tag.Get("json")
			name, _, _ := strings.Cut(tag, ",")
			if tag == "-" || (!sf.IsExported() && !sf.Anonymous) {
				continue
			}
			if sf.Anonymous && name == "" {
				ft := sf.Type
				if ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if ft.Kind() == reflect.Struct {
					add(ft)
					continue
				}
			}
			if name == "" {
				name = sf.Name
			}
			if _, dup := f.byName[name]; !dup {
				f.byName[name] = sf.Type
				f.names = append(f.names, name)
			}
		}
	}
	add(t)
	v, _ := fieldCache.LoadOrStore(t, f)
	return v.(*structFields)
}
