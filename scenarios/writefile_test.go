package scenarios

import (
	"io"
	"os"
	"path/filepath"
	"testing"
)

// WriteFile replaces a regular file whole, keeps a symbolic link (and
// replaces what it names), and writes through to a device without
// replacing it: --out /dev/stdout, or a link to it, stayed a file before.
func TestWriteFileKeepsLinksAndDevices(t *testing.T) {
	dir := t.TempDir()
	write := func(s string) func(io.Writer) error {
		return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
	}
	file := filepath.Join(dir, "out.json")
	if err := WriteFile(file, write("one")); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(file, link); err != nil {
		t.Skip("no symbolic links:", err)
	}
	if err := WriteFile(link, write("two")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link became a file: %v", err)
	}
	if b, _ := os.ReadFile(file); string(b) != "two" {
		t.Errorf("the linked file holds %q, want two", b)
	}
	dev := filepath.Join(dir, "null")
	if err := os.Symlink(os.DevNull, dev); err != nil {
		t.Fatal(err)
	}
	// Through a link only: without the fix, a root test would replace
	// the device itself.
	if err := WriteFile(dev, write("three")); err != nil {
		t.Fatalf("%s: %v", dev, err)
	}
	if fi, err := os.Stat(os.DevNull); err != nil || fi.Mode().IsRegular() {
		t.Errorf("%s is a regular file now", os.DevNull)
	}
	if fi, err := os.Lstat(dev); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link to %s became a file", os.DevNull)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 3 {
		t.Errorf("%d entries in the folder, want 3 (no temp files left)", len(ents))
	}
}
