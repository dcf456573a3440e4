package serve

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"mime"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	autoscalingv1 "k8s.io/api/autoscaling/v1"
	policyv1 "k8s.io/api/policy/v1"
	policyv1beta1 "k8s.io/api/policy/v1beta1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/scenarios"
	"github.com/podsim/podsim/sim"
)

// A write podsim takes is done by the goroutine that runs the world,
// between two events, at the current virtual time. It is the scenario
// fault of the same meaning (a delete, a cordon, a scale, an eviction,
// which a disruption budget may refuse, a create from manifests), done
// through the scenario's one table of fault kinds, so that it shows in the
// timeline as that fault in the file would.
//
// writeRoutes is the one seam for writes: a request that no route takes is
// answered 405, saying the server is a simulation.
var writeRoutes = []writeRoute{
	{method: http.MethodDelete, resource: "pods", what: "kubectl delete pod", prepare: deletePod},
	{method: http.MethodPatch, resource: "nodes", what: "kubectl cordon / uncordon", prepare: patchNode},
	{method: http.MethodPost, resource: "pods", sub: "eviction", what: "kubectl drain (the eviction subresource)", prepare: evictPod},
	{method: http.MethodPatch, resource: "pods", sub: "resize", what: "kubectl patch --subresource resize", prepare: patchResize},
	{method: http.MethodPatch, group: "apps", resource: "deployments", sub: "scale", what: "kubectl scale", prepare: patchScale},
	{method: http.MethodPut, group: "apps", resource: "deployments", sub: "scale", what: "kubectl scale", prepare: putScale},
	{method: http.MethodPatch, group: "apps", resource: "replicasets", sub: "scale", what: "kubectl scale", prepare: patchScale},
	{method: http.MethodPut, group: "apps", resource: "replicasets", sub: "scale", what: "kubectl scale", prepare: putScale},
	{method: http.MethodPatch, group: "apps", resource: "statefulsets", sub: "scale", what: "kubectl scale", prepare: patchScale},
	{method: http.MethodPut, group: "apps", resource: "statefulsets", sub: "scale", what: "kubectl scale", prepare: putScale},
	{method: http.MethodPatch, group: "apps", resource: "deployments", what: "kubectl scale, set image, rollout undo", prepare: patchDeployment},
	{method: http.MethodPatch, group: "apps", resource: "replicasets", what: "kubectl scale", prepare: patchReplicas},
}

type writeRoute struct {
	method, group, resource, sub string
	what                         string // what a user ran, for messages
	// prepare reads the request into the write it asks for, off the run
	// goroutine; snap is the object as the store has it. An error is the
	// answer.
	prepare func(q *request, r *http.Request, snap snapshot) (*writeReq, *apierrors.StatusError)
}

// writeReq is a write on its way to the world: a scenario fault, done
// through the scenario's table of fault kinds (whose refusal, an
// eviction's, is the answer).
type writeReq struct {
	what   string                    // the server log's words for it
	exists func(w *model.World) bool // its object is still there when it reaches the world
	gone   *apierrors.StatusError    // the answer if it is not
	fault  *scenarios.Fault
	// answer is the response once the write is done (or at once, for a dry
	// run); nil answers the object as the write left it.
	answer func(s *Server, q *request) (int, any)
	done   chan *apierrors.StatusError
}

// mustDo reports whether the write's answer depends on doing it, so that
// a dry run cannot be answered: a create, or an eviction, which a
// disruption budget may refuse.
func (req *writeReq) mustDo() bool {
	return req.fault.Create != nil || req.fault.Evict != nil
}

// write answers a request that would change the cluster.
func (s *Server) write(w http.ResponseWriter, r *http.Request, q *request) {
	if r.Method == http.MethodPost && q.name == "" {
		s.create(w, r, q)
		return
	}
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
			fmt.Sprintf("podsim serve is a simulation, read-only unless started with --allow-writes (%s changes the simulated cluster then)", route.what)))
		return
	}
	if !s.waitReady(r.Context()) {
		return // the client left before the world reached its frozen instant
	}
	snap, _, ok := s.store.get(q.res.col, q.key())
	if !ok || snap.base().namespace != q.namespace {
		writeError(w, apierrors.NewNotFound(q.gr(), q.name))
		return
	}
	req, err := route.prepare(q, r, snap)
	if err != nil {
		writeError(w, err)
		return
	}
	if dry := r.URL.Query()["dryRun"]; len(dry) > 0 {
		if req.mustDo() {
			writeError(w, statusError(http.StatusMethodNotAllowed, metav1.StatusReasonMethodNotAllowed,
				"podsim serve is a simulation: it cannot try "+req.what+" without doing it (dryRun)"))
			return
		}
		s.answer(w, q, req)
		return
	}
	req.gone = apierrors.NewNotFound(q.gr(), q.name)
	s.submit(w, r, q, req)
}

// submit hands a write to the goroutine that runs the world and answers
// it once it is done.
func (s *Server) submit(w http.ResponseWriter, r *http.Request, q *request, req *writeReq) {
	req.done = make(chan *apierrors.StatusError, 1)
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
	s.answer(w, q, req)
}

// answer writes the response to a write that was done: the req's own, or
// the object as the write left it (a pod whose containers stopped at once
// is gone already, and the answer is its last state).
func (s *Server) answer(w http.ResponseWriter, q *request, req *writeReq) {
	if req.answer != nil {
		code, body := req.answer(s, q)
		writeJSON(w, code, body)
		return
	}
	snap, ok := s.store.last(q.res.col, q.key())
	if !ok {
		writeError(w, apierrors.NewNotFound(q.gr(), q.name))
		return
	}
	writeJSON(w, http.StatusOK, q.res.object(s.moment(), snap))
}

// apply does a write on the world at virtual time t (the world's own
// goroutine): the clock moves to t, the write acts, what follows at the
// same instant runs (a ReplicaSet replacing a deleted pod), and the store
// publishes what moved without a change of its own.
func (s *Server) apply(req *writeReq, t time.Duration) {
	s.store.thaw() // the world moves
	w := s.world
	w.Run(t)
	err := req.gone
	if req.exists(w) {
		err = req.do(s, w)
	}
	w.Run(t)
	s.store.pause(t)
	line := req.what
	if err != nil {
		st := err.Status()
		line += fmt.Sprintf(": refused, %d %s: %s", st.Code, st.Reason, st.Message)
		if st.Details != nil && len(st.Details.Causes) > 0 {
			line += " (" + st.Details.Causes[0].Message + ")"
		}
	}
	fmt.Fprintf(s.log, "podsim serve: at %s: %s\n", sim.FormatTime(t), line)
	req.done <- err
}

// faultWrite is the write that is the scenario fault f, which a user ran
// as ran: the server log names the fault by its kind's name in the
// table ("kubectl cordon a (fault cordon)").
func faultWrite(ran string, exists func(w *model.World) bool, f *scenarios.Fault) *writeReq {
	return &writeReq{what: ran + " (fault " + f.Kind().Name() + ")", exists: exists, fault: f}
}

// do does the write on the world, its fault as the scenario's faults act,
// and returns what the API refused.
func (req *writeReq) do(s *Server, w *model.World) *apierrors.StatusError {
	err := s.sc.ApplyFault(w, req.fault)
	if r, ok := err.(*scenarios.EvictionRefused); ok {
		return evictionError(r.Pod, r.Result)
	}
	return nil
}

func podExists(key string) func(w *model.World) bool {
	return func(w *model.World) bool { p := w.Pod(key); return p != nil && !p.Deleted() }
}

func nodeExists(name string) func(w *model.World) bool {
	return func(w *model.World) bool { n := w.Node(name); return n != nil && !n.Gone() }
}

func workloadExists(key string) func(w *model.World) bool {
	return func(w *model.World) bool { return w.Workload(key) != nil }
}

// readBody reads a write's body, at most 1 MiB.
func readBody(r *http.Request) ([]byte, *apierrors.StatusError) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil {
		return nil, apierrors.NewBadRequest(err.Error())
	}
	return body, nil
}

// deletePod is `kubectl delete pod`: the scenario's delete fault, with
// the grace period of the request's DeleteOptions (or gracePeriodSeconds
// parameter) if it names one, else the pod's own.
func deletePod(q *request, r *http.Request, _ snapshot) (*writeReq, *apierrors.StatusError) {
	var opts metav1.DeleteOptions
	body, err := readBody(r)
	if err != nil {
		return nil, err
	}
	if len(body) > 0 {
		obj, err := decodeBody(body, nil, &opts)
		if err != nil {
			return nil, apierrors.NewBadRequest("DeleteOptions: " + err.Error())
		}
		if obj != bodyObject(&opts) { // an Eviction, say (handlers/delete.go)
			return nil, apierrors.NewBadRequest("decoded object cannot be converted to DeleteOptions")
		}
	}
	if g := r.URL.Query().Get("gracePeriodSeconds"); g != "" {
		n, err := strconv.ParseInt(g, 10, 64)
		if err != nil {
			return nil, apierrors.NewBadRequest("gracePeriodSeconds: want a number of seconds, not " + strconv.Quote(g))
		}
		opts.GracePeriodSeconds = &n
	}
	grace, err := deleteOptions(q, &opts)
	if err != nil {
		return nil, err
	}
	f := &scenarios.Fault{Delete: &scenarios.DeleteFault{Pod: q.name, Namespace: q.namespace, GracePeriodSeconds: opts.GracePeriodSeconds}}
	return faultWrite("kubectl delete pod "+q.name+q.nsFlag()+grace, podExists(q.key()), f), nil
}

// deleteOptions checks the options of a pod's deletion (a delete's or an
// eviction's): the UID precondition and the grace period, which it returns
// as kubectl's flag (" --grace-period=N", or "").
func deleteOptions(q *request, opts *metav1.DeleteOptions) (string, *apierrors.StatusError) {
	if u := uid("Pod", q.key()); opts.Preconditions != nil && opts.Preconditions.UID != nil && string(*opts.Preconditions.UID) != u {
		return "", apierrors.NewConflict(schema.GroupResource{Resource: "pods"}, q.name,
			fmt.Errorf("the UID in the precondition (%s) does not match the UID in record (%s)", *opts.Preconditions.UID, u))
	}
	g := opts.GracePeriodSeconds
	if g == nil {
		return "", nil
	}
	if *g < 0 {
		return "", apierrors.NewBadRequest("gracePeriodSeconds must not be negative")
	}
	return fmt.Sprintf(" --grace-period=%d", *g), nil
}

// evictPod is the eviction subresource, what `kubectl drain` posts for
// each pod: Pod.Evict, answered as the API server's eviction REST handler
// (pkg/registry/core/pod/storage/eviction.go) answers.
func evictPod(q *request, r *http.Request, _ snapshot) (*writeReq, *apierrors.StatusError) {
	body, err := readBody(r)
	if err != nil {
		return nil, err
	}
	obj, derr := decodeBody(body, &schema.GroupVersionKind{Group: "policy", Version: "v1", Kind: "Eviction"}, nil)
	if derr != nil {
		return nil, apierrors.NewBadRequest("Eviction: " + derr.Error())
	}
	var name string
	var opts *metav1.DeleteOptions
	switch e := obj.(type) {
	case *policyv1.Eviction:
		name, opts = e.Name, e.DeleteOptions
	case *policyv1beta1.Eviction:
		name, opts = e.Name, e.DeleteOptions
	default:
		return nil, apierrors.NewBadRequest(fmt.Sprintf("not an Eviction object: %T", obj))
	}
	if name != q.name {
		return nil, apierrors.NewBadRequest("name in URL does not match name in Eviction object")
	}
	if opts == nil {
		opts = &metav1.DeleteOptions{}
	}
	flag, err := deleteOptions(q, opts)
	if err != nil {
		return nil, err
	}
	what := "evict pod " + q.name + q.nsFlag() + flag + " (Eviction API)"
	if len(opts.DryRun) > 0 {
		return nil, statusError(http.StatusMethodNotAllowed, metav1.StatusReasonMethodNotAllowed,
			"podsim serve is a simulation: it cannot try "+what+" without doing it (dryRun)")
	}
	// The evict fault; the log names the API, as it did.
	return &writeReq{what: what, exists: podExists(q.key()),
		fault: &scenarios.Fault{Evict: &scenarios.EvictFault{Pod: q.name, Namespace: q.namespace, GracePeriodSeconds: opts.GracePeriodSeconds}},
		answer: func(*Server, *request) (int, any) {
			return http.StatusCreated, &metav1.Status{TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"},
				Status: metav1.StatusSuccess, Code: http.StatusCreated}
		}}, nil
}

// evictionError is the API's error for the Eviction API's refusal, or nil.
func evictionError(pod string, res model.EvictionResult) *apierrors.StatusError {
	switch res.Code {
	case model.EvictionCreated:
		return nil
	case model.EvictionNotFound:
		return apierrors.NewNotFound(schema.GroupResource{Resource: "pods"}, pod)
	case model.EvictionTooManyRequests:
		err := apierrors.NewTooManyRequests(res.Message, 0)
		err.ErrStatus.Details.Causes = append(err.ErrStatus.Details.Causes,
			metav1.StatusCause{Type: policyv1.DisruptionBudgetCause, Message: res.Cause})
		return err
	}
	// A failure Status the handler returns is an error with its code and
	// message and no reason.
	return &apierrors.StatusError{ErrStatus: metav1.Status{Status: metav1.StatusFailure, Code: int32(res.Code), Message: res.Message}}
}

// patchNode is `kubectl cordon` and `uncordon`: a patch that sets
// spec.unschedulable (uncordon's strategic merge patch removes it: null)
// is the cordon or uncordon fault.
func patchNode(q *request, r *http.Request, _ snapshot) (*writeReq, *apierrors.StatusError) {
	v, err := patchedField(r, "Node", q.name, "kubectl cordon and uncordon", "spec", "unschedulable")
	if err != nil {
		return nil, err
	}
	var cordon bool
	switch string(v) {
	case "true":
		cordon = true
	case "false", "null":
	default:
		return nil, invalid("Node", q.name, "spec.unschedulable", "want true or false, not "+string(v))
	}
	ref := &scenarios.NodeRef{Node: q.name}
	if cordon {
		return faultWrite("kubectl cordon "+q.name, nodeExists(q.name), &scenarios.Fault{Cordon: ref}), nil
	}
	return faultWrite("kubectl uncordon "+q.name, nodeExists(q.name), &scenarios.Fault{Uncordon: ref}), nil
}

// patchScale is `kubectl scale`: a patch of the scale subresource's
// spec.replicas is the scale fault, answered with the Scale.
func patchScale(q *request, r *http.Request, snap snapshot) (*writeReq, *apierrors.StatusError) {
	v, err := patchedField(r, "Scale", q.name, "kubectl scale", "spec", "replicas")
	if err != nil {
		return nil, err
	}
	return scale(q, snap, v)
}

// patchReplicas is a patch of a Deployment's or ReplicaSet's own
// spec.replicas (kubectl patch): the scale fault, answered with the
// object.
func patchReplicas(q *request, r *http.Request, snap snapshot) (*writeReq, *apierrors.StatusError) {
	v, err := patchedField(r, q.res.kind, q.name, "kubectl scale", "spec", "replicas")
	if err != nil {
		return nil, err
	}
	req, err := scale(q, snap, v)
	if req != nil {
		req.answer = nil
	}
	return req, err
}

// putScale is `kubectl scale --current-replicas|--resource-version`: a
// Scale is put (after a get) with the version it read as a precondition.
func putScale(q *request, r *http.Request, snap snapshot) (*writeReq, *apierrors.StatusError) {
	body, err := readBody(r)
	if err != nil {
		return nil, err
	}
	var sc autoscalingv1.Scale
	if _, err := decodeBody(body, &schema.GroupVersionKind{Group: "autoscaling", Version: "v1", Kind: "Scale"}, &sc); err != nil {
		return nil, apierrors.NewBadRequest("Scale: " + err.Error())
	}
	if sc.Name != q.name {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("the name of the object (%s) does not match the name on the URL (%s)", sc.Name, q.name))
	}
	if rv := sc.ResourceVersion; rv != "" && rv != strconv.FormatUint(snap.base().rv, 10) {
		return nil, apierrors.NewConflict(q.gr(), q.name,
			fmt.Errorf("the object has been modified; please apply your changes to the latest version and try again"))
	}
	return scale(q, snap, json.RawMessage(strconv.Itoa(int(sc.Spec.Replicas))))
}

// MaxScaleReplicas is the most replicas a write sets: a served run grows
// from a request that nothing checked in advance, so serve's writes have
// a limit of their own, below a file's (scenarios.MaxPods).
const MaxScaleReplicas = 10_000

// scale is the scale fault that sets the workload's replicas to v, a
// number from a request, answered with its Scale.
func scale(q *request, snap snapshot, v json.RawMessage) (*writeReq, *apierrors.StatusError) {
	field := "spec.replicas"
	n, err := strconv.ParseInt(string(v), 10, 32)
	switch {
	case err != nil:
		return nil, invalid(q.res.kind, q.name, field, "want a number of replicas, not "+string(v))
	case n < 0:
		return nil, invalid(q.res.kind, q.name, field, "must be greater than or equal to 0")
	case n > MaxScaleReplicas:
		return nil, invalid(q.res.kind, q.name, field, fmt.Sprintf("podsim serve takes at most %d replicas", MaxScaleReplicas))
	}
	if o := snap.(*workloadSnap).owner; o != nil {
		return nil, statusError(http.StatusMethodNotAllowed, metav1.StatusReasonMethodNotAllowed,
			fmt.Sprintf("podsim serve is a simulation: ReplicaSet %s is %s %s's, which sets its replicas (kubectl scale deployment %s)", q.name, o.kind, o.name, o.name))
	}
	replicas := int32(n)
	kind := strings.ToLower(q.res.kind)
	req := faultWrite(fmt.Sprintf("kubectl scale %s %s%s --replicas=%d", kind, q.name, q.nsFlag(), n), workloadExists(q.key()),
		&scenarios.Fault{Scale: &scenarios.ScaleFault{Workload: q.name, Namespace: q.namespace, Replicas: &replicas}})
	req.answer = func(s *Server, q *request) (int, any) {
		snap, _, ok := s.store.get(q.res.col, q.key())
		if !ok {
			return http.StatusNotFound, apierrors.NewNotFound(q.gr(), q.name).Status()
		}
		return http.StatusOK, s.moment().scale(snap.(*workloadSnap))
	}
	return req, nil
}

// invalid is 422 Invalid about one field, as the API's validation says it.
func invalid(kind, name, field, msg string) *apierrors.StatusError {
	err := statusError(http.StatusUnprocessableEntity, metav1.StatusReasonInvalid,
		fmt.Sprintf("%s %q is invalid: %s: %s", kind, name, field, msg))
	err.ErrStatus.Details = &metav1.StatusDetails{Name: name, Kind: kind,
		Causes: []metav1.StatusCause{{Type: metav1.CauseTypeFieldValueInvalid, Field: field, Message: msg}}}
	return err
}

// Patch types the API takes (Content-Type of a PATCH).
const (
	jsonPatch      = "application/json-patch+json"
	mergePatch     = "application/merge-patch+json"
	strategicPatch = "application/strategic-merge-patch+json"
)

// patchedField reads a patch that sets one field, path, and nothing else,
// and returns the field's new value (JSON; null when the patch removes it):
// a merge or strategic merge patch {"spec":{"unschedulable":true}}, or a
// JSON patch of add, replace or remove operations on /spec/unschedulable.
// A patch that touches another field is refused with 422, naming it and
// use, what podsim takes such patches for.
func patchedField(r *http.Request, kind, name, use string, path ...string) (json.RawMessage, *apierrors.StatusError) {
	typ, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if typ != jsonPatch && typ != mergePatch && typ != strategicPatch {
		return nil, statusError(http.StatusUnsupportedMediaType, metav1.StatusReasonUnsupportedMediaType,
			fmt.Sprintf("the body of the request was in an unknown format %q - podsim serve takes %s, %s and %s (server-side apply is not modelled)",
				typ, jsonPatch, mergePatch, strategicPatch))
	}
	body, err := readBody(r)
	if err != nil {
		return nil, err
	}
	want := strings.Join(path, ".")
	other := func(field string) *apierrors.StatusError {
		return invalid(kind, name, field, fmt.Sprintf("podsim serve is a simulation: a patch may set only %s (%s)", want, use))
	}
	bad := func(err error) *apierrors.StatusError {
		return apierrors.NewBadRequest(fmt.Sprintf("the %s is not valid: %v", typ, err))
	}
	if typ == jsonPatch {
		var ops []struct {
			Op    string          `json:"op"`
			Path  string          `json:"path"`
			Value json.RawMessage `json:"value"`
		}
		if err := json.Unmarshal(body, &ops); err != nil {
			return nil, bad(err)
		}
		var v json.RawMessage
		for _, op := range ops {
			field := strings.ReplaceAll(strings.TrimPrefix(op.Path, "/"), "/", ".")
			switch {
			case field != want:
				return nil, other(field)
			case op.Op == "add" || op.Op == "replace":
				v = op.Value
			case op.Op == "remove":
				v = json.RawMessage("null")
			default:
				return nil, other(op.Op + " " + field)
			}
		}
		if v == nil {
			return nil, other("nothing")
		}
		return v, nil
	}
	v := json.RawMessage(body)
	for i, key := range path {
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(v, &obj); err != nil {
			return nil, bad(err)
		}
		prefix := strings.Join(path[:i], ".")
		if prefix != "" {
			prefix += "."
		}
		for _, k := range slices.Sorted(maps.Keys(obj)) {
			if k != key {
				return nil, other(prefix + k)
			}
		}
		var ok bool
		if v, ok = obj[key]; !ok {
			return nil, other("nothing")
		}
		if i < len(path)-1 && bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
			return nil, other(prefix + key)
		}
	}
	return json.RawMessage(bytes.TrimSpace(v)), nil
}
