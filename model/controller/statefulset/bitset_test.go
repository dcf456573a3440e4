package statefulset

import (
	"math/rand/v2"
	"testing"
)

// The bitset agrees with a plain slice of bools on next and prev.
func TestBitset(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct{ n, sparse int }{{1, 3}, {63, 3}, {64, 3}, {65, 3}, {4095, 3}, {4096, 3}, {4097, 3}, {70000, 3}, {70000, 20000}, {300000, 100000}} {
		n := c.n
		var b bitset
		b.grow(n)
		in := make([]bool, n)
		for range 3 * min(n, 5000) {
			i := r.IntN(n)
			v := r.IntN(c.sparse) == 0
			in[i] = v
			b.setTo(i, v)
		}
		nextWant, prevWant := make([]int, n+1), make([]int, n)
		nextWant[n] = -1
		for j := n - 1; j >= 0; j-- {
			nextWant[j] = nextWant[j+1]
			if in[j] {
				nextWant[j] = j
			}
		}
		for j, last := 0, -1; j < n; j++ {
			if in[j] {
				last = j
			}
			prevWant[j] = last
		}
		for i := -1; i <= n+70; i++ {
			want := nextWant[min(max(i, 0), n)]
			if got := b.next(i); got != want {
				t.Fatalf("n %d: next(%d) = %d, want %d", n, i, got, want)
			}
			want = -1
			if i >= 0 {
				want = prevWant[min(i, n-1)]
			}
			if got := b.prev(i); got != want {
				t.Fatalf("n %d: prev(%d) = %d, want %d", n, i, got, want)
			}
		}
	}
}
