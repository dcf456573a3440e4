package hugeheap

import (
	"bufio"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
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

// rssBytes is the process's resident memory.
func rssBytes(t *testing.T) int {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		t.Skip(err)
	}
	pages, err := strconv.Atoi(strings.Fields(string(b))[1])
	if err != nil {
		t.Fatal(err)
	}
	return pages * os.Getpagesize()
}

// The block reserved is never touched, even where its span begins on
// pages the heap used and freed (which make would zero, all of it).
func TestReserveTouchesNothing(t *testing.T) {
	if !enabled() {
		t.Skip("transparent huge pages are off")
	}
	used := make([]byte, 16<<20) // the top of the heap, touched, then freed
	for i := range used {
		used[i] = 1
	}
	runtime.KeepAlive(used)
	used = nil
	runtime.GC()
	const n = 512 << 20
	before := rssBytes(t)
	reserve(n)
	if grew := rssBytes(t) - before; grew > n/4 {
		t.Fatalf("reserving %d MB made %d MB resident", n>>20, grew>>20)
	}
}

// resident reports, for each 2 MB page of r, whether its first and last
// 4 KB are in memory.
func resident(t *testing.T, r []byte) []bool {
	vec := make([]byte, len(r)/os.Getpagesize())
	if _, _, errno := syscall.Syscall(syscall.SYS_MINCORE, uintptr(unsafe.Pointer(&r[0])), uintptr(len(r)), uintptr(unsafe.Pointer(&vec[0]))); errno != 0 {
		t.Fatal(errno)
	}
	per := hugePage / os.Getpagesize()
	in := make([]bool, len(r)/hugePage)
	for i := range in {
		in[i] = vec[i*per]&1 != 0 && vec[(i+1)*per-1]&1 != 0
	}
	return in
}

// populate keeps the pages lead bytes ahead of the heap's growth faulted
// in, no further, and returns at the end of its range.
func TestPopulateFollowsTheHeap(t *testing.T) {
	const size = 64 << 20
	r, err := syscall.Mmap(-1, 0, size+hugePage, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skip(err)
	}
	defer syscall.Munmap(r)
	start := uintptr(unsafe.Pointer(&r[0]))
	beg := (start + hugePage - 1) &^ (hugePage - 1)
	region := r[beg-start : beg-start+size]
	if _, _, errno := syscall.Syscall(syscall.SYS_MADVISE, beg, hugePage, madvPopulateWrite); errno != 0 {
		t.Skipf("MADV_POPULATE_WRITE: %v", errno)
	}
	var grown atomic.Uintptr
	done := make(chan struct{})
	go func() {
		populate(beg, beg+size, grown.Load, time.Minute)
		close(done)
	}()
	want := func(upTo uintptr) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for {
			in := resident(t, region)
			ok := true
			for i, r := range in {
				ok = ok && r == (uintptr(i)*hugePage < upTo)
			}
			if ok {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("heap grown by %d MB: resident 2 MB pages %v, want the first %d", grown.Load()>>20, in, upTo/hugePage)
			}
			time.Sleep(time.Millisecond)
		}
	}
	want(lead)
	grown.Store(20 << 20)
	want(20<<20 + lead)
	grown.Store(size)
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("populate did not return at the end of its range")
	}
	want(size)
}

// populate returns when the heap stops growing.
func TestPopulateStopsWhenTheHeapDoes(t *testing.T) {
	r, err := syscall.Mmap(-1, 0, 64<<20, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skip(err)
	}
	defer syscall.Munmap(r)
	beg := uintptr(unsafe.Pointer(&r[0]))
	done := make(chan struct{})
	go func() {
		populate(beg, beg+uintptr(len(r)), func() uintptr { return 0 }, 20*time.Millisecond)
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("populate did not stop")
	}
}
