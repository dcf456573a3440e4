package serve

import (
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/report"
	"github.com/podsim/podsim/scenarios"
)

// A write podsim takes becomes the scenario fault of the same meaning,
// applied at the current virtual time by the goroutine that runs the
// world, so it shows in the timeline as a fault in the file would.
//
// writeRoutes is the one seam for writes: a route whose fault is nil is
// one the model cannot do yet, and is answered 405 naming the fault it
// waits for. Wiring it is giving it a fault.
var writeRoutes = []writeRoute{
	{method: http.MethodDelete, group: "", resource: "pods", what: "kubectl delete pod", fault: deletePod},
	{method: http.MethodPatch, group: "", resource: "nodes", what: "kubectl cordon / uncordon", needs: "cordon"},
	{method: http.MethodPost, group: "", resource: "pods", sub: "eviction", what: "kubectl drain (the eviction subresource)", needs: "drain"},
	{method: http.MethodPatch, group: "apps", resource: "deployments", sub: "scale", what: "kubectl scale", needs: "scale"},
	{method: http.MethodPut, group: "apps", resource: "deployments", sub: "scale", what: "kubectl scale", needs: "scale"},
	{method: http.MethodPatch, group: "apps", resource: "replicasets", sub: "scale", what: "kubectl scale", needs: "scale"},
	{method: http.MethodPut, group: "apps", resource: "replicasets", sub: "scale", what: "kubectl scale", needs: "scale"},
	{method: http.MethodPatch, group: "apps", resource: "deployments", what: "kubectl scale", needs: "scale"},
	{method: http.MethodPatch, group: "apps", resource: "replicasets", what: "kubectl scale", needs: "scale"},
}

type writeRoute struct {
	method, group, resource, sub string
	what                         string // what a user ran, for messages
	needs                        string // the fault it waits for, while fault is nil
	// fault turns the request into the scenario fault (and says it in
	// words for the log), or answers it with an API error.
	fault func(q *request, r *http.Request) (*scenarios.Fault, string, *apierrors.StatusError)
}

// writeReq is a fault on its way to the world.
type writeReq struct {
	fault *scenarios.Fault
	check func(w *model.World) *apierrors.StatusError // on the run goroutine, before the fault
	what  string
	done  chan *apierrors.StatusError
}

// write answers a request that would change the cluster.
func (s *Server) write(w http.ResponseWriter, r *http.Request, q *request) {
	var route *writeRoute
	for i := range writeRoutes {
		rt := &writeRoutes[i]
		if rt.method == r.Method && rt.group == q.res.group && rt.resource == q.res.name && rt.sub == q.sub && q.name != "" {
			route = rt
		}
	}
	switch {
	case route == nil:
		writeError(w, simulation(r.Method, r.URL.Path))
		return
	case s.writes == nil:
		writeError(w, statusError(http.StatusMethodNotAllowed, metav1.StatusReasonMethodNotAllowed,
			fmt.Sprintf("podsim serve is a simulation, read-only unless started with --allow-writes (%s becomes a scenario fault then)", route.what)))
		return
	case route.fault == nil:
		writeError(w, statusError(http.StatusMethodNotAllowed, metav1.StatusReasonMethodNotAllowed,
			fmt.Sprintf("podsim serve is a simulation: %s becomes the scenario fault %q, which podsim does not model yet", route.what, route.needs)))
		return
	}
	snap, _, ok := s.store.get(q.res.col, q.name)
	if !ok || snap.base().namespace != q.namespace {
		writeError(w, apierrors.NewNotFound(q.gr(), q.name))
		return
	}
	f, what, err := route.fault(q, r)
	if err != nil {
		writeError(w, err)
		return
	}
	if dry := r.URL.Query()["dryRun"]; len(dry) > 0 {
		s.getObject(w, q, format{}, "")
		return
	}
	req := &writeReq{fault: f, what: what, done: make(chan *apierrors.StatusError, 1),
		check: func(w *model.World) *apierrors.StatusError {
			if p := w.Pod(q.name); p == nil || p.Deleted() {
				return apierrors.NewNotFound(q.gr(), q.name)
			}
			return nil
		}}
	select {
	case s.writes <- req:
	case <-s.done:
		writeError(w, apierrors.NewServiceUnavailable("podsim serve is stopping"))
		return
	case <-r.Context().Done():
		return
	}
	if err := <-req.done; err != nil {
		writeError(w, err)
		return
	}
	// The object as the write left it: a pod whose containers stopped at
	// once is gone already, and the answer is its last state.
	if last, ok := s.store.last(q.res.col, q.name); ok {
		snap = last
	}
	writeJSON(w, http.StatusOK, q.res.object(s.moment(), snap))
}

// apply runs a write's fault on the world at virtual time t (the world's
// own goroutine): the clock moves to t, the fault acts, and what follows
// at the same instant (a ReplicaSet replacing a deleted pod) runs.
func (s *Server) apply(req *writeReq, t time.Duration) {
	w := s.world
	w.Run(t)
	if err := req.check(w); err != nil {
		req.done <- err
		return
	}
	s.sc.ApplyFault(w, req.fault)
	w.Run(t)
	s.store.setNow(t)
	fmt.Fprintf(s.log, "podsim serve: at %s: %s\n", report.FormatTime(t), req.what)
	req.done <- nil
}

// deleteOptionsCodec decodes DeleteOptions as clients send them: JSON,
// or protobuf (kubectl drain's deletes).
var deleteOptionsCodec = func() runtime.Decoder {
	scheme := runtime.NewScheme()
	metav1.AddToGroupVersion(scheme, schema.GroupVersion{Version: "v1"})
	return serializer.NewCodecFactory(scheme).UniversalDeserializer()
}()

// deletePod is `kubectl delete pod`: the scenario's delete fault, with
// the grace period of the request's DeleteOptions (or gracePeriodSeconds
// parameter) if it names one, else the pod's own.
func deletePod(q *request, r *http.Request) (*scenarios.Fault, string, *apierrors.StatusError) {
	var opts metav1.DeleteOptions
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil {
		return nil, "", apierrors.NewBadRequest(err.Error())
	}
	if len(body) > 0 {
		if _, _, err := deleteOptionsCodec.Decode(body, nil, &opts); err != nil {
			return nil, "", apierrors.NewBadRequest("DeleteOptions: " + err.Error())
		}
	}
	if g := r.URL.Query().Get("gracePeriodSeconds"); g != "" {
		n, err := strconv.ParseInt(g, 10, 64)
		if err != nil {
			return nil, "", apierrors.NewBadRequest("gracePeriodSeconds: want a number of seconds, not " + strconv.Quote(g))
		}
		opts.GracePeriodSeconds = &n
	}
	if opts.Preconditions != nil && opts.Preconditions.UID != nil && string(*opts.Preconditions.UID) != uid("Pod", q.name) {
		return nil, "", apierrors.NewConflict(schema.GroupResource{Resource: "pods"}, q.name,
			fmt.Errorf("the UID in the precondition (%s) does not match the UID in record (%s)", *opts.Preconditions.UID, uid("Pod", q.name)))
	}
	f := &scenarios.Fault{Delete: &scenarios.DeleteFault{Pod: q.name}}
	what := "kubectl delete pod " + q.name
	if g := opts.GracePeriodSeconds; g != nil {
		if *g < 0 {
			return nil, "", apierrors.NewBadRequest("gracePeriodSeconds must not be negative")
		}
		f.Delete.GracePeriodSeconds = g
		what += fmt.Sprintf(" --grace-period=%d", *g)
	}
	return f, what + " (fault delete)", nil
}
