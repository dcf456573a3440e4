package report

import (
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
)

// ticks is the tick marker of every axis of the study plots: gonum's
// default positions, labelled with as few decimals as write the labelled
// values exactly (5000, not 5000.00; 0.25 keeps its two). An axis of
// whole things (integer) is labelled at whole numbers only: no 2.5 pods.
type ticks struct{ integer bool }

// Ticks implements plot.Ticker.
func (t ticks) Ticks(min, max float64) []plot.Tick {
	ts := plot.DefaultTicks{}.Ticks(min, max)
	major := majors(ts)
	if t.integer && tickDecimals(major) > 0 {
		if whole := wholeTicks(min, max); len(whole) >= 2 {
			ts, major = whole, majors(whole)
		}
	}
	for i := range ts {
		if !ts[i].IsMinor() {
			ts[i].Label = tickLabel(ts[i].Value, major)
		}
	}
	return ts
}

// majors are the values of the labelled ticks of ts.
func majors(ts []plot.Tick) []float64 {
	var out []float64
	for _, t := range ts {
		if !t.IsMinor() {
			out = append(out, t.Value)
		}
	}
	return out
}

// wholeTicks marks every whole number in [min, max], labelled (with a
// placeholder that Ticks replaces); none when that would be more than 21.
func wholeTicks(min, max float64) []plot.Tick {
	if max-min > 20 {
		return nil
	}
	var out []plot.Tick
	for v := math.Ceil(min); v <= max; v++ {
		out = append(out, plot.Tick{Value: v, Label: "-"})
	}
	return out
}

// tickDecimals is the fewest decimals, up to 9, that write each of values
// (in increasing order) to within a millionth of the smallest gap between
// two of them (of the value, for one alone): exactly as far as a
// reader can tell.
func tickDecimals(values []float64) int {
	gap := math.Inf(1)
	for i := 1; i < len(values); i++ {
		gap = min(gap, values[i]-values[i-1])
	}
	if math.IsInf(gap, 1) || gap <= 0 {
		gap = math.Abs(values[0])
	}
	tol := gap * 1e-6
	for d := range 9 {
		p := math.Pow10(d)
		ok := true
		for _, v := range values {
			if math.Abs(math.Round(v*p)/p-v) > tol {
				ok = false
				break
			}
		}
		if ok {
			return d
		}
	}
	return 9
}

// tickLabel writes v, one of the labelled values of an axis (all of them
// in increasing order), with the decimals tickDecimals picks for them and,
// when one of them reaches 10,000, the thousands grouped (1,500,000).
func tickLabel(v float64, values []float64) string {
	s := strconv.FormatFloat(v, 'f', tickDecimals(values), 64)
	if t, neg := strings.CutPrefix(s, "-"); neg && strings.Trim(t, "0.") == "" {
		s = t // -0 reads 0
	}
	big := 0.0
	for _, x := range values {
		big = max(big, math.Abs(x))
	}
	if big < 1e4 {
		return s
	}
	sign := ""
	if t, neg := strings.CutPrefix(s, "-"); neg {
		sign, s = "-", t
	}
	whole, frac, _ := strings.Cut(s, ".")
	var b strings.Builder
	b.WriteString(sign)
	for i, r := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if frac != "" {
		b.WriteString("." + frac)
	}
	return b.String()
}
