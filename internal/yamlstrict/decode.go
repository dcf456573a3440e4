// Package yamlstrict is the one guarded reader of podsim's YAML files:
// scenarios, studies and manifests. It reads a file through a size limit,
// parses one document, refuses documents whose aliases and merge keys (<<)
// expand past a budget, and decodes strictly into Go structs: unknown and
// repeated fields are errors, every problem is reported as FILE:LINE:COL,
// and the position of every decoded value is kept. It knows nothing of
// scenarios.
package yamlstrict

import (
	"encoding"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

var (
	nodeType          = reflect.TypeFor[yaml.Node]()
	nodePtrType       = reflect.TypeFor[*yaml.Node]()
	unmarshalerType   = reflect.TypeFor[yaml.Unmarshaler]()
	textUnmarshalType = reflect.TypeFor[encoding.TextUnmarshaler]()
	timeDurationType  = reflect.TypeFor[time.Duration]()
)

type decoder struct {
	file     string
	pos      *Positions
	errs     ErrorList
	active   map[*yaml.Node]bool // aliases and merged mappings being expanded
	visits   int
	limit    int
	tooLarge bool
}

// Decode decodes node (a DocumentNode or its content) into out, a
// non-nil pointer to a struct. It records positions and reports every problem
// it finds, sorted, each as "file:line:col: message". A null or empty
// document leaves out unchanged. It never panics.
func Decode(file string, node *yaml.Node, out any) (*Positions, ErrorList) {
	d := &decoder{file: file, pos: newPositions(), active: make(map[*yaml.Node]bool)}
	rv := reflect.ValueOf(out)
	if !rv.IsValid() || rv.Kind() != reflect.Pointer || rv.IsNil() || rv.Elem().Kind() != reflect.Struct {
		d.errs.Add(file, Pos{}, "internal error: Decode needs a non-nil pointer to a struct, not %T", out)
		return d.pos, d.errs
	}
	if e := CheckExpansion(file, node); e != nil {
		d.errs = append(d.errs, *e)
		return d.pos, d.errs
	}
	d.limit = expansionBudget(node)
	d.decode(node, rv.Elem())
	d.pos.warnings.Sort()
	d.pos.warnings = slices.Compact(d.pos.warnings)
	d.errs.Sort()
	d.errs = slices.Compact(d.errs) // an anchor used twice reports its problems once
	return d.pos, d.errs
}

func (d *decoder) errorf(n *yaml.Node, format string, args ...any) {
	d.errs.Add(d.file, NodePos(n), format, args...)
}

// visit counts one value decoded, or one mapping entry merged, against the
// expansion budget; false once the budget is spent (reported once). It is a
// backstop: CheckExpansion refuses such documents before decoding starts.
func (d *decoder) visit(n *yaml.Node) bool {
	d.visits++
	if d.visits > d.limit {
		if !d.tooLarge {
			d.tooLarge = true
			d.errorf(n, "%s", expansionMessage)
		}
		return false
	}
	return true
}

// decode decodes n into v, an addressable value.
func (d *decoder) decode(n *yaml.Node, v reflect.Value) {
	if n == nil || d.tooLarge {
		return
	}
	defer func() {
		if r := recover(); r != nil {
			d.errorf(n, "internal error decoding %s: %v", v.Type(), r)
		}
	}()
	if !d.visit(n) {
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
		if n.Alias == nil {
			d.errorf(n, "unknown anchor %q", n.Value)
			return
		}
		if d.active[n] {
			d.errorf(n, "anchor %q refers to itself", n.Value)
			return
		}
		d.active[n] = true
		defer delete(d.active, n)
		n = n.Alias
	}
	d.value(n, v, site)
}

func IsNull(n *yaml.Node) bool {
	return n.Kind == 0 || n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

// value decodes n, which is not an alias, into v. site is where the value was
// written (the alias, if n was reached through one).
func (d *decoder) value(n *yaml.Node, v reflect.Value, site Pos) {
	d.pos.record(d.pos.vals, v, site)
	t := v.Type()
	switch t {
	case nodeType:
		v.Set(reflect.ValueOf(*n))
		return
	case nodePtrType:
		if IsNull(n) {
			v.Set(reflect.Zero(t))
		} else {
			c := *n
			v.Set(reflect.ValueOf(&c))
		}
		return
	}
	if IsNull(n) {
		switch v.Kind() {
		case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Interface:
			v.Set(reflect.Zero(t))
		}
		return
	}
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			v.Set(reflect.New(t.Elem()))
		}
		d.value(n, v.Elem(), site)
		return
	}
	if v.CanAddr() {
		pt := reflect.PointerTo(t)
		if pt.Implements(unmarshalerType) {
			if err := v.Addr().Interface().(yaml.Unmarshaler).UnmarshalYAML(n); err != nil {
				d.adoptError(n, err)
			}
			return
		}
		if pt.Implements(textUnmarshalType) {
			if n.Kind != yaml.ScalarNode {
				d.errorf(n, "expected a single value, found %s", DescribeNode(n))
				return
			}
			d.viaYAML(n, v, func() string { return CleanYAMLError(n.Decode(v.Addr().Interface())) })
			return
		}
	}
	switch v.Kind() {
	case reflect.Struct:
		if n.Kind != yaml.MappingNode {
			d.errorf(n, "expected a mapping, found %s", DescribeNode(n))
			return
		}
		d.decodeStruct(n, v)
	case reflect.Map:
		if n.Kind != yaml.MappingNode {
			d.errorf(n, "expected a mapping, found %s", DescribeNode(n))
			return
		}
		if !isScalarKind(t.Key().Kind()) {
			d.errorf(n, "internal error: cannot decode into %s: unsupported key type", t)
			return
		}
		if v.IsNil() {
			v.Set(reflect.MakeMapWithSize(t, len(n.Content)/2))
		}
		d.decodeMapEntries(d.mappingPairs(n), v, map[string]Pos{})
	case reflect.Slice, reflect.Array:
		if n.Kind == yaml.ScalarNode && t.Elem().Kind() == reflect.Uint8 {
			d.scalar(n, v) // !!binary
			return
		}
		if n.Kind != yaml.SequenceNode {
			d.errorf(n, "expected a sequence, found %s", DescribeNode(n))
			return
		}
		if v.Kind() == reflect.Array {
			if len(n.Content) != v.Len() {
				d.errorf(n, "expected %d items, found %d", v.Len(), len(n.Content))
				return
			}
		} else {
			v.Set(reflect.MakeSlice(t, len(n.Content), len(n.Content)))
		}
		for i, item := range n.Content {
			d.decode(item, v.Index(i))
		}
	case reflect.Interface:
		tmp := reflect.New(t)
		if err := n.Decode(tmp.Interface()); err != nil {
			d.errorf(n, "%s", CleanYAMLError(err))
			return
		}
		v.Set(tmp.Elem())
	default:
		if isScalarKind(v.Kind()) {
			d.scalar(n, v)
			return
		}
		d.errorf(n, "internal error: cannot decode into Go type %s", t)
	}
}

// viaYAML runs decode, which returns an error message or "", on a copy of v
// so that v is left unchanged on error.
func (d *decoder) viaYAML(n *yaml.Node, v reflect.Value, decode func() string) {
	old := reflect.New(v.Type()).Elem()
	old.Set(v)
	if msg := decode(); msg != "" {
		v.Set(old)
		d.errorf(n, "%s", msg)
	}
}

func isScalarKind(k reflect.Kind) bool {
	switch k {
	case reflect.String, reflect.Bool,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64:
		return true
	}
	return false
}

// scalar decodes a scalar node into a string, bool, integer or float with
// yaml.v3's rules, but refuses to truncate 1.5 to an integer.
func (d *decoder) scalar(n *yaml.Node, v reflect.Value) {
	t := v.Type()
	if n.Kind != yaml.ScalarNode {
		d.errorf(n, "expected %s, found %s", wantDesc(t), DescribeNode(n))
		return
	}
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if n.ShortTag() == "!!float" {
			f, err := strconv.ParseFloat(strings.ReplaceAll(n.Value, "_", ""), 64)
			if err != nil || f != math.Trunc(f) {
				d.errorf(n, "cannot use %s as %s", QuoteValue(n.Value), wantDesc(t))
				return
			}
			// yaml.v3 converts floats to integers unchecked at the edges:
			// 2^64 into a uint64 gives 2^63. Check the range exactly.
			if t != timeDurationType && !floatFits(f, v) {
				d.errorf(n, "%s", scalarError(n, t))
				return
			}
		}
	}
	tmp := reflect.New(t)
	if err := n.Decode(tmp.Interface()); err != nil {
		d.errorf(n, "%s", scalarError(n, t))
		return
	}
	v.Set(tmp.Elem())
}

// floatFits reports whether the whole number f fits v's integer type.
func floatFits(f float64, v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return f >= -(1<<63) && f < 1<<63 && !v.OverflowInt(int64(f))
	default:
		return f >= 0 && f < 1<<64 && !v.OverflowUint(uint64(f))
	}
}

// ---------------------------------------------------------------------------
// Mappings

type nodePair struct{ key, val *yaml.Node }

// resolveAlias follows aliases (for keys and merge values).
func (d *decoder) resolveAlias(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode; i++ {
		if n.Alias == nil || i > 100 {
			d.errorf(n, "unknown anchor %q", n.Value)
			return nil
		}
		n = n.Alias
	}
	return n
}

func isMergeKey(k *yaml.Node) bool {
	return k.Kind == yaml.ScalarNode && k.Value == "<<" && k.ShortTag() == "!!merge"
}

// mappingPairs returns the key/value pairs of mapping n with merge keys (<<)
// expanded: keys written in n come first and win over merged ones; among
// merged mappings, earlier ones win.
func (d *decoder) mappingPairs(n *yaml.Node) []nodePair {
	var pairs, merged []nodePair
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if !d.visit(k) {
			return nil
		}
		if isMergeKey(k) {
			merged = append(merged, d.mergeSource(v)...)
			continue
		}
		pairs = append(pairs, nodePair{k, v})
	}
	if len(n.Content)%2 != 0 {
		d.errorf(n, "internal error: mapping with an odd number of nodes")
	}
	if len(merged) == 0 {
		return pairs
	}
	seen := make(map[string]bool)
	for _, p := range pairs {
		if k := d.resolveAlias(p.key); k != nil {
			seen[k.Value] = true
		}
	}
	for _, p := range merged {
		k := d.resolveAlias(p.key)
		if k == nil || seen[k.Value] {
			continue
		}
		seen[k.Value] = true
		pairs = append(pairs, p)
	}
	return pairs
}

// mergeSource returns the pairs merged by "<<: v".
func (d *decoder) mergeSource(v *yaml.Node) []nodePair {
	site := v
	v = d.resolveAlias(v)
	if v == nil {
		return nil
	}
	switch v.Kind {
	case yaml.MappingNode:
		if d.active[v] {
			d.errorf(site, "merged mapping contains itself")
			return nil
		}
		d.active[v] = true
		defer delete(d.active, v)
		return d.mappingPairs(v)
	case yaml.SequenceNode:
		var pairs []nodePair
		for _, item := range v.Content {
			m := d.resolveAlias(item)
			if m == nil {
				continue
			}
			if m.Kind != yaml.MappingNode {
				d.errorf(item, "cannot merge %s: a merge (<<) takes a mapping or a sequence of mappings", DescribeNode(m))
				continue
			}
			pairs = append(pairs, d.mergeSource(item)...)
		}
		return pairs
	}
	d.errorf(site, "cannot merge %s: a merge (<<) takes a mapping or a sequence of mappings", DescribeNode(v))
	return nil
}

// keyName returns the text of a mapping key, or false after reporting a
// key that is not a scalar.
func (d *decoder) keyName(k *yaml.Node) (string, bool) {
	r := d.resolveAlias(k)
	if r == nil {
		return "", false
	}
	if r.Kind != yaml.ScalarNode {
		d.errorf(k, "expected a key, found %s", DescribeNode(r))
		return "", false
	}
	return r.Value, true
}

func typeName(t reflect.Type) string {
	if t.Name() != "" {
		return t.Name()
	}
	return t.String()
}

func (d *decoder) decodeStruct(n *yaml.Node, v reflect.Value) {
	t := v.Type()
	info := getStructInfo(t)
	if info.err != "" {
		d.errorf(n, "%s", info.err)
		return
	}
	site := NodePos(n)
	for _, path := range info.inlines {
		d.pos.record(d.pos.vals, v.FieldByIndex(path), site)
	}
	var rest []nodePair // keys left for the ,inline map
	seen := make(map[string]Pos)
	for _, p := range d.mappingPairs(n) {
		name, ok := d.uniqueKey(p.key, seen, "field")
		if !ok {
			continue
		}
		kp := NodePos(p.key)
		if i, ok := info.byName[name]; ok {
			fv := v.FieldByIndex(info.fields[i].index)
			d.pos.record(d.pos.keys, fv, kp)
			d.decode(p.val, fv)
			continue
		}
		if why, ok := unmodelledReason(info.types, name); ok {
			d.pos.warnings.Add(d.file, kp, "%s", UnmodelledMessage(name, why))
			continue
		}
		if isIgnored(info.types, name) {
			continue
		}
		if info.inlineMap != nil {
			rest = append(rest, p)
			continue
		}
		names := make([]string, len(info.fields))
		for i, f := range info.fields {
			names[i] = f.name
		}
		msg := fmt.Sprintf("unknown field %q in %s", name, typeName(t))
		if s := SuggestName(name, names); s != "" {
			msg += fmt.Sprintf("; did you mean %q?", s)
		}
		d.errs.Add(d.file, kp, "%s", msg)
	}
	if len(rest) > 0 {
		m := v.FieldByIndex(info.inlineMap)
		if m.IsNil() {
			m.Set(reflect.MakeMapWithSize(m.Type(), len(rest)))
		}
		d.decodeMapEntries(rest, m, map[string]Pos{})
	}
}

// uniqueKey returns a mapping key's name and records where it was written;
// ok is false, with the problem reported, for a bad or repeated key. what
// names it in the message ("field", "key").
func (d *decoder) uniqueKey(key *yaml.Node, seen map[string]Pos, what string) (string, bool) {
	name, ok := d.keyName(key)
	if !ok {
		return "", false
	}
	kp := NodePos(key)
	if first, dup := seen[name]; dup {
		d.errs.Add(d.file, kp, "duplicate %s %q (already set at %s)", what, name, first)
		return "", false
	}
	seen[name] = kp
	return name, true
}

// decodeMapEntries decodes pairs into m, a non-nil map with scalar keys.
func (d *decoder) decodeMapEntries(pairs []nodePair, m reflect.Value, seen map[string]Pos) {
	t := m.Type()
	for _, p := range pairs {
		name, ok := d.uniqueKey(p.key, seen, "key")
		if !ok {
			continue
		}
		kp := NodePos(p.key)
		key := reflect.New(t.Key()).Elem()
		if t.Key().Kind() == reflect.String {
			key.SetString(name)
		} else {
			before := len(d.errs)
			d.decode(p.key, key)
			if len(d.errs) > before {
				continue
			}
		}
		val := reflect.New(t.Elem()).Elem()
		d.decode(p.val, val)
		m.SetMapIndex(key, val)
		ek := mapEntryKey{m.UnsafePointer(), fmt.Sprint(key.Interface())}
		d.pos.mapKeys[ek] = kp
		d.pos.mapVals[ek] = NodePos(p.val)
	}
}
