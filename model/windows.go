package model

import (
	"slices"
	"time"
)

// NormalizeWindows returns ws as the probe code searches them: the
// windows of scenario time first, then those since each start, each group
// sorted by From, overlapping and touching windows merged and empty ones
// dropped. A probe fails at the same instants under both lists; a
// Behavior's ProbeFailures must be normalized (a probe finds its window
// by binary search, so that thousands of windows cost a probe tick a few
// comparisons).
func NormalizeWindows(ws []Window) []Window {
	out := slices.Clone(ws)
	slices.SortStableFunc(out, func(a, b Window) int {
		switch {
		case a.SinceStart != b.SinceStart:
			if b.SinceStart {
				return -1
			}
			return 1
		case a.From < b.From:
			return -1
		case a.From > b.From:
			return 1
		}
		return 0
	})
	merged := out[:0]
	for _, w := range out {
		if w.To != 0 && w.To <= w.From {
			continue
		}
		if n := len(merged); n > 0 && merged[n-1].SinceStart == w.SinceStart {
			last := &merged[n-1]
			if last.To == 0 {
				continue // forever: it holds w
			}
			if w.From <= last.To {
				if w.To == 0 || w.To > last.To {
					last.To = w.To
				}
				continue
			}
		}
		merged = append(merged, w)
	}
	return merged
}

// windowGroups splits normalized ws into its windows of scenario time
// and those since each start.
func windowGroups(ws []Window) (abs, since []Window) {
	lo, hi := 0, len(ws)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if ws[mid].SinceStart {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return ws[:lo], ws[lo:]
}

// searchEnd is the index of the first window of a sorted, disjoint group
// that ends after t for a process started at startedAt, or len(ws).
func searchEnd(ws []Window, t, startedAt time.Duration) int {
	lo, hi := 0, len(ws)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if _, to := ws[mid].Span(startedAt); to != 0 && to <= t {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}

// anyContains reports whether a window of normalized ws contains t.
func anyContains(ws []Window, t, startedAt time.Duration) bool {
	if len(ws) == 0 {
		return false
	}
	abs, since := windowGroups(ws)
	for _, g := range [2][]Window{abs, since} {
		if i := searchEnd(g, t, startedAt); i < len(g) && g[i].Contains(t, startedAt) {
			return true
		}
	}
	return false
}
