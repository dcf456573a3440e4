package serve

import (
	"encoding/json"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podsim/podsim/model"
)

// TestLazyEventsServeTheLitEvents: a frozen store that went dark holds the
// events it first saw while dark unrendered, and serves them (lists of
// both APIs, a namespace's, pages, field selections, tables, gets, a
// watch's replay) as a store that rendered every change; a write renders
// them all before it moves the world, and both serve the same events
// after it. The crash loops combine the ReplicaSet's events and repeat
// their BackOffs while dark; the namespaces name events alike.
func TestLazyEventsServeTheLitEvents(t *testing.T) {
	defer func(n uint) { chunkShift = n }(chunkShift)
	chunkShift = 2 // events over many chunks
	const table = "application/json;as=Table;g=meta.k8s.io;v=v1"
	for _, c := range []struct {
		file, ns string
		at       time.Duration
		history  int    // dark from early on
		write    string // the write that renders them: a pod's deletion, else a node's cordon
	}{
		{"../scenarios/studies/crashloop-110.yaml", "default", 5 * time.Minute, 8, "/api/v1/nodes/node-a"},
		{"../scenarios/namespaces/same-name.yaml", "canary", 4 * time.Minute, 8, "/api/v1/namespaces/canary/pods/web"},
	} {
		lit := play(t, c.file, Options{At: c.at, AllowWrites: true})
		dark := play(t, c.file, Options{At: c.at, History: c.history, AllowWrites: true})
		lit.freeze(t)
		dark.freeze(t)
		s := dark.srv.store
		if s.lazyEvents.n < 10 {
			t.Fatalf("%s: %d lazy events", c.file, s.lazyEvents.n)
		}
		for i := range s.lazyEvents.n {
			if d := s.lazyEvents.at(i); s.objects[colEvents][model.Key(d.class.ns, s.lazyEvents.name(i))] != nil {
				t.Fatalf("%s: lazy event %s rendered", c.file, s.lazyEvents.name(i))
			}
		}
		var l struct {
			Items []struct {
				Metadata       metav1.ObjectMeta
				InvolvedObject struct{ Name string }
			}
		}
		call(t, "GET", lit.http.URL+"/api/v1/events", "", nil, &l)
		if len(l.Items) < 10 {
			t.Fatalf("%s: %d events", c.file, len(l.Items))
		}
		first, mid, last := l.Items[0], l.Items[len(l.Items)/2], l.Items[len(l.Items)-1]
		same := func(when string, paths ...string) {
			t.Helper()
			for _, path := range paths {
				for _, accept := range []string{"", table} {
					if want, got := getAs(t, lit.http.URL+path, accept), getAs(t, dark.http.URL+path, accept); got != want {
						t.Errorf("%s %s, %s %q: dark\n%s\nlit\n%s", c.file, when, path, accept, got, want)
					}
				}
			}
		}
		one := func(ns, name string) string { return "/api/v1/namespaces/" + ns + "/events/" + name }
		same("frozen", "/api/v1/events", "/apis/events.k8s.io/v1/events", "/api/v1/namespaces/"+c.ns+"/events",
			"/api/v1/events?fieldSelector="+url.QueryEscape("type=Warning"),
			"/api/v1/namespaces/"+mid.Metadata.Namespace+"/events?fieldSelector="+url.QueryEscape("involvedObject.name="+mid.InvolvedObject.Name),
			one(first.Metadata.Namespace, first.Metadata.Name), one(mid.Metadata.Namespace, mid.Metadata.Name),
			one(last.Metadata.Namespace, last.Metadata.Name),
			"/apis/events.k8s.io/v1/namespaces/"+mid.Metadata.Namespace+"/events/"+mid.Metadata.Name,
			one(c.ns, "nothing.0000000000000001"), one(mid.Metadata.Namespace, mid.Metadata.Name+"0"),
			one(mid.Metadata.Namespace, mid.InvolvedObject.Name+".ffffffffffffffff"))
		var wg sync.WaitGroup
		for range 4 { // readers at once render lazy events side by side
			wg.Go(func() { same("read at once", "/api/v1/events", "/api/v1/events?limit=3") })
		}
		wg.Wait()
		// kubectl's pages of 7, each continued from the last.
		for next := "/api/v1/events?limit=7"; next != ""; {
			same("paged", next)
			var page struct{ Metadata metav1.ListMeta }
			call(t, "GET", dark.http.URL+next, "", nil, &page)
			next = ""
			if page.Metadata.Continue != "" {
				next = "/api/v1/events?limit=7&continue=" + page.Metadata.Continue
			}
		}
		if want, got := replay(t, lit.http.URL, len(l.Items)), replay(t, dark.http.URL, len(l.Items)); got != want {
			t.Errorf("%s: a watch's replay: dark\n%s\nlit\n%s", c.file, got, want)
		}

		for _, p := range []*played{lit, dark} {
			code := 0
			if strings.Contains(c.write, "/pods/") {
				code = call(t, "DELETE", p.http.URL+c.write, "", nil, nil)
			} else {
				code = send(t, "PATCH", p.http.URL+c.write, "", strategicPatch, strings.NewReader(`{"spec":{"unschedulable":true}}`), nil)
			}
			if code != 200 {
				t.Fatalf("%s: %s: %d", c.file, c.write, code)
			}
		}
		if s.lazyEvents.n != 0 {
			t.Errorf("%s: %d lazy events after a write", c.file, s.lazyEvents.n)
		}
		same("after a write", "/api/v1/events", "/api/v1/namespaces/"+c.ns+"/events", one(mid.Metadata.Namespace, mid.Metadata.Name))
	}
}

// getAs is the status code and the body of a GET of u with Accept accept,
// kept as sent (every answer of the API is JSON).
func getAs(t *testing.T, u, accept string) string {
	t.Helper()
	var body json.RawMessage
	code := call(t, "GET", u, accept, nil, &body)
	return strconv.Itoa(code) + "\n" + string(body)
}

// replay is the first n events of a watch of every event from the start,
// each as "TYPE namespace/name resourceVersion count".
func replay(t *testing.T, base string, n int) string {
	t.Helper()
	var got []string
	readWatch(t, base+"/api/v1/events?watch=1", func(typ string, m *metav1.ObjectMeta) bool {
		got = append(got, typ+" "+m.Namespace+"/"+m.Name+" "+m.ResourceVersion+" "+string(m.UID))
		return len(got) == n
	})
	return strings.Join(got, "\n")
}
