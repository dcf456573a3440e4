package report

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestTickLabels(t *testing.T) {
	for _, tc := range []struct {
		min, max float64
		integer  bool
		want     string
	}{
		{0, 5000, false, "0 2500 5000"}, // not 5000.00
		{0, 3850, false, "0 1000 2000 3000"},
		{0, 75, false, "0 25 50 75"},
		{0, 1.04, false, "0.0 0.5 1.0"}, // one decimal tells them apart, and every label has it
		{0, 0.3, false, "0.00 0.15 0.30"},
		{-3, 3, false, "-3 0 3"},
		{0, 12345, false, "0 4,000 8,000 12,000"},
		{0, 1.5e6, false, "0 500,000 1,000,000 1,500,000"},
		{0, 5.2, true, "0 1 2 3 4 5"}, // pods: no 2.5
		{0, 1.4, true, "0 1"},
		{0, 5000, true, "0 2500 5000"},
	} {
		var got []string
		for _, tk := range (ticks{integer: tc.integer}).Ticks(tc.min, tc.max) {
			if !tk.IsMinor() {
				got = append(got, tk.Label)
			}
		}
		if g := strings.Join(got, " "); g != tc.want {
			t.Errorf("ticks of [%v, %v] (integer %v): %q, want %q", tc.min, tc.max, tc.integer, g, tc.want)
		}
	}
}

func TestTickDecimals(t *testing.T) {
	for _, tc := range []struct {
		values []float64
		want   int
	}{
		{[]float64{0, 2500, 5000}, 0},
		{[]float64{0, 0.5, 1}, 1},
		{[]float64{0, 0.25, 0.5}, 2},
		{[]float64{0.1, 0.2, 0.30000000000000004}, 1}, // float noise is no decimal
		{[]float64{1e-4, 2e-4}, 4},
		{[]float64{7}, 0},
		{[]float64{0.125}, 3},
	} {
		if got := tickDecimals(tc.values); got != tc.want {
			t.Errorf("tickDecimals(%v) = %d, want %d", tc.values, got, tc.want)
		}
	}
	if got := tickLabel(-1e-17, []float64{-1e-17, 0.5, 1}); got != "0.0" {
		t.Errorf("a tick at -0 reads %q, want 0.0", got)
	}
}

func TestSpread(t *testing.T) {
	// Point by point across the runs; below 10 runs the 10% and 90%
	// quantiles are the lowest and the highest.
	lo, hi := spread([][]float64{{1, 5}, {3, 4}, {2, 6}})
	if !slices.Equal(lo, []float64{1, 4}) || !slices.Equal(hi, []float64{3, 6}) {
		t.Errorf("3 runs: lo %v hi %v, want [1 4] [3 6]", lo, hi)
	}
	// 20 runs of 1..20: the 2nd and the 18th, as the table's percentiles.
	var runs [][]float64
	for v := 20; v >= 1; v-- {
		runs = append(runs, []float64{float64(v)})
	}
	if lo, hi := spread(runs); lo[0] != 2 || hi[0] != 18 {
		t.Errorf("20 runs: %v..%v, want 2..18", lo[0], hi[0])
	}
	// 10 runs: the lowest, and the 9th.
	if lo, hi := spread(runs[10:]); lo[0] != 1 || hi[0] != 9 {
		t.Errorf("10 runs: %v..%v, want 1..9", lo[0], hi[0])
	}
	c := seriesCurve(0, []float64{0, 1}, [][]float64{{1, 1}, {1, 1}})
	if c.banded() || !slices.Equal(c.mid, []float64{1, 1}) {
		t.Errorf("runs that agree: %+v, want no band", c)
	}
}

func TestPerPodCurve(t *testing.T) {
	// The line pools the runs (total restarts over total pods, as the
	// table's mean); the band spreads each run's own ratio. No pod yet: 0.
	c := perPodCurve(0, []float64{0, 1, 2}, [][]float64{{0, 2, 4}, {0, 1, 3}}, [][]float64{{0, 2, 2}, {0, 1, 1}})
	if want := []float64{0, 1, 7.0 / 3}; !slices.Equal(c.mid, want) {
		t.Errorf("mid %v, want %v", c.mid, want)
	}
	if !slices.Equal(c.lo, []float64{0, 1, 2}) || !slices.Equal(c.hi, []float64{0, 1, 3}) {
		t.Errorf("band %v..%v, want [0 1 2]..[0 1 3]", c.lo, c.hi)
	}
}

func TestCDFCurve(t *testing.T) {
	c, ok := cdfCurve(4, [][]float64{{20, 10}, {20}, {}})
	want := curve{cells: []int{4}, x: []float64{10, 10, 20}, mid: []float64{0, 1.0 / 3, 1},
		lo: []float64{0, 0, 1}, hi: []float64{0, 0.5, 1}}
	if !ok || !reflect.DeepEqual(c, want) {
		t.Errorf("cdfCurve = %+v, %v\nwant %+v", c, ok, want)
	}
	if _, ok := cdfCurve(0, [][]float64{{}, nil}); ok {
		t.Error("a cell where no pod got ready has a curve")
	}
}

func TestCoincide(t *testing.T) {
	x := []float64{0, 1}
	mk := func(cell int, mid, lo, hi []float64) curve {
		return curve{cells: []int{cell}, x: x, mid: mid, lo: lo, hi: hi}
	}
	a := []float64{1, 2}
	curves := []curve{
		mk(0, a, a, a),
		mk(1, []float64{1, 3}, a, a),
		mk(2, a, a, a),                         // = 0
		mk(3, []float64{1, 3}, a, a),           // = 1
		mk(4, a, a, []float64{1, 2.000000001}), // another band: its own
		mk(5, []float64{1, 2 + 1e-15}, a, a),   // not exactly 0: its own
		mk(6, a, a, []float64{1, 2.000000001}), // = 4
		{cells: []int{7}, x: []float64{0}, mid: []float64{1}, lo: []float64{1}, hi: []float64{1}},
	}
	var got [][]int
	for _, c := range coincide(curves) {
		got = append(got, c.cells)
	}
	if want := [][]int{{0, 2}, {1, 3}, {4, 6}, {5}, {7}}; !reflect.DeepEqual(got, want) {
		t.Errorf("coincide: cells %v, want %v", got, want)
	}
	if len(curves[0].cells) != 1 {
		t.Error("coincide changed its input")
	}
}

func TestFlat(t *testing.T) {
	x := []float64{0, 1}
	zero := curve{x: x, mid: []float64{0, 0}, lo: []float64{0, 0}, hi: []float64{0, 0}}
	three := curve{x: x, mid: []float64{3, 3}, lo: []float64{3, 3}, hi: []float64{3, 3}}
	spread := curve{x: x, mid: []float64{0, 0}, lo: []float64{0, 0}, hi: []float64{0, 1}}
	for _, tc := range []struct {
		name   string
		curves []curve
		flat   bool
		v      float64
	}{
		{"no curve", nil, true, 0},
		{"all zero", []curve{zero, zero}, true, 0},
		{"all three", []curve{three}, true, 3},
		{"two levels", []curve{zero, three}, false, 0},
		{"a band that moves", []curve{zero, spread}, false, 0},
	} {
		if v, isFlat := flat(tc.curves); isFlat != tc.flat || v != tc.v {
			t.Errorf("%s: flat = %v, %v; want %v, %v", tc.name, v, isFlat, tc.v, tc.flat)
		}
	}
}
