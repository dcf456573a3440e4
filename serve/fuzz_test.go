package serve

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// FuzzRequests: whatever a client sends (a write's path, patch type and
// body, a review), podsim serve answers with a Status or an object, never
// a panic (which it would answer 500 and log).
func FuzzRequests(f *testing.F) {
	for _, seed := range []struct{ method, path, typ, body string }{
		{"PATCH", "/apis/apps/v1/namespaces/default/deployments/web", strategicPatch,
			`{"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"app"}],"containers":[{"image":"x:2","name":"app"}]}}}}`},
		{"PATCH", "/apis/apps/v1/namespaces/default/deployments/web", jsonPatch,
			`[{"op":"replace","path":"/spec/template","value":{"spec":{"containers":[{"name":"app","image":"x:1"}]}}}]`},
		{"PATCH", "/apis/apps/v1/namespaces/default/deployments/web/scale", mergePatch, `{"spec":{"replicas":2}}`},
		{"POST", "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews", "application/json",
			`{"kind":"SelfSubjectAccessReview","apiVersion":"authorization.k8s.io/v1","spec":{"resourceAttributes":{"verb":"get","resource":"pods"}}}`},
		{"POST", "/apis/authorization.k8s.io/v1/selfsubjectrulesreviews", "application/json", `{"spec":{"namespace":"default"}}`},
		{"POST", "/api/v1/namespaces/default/pods/web-0/eviction", "application/json", `{"apiVersion":"policy/v1","kind":"Eviction","metadata":{"name":"web-0"}}`},
		{"DELETE", "/api/v1/namespaces/default/pods/web-1", "application/json", `{"gracePeriodSeconds":0}`},
		{"PATCH", "/api/v1/nodes/node-a", strategicPatch, `{"spec":{"unschedulable":true}}`},
	} {
		f.Add(seed.method, seed.path, seed.typ, seed.body)
	}
	p := play(f, "../scenarios/rollouts/rolling-update.yaml", Options{At: 90 * time.Second, AllowWrites: true})
	p.freeze(f)
	f.Fuzz(func(t *testing.T, method, path, typ, body string) {
		switch method {
		case "GET", "POST", "PUT", "PATCH", "DELETE":
		default:
			return
		}
		r := httptest.NewRequest(method, "/", strings.NewReader(body))
		r.URL.Path = "/" + strings.TrimLeft(path, "/")
		r.Header.Set("Content-Type", typ)
		w := httptest.NewRecorder()
		p.srv.ServeHTTP(w, r)
		if w.Code == http.StatusInternalServerError {
			t.Fatalf("%s %s (%s) %q: 500 %s", method, path, typ, body, w.Body.String())
		}
	})
}
