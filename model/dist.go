package model

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"time"
)

// Dist is a distribution of durations. Sample draws one value from r; every
// value is at least 0 and rounded to the millisecond, so timelines stay
// readable. A behaviour whose duration is fixed has no Dist (nil) and draws
// nothing, so adding a distribution to one container never shifts the draws
// of another, and a scenario without distributions runs exactly as before.
type Dist interface {
	Sample(r *rand.Rand) time.Duration
	String() string
}

// maxSample caps samples (about 146 years) so that float arithmetic never
// overflows a time.Duration.
const maxSample = time.Duration(1 << 62)

// clampRound turns a float number of nanoseconds into a sample: at least 0,
// at most maxSample, rounded to the millisecond.
func clampRound(ns float64) time.Duration {
	switch {
	case ns != ns || ns <= 0: // NaN or negative
		return 0
	case ns >= float64(maxSample):
		return maxSample
	}
	return time.Duration(ns).Round(time.Millisecond)
}

// Uniform is uniform on [Min, Max].
type Uniform struct{ Min, Max time.Duration }

// Sample draws one value.
func (u Uniform) Sample(r *rand.Rand) time.Duration {
	return clampRound(float64(u.Min) + r.Float64()*float64(u.Max-u.Min))
}

func (u Uniform) String() string { return fmt.Sprintf("uniform(%s, %s)", u.Min, u.Max) }

// Normal is a normal distribution truncated at 0: negative draws are drawn
// again (at most 64 times, then 0).
type Normal struct{ Mean, StdDev time.Duration }

// Sample draws one value.
func (n Normal) Sample(r *rand.Rand) time.Duration {
	for range 64 {
		if x := float64(n.Mean) + r.NormFloat64()*float64(n.StdDev); x >= 0 {
			return clampRound(x)
		}
	}
	return 0
}

func (n Normal) String() string { return fmt.Sprintf("normal(mean %s, stddev %s)", n.Mean, n.StdDev) }

// LogNormal is exp(ln(Median) + Sigma*Z) for a standard normal Z.
type LogNormal struct {
	Median time.Duration
	Sigma  float64
}

// Sample draws one value.
func (l LogNormal) Sample(r *rand.Rand) time.Duration {
	return clampRound(float64(l.Median) * math.Exp(l.Sigma*r.NormFloat64()))
}

func (l LogNormal) String() string {
	return fmt.Sprintf("lognormal(median %s, sigma %g)", l.Median, l.Sigma)
}

// Exponential has the given mean (a Poisson process's gaps).
type Exponential struct{ Mean time.Duration }

// Sample draws one value.
func (e Exponential) Sample(r *rand.Rand) time.Duration {
	return clampRound(float64(e.Mean) * r.ExpFloat64())
}

func (e Exponential) String() string { return fmt.Sprintf("exponential(mean %s)", e.Mean) }

// Empirical picks one of Values, each as likely (then, as every sample,
// clamped at 0 and rounded to the millisecond).
type Empirical struct{ Values []time.Duration }

// Sample draws one value.
func (e Empirical) Sample(r *rand.Rand) time.Duration {
	if len(e.Values) == 0 {
		return 0
	}
	return clampRound(float64(e.Values[r.IntN(len(e.Values))]))
}

func (e Empirical) String() string {
	s := make([]string, len(e.Values))
	for i, v := range e.Values {
		s[i] = v.String()
	}
	return "empirical[" + strings.Join(s, " ") + "]"
}
