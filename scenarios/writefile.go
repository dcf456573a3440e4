package scenarios

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
)

// WriteFile writes what write writes to path, as podsim writes its
// outputs (shard files, kubeconfigs). A regular file, or a path that does
// not exist, is written whole or not at all: a temp file in the same
// folder (named .NAME.tmp*), synced and renamed over it; through a
// symbolic link, the file it names is replaced and the link stays.
// Anything else (a device such as /dev/stdout or /dev/full, a pipe, a
// link to one) is written through, never replaced by a file.
func WriteFile(path string, write func(io.Writer) error) error {
	target := path
	if fi, err := os.Stat(path); err == nil {
		if !fi.Mode().IsRegular() {
			return writeThrough(path, write)
		}
		if t, err := filepath.EvalSymlinks(path); err == nil {
			target = t
		}
	}
	return writeAtomic(target, write)
}

// writeThrough writes to path as it is (a device, a pipe).
func writeThrough(path string, write func(io.Writer) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(f)
	err = write(bw)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// writeAtomic writes path whole or not at all through a renamed temp file.
func writeAtomic(path string, write func(io.Writer) error) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	bw := bufio.NewWriter(tmp)
	if err := write(bw); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
