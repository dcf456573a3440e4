package serve

import (
	"fmt"
	"net/http"

	authorizationv1 "k8s.io/api/authorization/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Where clients ask what they may do: one action
// (SelfSubjectAccessReview: kubectl auth can-i, k9s, Headlamp, Lens), or
// everything in a namespace (SelfSubjectRulesReview: kubectl auth can-i
// --list).
const (
	accessReviewPath = "apis/authorization.k8s.io/v1/selfsubjectaccessreviews"
	rulesReviewPath  = "apis/authorization.k8s.io/v1/selfsubjectrulesreviews"
)

// reviewResources are the discovery entries of the authorization.k8s.io
// group, which serves only these two.
var reviewResources = []metav1.APIResource{
	{Name: "selfsubjectaccessreviews", SingularName: "selfsubjectaccessreview", Kind: "SelfSubjectAccessReview", Verbs: metav1.Verbs{"create"}},
	{Name: "selfsubjectrulesreviews", SingularName: "selfsubjectrulesreview", Kind: "SelfSubjectRulesReview", Verbs: metav1.Verbs{"create"}},
}

// readPaths are the paths podsim serves besides its resources.
var readPaths = []string{"/version", "/api", "/api/*", "/apis", "/apis/*", "/healthz", "/livez", "/readyz"}

// accessReview answers a SelfSubjectAccessReview (POST, JSON or protobuf)
// with what podsim serve does: every read of what it serves; the writes it
// takes as faults, if started with --allow-writes; nothing else. There is
// no RBAC: every client is the same user.
func (s *Server) accessReview(w http.ResponseWriter, r *http.Request) {
	var review authorizationv1.SelfSubjectAccessReview
	gvk, ok := readReview(w, r, "SelfSubjectAccessReview", &review)
	if !ok {
		return
	}
	if (review.Spec.ResourceAttributes == nil) == (review.Spec.NonResourceAttributes == nil) {
		// As the API's validation (ValidateSelfSubjectAccessReviewSpec).
		writeError(w, invalid("SelfSubjectAccessReview", "", "spec.resourceAttributes",
			"exactly one of nonResourceAttributes or resourceAttributes must be specified"))
		return
	}
	review.Status.Allowed, review.Status.Reason = s.allowed(&review.Spec)
	if !review.Status.Allowed {
		review.Status.Denied = false // no RBAC to deny it: podsim simply does not do it
	}
	review.TypeMeta = metav1.TypeMeta{Kind: gvk.Kind, APIVersion: gvk.GroupVersion().String()}
	writeJSON(w, http.StatusCreated, &review)
}

// allowed says whether podsim serve does what a review asks, and why.
func (s *Server) allowed(spec *authorizationv1.SelfSubjectAccessReviewSpec) (bool, string) {
	if n := spec.NonResourceAttributes; n != nil {
		if n.Verb == "get" {
			return true, "podsim serve: every read is allowed"
		}
		return false, "podsim serve is a simulation: it answers only get on " + n.Path
	}
	a := spec.ResourceAttributes
	if a.Group == "authorization.k8s.io" && a.Verb == "create" && a.Subresource == "" &&
		(a.Resource == reviewResources[0].Name || a.Resource == reviewResources[1].Name) {
		return true, "podsim serve: anyone may ask what it may do"
	}
	var res *apiResource
	for _, r := range resources {
		if r.group == a.Group && r.name == a.Resource {
			res = r
		}
	}
	if res == nil {
		return false, fmt.Sprintf("podsim serve does not serve %s", schema.GroupResource{Group: a.Group, Resource: a.Resource})
	}
	switch a.Verb {
	case "get", "list", "watch":
		if a.Subresource == "" || a.Subresource == "scale" && res.scalable() {
			return true, "podsim serve: every read is allowed"
		}
		return false, fmt.Sprintf("podsim serve is a simulation: it does not serve %s/%s", a.Resource, a.Subresource)
	}
	for i := range writeRoutes {
		rt := &writeRoutes[i]
		if rt.group == a.Group && rt.resource == a.Resource && rt.sub == a.Subresource && verb(rt.method) == a.Verb {
			if s.writes == nil {
				return false, fmt.Sprintf("podsim serve is read-only unless started with --allow-writes (%s)", rt.what)
			}
			return true, fmt.Sprintf("podsim serve takes %s as a fault at the current virtual time", rt.what)
		}
	}
	return false, fmt.Sprintf("podsim serve is a simulation: it does not %s %s", a.Verb, schema.GroupResource{Group: a.Group, Resource: a.Resource})
}

// rulesReview answers a SelfSubjectRulesReview with every action podsim
// serve allows (see allowed), in any namespace.
func (s *Server) rulesReview(w http.ResponseWriter, r *http.Request) {
	var review authorizationv1.SelfSubjectRulesReview
	gvk, ok := readReview(w, r, "SelfSubjectRulesReview", &review)
	if !ok {
		return
	}
	st := &review.Status
	st.ResourceRules = append(st.ResourceRules, authorizationv1.ResourceRule{Verbs: []string{"create"},
		APIGroups: []string{"authorization.k8s.io"}, Resources: []string{reviewResources[0].Name, reviewResources[1].Name}})
	for _, res := range resources {
		names := []string{res.name}
		if res.scalable() {
			names = append(names, res.name+"/scale")
		}
		st.ResourceRules = append(st.ResourceRules, authorizationv1.ResourceRule{Verbs: []string{"get", "list", "watch"},
			APIGroups: []string{res.group}, Resources: names})
	}
	if s.writes != nil {
		for i := range writeRoutes {
			rt := &writeRoutes[i]
			name := rt.resource
			if rt.sub != "" {
				name += "/" + rt.sub
			}
			st.ResourceRules = append(st.ResourceRules, authorizationv1.ResourceRule{Verbs: []string{verb(rt.method)},
				APIGroups: []string{rt.group}, Resources: []string{name}})
		}
	}
	st.NonResourceRules = []authorizationv1.NonResourceRule{{Verbs: []string{"get"}, NonResourceURLs: readPaths}}
	review.TypeMeta = metav1.TypeMeta{Kind: gvk.Kind, APIVersion: gvk.GroupVersion().String()}
	writeJSON(w, http.StatusCreated, &review)
}

// readReview reads a review of kind (POST, JSON or protobuf) into review,
// or answers the request with why not (ok false).
func readReview(w http.ResponseWriter, r *http.Request, kind string, review bodyObject) (gvk schema.GroupVersionKind, ok bool) {
	gvk = schema.GroupVersionKind{Group: "authorization.k8s.io", Version: "v1", Kind: kind}
	if r.Method != http.MethodPost {
		writeError(w, simulation(r.Method, r.URL.Path))
		return gvk, false
	}
	body, err := readBody(r)
	if err != nil {
		writeError(w, err)
		return gvk, false
	}
	if _, err := decodeBody(body, &gvk, review); err != nil {
		writeError(w, apierrors.NewBadRequest(kind+": "+err.Error()))
		return gvk, false
	}
	return gvk, true
}
