package model

import "testing"

// A slice taken from a slab and appended past its capacity moves to an
// array of its own: it never writes into its neighbour's.
func TestSlabTakeKeepsNeighbours(t *testing.T) {
	var s slab[int]
	a, b := s.take(2), s.take(2)
	b = append(b, 7, 8)
	a = append(a, 1, 2, 3) // past its capacity
	if b[0] != 7 || b[1] != 8 {
		t.Fatalf("a's append wrote into b: %v", b)
	}
	if a[0] != 1 || a[2] != 3 {
		t.Fatalf("a = %v", a)
	}
}

// new hands out distinct zeroed values, across arrays.
func TestSlabNewDistinct(t *testing.T) {
	var s slab[[2]int]
	seen := map[*[2]int]bool{}
	for range 3 * slabMax {
		v := s.new()
		if seen[v] || *v != [2]int{} {
			t.Fatal("a value handed out twice, or not zeroed")
		}
		seen[v] = true
		v[0] = 1
	}
}
