package serve

import (
	"io"
	"net/http"
	"regexp"
	"testing"
	"time"

	"github.com/podsim/podsim/model"
)

// TestDarkRunUpServesTheSameCluster: a frozen server whose run-up
// overflows its history renders nothing per change (it goes dark) and
// yet serves, at the frozen instant, the cluster a server that rendered
// every change serves: the same objects, pods at the version of their
// last change. Its history starts at the instant: a watch from before is
// 410 Gone.
func TestDarkRunUpServesTheSameCluster(t *testing.T) {
	paths := []string{"/api/v1/pods", "/api/v1/nodes", "/api/v1/events", "/apis/apps/v1/deployments", "/apis/apps/v1/replicasets",
		"/apis/batch/v1/jobs", "/apis/batch/v1/cronjobs", "/apis/coordination.k8s.io/v1/leases", "/api/v1/namespaces",
		"/apis/policy/v1/poddisruptionbudgets"}
	// Workloads and leases are published at the instant's version when
	// dark; every other field is the same.
	version := regexp.MustCompile(`"resourceVersion":"[0-9]+"`)
	defer func(n uint) { chunkShift = n }(chunkShift)
	chunkShift = 1 // events over many chunks
	for _, c := range []struct {
		file string
		at   time.Duration
	}{
		{"../scenarios/rollouts/rolling-update.yaml", 3 * time.Minute},
		{"../scenarios/cluster/partition-delete-node.yaml", 10 * time.Minute},
		{"../scenarios/cronjob/history-limits.yaml", 5 * time.Minute},
		{"../scenarios/demo.yaml", time.Minute},
		{"../scenarios/demo.yaml", 10 * time.Minute}, // BackOff repeats while dark
		{"../scenarios/namespaces/same-name.yaml", 5 * time.Minute},
	} {
		lit := play(t, c.file, Options{At: c.at})
		dark := play(t, c.file, Options{At: c.at, History: 8})
		lit.freeze(t)
		dark.freeze(t)
		if lit.srv.store.oldest() != 0 {
			t.Fatalf("%s: the lit store dropped versions up to %d", c.file, lit.srv.store.oldest())
		}
		rv, _ := dark.srv.store.state()
		if dark.srv.store.oldest() != rv {
			t.Errorf("%s: the dark store's history starts at %d, want the instant's version %d", c.file, dark.srv.store.oldest(), rv)
		}
		for _, path := range paths {
			want, got := get(t, lit.http.URL+path), get(t, dark.http.URL+path)
			if path != "/api/v1/pods" && path != "/api/v1/events" {
				want, got = version.ReplaceAllString(want, ""), version.ReplaceAllString(got, "")
			}
			if got != want {
				t.Errorf("%s %s: dark\n%s\nlit\n%s", c.file, path, got, want)
			}
		}
		var st struct{ Code int }
		if code := call(t, "GET", dark.http.URL+"/api/v1/pods?watch=1&resourceVersion=1", "", nil, &st); code != http.StatusGone {
			t.Errorf("%s: a watch from version 1 of a dark run-up: %d, want 410", c.file, code)
		}
	}
}

// TestDarkEventsFoundAfterPublish: an event first seen while the store
// was dark is found again, by its model event, once published and
// rendered by a write (its next repeat, after the write, replaces that
// snapshot).
func TestDarkEventsFoundAfterPublish(t *testing.T) {
	dark := play(t, "../scenarios/demo.yaml", Options{At: 10 * time.Minute, History: 8})
	dark.freeze(t)
	s := dark.srv.store
	s.thaw() // as a write does before it moves the world
	if len(s.published) == 0 {
		t.Fatal("no event was first seen while dark")
	}
	for _, e := range s.published {
		snap := s.publishedEvent(e)
		if snap == nil || s.objects[colEvents][snap.key()] != snapshot(snap) || snap.count != int(e.Count) || snap.message != e.Message() {
			t.Fatalf("event %s %q: published as %+v", e.Reason(), e.Message(), snap)
		}
	}
	if s.publishedEvent(&model.Event{}) != nil {
		t.Error("an event never seen is found")
	}
}

func get(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
