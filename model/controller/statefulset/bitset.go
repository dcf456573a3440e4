package statefulset

import "math/bits"

// bitset is a set of small non-negative integers with a summary word per
// 64 words, so that the next or previous member of a set of a million
// is found in a few hundred word reads.
type bitset struct {
	words   []uint64
	summary []uint64 // bit j: words[j] != 0
}

// grow makes room for members below n.
func (b *bitset) grow(n int) {
	for len(b.words)*64 < n {
		b.words = append(b.words, 0)
	}
	for len(b.summary)*64 < len(b.words) {
		b.summary = append(b.summary, 0)
	}
}

// setTo adds i (below the room made by grow) if v, else removes it.
func (b *bitset) setTo(i int, v bool) {
	w := i >> 6
	if v {
		b.words[w] |= 1 << (i & 63)
		b.summary[w>>6] |= 1 << (w & 63)
		return
	}
	b.words[w] &^= 1 << (i & 63)
	if b.words[w] == 0 {
		b.summary[w>>6] &^= 1 << (w & 63)
	}
}

// next returns the least member at or above i, or -1.
func (b *bitset) next(i int) int {
	if i < 0 {
		i = 0
	}
	w := i >> 6
	if w >= len(b.words) {
		return -1
	}
	if m := b.words[w] >> (i & 63); m != 0 {
		return i + bits.TrailingZeros64(m)
	}
	for w++; w < len(b.words); {
		s := b.summary[w>>6] >> (w & 63)
		if s == 0 {
			w = (w>>6 + 1) << 6
			continue
		}
		w += bits.TrailingZeros64(s)
		return w<<6 + bits.TrailingZeros64(b.words[w])
	}
	return -1
}

// prev returns the greatest member at or below i, or -1.
func (b *bitset) prev(i int) int {
	if i < 0 {
		return -1
	}
	w := i >> 6
	if w >= len(b.words) {
		w, i = len(b.words)-1, len(b.words)*64-1
		if w < 0 {
			return -1
		}
	}
	if m := b.words[w] << (63 - i&63); m != 0 {
		return i - bits.LeadingZeros64(m)
	}
	for w--; w >= 0; {
		s := b.summary[w>>6] << (63 - w&63)
		if s == 0 {
			w = w&^63 - 1
			continue
		}
		w -= bits.LeadingZeros64(s)
		return w<<6 + 63 - bits.LeadingZeros64(b.words[w])
	}
	return -1
}
