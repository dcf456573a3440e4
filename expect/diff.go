package expect

import (
	"fmt"
	"slices"
	"strings"
)

// edit is one line of a line diff: ' ' kept, '-' only in a, '+' only in b.
// a and b are the line's index in a and b; for '+' a is the index in a
// before which the line goes, for '-' b likewise.
type edit struct {
	op   byte
	a, b int
}

// maxEditDistance bounds the work of diffLines: past this many differing
// lines the middle of the texts is shown as replaced wholesale.
const maxEditDistance = 1000

// diffLines returns a shortest edit script from a to b (Myers' O(ND)
// algorithm, after stripping the common prefix and suffix).
func diffLines(a, b []string) []edit {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var out []edit
	for i := range pre {
		out = append(out, edit{' ', i, i})
	}
	ma, mb := a[pre:len(a)-suf], b[pre:len(b)-suf]
	mid, ok := myers(ma, mb)
	if !ok {
		mid = mid[:0]
		for i := range ma {
			mid = append(mid, edit{'-', i, 0})
		}
		for j := range mb {
			mid = append(mid, edit{'+', len(ma), j})
		}
	}
	for _, e := range mid {
		out = append(out, edit{e.op, e.a + pre, e.b + pre})
	}
	for i := range suf {
		out = append(out, edit{' ', len(a) - suf + i, len(b) - suf + i})
	}
	return out
}

// myers finds a shortest edit script, or reports false if it needs more
// than maxEditDistance edits.
func myers(a, b []string) ([]edit, bool) {
	n, m := len(a), len(b)
	if n+m == 0 {
		return nil, true
	}
	limit := min(n+m, maxEditDistance)
	off := limit + 1
	v := make([]int, 2*limit+3) // v[off+k]: furthest x on diagonal k
	// trace[d] holds v[k] for k in [-d-1, d+1] as it was before step d.
	var trace [][]int
	for d := 0; d <= limit; d++ {
		trace = append(trace, slices.Clone(v[off-d-1:off+d+2]))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1] // down: a line of b inserted
			} else {
				x = v[off+k-1] + 1 // right: a line of a deleted
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x, y = x+1, y+1
			}
			v[off+k] = x
			if x >= n && y >= m {
				return backtrack(trace, n, m), true
			}
		}
	}
	return nil, false
}

func backtrack(trace [][]int, n, m int) []edit {
	var out []edit
	x, y := n, m
	for d := len(trace) - 1; d >= 0; d-- {
		snap := trace[d]
		get := func(k int) int { return snap[k+d+1] }
		k := x - y
		prevK := k - 1
		if k == -d || (k != d && get(k-1) < get(k+1)) {
			prevK = k + 1
		}
		prevX := get(prevK)
		prevY := prevX - prevK
		for x > prevX && y > prevY {
			out = append(out, edit{' ', x - 1, y - 1})
			x, y = x-1, y-1
		}
		if d > 0 {
			if x == prevX {
				out = append(out, edit{'+', x, y - 1})
			} else {
				out = append(out, edit{'-', x - 1, y})
			}
		}
		x, y = prevX, prevY
	}
	slices.Reverse(out)
	return out
}

// UnifiedDiff returns a unified diff (as `diff -u` prints it) from a to b
// with context lines around each change, at most maxLines lines of it
// (0: no limit); "" if a and b are equal.
func UnifiedDiff(aName, bName, a, b string, context, maxLines int) string {
	if a == b {
		return ""
	}
	al, bl := strings.Split(strings.TrimSuffix(a, "\n"), "\n"), strings.Split(strings.TrimSuffix(b, "\n"), "\n")
	if a == "" {
		al = nil
	}
	if b == "" {
		bl = nil
	}
	edits := diffLines(al, bl)
	var lines []string
	for _, h := range hunks(edits, context) {
		lines = append(lines, hunkHeader(h))
		for _, e := range h {
			switch e.op {
			case '+':
				lines = append(lines, "+"+bl[e.b])
			default:
				lines = append(lines, string(e.op)+al[e.a])
			}
		}
	}
	if len(lines) == 0 {
		// Only the final newline differs.
		lines = append(lines, "(the texts differ only in their final newline)")
	}
	if maxLines > 0 && len(lines) > maxLines {
		more := len(lines) - maxLines
		lines = append(lines[:maxLines], fmt.Sprintf("... %d more diff lines", more))
	}
	return "--- " + aName + "\n+++ " + bName + "\n" + strings.Join(lines, "\n") + "\n"
}

// hunks groups edits into runs of changes with up to context kept lines
// around them; changes closer than 2*context lines share a hunk.
func hunks(edits []edit, context int) [][]edit {
	var out [][]edit
	for i := 0; i < len(edits); {
		if edits[i].op == ' ' {
			i++
			continue
		}
		start := max(0, i-context)
		last := i // the last change of the hunk
		for {
			next := last + 1
			for next < len(edits) && edits[next].op == ' ' {
				next++
			}
			if next < len(edits) && next-last-1 <= 2*context {
				last = next
				continue
			}
			break
		}
		end := min(len(edits), last+context+1)
		out = append(out, edits[start:end])
		i = end
	}
	return out
}

// hunkHeader is "@@ -l,s +l,s @@" for a hunk, as diff -u writes it.
func hunkHeader(h []edit) string {
	aStart, bStart := -1, -1
	aCount, bCount := 0, 0
	for _, e := range h {
		if e.op != '+' {
			if aStart < 0 {
				aStart = e.a + 1
			}
			aCount++
		}
		if e.op != '-' {
			if bStart < 0 {
				bStart = e.b + 1
			}
			bCount++
		}
	}
	if aStart < 0 { // only insertions: the line before them
		aStart = h[0].a
	}
	if bStart < 0 {
		bStart = h[0].b
	}
	return "@@ -" + rangeText(aStart, aCount) + " +" + rangeText(bStart, bCount) + " @@"
}

func rangeText(start, count int) string {
	if count == 1 {
		return fmt.Sprint(start)
	}
	return fmt.Sprintf("%d,%d", start, count)
}
