package hugeheap

import (
	"bytes"
	"os"
	"runtime"
	"syscall"
	"unsafe"
)

// hugePage is the size of a transparent huge page on linux/amd64 and
// arm64 (4 KB base pages).
const hugePage = 2 << 20

func reserve(n int) {
	if !enabled() {
		return
	}
	// A fresh span of a large allocation comes straight from newly mapped
	// memory, which the runtime knows is zero: it is not touched here.
	b := make([]byte, n)
	start := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	beg := (start + hugePage - 1) &^ (hugePage - 1)
	end := (start + uintptr(n)) &^ (hugePage - 1)
	if beg < end {
		syscall.Syscall(syscall.SYS_MADVISE, beg, end-beg, syscall.MADV_HUGEPAGE) // advice: an error changes nothing
	}
	runtime.KeepAlive(b)
	runtime.GC() // b is dead: its pages are free for what comes next
}

// enabled reports whether the kernel gives huge pages to memory advised
// to use them: transparent_hugepage is "always" or "madvise".
func enabled() bool {
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	return err == nil && !bytes.Contains(mode, []byte("[never]"))
}
