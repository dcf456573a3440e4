package serve

import (
	"fmt"
	"net/http"

	authorizationv1 "k8s.io/api/authorization/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// accessReviewPath is where clients ask what they may do
// (SelfSubjectAccessReview: kubectl auth can-i, k9s, Headlamp, Lens).
const accessReviewPath = "apis/authorization.k8s.io/v1/selfsubjectaccessreviews"

// accessReviews is the discovery entry of the authorization.k8s.io group,
// which serves only SelfSubjectAccessReviews.
var accessReviews = metav1.APIResource{Name: "selfsubjectaccessreviews", SingularName: "selfsubjectaccessreview",
	Kind: "SelfSubjectAccessReview", Verbs: metav1.Verbs{"create"}}

// accessReview answers a SelfSubjectAccessReview (POST, JSON or protobuf)
// with what podsim serve does: every read of what it serves; the writes it
// takes as faults, if started with --allow-writes; nothing else. There is
// no RBAC: every client is the same user.
func (s *Server) accessReview(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		writeError(w, simulation(r.Method, r.URL.Path))
		return
	}
	body, err := readBody(r)
	if err != nil {
		writeError(w, err)
		return
	}
	var review authorizationv1.SelfSubjectAccessReview
	gvk := schema.GroupVersionKind{Group: "authorization.k8s.io", Version: "v1", Kind: "SelfSubjectAccessReview"}
	if _, err := decodeBody(body, &gvk, &review); err != nil {
		writeError(w, apierrors.NewBadRequest("SelfSubjectAccessReview: "+err.Error()))
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
	if a == nil {
		return false, "podsim serve: the review names no resource"
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
