package report

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// Summary describes the samples of one metric in one cell of a study. A
// statistic that the samples cannot give is NaN: all of them without
// samples, the standard deviation with one, the confidence interval with
// fewer than two runs that had samples.
type Summary struct {
	N    int // samples, pooled over the runs
	Runs int // runs that gave at least one sample

	Mean, SD, P50, P90, P99, Min, Max float64

	// CILow and CIHigh bound the 95% confidence interval of the mean,
	// from the runs' own means (Student's t with Runs-1 degrees of
	// freedom): the runs are independent, the pods of one run are not.
	CILow, CIHigh float64
}

// Summarize pools the samples of several runs (one slice per run, in seed
// order) and describes them with gonum/stat. Quantiles are those of the
// empirical distribution (stat.Empirical: the smallest sample with at least
// that share of samples at or below it).
func Summarize(runs [][]float64) Summary {
	nan := math.NaN()
	s := Summary{Mean: nan, SD: nan, P50: nan, P90: nan, P99: nan, Min: nan, Max: nan, CILow: nan, CIHigh: nan}
	var pooled, means []float64
	for _, r := range runs {
		if len(r) == 0 {
			continue
		}
		pooled = append(pooled, r...)
		means = append(means, stat.Mean(r, nil))
	}
	s.N, s.Runs = len(pooled), len(means)
	if s.N == 0 {
		return s
	}
	s.Mean = stat.Mean(pooled, nil)
	if s.N > 1 {
		s.SD = stat.StdDev(pooled, nil)
	}
	sorted := slices.Clone(pooled)
	slices.Sort(sorted)
	s.P50 = stat.Quantile(0.50, stat.Empirical, sorted, nil)
	s.P90 = stat.Quantile(0.90, stat.Empirical, sorted, nil)
	s.P99 = stat.Quantile(0.99, stat.Empirical, sorted, nil)
	s.Min, s.Max = sorted[0], sorted[len(sorted)-1]
	if k := len(means); k > 1 {
		m := stat.Mean(means, nil)
		half := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(k - 1)}.Quantile(0.975) *
			stat.StdDev(means, nil) / math.Sqrt(float64(k))
		s.CILow, s.CIHigh = m-half, m+half
	}
	return s
}

// MeanSeries averages time series of equal length point by point.
func MeanSeries(series [][]float64) []float64 {
	if len(series) == 0 {
		return nil
	}
	out := make([]float64, len(series[0]))
	for _, s := range series {
		for i := range out {
			out[i] += s[i]
		}
	}
	for i := range out {
		out[i] /= float64(len(series))
	}
	return out
}
