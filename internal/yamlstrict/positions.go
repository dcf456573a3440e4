package yamlstrict

import (
	"reflect"
	"strconv"
	"unsafe"

	"go.yaml.in/yaml/v3"
)

// Pos is a 1-based line and column in a file.
type Pos struct{ Line, Col int }

// String returns "LINE:COL".
func (p Pos) String() string { return strconv.Itoa(p.Line) + ":" + strconv.Itoa(p.Col) }

// IsZero reports whether p is the zero (unknown) position.
func (p Pos) IsZero() bool { return p.Line == 0 && p.Col == 0 }

// NodePos is where n was written.
func NodePos(n *yaml.Node) Pos { return Pos{n.Line, n.Column} }

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
