package serve

import (
	"strings"
	"testing"
	"time"

	"github.com/podsim/podsim/scenarios"
)

// The store takes in every change, so each counts against the run-up's
// budget as an event: a served crash loop stops sooner than the same run
// without the store, and says what the budget went on.
func TestServeChargesChangesToTheBudget(t *testing.T) {
	const file, budget = "../testdata/hostile/runaway/crashloop-centuries.yaml", 40_000
	sc, err := scenarios.LoadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	bare := sc.Start(scenarios.RunOptions{Until: sc.Duration, MaxEvents: budget})
	bare.Run(nil)
	p := play(t, file, Options{At: sc.Duration, MaxEvents: budget, AllowWrites: true})
	p.freeze(t)
	if got, want := p.srv.world.Now(), bare.World.Now(); got >= want || got < want/10 {
		t.Errorf("served run-up stopped at %s, a bare run at %s", got, want)
	}
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(p.log.String(), "changes written out or kept at one to an event") {
		if time.Now().After(deadline) {
			t.Fatalf("log: %q", p.log.String())
		}
		time.Sleep(time.Millisecond)
	}
	// A write would run the work the budget stopped: it is refused.
	var st struct {
		Code    int
		Message string
	}
	if code := call(t, "DELETE", p.http.URL+"/api/v1/namespaces/default/pods/web", "", nil, &st); code != 503 ||
		!strings.Contains(st.Message, "the run stopped over its event budget at ") {
		t.Errorf("a write after the budget: %d %q, want 503", code, st.Message)
	}
}
