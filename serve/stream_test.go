package serve

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// writes is a ResponseWriter that keeps what is written and the size of
// the largest single write.
type writes struct {
	header  http.Header
	code    int
	body    strings.Builder
	largest int
	n       int
}

func (w *writes) Header() http.Header  { return w.header }
func (w *writes) WriteHeader(code int) { w.code = code }
func (w *writes) Write(b []byte) (int, error) {
	w.largest = max(w.largest, len(b))
	w.n++
	return w.body.Write(b)
}

// TestListsAreStreamed: a list of a thousand pods (2 MB) reaches the
// client in writes of at most 32 KB, each item encoded as it is written,
// never as one buffer of the whole list; objects, Tables and pages alike,
// and what they decode to is the whole list.
func TestListsAreStreamed(t *testing.T) {
	p := play(t, "../bench/fleet.yaml", Options{At: time.Minute})
	p.freeze(t)
	pods := len(p.srv.world.Pods())
	if pods < 1000 {
		t.Fatalf("the fleet has %d pods", pods)
	}
	list := func(url, accept string) *writes {
		t.Helper()
		r := httptest.NewRequest("GET", url, nil)
		if accept != "" {
			r.Header.Set("Accept", accept)
		}
		w := &writes{header: http.Header{}}
		p.srv.ServeHTTP(w, r)
		if w.code != http.StatusOK {
			t.Fatalf("%s: %d %s", url, w.code, w.body.String())
		}
		if w.largest > 32<<10 || w.n < 2 {
			t.Errorf("%s: %d bytes in %d writes, the largest %d: want writes of at most 32 KB", url, w.body.Len(), w.n, w.largest)
		}
		return w
	}
	var l corev1.PodList
	if err := json.Unmarshal([]byte(list("/api/v1/pods", "").body.String()), &l); err != nil {
		t.Fatal(err)
	}
	if len(l.Items) != pods || l.Kind != "PodList" || l.ResourceVersion == "" || l.Items[0].Kind != "" || l.Items[0].Spec.NodeName == "" {
		t.Errorf("the list decodes to %s at %q with %d items (the world has %d pods)", l.Kind, l.ResourceVersion, len(l.Items), pods)
	}
	var tab metav1.Table
	if err := json.Unmarshal([]byte(list("/api/v1/pods?limit=900", "application/json;as=Table;v=v1;g=meta.k8s.io").body.String()), &tab); err != nil {
		t.Fatal(err)
	}
	if len(tab.Rows) != 900 || tab.Continue == "" || tab.RemainingItemCount == nil || *tab.RemainingItemCount != int64(pods-900) ||
		len(tab.ColumnDefinitions) == 0 || len(tab.Rows[0].Cells) != len(tab.ColumnDefinitions) {
		t.Errorf("a page of 900 rows: %d rows, continue %q, %v left, %d columns", len(tab.Rows), tab.Continue, tab.RemainingItemCount, len(tab.ColumnDefinitions))
	}
}
