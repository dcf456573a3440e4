package prober

import (
	"math/rand/v2"
	"testing"
)

// The triggers queue gives back its workers in the order pushed, across
// its chunks, whatever the mix of pushes and pops, as a slice does.
func TestTriggersFIFO(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	ws := make([]worker, 2000)
	var q triggers
	var want []*worker
	for step := range 20000 {
		if len(want) == 0 || r.IntN(3) > 0 && len(want) < len(ws) {
			pr := &ws[r.IntN(len(ws))]
			q.push(pr)
			want = append(want, pr)
			continue
		}
		if got := q.pop(); got != want[0] {
			t.Fatalf("step %d: popped worker %p, want %p", step, got, want[0])
		}
		want = want[1:]
	}
}
