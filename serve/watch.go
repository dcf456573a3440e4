package serve

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
)

// bookmarkEvery is how often a watch that asked for bookmarks gets one
// while nothing it watches changes (the API server's is about a minute).
const bookmarkEvery = time.Minute

// defaultWatchTimeout ends a watch that named no timeoutSeconds; the
// client watches again from the last version it saw.
const defaultWatchTimeout = 30 * time.Minute

// watchEvent is one line of a watch stream.
type watchEvent struct {
	Type   watch.EventType `json:"type"`
	Object any             `json:"object"`
}

// watch streams the changes of a collection after the request's
// resourceVersion, in order: with none (or "0"), every current object as
// ADDED first. An object that starts or stops matching the selectors is
// ADDED or DELETED, as in the API server's watch cache. A version older
// than the store's history gets 410 Gone (reason Expired); a watcher that
// falls that far behind gets it as an ERROR event.
func (s *Server) watch(w http.ResponseWriter, r *http.Request, q *request, sel selectors, form format) {
	query := r.URL.Query()
	include := query.Get("includeObject")
	bookmarks := query.Get("allowWatchBookmarks") == "true"
	initial := query.Get("sendInitialEvents") == "true"
	timeout := defaultWatchTimeout
	if t := query.Get("timeoutSeconds"); t != "" {
		secs, err := strconv.ParseInt(t, 10, 64)
		if err != nil || secs < 0 {
			writeError(w, apierrors.NewBadRequest("timeoutSeconds: want a number of seconds, not "+strconv.Quote(t)))
			return
		}
		if secs > 0 {
			timeout = time.Duration(min(secs, int64(defaultWatchTimeout/time.Second))) * time.Second
		}
	}
	var last uint64
	var replay []snapshot
	switch rv := query.Get("resourceVersion"); {
	case rv == "" || rv == "0" || initial:
		replay, last = s.store.list(q.res.col, false)
		replay = sel.filter(q, replay, s.store.resolveItem)
	default:
		n, err := strconv.ParseUint(rv, 10, 64)
		if err != nil {
			writeError(w, apierrors.NewBadRequest("resourceVersion: want a version from this server, not "+strconv.Quote(rv)))
			return
		}
		last = n
		_, newest, _, expired := s.store.since(n, nil)
		switch {
		case expired:
			writeError(w, s.expired(n))
			return
		case n > newest: // the API server: a version it has not reached
			writeError(w, tooLarge(n, newest))
			return
		}
	}

	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-cache, private")
	w.WriteHeader(http.StatusOK)
	out := &watchWriter{w: w, rc: http.NewResponseController(w), res: q.res, form: form, include: include, columns: true}
	m := s.moment()
	for _, snap := range replay {
		out.send(m, watch.Added, s.store.resolveItem(snap))
	}
	if initial {
		out.bookmark(last, true)
	}
	if out.flush() != nil {
		return
	}

	end := s.clk.Timer(timeout)
	defer end.Stop()
	tick := s.clk.Ticker(bookmarkEvery)
	defer tick.Stop()
	sentRV := last
	var buf []version
	for {
		vs, newest, wake, expired := s.store.since(last, buf[:0])
		if expired {
			out.error(s.expired(last))
			return
		}
		buf = vs
		m := s.moment()
		for i := range vs {
			if out.version(m, q, &sel, &vs[i]) {
				sentRV = newest
			}
		}
		last = newest
		if out.flush() != nil {
			return
		}
		select {
		case <-wake:
		case <-tick.C:
			if bookmarks && last > sentRV {
				out.bookmark(last, false)
				sentRV = last
				if out.flush() != nil {
					return
				}
			}
		case <-end.C:
			return
		case <-r.Context().Done():
			return
		case <-s.done:
			return
		}
	}
}

func (s *Server) expired(rv uint64) *apierrors.StatusError {
	return apierrors.NewResourceExpired(fmt.Sprintf("too old resource version: %d (%d)", rv, s.store.oldest()))
}

// watchWriter writes one watch's events.
type watchWriter struct {
	w       http.ResponseWriter
	rc      *http.ResponseController
	res     *apiResource
	form    format
	include string
	columns bool // the next Table still carries its column definitions
	err     error
}

// version sends what one stored version means to this watch, if anything;
// it reports whether it sent an event.
func (o *watchWriter) version(m moment, q *request, sel *selectors, v *version) bool {
	if v.col != q.res.col {
		return false
	}
	now := !v.deleted && sel.matches(q, v.snap)
	before := v.prev != nil && sel.matches(q, v.prev)
	switch {
	case now && before:
		o.send(m, watch.Modified, v.snap)
	case now:
		o.send(m, watch.Added, v.snap)
	case before:
		o.send(m, watch.Deleted, v.snap)
	default:
		return false
	}
	return true
}

func (o *watchWriter) send(m moment, typ watch.EventType, snap snapshot) {
	var obj any
	switch {
	case o.form.table:
		obj = m.table(o.res, []snapshot{snap}, snap.base().rv, o.include, o.columns)
		o.columns = false
	case o.form.partial:
		obj = partial(m, snap)
	default:
		obj = o.res.object(m, snap)
	}
	o.event(watchEvent{Type: typ, Object: obj})
}

// bookmark tells the client the version it has seen everything up to;
// end marks the end of the initial events of a sendInitialEvents watch.
func (o *watchWriter) bookmark(rv uint64, end bool) {
	meta := metav1.ObjectMeta{ResourceVersion: strconv.FormatUint(rv, 10)}
	if end {
		meta.Annotations = map[string]string{metav1.InitialEventsAnnotationKey: "true"}
	}
	obj := &metav1.PartialObjectMetadata{TypeMeta: metav1.TypeMeta{Kind: o.res.kind, APIVersion: o.res.groupVersion()}, ObjectMeta: meta}
	o.event(watchEvent{Type: watch.Bookmark, Object: obj})
}

func (o *watchWriter) error(err *apierrors.StatusError) {
	st := err.Status()
	st.TypeMeta = metav1.TypeMeta{Kind: "Status", APIVersion: "v1"}
	o.event(watchEvent{Type: watch.Error, Object: &st})
	o.flush()
}

func (o *watchWriter) event(e watchEvent) {
	if o.err != nil {
		return
	}
	b, err := json.Marshal(e)
	if err != nil {
		o.err = err
		return
	}
	_, o.err = o.w.Write(append(b, '\n'))
}

func (o *watchWriter) flush() error {
	if o.err == nil {
		o.err = o.rc.Flush()
	}
	return o.err
}
