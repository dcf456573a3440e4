package eviction

import "testing"

func TestFormatBinarySI(t *testing.T) {
	for b, want := range map[int64]string{0: "0", 1536: "1536", 3072: "3Ki", 100 << 20: "100Mi", -(126 << 20): "-126Mi", 1 << 30: "1Gi", 5<<20 + 1: "5242881"} {
		if got := formatBinarySI(b); got != want {
			t.Errorf("formatBinarySI(%d) = %q, want %q", b, got, want)
		}
	}
}

// rankMemoryPressure: above the request first, then lower priority, then
// more above the request.
func TestEvictsBefore(t *testing.T) {
	cases := []struct {
		over  int64
		prio  int32
		bOver int64
		bPrio int32
		want  bool
	}{
		{10, 1000, -10, 0, true},  // above its request beats below, whatever the priority
		{-10, 0, 10, 1000, false}, // and the other way round
		{10, 0, 500, 1000, true},  // both above: the lower priority first
		{500, 0, 10, 0, true},     // same priority: more above the request first
		{10, 0, 10, 0, false},     // a tie keeps binding order
	}
	for _, c := range cases {
		if got := evictsBefore(c.over, c.prio, c.bOver, c.bPrio); got != c.want {
			t.Errorf("evictsBefore(%d, %d, %d, %d) = %v, want %v", c.over, c.prio, c.bOver, c.bPrio, got, c.want)
		}
	}
}
