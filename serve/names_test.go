package serve

import (
	"fmt"
	"hash/fnv"
	"testing"
)

// TestUIDIsTheUUIDOfKindAndName: uid's hand-written hex is the UUID form
// of the kind's and name's hash, as fmt writes it.
func TestUIDIsTheUUIDOfKindAndName(t *testing.T) {
	for _, c := range [][2]string{{"Pod", "default/web-0"}, {"Event", "web.0000000000000001"}, {"Node", ""}} {
		h := fnv.New128a()
		h.Write([]byte(c[0] + "\x00" + c[1]))
		b := h.Sum(nil)
		b[6] = b[6]&0x0f | 0x80
		b[8] = b[8]&0x3f | 0x80
		want := fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
		if got := uid(c[0], c[1]); got != want {
			t.Errorf("uid(%q, %q) = %s, want %s", c[0], c[1], got, want)
		}
	}
	if got := hex16(0xab); got != "00000000000000ab" {
		t.Errorf("hex16(0xab) = %s", got)
	}
}
