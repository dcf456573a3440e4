package serve

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"strconv"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

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
	paged := query.Get("limit") != "" || query.Get("continue") != ""
	snaps, rv := s.store.list(q.res.col, paged)
	snaps = sel.filter(q, snaps, s.store.resolveItem)
	snaps, cont, left, perr := listPage(snaps, query, rv)
	if paged && cont == "" {
		s.store.release(q.res.col) // the read's last page
	}
	if perr != nil {
		writeError(w, perr)
		return
	}
	m := s.moment()
	if form.table {
		include := query.Get("includeObject")
		t := m.table(q.res, nil, rv, include, true)
		t.Continue, t.RemainingItemCount = cont, left
		streamJSON(w, t, len(snaps), func(i int) any { return m.row(q.res, s.store.resolveItem(snaps[i]), include) })
		return
	}
	l := m.list(q.res, form, nil, rv)
	l.Metadata.Continue, l.Metadata.RemainingItemCount = cont, left
	streamJSON(w, l, len(snaps), func(i int) any { return m.item(q.res, form, s.store.resolveItem(snaps[i])) })
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
	// One buffer for every item: json.Marshal would copy each out anew.
	// The encoder ends each with a newline, which is not written.
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	for i := range n {
		buf.Reset()
		if err := enc.Encode(item(i)); err != nil {
			panic(http.ErrAbortHandler) // the status is sent: cut the response
		}
		if i > 0 {
			bw.WriteByte(',')
		}
		if _, err := bw.Write(buf.Bytes()[:buf.Len()-1]); err != nil {
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
		ObjectMeta: m.metaOf(s)}
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
