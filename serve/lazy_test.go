package serve

import (
	"sync"
	"testing"
	"time"
)

// TestLazyPodsServeTheLitCluster: a frozen store that went dark holds its
// pods unrendered, and serves each (in lists, watches' replays, gets, read
// at once by several clients) as a store that rendered every change does;
// a write renders them all before it moves the world, and both serve the
// same cluster after it.
func TestLazyPodsServeTheLitCluster(t *testing.T) {
	const file, at = "../scenarios/demo.yaml", 10 * time.Minute
	lit := play(t, file, Options{At: at, AllowWrites: true})
	dark := play(t, file, Options{At: at, History: 8, AllowWrites: true})
	lit.freeze(t)
	dark.freeze(t)
	if dark.srv.store.lazy == 0 {
		t.Fatal("the dark store holds no lazy pod")
	}
	paths := []string{"/api/v1/pods", "/api/v1/namespaces/default/pods/web", "/api/v1/namespaces/default/pods/api",
		"/api/v1/pods?labelSelector=app%3Dweb", "/api/v1/pods?fieldSelector=spec.nodeName%3Dnode-a"}
	var wg sync.WaitGroup
	for range 4 { // readers at once render lazy pods side by side
		wg.Go(func() {
			for _, path := range paths {
				if want, got := get(t, lit.http.URL+path), get(t, dark.http.URL+path); got != want {
					t.Errorf("%s: dark\n%s\nlit\n%s", path, got, want)
				}
			}
		})
	}
	wg.Wait()
	for _, p := range []*played{lit, dark} {
		var st struct{ Code int }
		if code := call(t, "DELETE", p.http.URL+"/api/v1/namespaces/default/pods/web", "", nil, &st); code != 200 {
			t.Fatalf("delete: %d", code)
		}
	}
	if dark.srv.store.lazy != 0 {
		t.Errorf("%d lazy pods after a write", dark.srv.store.lazy)
	}
	for _, path := range paths[:3] {
		if want, got := get(t, lit.http.URL+path), get(t, dark.http.URL+path); got != want {
			t.Errorf("after a write, %s: dark\n%s\nlit\n%s", path, got, want)
		}
	}
}
