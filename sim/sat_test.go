package sim

import (
	"math"
	"testing"
	"time"
)

func TestSaturatingTime(t *testing.T) {
	cases := []struct {
		name      string
		got, want time.Duration
	}{
		{"add", AddSat(time.Second, time.Minute), 61 * time.Second},
		{"add overflows", AddSat(MaxDuration-1, 2), MaxDuration},
		{"add max", AddSat(MaxDuration, MaxDuration), MaxDuration},
		{"add negative", AddSat(-5, 3), 3},
		{"mul", MulSat(time.Second, 90), 90 * time.Second},
		{"mul overflows", MulSat(time.Second, 1e10), MaxDuration},
		{"mul int64 max", MulSat(time.Nanosecond*2, math.MaxInt64), MaxDuration},
		{"mul negative", MulSat(time.Second, -1), 0},
		{"seconds", Seconds(30), 30 * time.Second},
		{"seconds int64 max", Seconds(math.MaxInt64), MaxDuration},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("%s: got %d, want %d", c.name, c.got, c.want)
		}
	}
}

// Counting is exact on piecewise-constant rates: 3 endpoints sharing 10
// requests per second serve 10 a second between them, not 9.99.
func TestMulDivExact(t *testing.T) {
	// 1h at 10 rps over 3 endpoints, counted as n*rate/(1000n).
	got := MulDivSat(uint64(time.Hour), 3*10_000, 1000*3)
	if got != 36000*1e9 {
		t.Errorf("got %d nano-requests, want %d", got, int64(36000*1e9))
	}
	if MulDivSat(1<<63, 1<<62, 1) != 1<<63-1 {
		t.Error("MulDivSat does not saturate")
	}
}
