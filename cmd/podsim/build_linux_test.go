//go:build amd64 || arm64 || riscv64 || ppc64le || loong64

package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// make build copies the linked binary into place in large writes, so
// that Linux keeps it in the page cache in 2 MB pages and maps each
// process's code from them in 2 MB pages (the Makefile's build). The test
// builds into a temporary directory and maps the binary's first 4 MB at a
// 2 MB boundary, as the kernel maps its code: some of it must come in a
// 2 MB page. Where the kernel keeps no file so (a file of 6 MB written
// with one write maps in small pages, before the build or after it), it
// skips. (Only where the raw mmap call takes its arguments in registers.)
func TestMakeBuildLeavesBinaryInHugePages(t *testing.T) {
	if testing.Short() {
		t.Skip("builds podsim")
	}
	makeCmd, err := exec.LookPath("make")
	if err != nil {
		t.Skip("no make")
	}
	// Read here so that go test's cached result goes with the Makefile (not
	// with the kernel or the file system: go test -count=1 for those).
	if _, err := os.ReadFile("../../Makefile"); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if hugeMapped(t, writeControl(t, dir, "control")) == 0 {
		t.Skip("this kernel or file system keeps no file written at once in 2 MB pages")
	}
	bin := filepath.Join(dir, "podsim")
	cmd := exec.Command(makeCmd, "-C", "../..", "build", "BIN="+bin)
	for _, kv := range os.Environ() { // a make running this test passes its own
		if !strings.HasPrefix(kv, "MAKEFLAGS=") && !strings.HasPrefix(kv, "MFLAGS=") && !strings.HasPrefix(kv, "MAKELEVEL=") &&
			!strings.HasPrefix(kv, "GOFLAGS=") { // -race would not build with CGO_ENABLED=0
			cmd.Env = append(cmd.Env, kv)
		}
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("make build: %v\n%s", err, out)
	}
	if n := hugeMapped(t, bin); n == 0 {
		if hugeMapped(t, writeControl(t, dir, "control-after")) == 0 { // a fresh file: the first one's pages are cached
			t.Skip("the kernel no longer gives even the control file 2 MB pages (memory too fragmented?)")
		}
		t.Errorf("the first 4 MB of the binary make build leaves map in small pages only")
	}
	if _, err := os.Stat(bin + ".new"); !os.IsNotExist(err) {
		t.Errorf("make build left %s.new behind (%v)", bin, err)
	}
}

// writeControl writes a file of 6 MB with one write into dir and returns
// its path.
func writeControl(t *testing.T, dir, name string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, bytes.Repeat([]byte("podsim"), 1<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// hugeMapped maps the first 4 MB of the file at a 2 MB boundary, read-only
// and private, as the kernel maps an executable's code, faults all of it
// in as reads would, and returns how many kB of it the kernel mapped in 2 MB
// pages (FilePmdMapped in /proc/self/smaps).
func hugeMapped(t *testing.T, path string) int {
	t.Helper()
	const size, huge = 4 << 20, 2 << 20
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || fi.Size() < size {
		t.Fatalf("%s: want at least %d bytes (%v)", path, size, err)
	}
	// A reservation 2 MB larger than the mapping holds a 2 MB boundary.
	res, _, errno := syscall.Syscall6(syscall.SYS_MMAP, 0, size+huge, syscall.PROT_NONE,
		syscall.MAP_PRIVATE|syscall.MAP_ANONYMOUS, ^uintptr(0), 0)
	if errno != 0 {
		t.Fatalf("mmap: %v", errno)
	}
	defer syscall.Syscall(syscall.SYS_MUNMAP, res, size+huge, 0)
	at := (res + huge - 1) &^ (huge - 1)
	if _, _, errno := syscall.Syscall6(syscall.SYS_MMAP, at, size, syscall.PROT_READ,
		syscall.MAP_PRIVATE|syscall.MAP_FIXED, f.Fd(), 0); errno != 0 {
		t.Fatalf("mmap %s: %v", path, errno)
	}
	const madvPopulateRead = 22 // Linux 5.14
	if _, _, errno := syscall.Syscall(syscall.SYS_MADVISE, at, size, madvPopulateRead); errno != 0 {
		t.Skipf("madvise(MADV_POPULATE_READ): %v", errno)
	}
	return smapsField(t, at, "FilePmdMapped:")
}

// smapsField returns the value in kB of field in /proc/self/smaps for the
// mapping that starts at addr.
func smapsField(t *testing.T, addr uintptr, field string) int {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	head := fmt.Sprintf("%x-", addr)
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if i := strings.IndexByte(line, ' '); i > 0 && strings.Contains(line[:i], "-") && !strings.HasSuffix(line[:i], ":") {
			in = strings.HasPrefix(line, head)
			continue
		}
		if v, ok := strings.CutPrefix(line, field); in && ok {
			n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			if err != nil {
				t.Fatalf("smaps: %q", line)
			}
			return n
		}
	}
	t.Fatalf("no %s for the mapping at %#x in /proc/self/smaps", field, addr)
	return 0
}
