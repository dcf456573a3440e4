package serve

import "slices"

// chunked is a list that grows in chunks of 1<<chunkShift values: it
// never copies what it holds, so the long lists of a dark run-up (dark.go)
// leave no garbage behind as they grow.
type chunked[T any] struct {
	chunks [][]T
	n      int
}

var chunkShift uint = 12 // a variable for the tests

func (l *chunked[T]) add(v T) {
	if l.n&(1<<chunkShift-1) == 0 {
		l.chunks = append(l.chunks, make([]T, 0, 1<<chunkShift))
	}
	c := &l.chunks[len(l.chunks)-1]
	*c = append(*c, v)
	l.n++
}

// at is the i-th value.
func (l *chunked[T]) at(i int) *T { return &l.chunks[i>>chunkShift][i&(1<<chunkShift-1)] }

// grow makes room in the list of chunks for those of n values in all, so
// that it is not copied as they come.
func (l *chunked[T]) grow(n int) {
	l.chunks = slices.Grow(l.chunks, max(n>>chunkShift+1-len(l.chunks), 0))
}
