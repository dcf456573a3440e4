package yamlstrict

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
)

// declared holds the functions handed to Declare that have not run yet.
var declared struct {
	sync.Mutex
	fns []func()
}

// Declare registers declare, a function of Ignore and Unmodelled calls,
// to run once before the first field is looked up (Treatment, Decode). A
// package's init hands its declarations here rather than making them, so
// that a process that decodes no YAML (podsim version) builds no tables.
func Declare(declare func()) {
	declared.Lock()
	defer declared.Unlock()
	declared.fns = append(declared.fns, declare)
}

// runDeclared runs the declarations not run yet; a lookup calls it first.
func runDeclared() {
	declared.Lock()
	defer declared.Unlock()
	for _, f := range declared.fns {
		f()
	}
	declared.fns = nil
}

var ignoredFields struct {
	sync.RWMutex
	m map[reflect.Type]map[string]bool
}

// Ignore registers Kubernetes API field names that are accepted and ignored
// on struct type T (e.g. Ignore[Container]("env", "ports", "command")): their
// values are skipped without error. It also applies where T is inlined.
func Ignore[T any](keys ...string) {
	t := reflect.TypeFor[T]()
	ignoredFields.Lock()
	defer ignoredFields.Unlock()
	set := ignoredFields.m[t]
	if set == nil {
		if ignoredFields.m == nil {
			ignoredFields.m = make(map[reflect.Type]map[string]bool)
		}
		set = make(map[string]bool)
		ignoredFields.m[t] = set
	}
	for _, k := range keys {
		set[k] = true
	}
}

var unmodelledFields struct {
	sync.RWMutex
	m map[reflect.Type]map[string]string
}

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
		if unmodelledFields.m == nil {
			unmodelledFields.m = make(map[reflect.Type]map[string]string)
		}
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
	runDeclared()
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
	runDeclared()
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
