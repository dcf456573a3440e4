package report

import (
	"encoding/binary"
	"hash/maphash"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat"
)

// What the study plots draw, computed apart from drawing it: a curve per
// cell (a line and the spread of the cell's runs around it), curves that
// coincide merged into one, and the rule that a plot with nothing to show
// is not written.

// The band of a curve spans these quantiles of the runs at each point.
const bandLow, bandHigh = 0.1, 0.9

// curve is what a plot draws for one or more cells: a step line through
// (x, mid) and, where the runs differ, a band from lo to hi. The slices
// have one element per point.
type curve struct {
	cells          []int // the cell drawn, then those whose curves coincide with it
	x, mid, lo, hi []float64
}

// banded tells whether the runs differ anywhere, so that a band shows.
func (c *curve) banded() bool {
	for i := range c.lo {
		if c.lo[i] != c.hi[i] {
			return true
		}
	}
	return false
}

// quantile is the empirical quantile of sorted values, as the table's
// percentiles: the smallest value with at least a share p of the values at
// or below it.
func quantile(p float64, sorted []float64) float64 {
	return stat.Quantile(p, stat.Empirical, sorted, nil)
}

// spread returns, point by point, the 10% and 90% quantiles of runs:
// time series of equal length, one per seed, at least one.
func spread(runs [][]float64) (lo, hi []float64) {
	n := len(runs[0])
	lo, hi = make([]float64, n), make([]float64, n)
	at := make([]float64, len(runs))
	for k := range n {
		for j, r := range runs {
			at[j] = r[k]
		}
		slices.Sort(at)
		lo[k], hi[k] = quantile(bandLow, at), quantile(bandHigh, at)
	}
	return lo, hi
}

// seriesCurve is the curve of one cell's series: the mean over its runs
// and their spread, against x.
func seriesCurve(cell int, x []float64, runs [][]float64) curve {
	lo, hi := spread(runs)
	return curve{cells: []int{cell}, x: x, mid: MeanSeries(runs), lo: lo, hi: hi}
}

// perPodCurve is the curve of restarts per pod: the line is every run's
// restarts so far over every run's pods so far (pooled, as the table's
// mean of pod.restarts, which it meets at the end), the band the spread of
// each run's own ratio. No pod yet counts as 0 per pod.
func perPodCurve(cell int, x []float64, restarts, pods [][]float64) curve {
	ratio := func(r, p float64) float64 {
		if p == 0 {
			return 0
		}
		return r / p
	}
	n := len(x)
	mid := make([]float64, n)
	per := make([][]float64, len(restarts))
	for j := range restarts {
		per[j] = make([]float64, n)
		for k := range n {
			per[j][k] = ratio(restarts[j][k], pods[j][k])
		}
	}
	for k := range n {
		var r, p float64
		for j := range restarts {
			r, p = r+restarts[j][k], p+pods[j][k]
		}
		mid[k] = ratio(r, p)
	}
	lo, hi := spread(per)
	return curve{cells: []int{cell}, x: x, mid: mid, lo: lo, hi: hi}
}

// cdfCurve is the curve of one cell's times to ready: the line is the
// empirical CDF of every run's samples pooled, the band the spread of the
// runs' own CDFs (runs without a sample have none) at each step. ok is
// false when no run has a sample.
func cdfCurve(cell int, runs [][]float64) (c curve, ok bool) {
	var pooled []float64
	var have [][]float64
	for _, r := range runs {
		if len(r) > 0 {
			pooled = append(pooled, r...)
			have = append(have, slices.Sorted(slices.Values(r)))
		}
	}
	if len(pooled) == 0 {
		return curve{}, false
	}
	slices.Sort(pooled)
	xs := slices.Compact(slices.Clone(pooled))
	// share of sorted at or below x
	share := func(sorted []float64, x float64) float64 {
		i, found := slices.BinarySearch(sorted, x)
		for found && i < len(sorted) && sorted[i] == x {
			i++
		}
		return float64(i) / float64(len(sorted))
	}
	c = curve{cells: []int{cell}}
	// The line starts at 0 at the first sample.
	c.x, c.mid, c.lo, c.hi = append(c.x, xs[0]), append(c.mid, 0), append(c.lo, 0), append(c.hi, 0)
	at := make([]float64, len(have))
	for _, x := range xs {
		for j, r := range have {
			at[j] = share(r, x)
		}
		slices.Sort(at)
		c.x = append(c.x, x)
		c.mid = append(c.mid, share(pooled, x))
		c.lo = append(c.lo, quantile(bandLow, at))
		c.hi = append(c.hi, quantile(bandHigh, at))
	}
	return c, true
}

// coincide merges curves that are the same point for point (line and
// band, exactly: the runs of their cells measured the same) into the first
// of them, which then stands for every cell it lists; the others are
// dropped. Order is kept.
func coincide(curves []curve) []curve {
	seed := maphash.MakeSeed()
	buckets := map[uint64][]int{} // hash -> indexes in out
	var out []curve
	var buf [8]byte
	for _, c := range curves {
		var h maphash.Hash
		h.SetSeed(seed)
		for _, s := range [][]float64{c.x, c.mid, c.lo, c.hi} {
			binary.LittleEndian.PutUint64(buf[:], uint64(len(s)))
			h.Write(buf[:])
			for _, v := range s {
				binary.LittleEndian.PutUint64(buf[:], math.Float64bits(v))
				h.Write(buf[:])
			}
		}
		key := h.Sum64()
		merged := false
		for _, i := range buckets[key] {
			o := &out[i]
			if slices.Equal(o.x, c.x) && slices.Equal(o.mid, c.mid) && slices.Equal(o.lo, c.lo) && slices.Equal(o.hi, c.hi) {
				o.cells = append(o.cells, c.cells...)
				merged = true
				break
			}
		}
		if !merged {
			c.cells = slices.Clone(c.cells)
			buckets[key] = append(buckets[key], len(out))
			out = append(out, c)
		}
	}
	return out
}

// flat tells whether curves have nothing to show on their y axis: no
// curve at all, or one value v everywhere (line and band of every curve).
func flat(curves []curve) (v float64, isFlat bool) {
	if len(curves) == 0 {
		return 0, true
	}
	v = curves[0].mid[0]
	for _, c := range curves {
		for _, s := range [][]float64{c.mid, c.lo, c.hi} {
			for _, y := range s {
				if y != v {
					return 0, false
				}
			}
		}
	}
	return v, true
}
