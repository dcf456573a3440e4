package report

import "testing"

// SetTraceBounds lowers the trace's bounds (trace_bound.go) until the
// test ends.
func SetTraceBounds(t testing.TB, lane, total int) {
	l, n := traceLaneEvents, traceTotalEvents
	traceLaneEvents, traceTotalEvents = lane, total
	t.Cleanup(func() { traceLaneEvents, traceTotalEvents = l, n })
}
