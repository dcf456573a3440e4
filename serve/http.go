package serve

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	k8sversion "k8s.io/apimachinery/pkg/version"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/report"
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
	if (r.Method == http.MethodGet || r.Method == http.MethodHead) && !s.store.waitReady(r.Context()) {
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
// types podsim serves.
var serverVersion = &k8sversion.Info{Major: "1", Minor: "37", GitVersion: KubeletVersion + "+podsim", GitTreeState: "clean",
	GoVersion: runtimeVersion(), Compiler: "gc", Platform: "linux/amd64"}

func runtimeVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		return bi.GoVersion
	}
	return ""
}

// get answers a GET of a fixed document.
func (s *Server) get(w http.ResponseWriter, r *http.Request, doc func() any) {
	if r.Method != http.MethodGet {
		writeError(w, simulation(r.Method, r.URL.Path))
		return
	}
	writeJSON(w, http.StatusOK, doc())
}

// groups are the API groups beside the core group, in discovery order.
func groupList() *metav1.APIGroupList {
	l := &metav1.APIGroupList{TypeMeta: metav1.TypeMeta{Kind: "APIGroupList", APIVersion: "v1"}}
	for _, r := range resources {
		if r.group == "" {
			continue
		}
		v := metav1.GroupVersionForDiscovery{GroupVersion: r.groupVersion(), Version: r.version}
		// A group's first version in resources is its preferred one.
		i := slices.IndexFunc(l.Groups, func(g metav1.APIGroup) bool { return g.Name == r.group })
		switch {
		case i < 0:
			l.Groups = append(l.Groups, metav1.APIGroup{Name: r.group, Versions: []metav1.GroupVersionForDiscovery{v}, PreferredVersion: v})
		case !slices.Contains(l.Groups[i].Versions, v):
			l.Groups[i].Versions = append(l.Groups[i].Versions, v)
		}
	}
	v := metav1.GroupVersionForDiscovery{GroupVersion: "authorization.k8s.io/v1", Version: "v1"}
	l.Groups = append(l.Groups, metav1.APIGroup{Name: "authorization.k8s.io", Versions: []metav1.GroupVersionForDiscovery{v}, PreferredVersion: v})
	v = metav1.GroupVersionForDiscovery{GroupVersion: metricsGV, Version: "v1beta1"}
	l.Groups = append(l.Groups, metav1.APIGroup{Name: "metrics.k8s.io", Versions: []metav1.GroupVersionForDiscovery{v}, PreferredVersion: v})
	return l
}

func findGroup(name string) *metav1.APIGroup {
	for _, g := range groupList().Groups {
		if g.Name == name {
			g.TypeMeta = metav1.TypeMeta{Kind: "APIGroup", APIVersion: "v1"}
			return &g
		}
	}
	return nil
}

// resourceList is the discovery document of one group version, or nil.
func resourceList(gv string, writes bool) *metav1.APIResourceList {
	if gv == "authorization.k8s.io/v1" {
		return &metav1.APIResourceList{TypeMeta: metav1.TypeMeta{Kind: "APIResourceList", APIVersion: "v1"}, GroupVersion: gv,
			APIResources: reviewResources}
	}
	if gv == metricsGV {
		return &metav1.APIResourceList{TypeMeta: metav1.TypeMeta{Kind: "APIResourceList", APIVersion: "v1"}, GroupVersion: gv,
			APIResources: metricsResources}
	}
	var l *metav1.APIResourceList
	for _, r := range resources {
		if r.groupVersion() != gv {
			continue
		}
		if l == nil {
			l = &metav1.APIResourceList{TypeMeta: metav1.TypeMeta{Kind: "APIResourceList", APIVersion: "v1"}, GroupVersion: gv}
		}
		verbs := metav1.Verbs{"get", "list", "watch"}
		if writes {
			for i := range writeRoutes {
				if rt := &writeRoutes[i]; rt.group == r.group && rt.resource == r.name && rt.sub == "" {
					verbs = append(verbs, verb(rt.method))
				}
			}
		}
		l.APIResources = append(l.APIResources, metav1.APIResource{Name: r.name, SingularName: r.singular, Namespaced: r.namespaced,
			Kind: r.kind, Verbs: verbs, ShortNames: r.shortNames, Categories: r.categories})
		if writes && r.col == colPods {
			// So that kubectl drain evicts rather than deletes pods.
			l.APIResources = append(l.APIResources, metav1.APIResource{Name: "pods/eviction", Namespaced: true,
				Group: "policy", Version: "v1", Kind: "Eviction", Verbs: metav1.Verbs{"create"}},
				metav1.APIResource{Name: "pods/resize", Namespaced: true, Kind: "Pod", Verbs: metav1.Verbs{"patch"}})
		}
		if r.scalable() {
			// kubectl scale finds the Scale's kind here.
			verbs := metav1.Verbs{"get"}
			if writes {
				verbs = append(verbs, "patch", "update")
			}
			l.APIResources = append(l.APIResources, metav1.APIResource{Name: r.name + "/scale", Namespaced: true,
				Group: "autoscaling", Version: "v1", Kind: "Scale", Verbs: verbs})
		}
	}
	return l
}

// verb is the API verb of a write's method.
func verb(method string) string {
	switch method {
	case http.MethodPost:
		return "create"
	case http.MethodPut:
		return "update"
	}
	return strings.ToLower(method)
}

func findResource(gv, name string) *apiResource {
	for _, r := range resources {
		if r.groupVersion() == gv && r.name == name {
			return r
		}
	}
	return nil
}

// resource answers a request for a resource: reads, and the writes podsim
// takes (writeRoutes).
func (s *Server) resource(w http.ResponseWriter, r *http.Request, q *request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		s.write(w, r, q)
		return
	}
	switch {
	case q.sub == "scale" && q.res.scalable():
		if snap, _, ok := s.store.get(q.res.col, q.key()); ok && snap.base().namespace == q.namespace {
			writeJSON(w, http.StatusOK, s.moment().scale(snap.(*workloadSnap)))
		} else {
			writeError(w, apierrors.NewNotFound(q.gr(), q.name))
		}
		return
	case q.sub != "" && q.sub != "status":
		writeError(w, apierrors.NewMethodNotSupported(q.gr(), q.sub))
		return
	}
	form, err := negotiate(r.Header.Get("Accept"))
	if err != nil {
		writeError(w, err)
		return
	}
	query := r.URL.Query()
	if q.name != "" {
		s.getObject(w, q, form, query.Get("includeObject"))
		return
	}
	sel, err := parseSelectors(q.res, query)
	if err != nil {
		writeError(w, err)
		return
	}
	if v := query.Get("watch"); v == "1" || v == "true" {
		s.watch(w, r, q, sel, form)
		return
	}
	snaps, rv := s.store.list(q.res.col)
	snaps = sel.filter(q, snaps)
	snaps, cont, left, perr := listPage(snaps, query, rv)
	if perr != nil {
		writeError(w, perr)
		return
	}
	m := s.moment()
	if form.table {
		include := query.Get("includeObject")
		t := m.table(q.res, nil, rv, include, true)
		t.Continue, t.RemainingItemCount = cont, left
		streamJSON(w, t, len(snaps), func(i int) any { return m.row(q.res, snaps[i], include) })
		return
	}
	l := m.list(q.res, form, nil, rv)
	l.Metadata.Continue, l.Metadata.RemainingItemCount = cont, left
	streamJSON(w, l, len(snaps), func(i int) any { return m.item(q.res, form, snaps[i]) })
}

// streamJSON writes a list whose last field is its n items, encoded one at
// a time as they are written (a list of 200,000 pods is never one buffer):
// the envelope, whose items are an empty array, then item(0) to item(n-1)
// in that array.
func streamJSON(w http.ResponseWriter, envelope any, n int, item func(i int) any) {
	head, err := json.Marshal(envelope)
	if err != nil || !bytes.HasSuffix(head, []byte("[]}")) {
		writeError(w, apierrors.NewInternalError(fmt.Errorf("a list's envelope: %v", err)))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	bw := bufio.NewWriterSize(w, 32<<10)
	bw.Write(head[:len(head)-2]) // up to the items' [
	for i := range n {
		b, err := json.Marshal(item(i))
		if err != nil {
			panic(http.ErrAbortHandler) // the status is sent: cut the response
		}
		if i > 0 {
			bw.WriteByte(',')
		}
		if _, err := bw.Write(b); err != nil {
			return // the client left
		}
	}
	bw.WriteString("]}\n")
	bw.Flush()
}

func (s *Server) getObject(w http.ResponseWriter, q *request, form format, include string) {
	snap, rv, ok := s.store.get(q.res.col, q.key())
	if !ok || q.res.object == nil || q.namespace != snap.base().namespace {
		writeError(w, apierrors.NewNotFound(q.gr(), q.name))
		return
	}
	m := s.moment()
	switch {
	case form.table:
		writeJSON(w, http.StatusOK, m.table(q.res, []snapshot{snap}, rv, include, true))
	case form.partial:
		writeJSON(w, http.StatusOK, partial(m, snap))
	default:
		writeJSON(w, http.StatusOK, q.res.object(m, snap))
	}
}

// format is the form a client asked for: the objects, kubectl's Table,
// or their metadata alone.
type format struct{ table, partial bool }

// negotiate picks the first form of the Accept header that podsim can
// write: JSON objects, application/json;as=Table;g=meta.k8s.io;v=v1 (or
// v1beta1), or as=PartialObjectMetadata(List). Protobuf is not served.
func negotiate(accept string) (format, *apierrors.StatusError) {
	if strings.TrimSpace(accept) == "" {
		return format{}, nil
	}
	for part := range strings.SplitSeq(accept, ",") {
		typ, params, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil || typ != "application/json" && typ != "*/*" && typ != "application/*" {
			continue
		}
		switch params["as"] {
		case "":
			return format{}, nil
		case "Table":
			if params["g"] == "meta.k8s.io" && (params["v"] == "v1" || params["v"] == "v1beta1") {
				return format{table: true}, nil
			}
		case "PartialObjectMetadata", "PartialObjectMetadataList":
			if params["g"] == "meta.k8s.io" && (params["v"] == "v1" || params["v"] == "v1beta1") {
				return format{partial: true}, nil
			}
		}
	}
	return format{}, statusError(http.StatusNotAcceptable, metav1.StatusReasonNotAcceptable,
		"only application/json is served (as objects, Table or PartialObjectMetadata), not "+accept)
}

// selectors are a request's label and field selectors.
type selectors struct {
	labels labels.Selector
	fields fields.Selector
}

// parseSelectors reads labelSelector and fieldSelector; a field the
// resource cannot be selected by is a bad request, as in the API server.
func parseSelectors(res *apiResource, query map[string][]string) (selectors, *apierrors.StatusError) {
	get := func(k string) string {
		if v := query[k]; len(v) > 0 {
			return v[0]
		}
		return ""
	}
	var sel selectors
	var err error
	if sel.labels, err = labels.Parse(get("labelSelector")); err != nil {
		return sel, apierrors.NewBadRequest("labelSelector: " + err.Error())
	}
	if sel.fields, err = fields.ParseSelector(get("fieldSelector")); err != nil {
		return sel, apierrors.NewBadRequest("fieldSelector: " + err.Error())
	}
	known := res.fields(zero(res.col))
	for _, req := range sel.fields.Requirements() {
		if _, ok := known[req.Field]; !ok {
			return sel, apierrors.NewBadRequest(fmt.Sprintf("field label not supported: %s", req.Field))
		}
	}
	return sel, nil
}

// zero is an empty snapshot of a collection, to learn the fields its
// resources can be selected by.
func zero(c collection) snapshot {
	switch c {
	case colNamespaces:
		return &namespaceSnap{}
	case colNodes:
		return &nodeSnap{}
	case colPods:
		return &podSnap{view: report.PodView{Spec: &model.PodSpec{}}}
	case colEvents:
		return &eventSnap{}
	case colPDBs:
		return &pdbSnap{}
	case colHPAs:
		return &hpaSnap{}
	case colPriorityClasses:
		return &priorityClassSnap{}
	case colLeases:
		return &leaseSnap{node: &nodeSnap{}}
	}
	return &workloadSnap{}
}

// matches reports whether snap is in the request's namespace and matches
// its selectors.
func (sel *selectors) matches(q *request, snap snapshot) bool {
	m := snap.base()
	if q.namespace != "" && m.namespace != q.namespace {
		return false
	}
	if !sel.labels.Empty() && !sel.labels.Matches(labels.Set(m.labels)) {
		return false
	}
	return sel.fields.Empty() || sel.fields.Matches(q.res.fields(snap))
}

// filter returns the snapshots that match, in their order (snaps is left
// as it is: it may be shared).
func (sel *selectors) filter(q *request, snaps []snapshot) []snapshot {
	if q.namespace == "" && sel.labels.Empty() && sel.fields.Empty() {
		return snaps
	}
	var out []snapshot
	for _, s := range snaps {
		if sel.matches(q, s) {
			out = append(out, s)
		}
	}
	return out
}

// list is a List of objects; its items carry no kind, as the API server
// writes them.
type list struct {
	metav1.TypeMeta `json:",inline"`
	Metadata        metav1.ListMeta  `json:"metadata"`
	Items           []runtime.Object `json:"items"`
}

func (m moment) list(res *apiResource, form format, snaps []snapshot, rv uint64) *list {
	l := &list{TypeMeta: metav1.TypeMeta{Kind: res.kind + "List", APIVersion: res.groupVersion()},
		Metadata: metav1.ListMeta{ResourceVersion: strconv.FormatUint(rv, 10)}, Items: []runtime.Object{}}
	if form.partial {
		l.TypeMeta = metav1.TypeMeta{Kind: "PartialObjectMetadataList", APIVersion: "meta.k8s.io/v1"}
	}
	for _, s := range snaps {
		l.Items = append(l.Items, m.item(res, form, s))
	}
	return l
}

// item is one of a List's items, with no kind.
func (m moment) item(res *apiResource, form format, s snapshot) runtime.Object {
	var o runtime.Object
	if form.partial {
		o = partial(m, s)
	} else {
		o = res.object(m, s)
	}
	o.GetObjectKind().SetGroupVersionKind(schema.GroupVersionKind{})
	return o
}

func partial(m moment, s snapshot) *metav1.PartialObjectMetadata {
	return &metav1.PartialObjectMetadata{TypeMeta: metav1.TypeMeta{Kind: "PartialObjectMetadata", APIVersion: "meta.k8s.io/v1"},
		ObjectMeta: m.objectMeta(s.base())}
}

// table is kubectl's Table of the snapshots: one row each, with the
// object's metadata (includeObject Metadata, the default), the object
// (Object) or nothing (None).
func (m moment) table(res *apiResource, snaps []snapshot, rv uint64, include string, columns bool) *metav1.Table {
	t := &metav1.Table{TypeMeta: metav1.TypeMeta{Kind: "Table", APIVersion: "meta.k8s.io/v1"},
		ListMeta: metav1.ListMeta{ResourceVersion: strconv.FormatUint(rv, 10)}, Rows: []metav1.TableRow{}}
	if columns {
		t.ColumnDefinitions = res.columns
	}
	for _, s := range snaps {
		t.Rows = append(t.Rows, m.row(res, s, include))
	}
	return t
}

// row is one snapshot's row of a Table.
func (m moment) row(res *apiResource, s snapshot, include string) metav1.TableRow {
	row := metav1.TableRow{Cells: res.cells(m, s)}
	if p, ok := s.(*podSnap); ok {
		row.Conditions = podRowConditions(p)
	}
	switch include {
	case "None":
	case "Object":
		row.Object.Object = res.object(m, s)
	default:
		row.Object.Object = partial(m, s)
	}
	return row
}

// podRowConditions mark a finished pod's row Completed, as the API server's
// printer does.
func podRowConditions(p *podSnap) []metav1.TableRowCondition {
	switch p.view.Status.Phase {
	case "Succeeded":
		return []metav1.TableRowCondition{{Type: metav1.RowCompleted, Status: metav1.ConditionTrue, Reason: "Succeeded",
			Message: "The pod has completed successfully."}}
	case "Failed":
		return []metav1.TableRowCondition{{Type: metav1.RowCompleted, Status: metav1.ConditionTrue, Reason: "Failed",
			Message: "The pod failed."}}
	}
	return nil
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
