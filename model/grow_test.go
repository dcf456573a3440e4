package model

import "testing"

// TestGrowDoubles: a slice filled an element at a time, by Grow or Extend,
// moves to a new array only when its capacity doubles, keeping its
// elements, and Extend's new elements are zero.
func TestGrowDoubles(t *testing.T) {
	var s, x []int
	moves, xmoves := 0, 0
	for i := range 100000 {
		old, xold := s, x
		s = Grow(s, i)
		x = Extend(x, i+1)
		if x[i] != 0 {
			t.Fatalf("Extend: element %d is %d, want 0", i, x[i])
		}
		x[i] = i
		if cap(old) == 0 || &old[:1][0] != &s[0] {
			moves++
		}
		if cap(xold) == 0 || &xold[:1][0] != &x[0] {
			xmoves++
		}
	}
	for i := range s {
		if s[i] != i || x[i] != i {
			t.Fatalf("element %d: %d and %d after growing", i, s[i], x[i])
		}
	}
	if moves > 14 || xmoves > 14 {
		t.Errorf("moved %d and %d times, want at most 14", moves, xmoves)
	}
}
