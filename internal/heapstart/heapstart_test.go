//go:build linux

package heapstart

import (
	"bufio"
	"bytes"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"unsafe"
)

// The init ran in this test binary too: the heap's first mapping is
// advised to use huge pages and is resident, where the kernel gives huge
// pages to memory that asks for them.
func TestFirstMappingBackedAtStart(t *testing.T) {
	if hugePagesOff() {
		t.Skip("transparent huge pages are off")
	}
	lo, hi := firstLo, firstHi // as init found it: FaultIn's advice may merge it with the next
	if lo == hi || hi-lo < hugePage {
		t.Fatalf("the heap's first mapping %#x-%#x", lo, hi)
	}
	flags, rss := smapsOf(t, lo)
	if !strings.Contains(flags, " hg") {
		t.Errorf("the heap's first mapping is not advised to use huge pages: %q", flags)
	}
	if size := int(hi-lo) >> 10; rss < size {
		t.Errorf("%d of the heap's first mapping's %d kB resident", rss, size)
	}
}

// hugePagesOff reports whether the kernel gives no transparent huge pages.
func hugePagesOff() bool {
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	return err != nil || bytes.Contains(mode, []byte("[never]"))
}

// smapsOf returns the VmFlags and the resident kB of the mapping that
// holds address p, as /proc/self/smaps lists them.
func smapsOf(t *testing.T, p uintptr) (flags string, rss int) {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if a, b, ok := bounds([]byte(line)); ok {
			in = a <= p && p < b
			continue
		}
		if !in {
			continue
		}
		if v, ok := strings.CutPrefix(line, "VmFlags:"); ok {
			flags = v
		}
		if v, ok := strings.CutPrefix(line, "Rss:"); ok {
			rss, _ = strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
		}
	}
	return flags, rss
}

// bounds reads the lines of /proc/self/maps, and only them.
func TestBounds(t *testing.T) {
	for line, want := range map[string][2]uintptr{
		"00400000-00d7e000 r-xp 00000000 fe:00 10462997 /bin/podsim": {0x400000, 0xd7e000},
		"7fffb1500000-7fffb3600000 rw-p 00000000 00:00 0 ":           {0x7fffb1500000, 0x7fffb3600000},
	} {
		lo, hi, ok := bounds([]byte(line))
		if !ok || lo != want[0] || hi != want[1] {
			t.Errorf("bounds(%q) = %#x, %#x, %v", line, lo, hi, ok)
		}
	}
	for _, line := range []string{"", "Rss: 4 kB", "VmFlags: rd wr", "0040-", "zz-10 r"} {
		if _, _, ok := bounds([]byte(line)); ok {
			t.Errorf("bounds(%q) ok", line)
		}
	}
}

// FaultIn faults in the heap the runtime mapped after the first mapping:
// the part past it of a block allocated fresh (unzeroed, untouched) where
// the heap continues that mapping is not resident before, and is after,
// and is advised to use huge pages where the kernel gives them.
func TestFaultInFaultsTheGrowthIn(t *testing.T) {
	if faulted == 0 {
		t.Skip("no first mapping found at start")
	}
	start := faulted
	var b strings.Builder
	b.Grow(6 << 20) // more than the first mapping has left: the heap grows
	b.WriteByte(0)
	p := uintptr(unsafe.Pointer(unsafe.StringData(b.String())))
	lo := max((p+4<<10)&^(4<<10-1), start) // past the byte written, and the first mapping
	hi := (p + 6<<20) &^ (4<<10 - 1)
	if p+1 < start-8<<20 || hi < start+1<<20 || hi > start+8<<20 {
		t.Skipf("the block %#x-%#x does not continue the heap's first mapping (to %#x)", lo, hi, start)
	}
	if n := resident(t, lo, hi); n != 0 {
		t.Skipf("%d pages of the fresh block resident already", n)
	}
	FaultIn(8 << 20)
	if n, all := resident(t, lo, hi), int(hi-lo)>>12; n != all {
		t.Errorf("%d of the block's %d pages resident after FaultIn", n, all)
	}
	if !hugePagesOff() {
		if flags, _ := smapsOf(t, hi-1); !strings.Contains(flags, " hg") {
			t.Errorf("the heap FaultIn faulted in is not advised to use huge pages: %q", flags)
		}
	}
	runtime.KeepAlive(&b)
}

// resident counts the pages of [lo, hi) in memory (mincore).
func resident(t *testing.T, lo, hi uintptr) int {
	vec := make([]byte, (hi-lo)>>12)
	if _, _, errno := syscall.Syscall(syscall.SYS_MINCORE, lo, hi-lo, uintptr(unsafe.Pointer(&vec[0]))); errno != 0 {
		t.Skipf("mincore: %v", errno)
	}
	n := 0
	for _, v := range vec {
		n += int(v & 1)
	}
	return n
}
