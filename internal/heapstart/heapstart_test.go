//go:build linux

package heapstart

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// The init ran in this test binary too: the heap's first mapping is
// advised to use huge pages and is resident, where the kernel gives huge
// pages to memory that asks for them.
func TestFirstMappingBackedAtStart(t *testing.T) {
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil || bytes.Contains(mode, []byte("[never]")) {
		t.Skip("transparent huge pages are off")
	}
	lo, hi := mapping(uintptr(unsafe.Pointer(first)))
	if lo == hi || hi-lo < hugePage {
		t.Fatalf("the heap's first mapping %#x-%#x", lo, hi)
	}
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	in, flags, rss := false, "", 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if a, b, ok := bounds([]byte(line)); ok {
			in = a == lo && b == hi
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
	if !strings.Contains(flags, " hg") {
		t.Errorf("the heap's first mapping is not advised to use huge pages: %q", flags)
	}
	if size := int(hi-lo) >> 10; rss < size {
		t.Errorf("%d of the heap's first mapping's %d kB resident", rss, size)
	}
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
