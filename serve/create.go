package serve

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podsim/podsim/manifests"
	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/scenarios"
)

// creatable are the resources kubectl create -f and kubectl apply -f may
// add to a run served with --allow-writes: what a scenario's manifests
// may hold (package manifests reads the body).
var creatable = map[string]bool{"pods": true, "deployments": true, "replicasets": true, "statefulsets": true,
	"daemonsets": true, "jobs": true, "cronjobs": true, "poddisruptionbudgets": true, "priorityclasses": true}

// maxCreateBody bounds a created object's manifest, as the API server
// bounds a request (3 MiB).
const maxCreateBody = 3 << 20

// create answers a POST to a collection: the object, read strictly as a
// manifest is (an unknown field is refused, as with kubectl's default
// fieldValidation=Strict; package manifests), is added to the world at
// the current virtual time, as a scenario's object is at 0, and answered
// 201 with what the store then has. Fields accepted but not simulated come
// back as the API server's Warning headers, which kubectl prints.
func (s *Server) create(w http.ResponseWriter, r *http.Request, q *request) {
	switch {
	case q.name != "" || q.sub != "" || !creatable[q.res.name]:
		writeError(w, simulation(r.Method, r.URL.Path))
		return
	case s.writes == nil:
		writeError(w, statusError(http.StatusMethodNotAllowed, metav1.StatusReasonMethodNotAllowed,
			"podsim serve is a simulation, read-only unless started with --allow-writes (kubectl create and apply add objects then)"))
		return
	case q.res.namespaced && q.namespace == "":
		writeError(w, apierrors.NewBadRequest("the namespace of the object must be in the path: /namespaces/NAMESPACE/"+q.res.name))
		return
	}
	data, err := io.ReadAll(io.LimitReader(r.Body, maxCreateBody+1))
	if err != nil || len(data) > maxCreateBody {
		writeError(w, apierrors.NewRequestEntityTooLargeError(fmt.Sprintf("the object is larger than %d bytes, or could not be read", maxCreateBody)))
		return
	}
	if !s.waitReady(r.Context()) {
		return // the client left before the world reached its frozen instant
	}
	sc, key, serr := s.readCreated(q, data)
	if serr != nil {
		writeError(w, serr)
		return
	}
	if _, _, ok := s.store.get(q.res.col, key); ok {
		writeError(w, apierrors.NewAlreadyExists(q.gr(), strings.TrimPrefix(key, q.namespace+"/")))
		return
	}
	if dry := r.URL.Query()["dryRun"]; len(dry) > 0 {
		writeError(w, statusError(http.StatusMethodNotAllowed, metav1.StatusReasonMethodNotAllowed,
			"podsim serve is a simulation: it cannot try a create without doing it (dryRun)"))
		return
	}
	name := key[strings.LastIndexByte(key, '/')+1:]
	req := faultWrite("kubectl create "+q.res.singular+" "+name,
		func(w *model.World) bool { return w.Pod(key) == nil && w.Workload(key) == nil },
		&scenarios.Fault{Create: scenarios.NewCreateFault(sc)})
	req.gone = apierrors.NewAlreadyExists(q.gr(), name)
	req.answer = func(s *Server, q *request) (int, any) {
		if snap, ok := s.store.last(q.res.col, key); ok {
			return http.StatusCreated, q.res.object(s.moment(), snap)
		}
		return http.StatusCreated, &metav1.Status{TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"}, Status: metav1.StatusSuccess}
	}
	for _, warn := range sc.Warnings {
		w.Header().Add("Warning", "299 - "+strconv.Quote(strings.TrimPrefix(warn.Msg, "warning: ")))
	}
	s.submit(w, r, q, req)
}

// readCreated reads a created object's manifest into a scenario holding
// it alone, in the request's namespace, and returns its key.
func (s *Server) readCreated(q *request, data []byte) (*scenarios.Scenario, string, *apierrors.StatusError) {
	if !manifests.IsManifest(data) {
		return nil, "", apierrors.NewBadRequest("the body is not a Kubernetes object (apiVersion and kind)")
	}
	sc, err := manifests.NewReader().Parse("the object", data)
	if err != nil {
		var list manifests.ErrorList
		if errors.As(err, &list) && len(list) > 0 {
			msgs := make([]string, len(list))
			for i, e := range list {
				msgs[i] = e.Msg
			}
			return nil, "", apierrors.NewBadRequest("strict decoding error: " + strings.Join(msgs, ", "))
		}
		return nil, "", apierrors.NewBadRequest(err.Error())
	}
	var meta *scenarios.ObjectMeta
	switch pods, wls := sc.Pods(), sc.Workloads(); {
	case q.res.name == "pods" && len(pods) == 1 && len(wls) == 0:
		meta = &pods[0].Metadata
	case q.res.name != "pods" && len(pods) == 0 && len(wls) == 1 && wls[0].Kind == q.res.kind:
		meta = &wls[0].Metadata
	default:
		return nil, "", apierrors.NewBadRequest(fmt.Sprintf("the body must be one %s", q.res.kind))
	}
	if !q.res.namespaced {
		return sc, meta.Name, nil
	}
	switch meta.Namespace {
	case "":
		meta.Namespace = q.namespace
	case q.namespace:
	default:
		return nil, "", apierrors.NewBadRequest("the namespace of the provided object does not match the namespace sent on the request")
	}
	return sc, model.Key(meta.Namespace, meta.Name), nil
}
