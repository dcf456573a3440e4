package hugeheap

import (
	"bytes"
	"os"
	"runtime"
	"runtime/metrics"
	"strings"
	"syscall"
	"time"
	"unsafe"
)

// hugePage is the size of a transparent huge page on linux/amd64 and
// arm64 (4 KB base pages).
const hugePage = 2 << 20

// madvPopulateWrite is MADV_POPULATE_WRITE (Linux 5.14): fault pages in,
// writable, as a write would, without touching their contents.
const madvPopulateWrite = 23

func reserve(n int) {
	if !enabled() {
		return
	}
	// The block is allocated unzeroed (strings.Builder.Grow): make would
	// zero it, touching every page, whenever its span begins on pages the
	// heap used before (freed by a collection), and what it touches is
	// resident, on small pages, before it is advised.
	var b strings.Builder
	b.Grow(n)
	b.WriteByte(0)
	start := uintptr(unsafe.Pointer(unsafe.StringData(b.String())))
	beg := (start + hugePage - 1) &^ (hugePage - 1)
	end := (start + uintptr(n)) &^ (hugePage - 1)
	if beg < end {
		syscall.Syscall(syscall.SYS_MADVISE, beg, end-beg, syscall.MADV_HUGEPAGE) // advice: an error changes nothing
	}
	runtime.KeepAlive(&b)
	runtime.GC() // b is dead: its pages are free for what comes next
	if beg < end && runtime.GOMAXPROCS(0) > 1 {
		go populate(beg, end, heapGrowth(), idleStop)
	}
}

// lead is how far ahead of the heap's growth populate keeps the pages
// faulted in; idleStop is how long it waits for the heap to grow before
// it stops.
const (
	lead     = 16 << 20
	idleStop = 200 * time.Millisecond
)

// populate faults in the pages of [beg, end) as the heap grows into them
// (growth: the bytes it has grown by since the reservation), lead bytes
// ahead, from a thread of its own: on a machine with a core to spare, the
// kernel's work to back fresh memory (zeroing each page and, on a virtual
// machine, the host's faults) is done beside the run instead of in its
// allocations. MADV_POPULATE_WRITE changes no page's contents, so it is
// safe beside the allocator. It returns at end, when the kernel does not
// know the advice, or when the heap has not grown for idle.
func populate(beg, end uintptr, growth func() uintptr, idle time.Duration) {
	const poll = time.Millisecond
	pos, waited := beg, time.Duration(0)
	for pos < end && waited < idle {
		target := min(end, beg+growth()+lead)
		if pos >= target {
			time.Sleep(poll)
			waited += poll
			continue
		}
		waited = 0
		for ; pos < target; pos += hugePage {
			if _, _, errno := syscall.Syscall(syscall.SYS_MADVISE, pos, hugePage, madvPopulateWrite); errno != 0 {
				return
			}
		}
	}
}

// heapGrowth returns the bytes of heap objects allocated since it was
// called (never less than zero).
func heapGrowth() func() uintptr {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uintptr {
		metrics.Read(sample)
		return uintptr(sample[0].Value.Uint64())
	}
	base := read()
	return func() uintptr {
		h := read()
		return h - min(base, h)
	}
}

// enabled reports whether the kernel gives huge pages to memory advised
// to use them: transparent_hugepage is "always" or "madvise".
func enabled() bool {
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	return err == nil && !bytes.Contains(mode, []byte("[never]"))
}
