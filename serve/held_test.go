package serve

import (
	"sync"
	"testing"
	"time"
)

// TestRequestsDuringTheRunUpWaitForTheInstant: a frozen server's store,
// which its run goroutine fills without a lock until the instant, is
// touched by no request before then: a read and a write sent during the
// run-up are answered from the instant on, as if sent then (go test
// -race finds any that is not).
func TestRequestsDuringTheRunUpWaitForTheInstant(t *testing.T) {
	const file, at = "../scenarios/demo.yaml", 10 * time.Minute
	held := play(t, file, Options{At: at, History: 8, AllowWrites: true})
	after := play(t, file, Options{At: at, History: 8, AllowWrites: true})
	var wg sync.WaitGroup
	var read string
	var deleted int
	wg.Go(func() { read = get(t, held.http.URL+"/api/v1/namespaces/default/pods/api") })
	time.Sleep(10 * time.Millisecond) // the read first: it waits, the write too
	wg.Go(func() { deleted = call(t, "DELETE", held.http.URL+"/api/v1/namespaces/default/pods/web", "", nil, nil) })
	time.Sleep(10 * time.Millisecond)
	held.start()
	after.freeze(t)
	wg.Wait()
	if want := get(t, after.http.URL+"/api/v1/namespaces/default/pods/api"); read != want {
		t.Errorf("a read sent during the run-up:\n%s\nwant the instant's\n%s", read, want)
	}
	if deleted != 200 {
		t.Errorf("a delete sent during the run-up: %d", deleted)
	}
}
