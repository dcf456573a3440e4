package sim

import (
	"strings"
	"time"
)

// FormatTime prints virtual time compactly: 0s, 45s, 1m30s, 2h0m5s.
func FormatTime(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
