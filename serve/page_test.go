package serve

import (
	"net/http"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// A list pages as the API server's does (limit, continue, the items
// left), and the quirks the API server refuses are refused: an empty
// namespace, a version it has not reached, one that is not a number, a
// DELETE whose body is an Eviction.
func TestListPagesAndRefusesAsTheAPI(t *testing.T) {
	p := play(t, drainFile, Options{At: time.Minute, AllowWrites: true})
	p.freeze(t)
	base := p.http.URL + "/api/v1/namespaces/default/pods"
	var all corev1.PodList
	call(t, "GET", base, "", nil, &all)
	if len(all.Items) < 3 {
		t.Fatalf("%d pods, want at least 3", len(all.Items))
	}
	var names []string
	cont := ""
	for pages := 0; pages < 10; pages++ {
		var page corev1.PodList
		url := base + "?limit=2"
		if cont != "" {
			url += "&continue=" + cont
		}
		if code := call(t, "GET", url, "", nil, &page); code != 200 || len(page.Items) > 2 {
			t.Fatalf("page %d: %d, %d items", pages, code, len(page.Items))
		}
		for _, it := range page.Items {
			names = append(names, it.Name)
		}
		if cont = page.Continue; cont == "" {
			break
		}
		if left := page.RemainingItemCount; left == nil || int(*left) != len(all.Items)-len(names) {
			t.Errorf("page %d: remaining %v, want %d", pages, left, len(all.Items)-len(names))
		}
	}
	var want []string
	for _, it := range all.Items {
		want = append(want, it.Name)
	}
	if strings.Join(names, " ") != strings.Join(want, " ") {
		t.Errorf("pages hold %v, the list %v", names, want)
	}

	cases := []struct {
		method, url, body string
		code              int
		reason            metav1.StatusReason
		msg               string
	}{
		{"GET", p.http.URL + "/api/v1/namespaces//pods", "", 404, metav1.StatusReasonNotFound, "could not find the requested resource"},
		{"GET", base + "?watch=true&resourceVersion=18446744073709551615", "", 504, metav1.StatusReasonTimeout, "Too large resource version: 18446744073709551615"},
		{"GET", base + "?resourceVersion=18446744073709551615", "", 504, metav1.StatusReasonTimeout, "Too large resource version"},
		{"GET", base + "?resourceVersion=abc", "", 400, metav1.StatusReasonBadRequest, `resourceVersion: want a version from this server, not "abc"`},
		{"GET", base + "?limit=2&continue=xyz", "", 400, metav1.StatusReasonBadRequest, "continue key is not valid"},
		{"DELETE", base + "/web-0", eviction("web-0"), 400, metav1.StatusReasonBadRequest, "decoded object cannot be converted to DeleteOptions"},
	}
	for _, c := range cases {
		var st metav1.Status
		code := send(t, c.method, c.url, "", "application/json", strings.NewReader(c.body), &st)
		failure(t, c.method+" "+c.url, code, &st, c.code, c.reason, c.msg)
	}
	var pod corev1.Pod
	if code := call(t, "GET", base+"/web-0", "", nil, &pod); code != http.StatusOK || pod.DeletionTimestamp != nil {
		t.Errorf("web-0 after the refused DELETE: %d, deleting %v", code, pod.DeletionTimestamp)
	}
}

// TestListsKeepTheirSortOnlyForPages: a frozen store keeps a collection's
// sorted list from a paged read's first page to its last, and keeps none
// after a read of the whole collection (a dark store's list of events
// holds an item for each).
func TestListsKeepTheirSortOnlyForPages(t *testing.T) {
	p := play(t, "../scenarios/demo.yaml", Options{At: 10 * time.Minute, History: 8})
	p.freeze(t)
	s := p.srv.store
	kept := func() bool {
		s.sortedMu.Lock()
		defer s.sortedMu.Unlock()
		return s.sorted[colEvents].snaps != nil
	}
	base := p.http.URL + "/api/v1/events"
	var all corev1.EventList
	if code := call(t, "GET", base, "", nil, &all); code != 200 || len(all.Items) < 3 {
		t.Fatalf("events: %d, %d items", code, len(all.Items))
	}
	if kept() {
		t.Error("a list of every event is kept after it")
	}
	var page corev1.EventList
	call(t, "GET", base+"?limit=1", "", nil, &page)
	if page.Continue == "" || !kept() {
		t.Fatalf("a first page of events: continue %q, kept %v", page.Continue, kept())
	}
	if first := page.Items[0].Name; first != all.Items[0].Name {
		t.Errorf("first page: %s, want %s", first, all.Items[0].Name)
	}
	var last corev1.EventList
	call(t, "GET", base+"?limit=1000000&continue="+page.Continue, "", nil, &last)
	if last.Continue != "" || len(last.Items) != len(all.Items)-1 || kept() {
		t.Errorf("the last page of events: continue %q, %d items of %d, kept %v", last.Continue, len(last.Items), len(all.Items)-1, kept())
	}
}
