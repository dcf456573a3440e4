package serve

import (
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/report"
)

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

// filter returns the snapshots of a list (Store.list) that match, in their
// order (snaps is left as it is: it may be shared). A lazy pod is matched
// by its fields as resolve renders it, and kept lazy (a lazy event's
// identity, which it holds, is all that selects it: eventOf).
func (sel *selectors) filter(q *request, snaps []snapshot, resolve func(snapshot) snapshot) []snapshot {
	if q.namespace == "" && sel.labels.Empty() && sel.fields.Empty() {
		return snaps
	}
	var out []snapshot
	for _, s := range snaps {
		r := s
		if _, lazy := s.(*lazyPod); lazy && !sel.fields.Empty() {
			r = resolve(s)
		}
		if sel.matches(q, r) {
			out = append(out, s)
		}
	}
	return out
}
