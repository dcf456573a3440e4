package sim

import (
	"math"
	"math/bits"
	"time"
)

// MaxDuration is the latest virtual time and the longest duration, about
// 292 years: every duration podsim handles lies in [0, MaxDuration].
const MaxDuration = time.Duration(math.MaxInt64)

// AddSat returns a+b for non-negative a and b, or MaxDuration if the sum
// does not fit. All time arithmetic goes through it (or MulSat, Seconds),
// so that no time wraps whatever a file says. A negative argument counts
// as 0.
func AddSat(a, b time.Duration) time.Duration {
	// Two numbers in [0, MaxDuration] add up to a negative int64 exactly
	// when their sum does not fit.
	if s := max(a, 0) + max(b, 0); s >= 0 {
		return s
	}
	return MaxDuration
}

// MulSat returns d*n for non-negative d and n, or MaxDuration if the
// product does not fit. A negative argument counts as 0.
func MulSat(d time.Duration, n int64) time.Duration {
	if d <= 0 || n <= 0 {
		return 0
	}
	if int64(d) > math.MaxInt64/n {
		return MaxDuration
	}
	return d * time.Duration(n)
}

// Seconds returns n seconds as a duration, saturated to [0, MaxDuration].
func Seconds(n int64) time.Duration { return MulSat(time.Second, n) }

// AddSatInt returns a+b for non-negative a and b, or MaxInt64 if the sum
// does not fit: amounts of use (bytes, nanocores, requests) saturate as
// times do.
func AddSatInt(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

// MulDivSat returns a*b/c, the product taken in 128 bits, or MaxInt64 if
// the quotient does not fit (c must not be 0).
func MulDivSat(a, b, c uint64) int64 {
	hi, lo := bits.Mul64(a, b)
	if hi >= c {
		return math.MaxInt64
	}
	q, _ := bits.Div64(hi, lo, c)
	if q > math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(q)
}
