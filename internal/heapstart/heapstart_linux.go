package heapstart

import (
	"sync"
	"syscall"
	"unsafe"
)

// The madvise advice values heapstart gives (Linux's uapi mman-common.h).
const (
	madvHugepage      = 14
	madvPopulateWrite = 23
	madvCollapse      = 25
	hugePage          = 2 << 20
)

// first is an object of the heap's first mapping.
var first = new([64]byte)

// faulted is where the heap is faulted in up to, from its first mapping
// on (FaultIn); 0 if init found no mapping. FaultIn holds faultedMu (runs
// of a sweep or a suite start worlds at once).
var (
	faulted   uintptr
	firstLo   uintptr // the first mapping as init found it (tests), before FaultIn's advice may merge it with the next
	firstHi   uintptr
	faultedMu sync.Mutex
)

func init() {
	lo, hi := mapping(uintptr(unsafe.Pointer(first)))
	if lo == hi {
		return
	}
	beg := (lo + hugePage - 1) &^ (hugePage - 1)
	end := hi &^ (hugePage - 1)
	if beg < end {
		madvise(beg, end, madvHugepage)
		madvise(beg, end, madvCollapse)
	}
	madvise(lo, hi, madvPopulateWrite)
	faulted, firstLo, firstHi = hi, lo, hi
}

// FaultIn faults in at most about n bytes of the heap the runtime has
// mapped since, where it continues the first mapping, past what earlier
// calls faulted in (MADV_HUGEPAGE, then MADV_POPULATE_WRITE, 2 MB a call:
// on a huge page where the kernel gives one, as the first mapping): for
// a caller that has just allocated much of what it will fill next. It
// stops where the runtime has not mapped the heap yet. The pages it faults
// in are ones the runtime counts as released until it hands them out, so
// a memory limit sees up to n bytes less than is resident.
func FaultIn(n uintptr) {
	faultedMu.Lock()
	defer faultedMu.Unlock()
	for end := faulted + n; faulted != 0 && faulted < end; faulted += hugePage {
		madvise(faulted, faulted+hugePage, madvHugepage)
		if madvise(faulted, faulted+hugePage, madvPopulateWrite) != 0 {
			return // not mapped yet (or advice unknown): what it did fault in is used at the next call
		}
	}
}

// madvise gives advice on [beg, end). An error changes nothing there.
func madvise(beg, end, advice uintptr) syscall.Errno {
	_, _, errno := syscall.Syscall(syscall.SYS_MADVISE, beg, end-beg, advice)
	return errno
}

// mapping returns the bounds of the mapping that holds address p, as
// /proc/self/maps lists it; lo == hi if none does.
func mapping(p uintptr) (lo, hi uintptr) {
	fd, err := syscall.Open("/proc/self/maps", syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return 0, 0
	}
	defer syscall.Close(fd)
	var buf [8192]byte
	rest := 0 // bytes of an unfinished line kept at buf's start
	for {
		n, err := syscall.Read(fd, buf[rest:])
		if err != nil || n <= 0 {
			return 0, 0
		}
		lines := buf[:rest+n]
		for {
			i := 0
			for i < len(lines) && lines[i] != '\n' {
				i++
			}
			if i == len(lines) {
				break
			}
			if lo, hi, ok := bounds(lines[:i]); ok && lo <= p && p < hi {
				return lo, hi
			}
			lines = lines[i+1:]
		}
		rest = copy(buf[:], lines)
		if rest == len(buf) {
			return 0, 0 // a line longer than buf
		}
	}
}

// bounds parses a line of /proc/self/maps: "lo-hi perms ...", in hex.
func bounds(line []byte) (lo, hi uintptr, ok bool) {
	i := 0
	lo, i, ok = hexAt(line, i)
	if !ok || i >= len(line) || line[i] != '-' {
		return 0, 0, false
	}
	hi, i, ok = hexAt(line, i+1)
	return lo, hi, ok && i < len(line) && line[i] == ' '
}

// hexAt parses the hex number at line[i:], returning it and the index
// after it.
func hexAt(line []byte, i int) (uintptr, int, bool) {
	var v uintptr
	start := i
	for ; i < len(line); i++ {
		c := line[i]
		switch {
		case c >= '0' && c <= '9':
			v = v<<4 | uintptr(c-'0')
		case c >= 'a' && c <= 'f':
			v = v<<4 | uintptr(c-'a'+10)
		default:
			return v, i, i > start
		}
	}
	return v, i, i > start
}
