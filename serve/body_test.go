package serve

import (
	"bytes"
	"reflect"
	"testing"

	authorizationv1 "k8s.io/api/authorization/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	policyv1 "k8s.io/api/policy/v1"
	policyv1beta1 "k8s.io/api/policy/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/runtime/serializer/protobuf"
)

// universal is the API machinery's universal deserializer over a scheme
// of the kinds a write reads: what decodeBody must agree with.
func universal(t *testing.T) runtime.Decoder {
	t.Helper()
	scheme := runtime.NewScheme()
	metav1.AddToGroupVersion(scheme, schema.GroupVersion{Version: "v1"})
	for _, add := range []func(*runtime.Scheme) error{policyv1.AddToScheme, policyv1beta1.AddToScheme, autoscalingv1.AddToScheme,
		authorizationv1.AddToScheme} {
		if err := add(scheme); err != nil {
			t.Fatal(err)
		}
	}
	return serializer.NewCodecFactory(scheme).UniversalDeserializer()
}

// pb is obj in Kubernetes' protobuf encoding, as typed clients send it.
func pb(t *testing.T, obj runtime.Object) string {
	t.Helper()
	var buf bytes.Buffer
	if err := protobuf.NewSerializer(runtime.NewScheme(), nil).Encode(obj, &buf); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// TestDecodeBodyAsTheUniversalDeserializer: every body serve reads
// decodes as the API machinery's universal deserializer decodes it (the
// same object, or an error for both), in JSON, protobuf and YAML, with and
// without apiVersion and kind.
func TestDecodeBodyAsTheUniversalDeserializer(t *testing.T) {
	grace := int64(7)
	eviction := &policyv1.Eviction{TypeMeta: metav1.TypeMeta{Kind: "Eviction", APIVersion: "policy/v1"},
		ObjectMeta: metav1.ObjectMeta{Name: "web-0", Namespace: "shop"}, DeleteOptions: &metav1.DeleteOptions{GracePeriodSeconds: &grace}}
	evictionBeta := &policyv1beta1.Eviction{TypeMeta: metav1.TypeMeta{Kind: "Eviction", APIVersion: "policy/v1beta1"},
		ObjectMeta: metav1.ObjectMeta{Name: "web-0"}}
	noKind := &policyv1.Eviction{ObjectMeta: metav1.ObjectMeta{Name: "web-0"}}
	scale := &autoscalingv1.Scale{TypeMeta: metav1.TypeMeta{Kind: "Scale", APIVersion: "autoscaling/v1"},
		ObjectMeta: metav1.ObjectMeta{Name: "web", ResourceVersion: "4"}, Spec: autoscalingv1.ScaleSpec{Replicas: 3}}
	review := &authorizationv1.SelfSubjectAccessReview{TypeMeta: metav1.TypeMeta{Kind: "SelfSubjectAccessReview", APIVersion: "authorization.k8s.io/v1"},
		Spec: authorizationv1.SelfSubjectAccessReviewSpec{ResourceAttributes: &authorizationv1.ResourceAttributes{Verb: "list", Resource: "pods"}}}
	reviewKind := &schema.GroupVersionKind{Group: "authorization.k8s.io", Version: "v1", Kind: "SelfSubjectAccessReview"}
	evictionKind := &schema.GroupVersionKind{Group: "policy", Version: "v1", Kind: "Eviction"}
	scaleKind := &schema.GroupVersionKind{Group: "autoscaling", Version: "v1", Kind: "Scale"}
	for _, tc := range []struct {
		name string
		body string
		def  *schema.GroupVersionKind
		into func() bodyObject // nil: none
	}{
		{"eviction json", `{"kind":"Eviction","apiVersion":"policy/v1","metadata":{"name":"web-0"},"deleteOptions":{"gracePeriodSeconds":3}}`, evictionKind, nil},
		{"eviction json v1beta1", `{"kind":"Eviction","apiVersion":"policy/v1beta1","metadata":{"name":"web-0"}}`, evictionKind, nil},
		{"eviction json without kind", `  {"metadata":{"name":"web-0"}}`, evictionKind, nil},
		{"eviction json group only", `{"apiVersion":"policy/","metadata":{"name":"web-0"}}`, evictionKind, nil},
		{"eviction json other group", `{"apiVersion":"apps/v1","kind":"Eviction"}`, evictionKind, nil},
		{"eviction json case", `{"kind":"Eviction","apiVersion":"policy/v1","Metadata":{"name":"web-0"}}`, evictionKind, nil},
		{"eviction json unknown field", `{"kind":"Eviction","apiVersion":"policy/v1","metadata":{"name":"web-0"},"extra":1}`, evictionKind, nil},
		{"eviction of delete options", `{"kind":"DeleteOptions","apiVersion":"v1"}`, evictionKind, nil},
		{"eviction of an unregistered kind", `{"kind":"Pod","apiVersion":"v1"}`, evictionKind, nil},
		{"eviction json broken", `{`, evictionKind, nil},
		{"eviction json bad apiVersion", `{"apiVersion":"a/b/c"}`, evictionKind, nil},
		{"eviction json wrong type", `{"kind":"Eviction","apiVersion":"policy/v1","metadata":{"name":5}}`, evictionKind, nil},
		{"eviction protobuf", pb(t, eviction), evictionKind, nil},
		{"eviction protobuf v1beta1", pb(t, evictionBeta), evictionKind, nil},
		{"eviction protobuf without kind", pb(t, noKind), evictionKind, nil},
		{"eviction protobuf empty", "k8s\x00", evictionKind, nil},
		{"eviction protobuf broken", "k8s\x00\x0a\xff", evictionKind, nil},
		{"eviction yaml", "kind: Eviction\napiVersion: policy/v1\nmetadata: {name: web-0}\n", evictionKind, nil},
		{"eviction yaml broken", "kind: [", evictionKind, nil},
		{"eviction empty", "", evictionKind, nil},
		{"delete options", `{"kind":"DeleteOptions","apiVersion":"v1","gracePeriodSeconds":0,"preconditions":{"uid":"u"}}`, nil, newDeleteOptions},
		{"delete options bare", `{"gracePeriodSeconds":2,"propagationPolicy":"Background"}`, nil, newDeleteOptions},
		{"delete options of policy", `{"kind":"DeleteOptions","apiVersion":"policy/v1beta1","dryRun":["All"]}`, nil, newDeleteOptions},
		{"delete options meta", `{"kind":"DeleteOptions","apiVersion":"meta.k8s.io/v1"}`, nil, newDeleteOptions},
		{"delete options of another kind", `{"kind":"Scale","apiVersion":"autoscaling/v1","metadata":{"name":"x"}}`, nil, newDeleteOptions},
		{"delete options protobuf", pb(t, &metav1.DeleteOptions{TypeMeta: metav1.TypeMeta{Kind: "DeleteOptions", APIVersion: "v1"}, GracePeriodSeconds: &grace}), nil, newDeleteOptions},
		{"delete options protobuf without kind", pb(t, &metav1.DeleteOptions{GracePeriodSeconds: &grace}), nil, newDeleteOptions},
		{"scale", `{"kind":"Scale","apiVersion":"autoscaling/v1","metadata":{"name":"web","resourceVersion":"1"},"spec":{"replicas":2}}`, scaleKind, newScale},
		{"scale bare", `{"metadata":{"name":"web"},"spec":{"replicas":2}}`, scaleKind, newScale},
		{"scale protobuf", pb(t, scale), scaleKind, newScale},
		{"scale of an unregistered version", `{"kind":"Scale","apiVersion":"autoscaling/v2"}`, scaleKind, newScale},
		{"access review", `{"kind":"SelfSubjectAccessReview","apiVersion":"authorization.k8s.io/v1","spec":{"resourceAttributes":{"verb":"delete","resource":"pods"}}}`, reviewKind, newReview},
		{"access review bare", `{"spec":{"nonResourceAttributes":{"verb":"get","path":"/healthz"}}}`, reviewKind, newReview},
		{"access review protobuf", pb(t, review), reviewKind, newReview},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var into, wantInto bodyObject
			var uInto runtime.Object
			if tc.into != nil {
				into, wantInto = tc.into(), tc.into()
				uInto = wantInto
			}
			want, _, werr := universal(t).Decode([]byte(tc.body), tc.def, uInto)
			got, err := decodeBody([]byte(tc.body), tc.def, into)
			if (err != nil) != (werr != nil) {
				t.Fatalf("error %v, want %v", err, werr)
			}
			if err != nil {
				return
			}
			if !reflect.DeepEqual(runtime.Object(got), want) {
				t.Errorf("decoded %#v, want %#v", got, want)
			}
			if (into != nil && runtime.Object(got) == runtime.Object(into)) != (uInto != nil && want == uInto) {
				t.Errorf("decoded into the given object: %v, want %v", runtime.Object(got) == runtime.Object(into), want == uInto)
			}
		})
	}
}

// A kind that no handler reads is refused as not registered, where the
// scheme of its group would have decoded it for the handler to ignore.
func TestDecodeBodyRefusesOtherKinds(t *testing.T) {
	def := &schema.GroupVersionKind{Group: "authorization.k8s.io", Version: "v1", Kind: "SelfSubjectAccessReview"}
	for _, body := range []string{`{"kind":"SubjectAccessReview","apiVersion":"authorization.k8s.io/v1"}`,
		`{"kind":"PodDisruptionBudget","apiVersion":"policy/v1"}`, `{"kind":"Status","apiVersion":"v1"}`} {
		if _, err := decodeBody([]byte(body), def, newReview()); !runtime.IsNotRegisteredError(err) {
			t.Errorf("%s: error %v, want not registered", body, err)
		}
	}
}

func newDeleteOptions() bodyObject { return new(metav1.DeleteOptions) }
func newScale() bodyObject         { return new(autoscalingv1.Scale) }
func newReview() bodyObject        { return new(authorizationv1.SelfSubjectAccessReview) }
