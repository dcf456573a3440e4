package serve

import (
	"io"
	"net/http"
	"regexp"
	"slices"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

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
		darkFromPods = 1 // dark as soon as it is populated (in fewer than 16 versions)
		early := play(t, c.file, Options{At: c.at, History: 16})
		darkFromPods = DefaultHistory / 4
		wantEarly := early.srv.store.expectedPods() > 0 // a CronJob's pods are not expected
		lit.freeze(t)
		dark.freeze(t)
		early.freeze(t)
		if lit.srv.store.oldest() != 0 {
			t.Fatalf("%s: the lit store dropped versions up to %d", c.file, lit.srv.store.oldest())
		}
		if early.srv.store.early != wantEarly || dark.srv.store.early {
			t.Fatalf("%s: went dark early: %v (want %v), and on overflow: %v", c.file, early.srv.store.early, wantEarly, dark.srv.store.early)
		}
		for _, d := range []*played{dark, early} {
			rv, _ := d.srv.store.state()
			if d.srv.store.oldest() != rv {
				t.Errorf("%s: the dark store's history starts at %d, want the instant's version %d", c.file, d.srv.store.oldest(), rv)
			}
			for _, path := range paths {
				want, got := get(t, lit.http.URL+path), get(t, d.http.URL+path)
				if path != "/api/v1/pods" && path != "/api/v1/events" {
					want, got = version.ReplaceAllString(want, ""), version.ReplaceAllString(got, "")
				}
				if got != want {
					t.Errorf("%s %s (early %v): dark\n%s\nlit\n%s", c.file, path, d.srv.store.early, got, want)
				}
			}
			var st struct{ Code int }
			if code := call(t, "GET", d.http.URL+"/api/v1/pods?watch=1&resourceVersion=1", "", nil, &st); code != http.StatusGone {
				t.Errorf("%s: a watch from version 1 of a dark run-up: %d, want 410", c.file, code)
			}
		}
	}
}

// TestEarlyDarkRunsAgainLitWhenEveryVersionFits: a frozen store that went
// dark early, on the chance that its history would overflow, and whose
// run-up then made fewer versions than its history keeps, has the run-up
// made again with a store that stays lit: the server serves what one that
// never went dark serves, to the version, and a watch from version 1
// replays the run.
func TestEarlyDarkRunsAgainLitWhenEveryVersionFits(t *testing.T) {
	paths := []string{"/api/v1/pods", "/api/v1/nodes", "/api/v1/events", "/apis/apps/v1/deployments", "/apis/apps/v1/replicasets",
		"/apis/coordination.k8s.io/v1/leases"}
	const file, at = "../scenarios/demo.yaml", 10 * time.Minute
	lit := play(t, file, Options{At: at})
	darkFromPods = 1
	again := play(t, file, Options{At: at})
	darkFromPods = DefaultHistory / 4
	if !again.srv.store.early {
		t.Fatal("the store did not go dark early")
	}
	lit.freeze(t)
	again.freeze(t)
	if again.srv.store.early || again.srv.store.oldest() != 0 {
		t.Fatalf("served from a store that went dark early (history from %d)", again.srv.store.oldest())
	}
	for _, path := range paths {
		if want, got := get(t, lit.http.URL+path), get(t, again.http.URL+path); got != want {
			t.Errorf("%s: run again\n%s\nlit\n%s", path, got, want)
		}
	}
	replay := func(p *played) []string {
		var got []string
		readWatch(t, p.http.URL+"/api/v1/pods?watch=1&resourceVersion=1", func(typ string, m *metav1.ObjectMeta) bool {
			got = append(got, typ+" "+m.Name+" "+m.ResourceVersion)
			return len(got) == 20
		})
		return got
	}
	if want, got := replay(lit), replay(again); len(got) < 20 || !slices.Equal(got, want) {
		t.Errorf("a watch from version 1: run again\n%q\nlit\n%q", got, want)
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

// TestEarlyDarkStaysDarkOnlyIfLitWouldHave: a store that went dark early
// stays dark only if one that stayed lit, with the same history, would
// have gone dark too (its history then starts at the instant); else the
// run-up is made again lit. Across histories around the run-up's count of
// versions, both outcomes are seen.
func TestEarlyDarkStaysDarkOnlyIfLitWouldHave(t *testing.T) {
	const file, at = "../scenarios/demo.yaml", 10 * time.Minute
	kept, again := 0, 0
	for history := 16; history <= 160; history += 4 {
		lit := play(t, file, Options{At: at, History: history})
		darkFromPods = 1
		early := play(t, file, Options{At: at, History: history})
		darkFromPods = DefaultHistory / 4
		lit.freeze(t)
		early.freeze(t)
		litDark := lit.srv.store.oldest() != 0
		if early.srv.store.early {
			kept++
			if !litDark {
				t.Errorf("history %d: stayed dark, where a lit store kept every version", history)
			}
		} else {
			again++
			if got, want := early.srv.store.oldest(), lit.srv.store.oldest(); got != want {
				t.Errorf("history %d: made again, its history starts at %d, a lit store's at %d", history, got, want)
			}
		}
	}
	if kept == 0 || again == 0 {
		t.Errorf("stayed dark %d times, made again %d times: want both", kept, again)
	}
}
