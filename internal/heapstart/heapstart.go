// Package heapstart backs the Go heap's first pages with huge pages,
// faulted in at once, as the process starts: import it for that effect
// (cmd/podsim does), as early as possible. It imports nothing but
// syscall, so that its init runs before most packages' inits allocate.
//
// On a virtual machine the first touch of a 4 KB page can cost 10-20 µs
// (the guest's fault and the host's), and a process touches hundreds of
// them before main: the packages' inits, then the world it builds (a
// 1,000-pod fleet's whole heap fits in the runtime's first 4 MB
// mapping). Where the kernel gives huge pages to memory that asks for
// them (transparent_hugepage "madvise" or "always"), heapstart advises
// that mapping to use them (MADV_HUGEPAGE), gathers the pages the
// runtime touched already into one (MADV_COLLAPSE, Linux 6.1) and faults
// the rest in with one call (MADV_POPULATE_WRITE, Linux 5.14): two 2 MB
// pages in place of a thousand faults. The mapping is resident from the
// start (4 MB). Each step is advice: where the kernel refuses one,
// nothing changes. On other systems it does nothing.
package heapstart
