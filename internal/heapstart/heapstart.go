// Package heapstart backs the Go heap's first mapping with huge pages,
// faulted in at once, as the process starts: import it for that effect
// (cmd/podsim does), as early as possible. It imports nothing but
// syscall, unsafe and sync (which syscall imports), so that its init runs
// before most packages' inits allocate. Any program that imports
// scenarios runs it too.
//
// On a virtual machine the first touch of a 4 KB page can cost 10-20 µs
// (the guest's fault and the host's), and a process touches hundreds of
// them before main: the packages' inits, then the world it builds (a
// 1,000-pod fleet's heap is about 7 MB). heapstart advises the runtime's
// first heap mapping (4 MB, 8 MB in some starts) to use huge pages
// (MADV_HUGEPAGE), gathers the pages the runtime touched already into
// one (MADV_COLLAPSE, Linux 6.1; the kernel refuses it in some starts)
// and faults the rest in with one call (MADV_POPULATE_WRITE, Linux 5.14):
// on huge pages where the kernel gives them (transparent_hugepage
// "madvise" or "always"), two 2 MB pages in place of a thousand faults;
// else on small pages, each still far cheaper than a fault on first
// touch. The whole mapping is resident from the start, used or not (RSS
// up to 8 MB more for a command that allocates little). Where the kernel
// knows none of the advice, nothing changes. On other systems it does
// nothing.
//
// The heap grows past the first mapping 4 MB at a time, each page again
// faulted in on first touch. FaultIn faults such growth in with a call per
// 2 MB, on huge pages too where the kernel gives them, for a caller that
// has just made the heap grow for what it fills next (scenarios, for a
// world about to make its pods).
package heapstart
