package hugeheap

import (
	"bufio"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// vmFlags returns the VmFlags of the mapping of /proc/self/smaps that
// holds address p.
func vmFlags(t *testing.T, p uintptr) string {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if lo, hi, ok := strings.Cut(strings.Fields(line)[0], "-"); ok && !strings.HasSuffix(line, ":") {
			a, err1 := strconv.ParseUint(lo, 16, 64)
			b, err2 := strconv.ParseUint(hi, 16, 64)
			if err1 == nil && err2 == nil {
				in = uint64(p) >= a && uint64(p) < b
				continue
			}
		}
		if flags, ok := strings.CutPrefix(line, "VmFlags:"); ok && in {
			return flags
		}
	}
	t.Fatalf("no mapping holds %#x", p)
	return ""
}

// The heap allocated after a Reserve lies on memory advised to use huge
// pages ("hg" in its mapping's VmFlags); before, and below the
// threshold, it does not.
func TestReserveAdvisesTheHeapToCome(t *testing.T) {
	if !enabled() {
		t.Skip("transparent huge pages are off")
	}
	before := make([]byte, 4<<20) // kept: its pages are not free for what follows
	defer runtime.KeepAlive(before)
	if flags := vmFlags(t, uintptr(unsafe.Pointer(&before[len(before)/2]))); strings.Contains(flags, " hg") {
		t.Fatalf("heap advised before Reserve: %s", flags)
	}
	Reserve(Threshold - 1)
	later := make([]byte, 4<<20)
	defer runtime.KeepAlive(later)
	if flags := vmFlags(t, uintptr(unsafe.Pointer(&later[len(later)/2]))); strings.Contains(flags, " hg") {
		t.Fatalf("Reserve below the threshold advised the heap: %s", flags)
	}
	Reserve(2 * Threshold)
	after := make([]byte, Threshold/2)
	if flags := vmFlags(t, uintptr(unsafe.Pointer(&after[len(after)/2]))); !strings.Contains(flags, " hg") {
		t.Fatalf("heap allocated after Reserve not advised to use huge pages: %s", flags)
	}
}
