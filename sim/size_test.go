package sim

import (
	"testing"
	"unsafe"
)

// A Timer packs into 40 bytes: a pod and its containers hold about nine;
// and a queued event into 16.
func TestTimerSize(t *testing.T) {
	if n := unsafe.Sizeof(Timer{}); n != 40 && unsafe.Sizeof(uintptr(0)) == 8 {
		t.Errorf("Timer is %d bytes, want 40", n)
	}
	if n := unsafe.Sizeof(item{}); n != 16 && unsafe.Sizeof(uintptr(0)) == 8 {
		t.Errorf("item is %d bytes, want 16", n)
	}
}
