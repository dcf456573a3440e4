package scheduler

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/podsim/podsim/model"
)

// pickReference is the pick pickTop must make over totals: count the
// nodes that tie for the best, draw one of them from r if there are
// several, and walk to it.
func pickReference(r *rand.Rand, totals []int64) int {
	best := slices.Max(totals)
	ties := 0
	for _, t := range totals {
		if t == best {
			ties++
		}
	}
	k := 0
	if ties > 1 {
		k = r.IntN(ties)
	}
	for i, t := range totals {
		if t == best {
			if k == 0 {
				return i
			}
			k--
		}
	}
	panic("unreachable")
}

// TestPickTopDrawsAsTheReference: over totals with many ties, given
// alone or as resource scores plus the hostname spread's scores by count,
// pickTop picks the node the reference picks and draws as many numbers
// from the stream.
func TestPickTopDrawsAsTheReference(t *testing.T) {
	gen := rand.New(rand.NewPCG(1, 2))
	s := &Scheduler{rand: rand.New(rand.NewPCG(3, 4))}
	ref := rand.New(rand.NewPCG(3, 4))
	for round := range 2000 {
		n := 1 + gen.IntN(40)
		base, counts, totals := make([]int64, n), make([]int32, n), make([]int64, n)
		lo := int32(gen.IntN(3))
		norm := make([]int64, 1+gen.IntN(4))
		for i := range norm {
			norm[i] = int64(gen.IntN(3)) * 10
		}
		for i := range base {
			base[i] = int64(gen.IntN(4))
			counts[i] = lo + int32(gen.IntN(len(norm)))
		}
		var got int
		if round%2 == 0 {
			copy(totals, base)
			got = s.pickBest(base)
		} else {
			for i := range totals {
				totals[i] = base[i] + norm[counts[i]-lo]
			}
			got = s.pickTop(base, counts, norm, lo)
		}
		if want := pickReference(ref, totals); got != want {
			t.Fatalf("round %d: totals %v: picked %d, want %d", round, totals, got, want)
		}
	}
	if s.rand.Uint64() != ref.Uint64() {
		t.Fatal("pickTop drew a different count of numbers than the reference")
	}
}

// TestPodHeapOrder: entries leave the 4-ary heap by priority (highest
// first), then time, then order, whatever order they came in.
func TestPodHeapOrder(t *testing.T) {
	gen := rand.New(rand.NewPCG(5, 6))
	var h podHeap
	var want []queueEntry
	for i := range 3000 { // more than two chunks
		e := queueEntry{at: time.Duration(gen.IntN(5)), order: uint32(i + 1), prio: int32(gen.IntN(3)) - 1, id: int32(i)}
		want = append(want, e)
		h.push(e)
		if i%7 == 0 { // pops between pushes too
			least := slices.MinFunc(want, entryCmp)
			want = slices.DeleteFunc(want, func(w queueEntry) bool { return w == least })
			if got := h.popEntry(); got != least {
				t.Fatalf("pop after push %d: %+v, want %+v", i, got, least)
			}
			h.live--
		}
	}
	slices.SortFunc(want, entryCmp)
	for i, w := range want {
		if h.len() == 0 {
			t.Fatalf("heap empty after %d of %d", i, len(want))
		}
		if got := h.popEntry(); got != w {
			t.Fatalf("pop %d: %+v, want %+v", i, got, w)
		}
		h.live--
	}
	if h.len() != 0 || h.entries() != 0 {
		t.Fatalf("%d live, %d entries left", h.len(), h.entries())
	}
}

// TestPodHeapRun: entries pushed in order wait in the run, popped as they
// come while the run never empties (its chunks go round and stay few),
// mixed with entries out of order in the heap; they leave in order.
func TestPodHeapRun(t *testing.T) {
	gen := rand.New(rand.NewPCG(7, 8))
	var h podHeap
	var want []queueEntry
	pop := func() {
		t.Helper()
		least := slices.MinFunc(want, entryCmp)
		want = slices.DeleteFunc(want, func(w queueEntry) bool { return w == least })
		if got := h.popEntry(); got != least {
			t.Fatalf("pop: %+v, want %+v", got, least)
		}
		h.live--
	}
	at := time.Duration(0)
	for i := range 20000 {
		e := queueEntry{at: at, order: uint32(i + 1), id: int32(i)}
		if gen.IntN(20) == 0 {
			e.at -= time.Duration(gen.IntN(50)) // out of order: to the heap
		} else {
			at += time.Duration(gen.IntN(3))
		}
		want = append(want, e)
		h.push(e)
		if i > 2000 { // as many in as out: about 2,000 held
			pop()
		}
	}
	if n := len(h.run.chunks); n > 4 {
		t.Errorf("the run holds %d chunks, want its entries' few", n)
	}
	for h.len() > 0 {
		pop()
	}
	if h.entries() != 0 || len(want) != 0 {
		t.Fatalf("%d entries left, %d wanted", h.entries(), len(want))
	}
}

func entryCmp(a, b queueEntry) int {
	return cmp.Or(cmp.Compare(b.prio, a.prio), cmp.Compare(a.at, b.at), cmp.Compare(a.order, b.order))
}

// TestQueueDropsForgottenPods: a pod forgotten while in activeQ leaves a
// stale entry that pop skips; the live count and the order of the others
// are as if it had been taken out.
func TestQueueDropsForgottenPods(t *testing.T) {
	w := newWorld(1, unthrottled())
	var states podStates
	var q schedQueue
	q.init(w, &states)
	var pods []*model.Pod
	for i := range 10 {
		pods = append(pods, w.AddPod(fmt.Sprint("p-", i), appSpec(100, nil, model.RestartAlways), model.PodOptions{}))
	}
	for _, p := range pods {
		q.add(p, 0)
	}
	for _, i := range []int{0, 5, 9} {
		q.forget(pods[i])
	}
	if q.active.len() != 7 || q.active.entries() != 10 {
		t.Fatalf("%d live of %d entries, want 7 of 10", q.active.len(), q.active.entries())
	}
	var got []string
	for p := q.pop(); p != nil; p = q.pop() {
		got = append(got, p.Name)
	}
	if want := "[p-1 p-2 p-3 p-4 p-6 p-7 p-8]"; fmt.Sprint(got) != want {
		t.Errorf("popped %v, want %s", got, want)
	}
	if q.waiting() || q.active.entries() != 0 {
		t.Errorf("waiting %v with %d entries after the last pop", q.waiting(), q.active.entries())
	}
}
