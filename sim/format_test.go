package sim

import (
	"testing"
	"time"
)

func TestFormatTime(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0: "0s", 45 * time.Second: "45s", 90 * time.Second: "1m30s", time.Minute: "1m",
		2*time.Hour + 5*time.Second: "2h0m5s", 2 * time.Hour: "2h", 2*time.Hour + time.Minute: "2h1m",
		1500 * time.Millisecond: "1.5s",
	} {
		if got := FormatTime(d); got != want {
			t.Errorf("FormatTime(%v) = %q, want %q", d, got, want)
		}
	}
}
