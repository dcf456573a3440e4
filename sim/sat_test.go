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
