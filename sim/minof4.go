package sim

import "math/bits"

// minOf4 returns the index in g of its least entry.
//
// Which child is least is unpredictable, so minOf4 compares times with
// branch-free selects (CMOV). When times tie, it compares whole keys (time,
// then the tie), also without branches: a pair's order is the borrow of one
// 192-bit subtraction (earlier), and the winners are picked with
// arithmetic. It must stay out of line: once inlined, m would be used as a
// load address (h[m]), and the compiler keeps branches for those.
//
//go:noinline
func minOf4(g *[4]entry) int {
	a0, a1, a2, a3 := g[0].at, g[1].at, g[2].at, g[3].at
	m01, v01 := 0, a0
	if a1 < a0 {
		m01, v01 = 1, a1
	}
	m23, v23 := 2, a2
	if a3 < a2 {
		m23, v23 = 3, a3
	}
	if a0 == a1 || a2 == a3 || v01 == v23 {
		m01 = int(earlier(&g[1], &g[0]))
		m23 = 2 + int(earlier(&g[3], &g[2]))
		return m01 ^ (m01^m23)&-int(earlier(&g[m23], &g[m01]))
	}
	m := m01
	if v23 < v01 {
		m = m23
	}
	return m
}

// earlier is 1 if a's key (time, priority, Key) is less than b's, else 0:
// the borrow out of key(a) - key(b), with the time's sign bit flipped so
// that signed times compare as unsigned.
func earlier(a, b *entry) uint64 {
	_, borrow := bits.Sub64(a.tie.lo, b.tie.lo, 0)
	_, borrow = bits.Sub64(a.tie.hi, b.tie.hi, borrow)
	_, borrow = bits.Sub64(uint64(a.at)^1<<63, uint64(b.at)^1<<63, borrow)
	return borrow
}
