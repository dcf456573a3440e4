// Package hugeheap puts the heap a large run is about to fill on
// transparent huge pages.
//
// A big world (the 150,000-pod envelope fills about 320 MB) allocates
// nearly everything it will hold while it is built and keeps it to the
// end. Each 4 KB page of it costs a page fault on first touch, and on a
// virtual machine a fault can cost 10-20 µs: more than the simulation
// itself. Where the kernel gives huge pages only to memory that asks for
// them (transparent_hugepage "madvise", the common default), Reserve asks
// for them for the heap to come: it allocates one block of the size
// expected, unzeroed, advises the kernel to back it with 2 MB pages
// (MADV_HUGEPAGE), and frees it, so that the Go runtime hands out the
// same untouched pages to the allocations that follow, 512 times fewer
// faults. Nothing is touched, so nothing is resident until used.
//
// Backing fresh memory still costs the kernel (zeroing each page, and on
// a virtual machine the host's own faults: about half of the envelope's
// time on a cold machine). Where the process has a second core, a thread
// faults the block's pages in (MADV_POPULATE_WRITE) a little ahead of
// the heap as it grows into them, so that this work is done beside the
// run instead of inside its allocations.
//
// It changes no result: only how and when the pages are backed. On other
// systems, or where huge pages are off, it does nothing.
package hugeheap

import "sync"

// Threshold is the smallest reservation made: below it the faults cost
// little, and the 2 MB pages a small heap leaves part empty cost memory.
const Threshold = 64 << 20

// max is the largest: more than a batch command's memory limit would be
// collected before it is used.
const max = 1 << 30

var once sync.Once

// Reserve readies about n bytes of heap for a run that will allocate
// them. Only the first call of a process with n at least Threshold does
// anything (later blocks could come from reused memory, which the runtime
// zeroes by touching it); it runs a garbage collection.
func Reserve(n int) {
	if n < Threshold {
		return
	}
	once.Do(func() { reserve(min(n, max)) })
}
