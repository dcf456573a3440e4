package serve

import (
	"encoding/json"
	"fmt"
	"net/http"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	k8sversion "k8s.io/apimachinery/pkg/version"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/sim"
)

// ServeHTTP answers one request of the Kubernetes API. A request it cannot
// answer gets a Status object with the right code; a handler that panics
// answers 500, it never takes the server down.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			fmt.Fprintf(s.log, "podsim serve: %s %s: internal error: %v\n%s", r.Method, r.URL, v, debug.Stack())
			writeError(w, apierrors.NewInternalError(fmt.Errorf("%v", v)))
		}
	}()
	path := strings.Trim(r.URL.Path, "/")
	switch path {
	case "version":
		s.get(w, r, func() any { return serverVersion })
		return
	case "api":
		s.get(w, r, func() any {
			return &metav1.APIVersions{TypeMeta: metav1.TypeMeta{Kind: "APIVersions"}, Versions: []string{"v1"},
				ServerAddressByClientCIDRs: []metav1.ServerAddressByClientCIDR{{ClientCIDR: "0.0.0.0/0", ServerAddress: r.Host}}}
		})
		return
	case "apis":
		s.get(w, r, func() any { return groupList() })
		return
	case accessReviewPath:
		s.accessReview(w, r)
		return
	case rulesReviewPath:
		s.rulesReview(w, r)
		return
	case "healthz", "livez", "readyz":
		// Health checks (kubectl get --raw /readyz, UIs' probes): the
		// server is up.
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			writeError(w, simulation(r.Method, r.URL.Path))
			return
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		fmt.Fprint(w, "ok")
		return
	}
	if path == "openapi/v2" || path == "openapi/v3" || strings.HasPrefix(path, "openapi/v3/") {
		s.openAPI(w, r, path)
		return
	}
	segs := strings.Split(path, "/")
	var gv string
	switch {
	case len(segs) >= 2 && segs[0] == "api":
		gv, segs = segs[1], segs[2:]
	case len(segs) == 2 && segs[0] == "apis":
		if g := findGroup(segs[1]); g != nil {
			s.get(w, r, func() any { return g })
			return
		}
		writeError(w, apierrors.NewNotFound(schema.GroupResource{}, path))
		return
	case len(segs) >= 3 && segs[0] == "apis":
		gv, segs = segs[1]+"/"+segs[2], segs[3:]
	default:
		writeError(w, notFound(path))
		return
	}
	if len(segs) == 0 {
		if l := resourceList(gv, s.writes != nil); l != nil {
			s.get(w, r, func() any { return l })
			return
		}
		writeError(w, notFound(path))
		return
	}
	if (r.Method == http.MethodGet || r.Method == http.MethodHead) && !s.waitReady(r.Context()) {
		return // the client left before the world reached its frozen instant
	}
	if gv == metricsGV {
		s.metrics(w, r, segs)
		return
	}
	var req request
	req.gv = gv
	// [namespaces NS] RESOURCE [NAME [SUBRESOURCE]]
	if segs[0] == "namespaces" && len(segs) >= 3 {
		if segs[1] == "" { // namespaces//pods: no namespace is not every namespace
			writeError(w, notFound(path))
			return
		}
		req.namespace, segs = segs[1], segs[2:]
	}
	req.res = findResource(gv, segs[0])
	if req.res == nil || len(segs) > 3 || req.namespace != "" && !req.res.namespaced {
		writeError(w, notFound(path))
		return
	}
	if len(segs) >= 2 {
		req.name = segs[1]
	}
	if len(segs) == 3 {
		req.sub = segs[2]
	}
	s.resource(w, r, &req)
}

// request is a request for a resource: its collection or one object.
type request struct {
	gv        string
	res       *apiResource
	namespace string // "" for every namespace, or a cluster-scoped resource
	name      string // "" for the collection
	sub       string // a subresource
}

// key is the store's and the world's key of the object the request names
// (model.Key).
func (q *request) key() string { return model.Key(q.namespace, q.name) }

// nsFlag is kubectl's -n flag for the request's namespace, "" for default.
func (q *request) nsFlag() string {
	if q.namespace == "" || q.namespace == model.DefaultNamespace {
		return ""
	}
	return " -n " + q.namespace
}

func (q *request) gr() schema.GroupResource {
	return schema.GroupResource{Group: q.res.group, Resource: q.res.name}
}

func notFound(path string) *apierrors.StatusError {
	return statusError(http.StatusNotFound, metav1.StatusReasonNotFound,
		fmt.Sprintf("the server could not find the requested resource (%s)", path))
}

// serverVersion is what /version says: the Kubernetes version of the API
// types podsim serves. (runtime.Version is what debug.ReadBuildInfo's
// GoVersion says, without parsing the build information at start-up.)
var serverVersion = &k8sversion.Info{Major: "1", Minor: "37", GitVersion: KubeletVersion + "+podsim", GitTreeState: "clean",
	GoVersion: runtime.Version(), Compiler: "gc", Platform: "linux/amd64"}

// get answers a GET of a fixed document.
func (s *Server) get(w http.ResponseWriter, r *http.Request, doc func() any) {
	if r.Method != http.MethodGet {
		writeError(w, simulation(r.Method, r.URL.Path))
		return
	}
	writeJSON(w, http.StatusOK, doc())
}

// simulation is the answer to a request podsim does not take: 405 with a
// Status saying why.
func simulation(method, path string) *apierrors.StatusError {
	return statusError(http.StatusMethodNotAllowed, metav1.StatusReasonMethodNotAllowed,
		fmt.Sprintf("podsim serve is a simulation: %s %s is not something it can do (it serves get, list and watch; "+
			"with --allow-writes, kubectl create and apply -f, delete pod, cordon, uncordon, drain, scale, set image, rollout undo and patch --subresource resize)", method, path))
}

// statusError is an API error whose message is msg (the API machinery's
// generic errors write their own).
func statusError(code int, reason metav1.StatusReason, msg string) *apierrors.StatusError {
	return &apierrors.StatusError{ErrStatus: metav1.Status{Status: metav1.StatusFailure, Code: int32(code), Reason: reason, Message: msg}}
}

func writeError(w http.ResponseWriter, err *apierrors.StatusError) {
	st := err.Status()
	st.TypeMeta = metav1.TypeMeta{Kind: "Status", APIVersion: "v1"}
	writeJSON(w, int(st.Code), &st)
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		code = http.StatusInternalServerError
		b, _ = json.Marshal(apierrors.NewInternalError(err).Status())
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	w.Write(append(b, '\n'))
}

// overBudgetError answers a write to a run that stopped over its event
// budget at t: 503, the cluster stays as it was.
func overBudgetError(t time.Duration) *apierrors.StatusError {
	return statusError(http.StatusServiceUnavailable, metav1.StatusReasonServiceUnavailable,
		fmt.Sprintf("the run stopped over its event budget at %s: the cluster stays as it was and takes no writes (serve it again with a larger --max-events)", sim.FormatTime(t)))
}
