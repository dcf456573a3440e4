package report

import "sort"

// windowCounts counts something per 10-second window of a run and says
// its busiest window. It keeps only the windows that counted something,
// in order, and folds those that can no longer change into the peak: its
// memory grows with the recent windows that saw a count, not with the
// length of the run.
type windowCounts struct {
	ws     []windowCount // in window order
	folded int           // the busiest window folded away
	foldAt int           // fold when ws is this long
}

type windowCount struct{ w, n int }

// windowsKept is how many windows a windowCounts keeps before it folds.
const windowsKept = 4096

// add counts d in window w.
func (c *windowCounts) add(w, d int) {
	k := len(c.ws)
	switch {
	case k > 0 && c.ws[k-1].w == w:
		c.ws[k-1].n += d
		return
	case k == 0 || c.ws[k-1].w < w:
		c.ws = append(c.ws, windowCount{w, d})
		return
	}
	i := sort.Search(k, func(i int) bool { return c.ws[i].w >= w })
	if i < k && c.ws[i].w == w {
		c.ws[i].n += d
		return
	}
	c.ws = append(c.ws, windowCount{})
	copy(c.ws[i+1:], c.ws[i:])
	c.ws[i] = windowCount{w, d}
}

// full reports whether it keeps enough windows to fold.
func (c *windowCounts) full() bool { return len(c.ws) >= max(c.foldAt, windowsKept) }

// fold folds the windows before w into the peak: nothing will be counted
// in them any more. If that leaves it full, it folds again only once it
// keeps twice as many.
func (c *windowCounts) fold(w int) {
	i := 0
	for ; i < len(c.ws) && c.ws[i].w < w; i++ {
		c.folded = max(c.folded, c.ws[i].n)
	}
	c.ws = append(c.ws[:0], c.ws[i:]...)
	c.foldAt = 2 * len(c.ws)
}

// peak is the count of the busiest window (0 if none counted anything).
func (c *windowCounts) peak() int {
	p := c.folded
	for _, x := range c.ws {
		p = max(p, x.n)
	}
	return p
}
