package serve

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	policyv1 "k8s.io/api/policy/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// The generator of the OpenAPI documents podsim serves (openAPIFiles).

// TestOpenAPIFilesAreTheTypes checks that the embedded JSON documents are
// those the served types and paths give; -update writes them.
func TestOpenAPIFilesAreTheTypes(t *testing.T) {
	want := buildOpenAPI().files()
	if *updateOpenAPI {
		if err := os.RemoveAll("openapi/v3"); err != nil {
			t.Fatal(err)
		}
		for name, b := range want {
			if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(name, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	have := map[string]bool{}
	fs.WalkDir(openAPIFiles, "openapi", func(name string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(name, ".json") {
			have[name] = true
		}
		return err
	})
	for name, b := range want {
		got, err := openAPIFiles.ReadFile(name)
		if err != nil || !bytes.Equal(got, b) {
			t.Errorf("%s is not what the served types give: run go test ./serve -run OpenAPI -update", name)
		}
		delete(have, name)
	}
	for name := range have {
		t.Errorf("%s is no served group version's: run go test ./serve -run OpenAPI -update", name)
	}
}

// openAPIDocs are the documents.
type openAPIDocs struct {
	v2JSON []byte
	v3Root []byte
	v3     map[string][]byte // by path: "api/v1", "apis/apps/v1"
}

// files are the JSON documents by their names in openAPIFiles.
func (d *openAPIDocs) files() map[string][]byte {
	out := map[string][]byte{"openapi/v2.json": d.v2JSON, "openapi/v3.json": d.v3Root}
	for gv, b := range d.v3 {
		out["openapi/v3/"+gv+".json"] = b
	}
	return out
}

// openAPITypes are the Go types of the served kinds, by group version and
// kind.
var openAPITypes = map[[2]string]reflect.Type{
	{"v1", "Namespace"}:                       reflect.TypeFor[corev1.Namespace](),
	{"v1", "Node"}:                            reflect.TypeFor[corev1.Node](),
	{"v1", "Pod"}:                             reflect.TypeFor[corev1.Pod](),
	{"v1", "Event"}:                           reflect.TypeFor[corev1.Event](),
	{"apps/v1", "Deployment"}:                 reflect.TypeFor[appsv1.Deployment](),
	{"apps/v1", "ReplicaSet"}:                 reflect.TypeFor[appsv1.ReplicaSet](),
	{"apps/v1", "DaemonSet"}:                  reflect.TypeFor[appsv1.DaemonSet](),
	{"apps/v1", "StatefulSet"}:                reflect.TypeFor[appsv1.StatefulSet](),
	{"batch/v1", "Job"}:                       reflect.TypeFor[batchv1.Job](),
	{"batch/v1", "CronJob"}:                   reflect.TypeFor[batchv1.CronJob](),
	{"events.k8s.io/v1", "Event"}:             reflect.TypeFor[eventsv1.Event](),
	{"policy/v1", "PodDisruptionBudget"}:      reflect.TypeFor[policyv1.PodDisruptionBudget](),
	{"coordination.k8s.io/v1", "Lease"}:       reflect.TypeFor[coordinationv1.Lease](),
	{"scheduling.k8s.io/v1", "PriorityClass"}: reflect.TypeFor[schedulingv1.PriorityClass](),
}

// buildOpenAPI makes the documents of every served resource.
func buildOpenAPI() *openAPIDocs {
	v2 := &schemaGen{prefix: "#/definitions/", defs: map[string]map[string]any{}}
	v2Paths := map[string]any{}
	v3 := map[string]*struct {
		gen   *schemaGen
		paths map[string]any
	}{}
	for _, r := range resources {
		t := openAPITypes[[2]string{r.groupVersion(), r.kind}]
		if t == nil {
			continue
		}
		gv := "api/" + r.version
		if r.group != "" {
			gv = "apis/" + r.group + "/" + r.version
		}
		d := v3[gv]
		if d == nil {
			d = &struct {
				gen   *schemaGen
				paths map[string]any
			}{&schemaGen{prefix: "#/components/schemas/", v3: true, defs: map[string]map[string]any{}}, map[string]any{}}
			v3[gv] = d
		}
		gvk := map[string]any{"group": r.group, "version": r.version, "kind": r.kind}
		v2.kind(t, gvk)
		d.gen.kind(t, gvk)
		addPaths(v2Paths, r, gv, gvk, false)
		addPaths(d.paths, r, gv, gvk, true)
	}
	out := &openAPIDocs{v3: map[string][]byte{}}
	out.v2JSON = mustJSON(map[string]any{"swagger": "2.0", "info": map[string]any{"title": "Kubernetes (podsim)", "version": KubeletVersion},
		"paths": v2Paths, "definitions": v2.defs})
	root := map[string]any{}
	gvs := make([]string, 0, len(v3))
	for gv := range v3 {
		gvs = append(gvs, gv)
	}
	sort.Strings(gvs)
	for _, gv := range gvs {
		d := v3[gv]
		b := mustJSON(map[string]any{"openapi": "3.0.0", "info": map[string]any{"title": "Kubernetes (podsim)", "version": KubeletVersion},
			"paths": d.paths, "components": map[string]any{"schemas": d.gen.defs}})
		out.v3[gv] = b
		sum := sha256.Sum256(b)
		root[gv] = map[string]any{"serverRelativeURL": "/openapi/v3/" + gv + "?hash=" + strings.ToUpper(hex.EncodeToString(sum[:]))}
	}
	out.v3Root = mustJSON(map[string]any{"paths": root})
	return out
}

// addPaths adds a resource's collection and object paths: list and
// create, get and patch (create and patch take fieldValidation).
func addPaths(paths map[string]any, r *apiResource, gv string, gvk map[string]any, v3 bool) {
	base := "/" + gv + "/"
	if r.namespaced {
		base += "namespaces/{namespace}/"
	}
	param := func(name, in, desc string) map[string]any {
		p := map[string]any{"name": name, "in": in, "description": desc}
		if in == "path" {
			p["required"] = true
		}
		if v3 {
			p["schema"] = map[string]any{"type": "string", "uniqueItems": true}
		} else {
			p["type"] = "string"
			p["uniqueItems"] = true
		}
		return p
	}
	fieldValidation := param("fieldValidation", "query", "fieldValidation instructs the server on how to handle objects in the request (POST/PUT/PATCH) containing unknown or duplicate fields: Ignore, Warn or Strict.")
	op := func(action string, params ...map[string]any) map[string]any {
		o := map[string]any{"operationId": action + r.kind, "x-kubernetes-action": action, "x-kubernetes-group-version-kind": gvk,
			"responses": map[string]any{"200": map[string]any{"description": "OK"}}}
		if len(params) > 0 {
			o["parameters"] = params
		}
		return o
	}
	var common []any
	if r.namespaced {
		common = append(common, param("namespace", "path", "object name and auth scope, such as for teams and projects"))
	}
	coll := map[string]any{"get": op("list"), "post": op("post", fieldValidation)}
	if len(common) > 0 {
		coll["parameters"] = common
	}
	paths[base+r.name] = coll
	paths[base+r.name+"/{name}"] = map[string]any{"get": op("get"), "patch": op("patch", fieldValidation),
		"parameters": append(common, param("name", "path", "name of the "+r.kind))}
}

// schemaGen makes the schemas of Go types, each struct type once, under
// its OpenAPI name (io.k8s.api.core.v1.Pod).
type schemaGen struct {
	prefix string // "#/definitions/" (v2) or "#/components/schemas/" (v3)
	v3     bool
	defs   map[string]map[string]any
}

// kind adds a kind's type and marks it with its group, version and kind.
func (g *schemaGen) kind(t reflect.Type, gvk map[string]any) {
	g.schema(t)
	g.defs[openAPIName(t)]["x-kubernetes-group-version-kind"] = []any{gvk}
}

// openAPIName is a type's name in the documents: its package path with the
// domain reversed, and its name (k8s.io/api/core/v1 Pod:
// io.k8s.api.core.v1.Pod).
func openAPIName(t reflect.Type) string {
	pkg := t.PkgPath()
	domain, rest, _ := strings.Cut(pkg, "/")
	parts := strings.Split(domain, ".")
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return strings.Join(parts, ".") + "." + strings.ReplaceAll(rest, "/", ".") + "." + t.Name()
}

// leafSchemas are the types that encode themselves as a JSON scalar or a
// free-form object.
var leafSchemas = map[reflect.Type]map[string]any{
	reflect.TypeFor[metav1.Time]():          {"type": "string", "format": "date-time"},
	reflect.TypeFor[metav1.MicroTime]():     {"type": "string", "format": "date-time"},
	reflect.TypeFor[metav1.Duration]():      {"type": "string"},
	reflect.TypeFor[resource.Quantity]():    {"type": "string"},
	reflect.TypeFor[intstr.IntOrString]():   {"type": "string", "format": "int-or-string"},
	reflect.TypeFor[runtime.RawExtension](): {"type": "object"},
	reflect.TypeFor[metav1.FieldsV1]():      {"type": "object"},
}

var jsonMarshaler = reflect.TypeFor[json.Marshaler]()

// schema is t's schema: a reference for a struct type (made on first use),
// inline for the others.
func (g *schemaGen) schema(t reflect.Type) map[string]any {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if s, ok := leafSchemas[t]; ok { // named, as upstream's: <map[string]Quantity>
		name := openAPIName(t)
		if _, ok := g.defs[name]; !ok {
			def := map[string]any{}
			for k, v := range s {
				def[k] = v
			}
			g.defs[name] = def
		}
		return map[string]any{"$ref": g.prefix + name}
	}
	switch t.Kind() {
	case reflect.Struct:
		if t.Implements(jsonMarshaler) || reflect.PointerTo(t).Implements(jsonMarshaler) {
			return map[string]any{"type": "string"}
		}
		name := openAPIName(t)
		if _, ok := g.defs[name]; !ok {
			g.defs[name] = map[string]any{} // a type that refers to itself
			g.defs[name] = g.object(t)
		}
		return map[string]any{"$ref": g.prefix + name}
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return map[string]any{"type": "string", "format": "byte"}
		}
		return map[string]any{"type": "array", "items": g.schema(t.Elem())}
	case reflect.Map:
		return map[string]any{"type": "object", "additionalProperties": g.schema(t.Elem())}
	case reflect.String:
		return map[string]any{"type": "string"}
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Int32, reflect.Int16, reflect.Int8, reflect.Uint16, reflect.Uint8:
		return map[string]any{"type": "integer", "format": "int32"}
	case reflect.Int, reflect.Int64, reflect.Uint, reflect.Uint32, reflect.Uint64:
		return map[string]any{"type": "integer", "format": "int64"}
	case reflect.Float32, reflect.Float64:
		return map[string]any{"type": "number", "format": "double"}
	}
	return map[string]any{"type": "object"}
}

type swaggerDocer interface{ SwaggerDoc() map[string]string }

// object is a struct type's schema: its JSON fields, embedded structs
// flattened, each described by the type's SwaggerDoc.
func (g *schemaGen) object(t reflect.Type) map[string]any {
	props := map[string]any{}
	var required []string
	out := map[string]any{"type": "object", "properties": props}
	var add func(t reflect.Type)
	add = func(t reflect.Type) {
		var doc map[string]string
		if d, ok := reflect.New(t).Elem().Interface().(swaggerDocer); ok {
			doc = d.SwaggerDoc()
		}
		if d := doc[""]; d != "" && out["description"] == nil {
			out["description"] = d
		}
		for i := range t.NumField() {
			f := t.Field(i)
			tag := f.Tag.Get("json")
			name, opts, _ := strings.Cut(tag, ",")
			if tag == "-" || !f.IsExported() && !f.Anonymous {
				continue
			}
			if f.Anonymous && (name == "" || strings.Contains(opts, "inline")) && f.Type.Kind() == reflect.Struct {
				add(f.Type)
				continue
			}
			if name == "" {
				name = f.Name
			}
			s := g.schema(f.Type)
			if desc := doc[name]; desc != "" {
				if ref, isRef := s["$ref"]; isRef && g.v3 {
					s = map[string]any{"allOf": []any{map[string]any{"$ref": ref}}, "default": map[string]any{}}
				}
				s["description"] = desc
			}
			if v := f.Tag.Get("patchStrategy"); v != "" {
				s["x-kubernetes-patch-strategy"] = v
			}
			if v := f.Tag.Get("patchMergeKey"); v != "" {
				s["x-kubernetes-patch-merge-key"] = v
			}
			props[name] = s
			if !strings.Contains(opts, "omitempty") && f.Type.Kind() != reflect.Pointer && f.Type.Kind() != reflect.Struct {
				required = append(required, name)
			}
		}
	}
	add(t)
	if len(required) > 0 {
		sort.Strings(required)
		out["required"] = required
	}
	return out
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // maps of strings, slices and maps: it cannot fail
	}
	return b
}
