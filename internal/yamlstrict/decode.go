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
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unsafe"

	"go.yaml.in/yaml/v3"
)

// Pos is a 1-based line and column in a file.
type Pos struct{ Line, Col int }

// String returns "LINE:COL".
func (p Pos) String() string { return strconv.Itoa(p.Line) + ":" + strconv.Itoa(p.Col) }

// IsZero reports whether p is the zero (unknown) position.
func (p Pos) IsZero() bool { return p.Line == 0 && p.Col == 0 }

// Error is one problem found in a file.
type Error struct {
	File string
	Pos  Pos
	Msg  string
}

// Error returns "FILE:LINE:COL: Msg", or "FILE: Msg" if the position is
// unknown. An empty File is left out.
func (e Error) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		b.WriteByte(':')
	}
	if !e.Pos.IsZero() {
		b.WriteString(e.Pos.String())
		b.WriteByte(':')
	}
	if b.Len() > 0 {
		b.WriteByte(' ')
	}
	b.WriteString(e.Msg)
	return b.String()
}

// ErrorList holds every problem found in a file or a suite.
type ErrorList []Error

// Error returns one Error() per line.
func (l ErrorList) Error() string {
	lines := make([]string, len(l))
	for i, e := range l {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// Add appends a problem. With no args, format is used as is.
func (l *ErrorList) Add(file string, p Pos, format string, args ...any) {
	msg := format
	if len(args) > 0 {
		msg = fmt.Sprintf(format, args...)
	}
	*l = append(*l, Error{File: file, Pos: p, Msg: msg})
}

// Sort sorts the list by file, line, column, then message (stable).
func (l ErrorList) Sort() {
	slices.SortStableFunc(l, compareErrors)
}

func compareErrors(a, b Error) int {
	if c := strings.Compare(a.File, b.File); c != 0 {
		return c
	}
	if a.Pos.Line != b.Pos.Line {
		return a.Pos.Line - b.Pos.Line
	}
	if a.Pos.Col != b.Pos.Col {
		return a.Pos.Col - b.Pos.Col
	}
	return strings.Compare(a.Msg, b.Msg)
}

// Err returns nil if the list is empty, else the list.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

// Positions remembers where each decoded value was written.
//
// Values are identified by address and type, so positions stay valid only as
// long as the decoded values are not copied: keep the tree returned by
// Decode, do not append to its slices. Struct values stored in maps
// (map[string]T) are copies; use map[string]*T when positions inside map
// values are needed, or OfMapKey / OfMapValue for the entry itself.
type Positions struct {
	vals    map[posKey]Pos
	keys    map[posKey]Pos
	mapKeys map[mapEntryKey]Pos
	mapVals map[mapEntryKey]Pos

	warnings ErrorList // fields registered with Unmodelled, as Decode met them
}

// Warnings returns a problem for each field that Decode accepted although
// it was registered with Unmodelled: Kubernetes acts on it, the program
// does not. Sorted by position.
func (p *Positions) Warnings() ErrorList {
	if p == nil {
		return nil
	}
	return p.warnings
}

// posKey identifies a Go value. The unsafe.Pointer keeps the value alive, so
// an address is never reused for another value while Positions exists.
type posKey struct {
	addr unsafe.Pointer
	typ  reflect.Type
}

type mapEntryKey struct {
	m   unsafe.Pointer // the map's runtime pointer
	key string
}

// NewPositions returns an empty Positions, to fill with Locate.
func NewPositions() *Positions { return newPositions() }

func newPositions() *Positions {
	return &Positions{
		vals:    make(map[posKey]Pos),
		keys:    make(map[posKey]Pos),
		mapKeys: make(map[mapEntryKey]Pos),
		mapVals: make(map[mapEntryKey]Pos),
	}
}

func ptrKey(ptr any) (posKey, bool) {
	rv := reflect.ValueOf(ptr)
	if !rv.IsValid() || rv.Kind() != reflect.Pointer || rv.IsNil() {
		return posKey{}, false
	}
	return posKey{rv.UnsafePointer(), rv.Type().Elem()}, true
}

// Of returns the position of the value that ptr points to: a pointer to a
// decoded struct, a struct field or a slice element. For a field written as
// "name: value" it is the position of the value. Zero Pos if unknown.
func (p *Positions) Of(ptr any) Pos {
	if p == nil {
		return Pos{}
	}
	if k, ok := ptrKey(ptr); ok {
		return p.vals[k]
	}
	return Pos{}
}

// KeyOf returns the position of the key of a struct field (where "name:" was
// written), given a pointer to the field. Zero Pos if unknown.
func (p *Positions) KeyOf(ptr any) Pos {
	if p == nil {
		return Pos{}
	}
	if k, ok := ptrKey(ptr); ok {
		return p.keys[k]
	}
	return Pos{}
}

func mapKey(m any, key string) (mapEntryKey, bool) {
	rv := reflect.ValueOf(m)
	if rv.IsValid() && rv.Kind() == reflect.Pointer && !rv.IsNil() {
		rv = rv.Elem()
	}
	if !rv.IsValid() || rv.Kind() != reflect.Map || rv.IsNil() {
		return mapEntryKey{}, false
	}
	return mapEntryKey{rv.UnsafePointer(), key}, true
}

// OfMapKey returns the position of the key of a map entry. mapPtr is a
// pointer to the map (or the map itself); non-string keys are given as
// fmt.Sprint would print them. Zero Pos if unknown.
func (p *Positions) OfMapKey(mapPtr any, key string) Pos {
	if p == nil {
		return Pos{}
	}
	if k, ok := mapKey(mapPtr, key); ok {
		return p.mapKeys[k]
	}
	return Pos{}
}

// OfMapValue is like OfMapKey but returns the position of the entry's value.
func (p *Positions) OfMapValue(mapPtr any, key string) Pos {
	if p == nil {
		return Pos{}
	}
	if k, ok := mapKey(mapPtr, key); ok {
		return p.mapVals[k]
	}
	return Pos{}
}

func (p *Positions) record(m map[posKey]Pos, v reflect.Value, pos Pos) {
	if !v.CanAddr() || pos.IsZero() {
		return
	}
	m[posKey{v.Addr().UnsafePointer(), v.Type()}] = pos
}

// ---------------------------------------------------------------------------
// Ignored Kubernetes fields

var ignoredFields = struct {
	sync.RWMutex
	m map[reflect.Type]map[string]bool
}{m: make(map[reflect.Type]map[string]bool)}

// Ignore registers Kubernetes API field names that are accepted and ignored
// on struct type T (e.g. Ignore[Container]("env", "ports", "command")): their
// values are skipped without error. It also applies where T is inlined.
func Ignore[T any](keys ...string) {
	t := reflect.TypeFor[T]()
	ignoredFields.Lock()
	defer ignoredFields.Unlock()
	set := ignoredFields.m[t]
	if set == nil {
		set = make(map[string]bool)
		ignoredFields.m[t] = set
	}
	for _, k := range keys {
		set[k] = true
	}
}

var unmodelledFields = struct {
	sync.RWMutex
	m map[reflect.Type]map[string]string
}{m: make(map[reflect.Type]map[string]string)}

// Unmodelled registers Kubernetes API field names that are accepted on
// struct type T although Kubernetes acts on them and the program does not
// simulate them: each maps to what is lost ("the scheduler does not see
// it"). Decode skips their values like ignored ones and notes a warning
// at each (Positions.Warnings).
func Unmodelled[T any](lost map[string]string) {
	t := reflect.TypeFor[T]()
	unmodelledFields.Lock()
	defer unmodelledFields.Unlock()
	set := unmodelledFields.m[t]
	if set == nil {
		set = make(map[string]string)
		unmodelledFields.m[t] = set
	}
	for k, why := range lost {
		set[k] = why
	}
}

// Treatment says how the field key of struct type T (or of a struct
// inlined in it) is treated when it is not a field of T: accepted quietly
// (ignored), accepted with a warning (unmodelled, lost says what is lost),
// or neither.
func Treatment(t reflect.Type, key string) (ignored, unmodelled bool, lost string) {
	types := []reflect.Type{t}
	if t.Kind() == reflect.Struct {
		types = getStructInfo(t).types
	}
	if why, ok := unmodelledReason(types, key); ok {
		return false, true, why
	}
	return isIgnored(types, key), false, ""
}

// HasField reports whether struct type T (with its ,inline structs) has a
// field named key.
func HasField(t reflect.Type, key string) bool {
	if t.Kind() != reflect.Struct {
		return false
	}
	_, ok := getStructInfo(t).byName[key]
	return ok
}

// FieldType returns the Go type of T's field named key, pointers removed.
func FieldType(t reflect.Type, key string) (reflect.Type, bool) {
	if t.Kind() != reflect.Struct {
		return nil, false
	}
	info := getStructInfo(t)
	i, ok := info.byName[key]
	if !ok {
		return nil, false
	}
	ft := t.FieldByIndex(info.fields[i].index).Type
	for ft.Kind() == reflect.Pointer {
		ft = ft.Elem()
	}
	return ft, true
}

func unmodelledReason(types []reflect.Type, key string) (string, bool) {
	unmodelledFields.RLock()
	defer unmodelledFields.RUnlock()
	for _, t := range types {
		if why, ok := unmodelledFields.m[t][key]; ok {
			return why, true
		}
	}
	return "", false
}

// UnmodelledMessage is the warning about an accepted field that is not
// simulated.
func UnmodelledMessage(key, lost string) string {
	return "warning: " + key + " is not simulated: " + lost
}

func isIgnored(types []reflect.Type, key string) bool {
	ignoredFields.RLock()
	defer ignoredFields.RUnlock()
	for _, t := range types {
		if ignoredFields.m[t][key] {
			return true
		}
	}
	return false
}

// ---------------------------------------------------------------------------
// Struct layout

type structField struct {
	name  string
	index []int // path from the outer struct, through ,inline structs
}

type structInfo struct {
	fields    []structField // declaration order
	byName    map[string]int
	inlineMap []int          // path to the ,inline map, or nil
	inlines   [][]int        // paths to ,inline structs
	types     []reflect.Type // the struct and its ,inline struct types
	err       string         // a programming error in the Go type
}

var structInfos sync.Map // reflect.Type -> *structInfo

func getStructInfo(t reflect.Type) *structInfo {
	if v, ok := structInfos.Load(t); ok {
		return v.(*structInfo)
	}
	info := &structInfo{byName: make(map[string]int)}
	info.build(t, nil, 0)
	v, _ := structInfos.LoadOrStore(t, info)
	return v.(*structInfo)
}

func (info *structInfo) fail(format string, args ...any) {
	if info.err == "" {
		info.err = fmt.Sprintf(format, args...)
	}
}

func (info *structInfo) build(t reflect.Type, prefix []int, depth int) {
	if depth > 32 {
		info.fail("internal error: %s: ,inline structs nested too deeply", t)
		return
	}
	info.types = append(info.types, t)
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if f.PkgPath != "" && !f.Anonymous {
			continue // unexported
		}
		tag := f.Tag.Get("yaml")
		if tag == "" && !strings.Contains(string(f.Tag), ":") {
			tag = string(f.Tag) // yaml.v3 accepts a bare tag
		}
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		inline := false
		for _, o := range strings.Split(opts, ",") {
			if o == "inline" {
				inline = true
			}
		}
		index := append(slices.Clone(prefix), i)
		if inline {
			switch {
			case f.Type.Kind() == reflect.Struct:
				info.inlines = append(info.inlines, index)
				info.build(f.Type, index, depth+1)
			case f.Type.Kind() == reflect.Map && f.Type.Key().Kind() == reflect.String:
				if info.inlineMap != nil {
					info.fail("internal error: several ,inline maps in %s", t)
				}
				info.inlineMap = index
			default:
				info.fail("internal error: %s.%s: ,inline needs a struct or a map with string keys", t, f.Name)
			}
			continue
		}
		if f.PkgPath != "" {
			continue // unexported embedded type without ,inline
		}
		if name == "" {
			name = strings.ToLower(f.Name) // as yaml.v3 does
		}
		if _, dup := info.byName[name]; dup {
			info.fail("internal error: %s: several fields are named %q", t, name)
			continue
		}
		info.byName[name] = len(info.fields)
		info.fields = append(info.fields, structField{name: name, index: index})
	}
}

// ---------------------------------------------------------------------------
// Decoding

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

// NodePos is where n was written.
func NodePos(n *yaml.Node) Pos { return Pos{n.Line, n.Column} }

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

func scalarError(n *yaml.Node, t reflect.Type) string {
	msg := "cannot use " + QuoteValue(n.Value) + " as " + wantDesc(t)
	tag := n.ShortTag()
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if t == timeDurationType {
			return msg + " such as 30s, 5m or 1h30m"
		}
		if tag == "!!int" || tag == "!!float" {
			return msg + ": out of range"
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if tag == "!!int" || tag == "!!float" {
			if strings.HasPrefix(n.Value, "-") {
				return msg + ": must not be negative"
			}
			return msg + ": out of range"
		}
	case reflect.Bool:
		return msg + " (want true or false)"
	}
	return msg
}

func wantDesc(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if t == timeDurationType {
			return "a duration"
		}
		return "an integer"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "a sequence"
	case reflect.Struct, reflect.Map:
		return "a mapping"
	}
	return t.String()
}

// DescribeNode says what n is, for "expected X, found Y" messages.
func DescribeNode(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a sequence"
	case yaml.AliasNode:
		return "an alias"
	case yaml.DocumentNode:
		return "a document"
	case yaml.ScalarNode:
		v := QuoteValue(n.Value)
		switch n.ShortTag() {
		case "!!null":
			return "null"
		case "!!bool":
			return "the boolean " + n.Value
		case "!!int":
			return "the integer " + n.Value
		case "!!float":
			return "the number " + n.Value
		case "!!str":
			return "the string " + v
		}
		return v
	}
	return "nothing"
}

// QuoteValue quotes a user's scalar for a message, shortening long ones.
func QuoteValue(s string) string {
	const max = 40
	if r := []rune(s); len(r) > max {
		s = string(r[:max-3]) + "..."
	}
	return strconv.Quote(s)
}

// adoptError reports an error returned by UnmarshalYAML for node n. An Error
// or ErrorList keeps its own positions (filled in from n when zero).
func (d *decoder) adoptError(n *yaml.Node, err error) {
	var list ErrorList
	var one Error
	var onePtr *Error
	var te *yaml.TypeError
	switch {
	case errors.As(err, &list):
	case errors.As(err, &one):
		list = ErrorList{one}
	case errors.As(err, &onePtr) && onePtr != nil:
		list = ErrorList{*onePtr}
	case errors.As(err, &te):
		for _, s := range te.Errors {
			list = append(list, Error{Msg: stripLinePrefix(s)})
		}
	default:
		list = ErrorList{{Msg: CleanYAMLError(err)}}
	}
	for _, e := range list {
		if e.File == "" {
			e.File = d.file
		}
		if e.Pos.IsZero() {
			e.Pos = NodePos(n)
		}
		if e.Msg == "" {
			e.Msg = "invalid value"
		}
		d.errs = append(d.errs, e)
	}
}

// CleanYAMLError turns an error from yaml.v3 into a short message without
// "yaml: " and "line N: " prefixes. It returns "" for a nil error.
func CleanYAMLError(err error) string {
	if err == nil {
		return ""
	}
	var te *yaml.TypeError
	if errors.As(err, &te) && len(te.Errors) > 0 {
		msgs := make([]string, len(te.Errors))
		for i, s := range te.Errors {
			msgs[i] = stripLinePrefix(s)
		}
		return strings.Join(msgs, "; ")
	}
	msg := err.Error()
	for strings.HasPrefix(msg, "yaml: ") {
		msg = strings.TrimPrefix(msg, "yaml: ")
	}
	msg = stripLinePrefix(msg)
	if msg == "" {
		msg = "invalid value"
	}
	return msg
}

func stripLinePrefix(s string) string {
	s = strings.TrimSpace(s)
	for strings.HasPrefix(s, "yaml: ") {
		s = strings.TrimPrefix(s, "yaml: ")
	}
	if rest, ok := strings.CutPrefix(s, "line "); ok {
		if i := strings.Index(rest, ": "); i > 0 {
			if _, err := strconv.Atoi(rest[:i]); err == nil {
				return rest[i+2:]
			}
		}
	}
	return s
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

// ---------------------------------------------------------------------------
// Suggestions

// SuggestName returns the candidate closest to name if it is close enough
// to be a likely typo, or "".
func SuggestName(name string, candidates []string) string {
	best, bestDist := "", 3
	for _, c := range candidates {
		if strings.EqualFold(c, name) {
			return c
		}
		dist := editDistance(name, c)
		if dist < bestDist {
			best, bestDist = c, dist
		}
	}
	if best == "" || bestDist > 2 || bestDist == 2 && len([]rune(name)) <= 3 {
		return ""
	}
	return best
}

// editDistance is the optimal string alignment distance between a and b:
// insertions, deletions, substitutions and swaps of adjacent letters.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}
