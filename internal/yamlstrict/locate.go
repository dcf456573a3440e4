package yamlstrict

import (
	"math"
	"reflect"

	"go.yaml.in/yaml/v3"
)

// Pair is a key and its value in a YAML mapping.
type Pair struct{ Key, Value *yaml.Node }

// Pairs returns the key/value pairs of mapping n as Decode sees them:
// aliases in keys resolved, merge keys (<<) expanded (keys written in n
// first and winning over merged ones; among merged mappings, earlier
// ones win). A bad merge is reported, as FILE:LINE:COL, in the list.
// The caller checks the expansion of the whole document first
// (CheckExpansion).
func Pairs(file string, n *yaml.Node) ([]Pair, ErrorList) {
	d := &decoder{file: file, active: map[*yaml.Node]bool{}, limit: math.MaxInt}
	ps := d.mappingPairs(n)
	out := make([]Pair, len(ps))
	for i, p := range ps {
		out[i] = Pair{d.resolveAlias(p.key), p.val}
	}
	return out, d.errs
}

// Locate records in p where each part of the value ptr points to was
// written, as Decode would have, given node, the YAML it was made from:
// struct fields are matched to mapping keys by their yaml names, list
// items by index, map entries by key. It is for values built from a YAML
// tree by other means than Decode (converted from another type): fields
// with no counterpart in node keep no position. It never fails.
func (p *Positions) Locate(node *yaml.Node, ptr any) {
	rv := reflect.ValueOf(ptr)
	if p == nil || !rv.IsValid() || rv.Kind() != reflect.Pointer || rv.IsNil() {
		return
	}
	l := locator{pos: p, active: map[*yaml.Node]bool{}}
	l.locate(node, rv.Elem())
}

type locator struct {
	pos    *Positions
	active map[*yaml.Node]bool
}

func (l *locator) locate(n *yaml.Node, v reflect.Value) {
	if n == nil {
		return
	}
	if n.Kind == yaml.DocumentNode {
		if len(n.Content) == 0 {
			return
		}
		n = n.Content[0]
	}
	site := NodePos(n)
	for n.Kind == yaml.AliasNode {
		if n.Alias == nil || l.active[n] {
			return
		}
		l.active[n] = true
		defer delete(l.active, n)
		n = n.Alias
	}
	l.pos.record(l.pos.vals, v, site)
	for v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return
		}
		v = v.Elem()
		l.pos.record(l.pos.vals, v, site)
	}
	t := v.Type()
	if t == nodeType || t == nodePtrType {
		return
	}
	switch v.Kind() {
	case reflect.Struct:
		if n.Kind != yaml.MappingNode {
			return
		}
		info := getStructInfo(t)
		for _, path := range info.inlines {
			l.pos.record(l.pos.vals, v.FieldByIndex(path), site)
		}
		pairs, _ := Pairs("", n)
		for _, pr := range pairs {
			if pr.Key == nil || pr.Key.Kind != yaml.ScalarNode {
				continue
			}
			if i, ok := info.byName[pr.Key.Value]; ok {
				fv := v.FieldByIndex(info.fields[i].index)
				l.pos.record(l.pos.keys, fv, NodePos(pr.Key))
				l.locate(pr.Value, fv)
			}
		}
	case reflect.Slice, reflect.Array:
		if n.Kind != yaml.SequenceNode {
			return
		}
		for i := 0; i < v.Len() && i < len(n.Content); i++ {
			l.locate(n.Content[i], v.Index(i))
		}
	case reflect.Map:
		if n.Kind != yaml.MappingNode || v.IsNil() || t.Key().Kind() != reflect.String {
			return
		}
		pairs, _ := Pairs("", n)
		for _, pr := range pairs {
			if pr.Key == nil || pr.Key.Kind != yaml.ScalarNode {
				continue
			}
			k := mapEntryKey{v.UnsafePointer(), pr.Key.Value}
			if !v.MapIndex(reflect.ValueOf(pr.Key.Value).Convert(t.Key())).IsValid() {
				continue
			}
			l.pos.mapKeys[k] = NodePos(pr.Key)
			l.pos.mapVals[k] = NodePos(pr.Value)
		}
	}
}
