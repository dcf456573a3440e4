package serve

import "testing"

// TestChunkedKeepsAddresses: a chunked list never moves what it holds, so
// a pointer to a value (a pod's entry) stays good as the list grows, and
// grow, for any count, only makes room.
func TestChunkedKeepsAddresses(t *testing.T) {
	defer func(n uint) { chunkShift = n }(chunkShift)
	chunkShift = 3
	var l chunked[int]
	l.grow(20)
	l.add(0)
	first := l.at(0)
	for i := 1; i < 1000; i++ {
		l.add(i)
		if i == 500 {
			l.grow(10) // fewer than it holds
		}
	}
	if l.n != 1000 || l.at(0) != first || *first != 0 {
		t.Fatalf("%d values; the first moved: %v", l.n, l.at(0) != first)
	}
	for i := range l.n {
		if *l.at(i) != i {
			t.Fatalf("value %d is %d", i, *l.at(i))
		}
	}
}
