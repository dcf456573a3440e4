package serve

import (
	"reflect"
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
	if len(dark.srv.store.lazyPods) == 0 {
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
	if n := len(dark.srv.store.lazyPods); n != 0 {
		t.Errorf("%d lazy pods after a write", n)
	}
	for _, path := range paths[:3] {
		if want, got := get(t, lit.http.URL+path), get(t, dark.http.URL+path); got != want {
			t.Errorf("after a write, %s: dark\n%s\nlit\n%s", path, got, want)
		}
	}
}

// TestListsRenderLazyPodsOneAtATime: a list of a dark store's pods holds
// them unrendered, each rendered when written (a list of every pod never
// holds all their snapshots at once); a list taken before a write shows,
// if written after it, the pods as they were when it was taken.
func TestListsRenderLazyPodsOneAtATime(t *testing.T) {
	p := play(t, "../scenarios/demo.yaml", Options{At: 10 * time.Minute, History: 8, AllowWrites: true})
	p.freeze(t)
	s := p.srv.store
	snaps, _ := s.list(colPods, false)
	var web *lazyPod
	for _, o := range snaps {
		l, ok := o.(*lazyPod)
		if !ok {
			t.Fatalf("pod %s is listed rendered", o.base().name)
		}
		if l.name == "web" {
			web = l
		}
	}
	if web == nil {
		t.Fatal("pod web is not listed")
	}
	before := s.resolveItem(web).(*podSnap)
	var st struct{ Code int }
	if code := call(t, "DELETE", p.http.URL+"/api/v1/namespaces/default/pods/web", "", nil, &st); code != 200 {
		t.Fatalf("delete: %d", code)
	}
	if code := call(t, "GET", p.http.URL+"/api/v1/namespaces/default/pods/web", "", nil, &st); code != 404 {
		t.Fatalf("pod web after its deletion: %d, want 404", code)
	}
	if fresh := web.render(); reflect.DeepEqual(fresh, before) {
		t.Fatal("the deletion left pod web as it was: the test tests nothing")
	}
	if after := s.resolveItem(web).(*podSnap); after.deleting || !reflect.DeepEqual(after, before) {
		t.Errorf("pod web of a list taken before its deletion, written after it:\n%+v\nwant\n%+v", after, before)
	}
}

// TestLazyPodsStayOutOfTheMap: a frozen dark store publishes its pods in
// one block beside its map of pods, each found by key through its entry
// (a frozen envelope's 150,000 pods cost no map insert); a write moves
// them into the map.
func TestLazyPodsStayOutOfTheMap(t *testing.T) {
	p := play(t, "../scenarios/demo.yaml", Options{At: 10 * time.Minute, History: 8, AllowWrites: true})
	p.freeze(t)
	s := p.srv.store
	if len(s.lazyPods) == 0 {
		t.Fatal("the dark store holds no lazy pod")
	}
	for k, o := range s.objects[colPods] {
		if _, lazy := o.(*lazyPod); lazy {
			t.Errorf("lazy pod %s is in the map", k)
		}
	}
	for i := range s.lazyPods {
		l := &s.lazyPods[i]
		if got := s.lazyPodOf(l.key()); got != l {
			t.Errorf("lazyPodOf(%s) = %p, want its lazy pod %p", l.key(), got, l)
		}
		if _, _, ok := s.get(colPods, l.key()); !ok {
			t.Errorf("get %s: not found", l.key())
		}
	}
	if l := s.lazyPodOf("default/no-such-pod"); l != nil {
		t.Errorf("lazyPodOf a key with no pod: %s", l.key())
	}
	n := len(s.lazyPods) + len(s.objects[colPods])
	var st struct{ Code int }
	if code := call(t, "DELETE", p.http.URL+"/api/v1/namespaces/default/pods/web", "", nil, &st); code != 200 {
		t.Fatalf("delete: %d", code)
	}
	if len(s.lazyPods) != 0 || len(s.objects[colPods]) < n-1 {
		t.Errorf("after a write: %d lazy pods, %d in the map; want 0 and at least %d", len(s.lazyPods), len(s.objects[colPods]), n-1)
	}
}
