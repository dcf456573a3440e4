package serve

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"unicode"

	"go.yaml.in/yaml/v3"
	authorizationv1 "k8s.io/api/authorization/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	policyv1 "k8s.io/api/policy/v1"
	policyv1beta1 "k8s.io/api/policy/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	kjson "k8s.io/apimachinery/pkg/util/json"
)

// A request's body is decoded as the API machinery's universal deserializer
// decodes it (k8s.io/apimachinery/pkg/runtime/serializer: the recognizer
// picks JSON for a body starting with "{", protobuf for one starting with
// its prefix, else tries YAML; no defaulting, no conversion; unknown
// fields ignored), for the kinds that serve's handlers read. podsim does
// it itself, from the tables below, rather than with a runtime.Scheme and
// a CodecFactory: those link every serializer (CBOR, YAML, protobuf,
// json-iterator) into the binary and build the scheme, for four kinds.

// bodyKind is a kind a body may hold, and a new object of it.
type bodyKind struct {
	gvk schema.GroupVersionKind
	new func() bodyObject
}

// bodyObject is an object a body decodes into: an API object with its
// generated protobuf decoder.
type bodyObject interface {
	runtime.Object
	Reset()
	Unmarshal([]byte) error
}

// bodyKinds are the kinds a body may hold: DeleteOptions, in the core
// group first and in each group whose kinds it comes with (the scheme's
// AddToGroupVersion registers it there), Evictions, Scales,
// SelfSubjectAccessReviews and SelfSubjectRulesReviews. Another kind is not registered (a 400 answer).
var bodyKinds = []bodyKind{
	{schema.GroupVersionKind{Version: "v1", Kind: "DeleteOptions"}, func() bodyObject { return new(metav1.DeleteOptions) }},
	{policyv1.SchemeGroupVersion.WithKind("DeleteOptions"), func() bodyObject { return new(metav1.DeleteOptions) }},
	{policyv1beta1.SchemeGroupVersion.WithKind("DeleteOptions"), func() bodyObject { return new(metav1.DeleteOptions) }},
	{autoscalingv1.SchemeGroupVersion.WithKind("DeleteOptions"), func() bodyObject { return new(metav1.DeleteOptions) }},
	{authorizationv1.SchemeGroupVersion.WithKind("DeleteOptions"), func() bodyObject { return new(metav1.DeleteOptions) }},
	{policyv1.SchemeGroupVersion.WithKind("Eviction"), func() bodyObject { return new(policyv1.Eviction) }},
	{policyv1beta1.SchemeGroupVersion.WithKind("Eviction"), func() bodyObject { return new(policyv1beta1.Eviction) }},
	{autoscalingv1.SchemeGroupVersion.WithKind("Scale"), func() bodyObject { return new(autoscalingv1.Scale) }},
	{authorizationv1.SchemeGroupVersion.WithKind("SelfSubjectAccessReview"), func() bodyObject { return new(authorizationv1.SelfSubjectAccessReview) }},
	{authorizationv1.SchemeGroupVersion.WithKind("SelfSubjectRulesReview"), func() bodyObject { return new(authorizationv1.SelfSubjectRulesReview) }},
}

// bodyScheme names the kinds' table in a not-registered error.
const bodyScheme = "podsim serve"

// protobufPrefix starts a body in Kubernetes' protobuf encoding: a
// runtime.Unknown (apiVersion, kind and the object's bytes) follows.
var protobufPrefix = []byte("k8s\x00")

// decodeBody decodes a request's body. def, if not nil, fills in the kind,
// group and version the body does not give. into, if not nil, is of a kind
// in bodyKinds: it receives the body when the body's kind is one of its
// type's; a body of another kind is decoded into a new object of its kind.
// It returns the object decoded.
func decodeBody(body []byte, def *schema.GroupVersionKind, into bodyObject) (bodyObject, error) {
	switch {
	case bytes.HasPrefix(bytes.TrimLeftFunc(body, unicode.IsSpace), []byte("{")):
		return decodeJSON(body, def, into)
	case bytes.HasPrefix(body, protobufPrefix):
		return decodeProtobuf(body, def, into)
	}
	var v any
	if err := yaml.Unmarshal(body, &v); err != nil {
		return nil, fmt.Errorf("error converting YAML to JSON: %v", err)
	}
	js, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("error converting YAML to JSON: %v", err)
	}
	return decodeJSON(js, def, into)
}

// decodeJSON is the JSON serializer's Decode (serializer/json/json.go).
func decodeJSON(data []byte, def *schema.GroupVersionKind, into bodyObject) (bodyObject, error) {
	var find struct {
		APIVersion string `json:"apiVersion,omitempty"`
		Kind       string `json:"kind,omitempty"`
	}
	if err := json.Unmarshal(data, &find); err != nil {
		return nil, fmt.Errorf("couldn't get version/kind; json parse error: %v", err)
	}
	gv, err := schema.ParseGroupVersion(find.APIVersion)
	if err != nil {
		return nil, err
	}
	actual := gv.WithKind(find.Kind)
	if def != nil {
		actual = gvkWithDefaults(actual, *def)
	}
	if into != nil {
		actual = gvkWithDefaults(actual, bodyKindsOf(into)[0])
	}
	switch {
	case actual.Kind == "":
		return nil, runtime.NewMissingKindErr(string(data))
	case actual.Version == "":
		return nil, runtime.NewMissingVersionErr(string(data))
	}
	obj, err := useOrCreate(actual, into)
	if err != nil {
		return nil, err
	}
	if err := kjson.Unmarshal(data, obj); err != nil {
		return nil, err
	}
	return obj, nil
}

// gvkWithDefaults fills in what actual lacks from def as the JSON
// serializer does: the kind; the group and version if it has neither; the
// version if it has def's group.
func gvkWithDefaults(actual, def schema.GroupVersionKind) schema.GroupVersionKind {
	if actual.Kind == "" {
		actual.Kind = def.Kind
	}
	if actual.Version == "" && actual.Group == "" {
		actual.Group, actual.Version = def.Group, def.Version
	}
	if actual.Version == "" && actual.Group == def.Group {
		actual.Version = def.Version
	}
	return actual
}

// decodeProtobuf is the protobuf serializer's Decode
// (serializer/protobuf/protobuf.go); body starts with protobufPrefix.
func decodeProtobuf(body []byte, def *schema.GroupVersionKind, into bodyObject) (bodyObject, error) {
	if len(body) == len(protobufPrefix) {
		return nil, fmt.Errorf("empty body")
	}
	var unk runtime.Unknown
	if err := unk.Unmarshal(body[len(protobufPrefix):]); err != nil {
		return nil, err
	}
	actual := unk.GroupVersionKind()
	copyKindDefaults(&actual, def)
	if into != nil {
		first := bodyKindsOf(into)[0]
		copyKindDefaults(&actual, &first)
		if actual.Version == "" && actual.Group == "" {
			actual.Group = first.Group
		}
	}
	switch {
	case actual.Kind == "":
		return nil, runtime.NewMissingKindErr(fmt.Sprintf("%#v", unk.TypeMeta))
	case actual.Version == "":
		return nil, runtime.NewMissingVersionErr(fmt.Sprintf("%#v", unk.TypeMeta))
	}
	obj, err := useOrCreate(actual, into)
	if err != nil {
		return nil, err
	}
	obj.Reset()
	if err := obj.Unmarshal(unk.Raw); err != nil {
		return nil, err
	}
	obj.GetObjectKind().SetGroupVersionKind(actual)
	return obj, nil
}

// copyKindDefaults fills in what dst lacks from src as the protobuf
// serializer does: the kind; the group and version if it has no version.
func copyKindDefaults(dst, src *schema.GroupVersionKind) {
	if src == nil {
		return
	}
	if dst.Kind == "" {
		dst.Kind = src.Kind
	}
	if dst.Version == "" && src.Version != "" {
		dst.Group, dst.Version = src.Group, src.Version
	}
}

// bodyKindsOf returns the kinds of obj's type, the first first.
func bodyKindsOf(obj bodyObject) []schema.GroupVersionKind {
	var kinds []schema.GroupVersionKind
	t := reflect.TypeOf(obj)
	for _, k := range bodyKinds {
		if reflect.TypeOf(k.new()) == t {
			kinds = append(kinds, k.gvk)
		}
	}
	return kinds
}

// useOrCreate returns into if gvk is one of its kinds, else a new object
// of kind gvk (runtime.UseOrCreateObject).
func useOrCreate(gvk schema.GroupVersionKind, into bodyObject) (bodyObject, error) {
	if into != nil {
		for _, k := range bodyKindsOf(into) {
			if k == gvk {
				return into, nil
			}
		}
	}
	for _, k := range bodyKinds {
		if k.gvk == gvk {
			return k.new(), nil
		}
	}
	return nil, runtime.NewNotRegisteredErrForKind(bodyScheme, gvk)
}
