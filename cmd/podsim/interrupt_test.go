package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A command that does not stop after Ctrl-C is ended anyway, exit 130;
// one that returns in time is left alone.
func TestExitAfterInterrupt(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	exited := make(chan int, 1)
	var errb bytes.Buffer
	exitAfterInterrupt(ctx, make(chan struct{}), time.Millisecond, &errb, func(code int) { exited <- code })
	if code := <-exited; code != exitSIGINT || !strings.Contains(errb.String(), "interrupted") {
		t.Errorf("exit %d, stderr %q", code, errb.String())
	}
	done := make(chan struct{})
	close(done)
	exitAfterInterrupt(ctx, done, time.Hour, io.Discard, func(int) { t.Error("exit after the command returned") })
}

// Standard input that never ends (a pipe whose writer sleeps) does not
// hold Ctrl-C: the wait ends with exit 130.
func TestStdinInterrupted(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	defer r.Close()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	var out, errb bytes.Buffer
	code := (&Main{Stdin: r, Stdout: &out, Stderr: &errb}).Run(ctx, []string{"run", "-"})
	if code != exitSIGINT {
		t.Errorf("exit %d, stderr %q, want 130", code, errb.String())
	}
}

// A named pipe, a device or a folder given as a file is refused before it
// is opened (opening a pipe blocks until a writer comes), by every command
// that reads files and through an include.
func TestNotRegularFilesRefused(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.yaml")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no named pipes here:", err)
	}
	inc := filepath.Join(dir, "inc.yaml")
	os.WriteFile(inc, []byte("apiVersion: podsim/v1\nkind: Scenario\nmetadata: {name: inc}\nspec:\n  include: ["+fifo+"]\n"), 0o600)
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"validate", fifo}, fifo + ": not a regular file (a named pipe)"},
		{[]string{"run", fifo}, fifo + ": not a regular file (a named pipe)"},
		{[]string{"test", fifo}, fifo + ": not a regular file (a named pipe)"},
		{[]string{"sweep", fifo}, fifo + ": not a regular file (a named pipe)"},
		{[]string{"merge", fifo}, fifo + ": not a regular file (a named pipe)"},
		{[]string{"run", "/dev/zero"}, "/dev/zero: not a regular file (a character device)"},
		{[]string{"run", inc}, inc + ":5:13: include " + fifo + ": not a regular file (a named pipe)"},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			done := make(chan struct{})
			var errs string
			var code int
			go func() {
				defer close(done)
				_, errs, code = podsim(t, c.args...)
			}()
			select {
			case <-done:
			case <-time.After(time.Minute):
				os.WriteFile(fifo, nil, 0) // let the blocked open go
				<-done
				t.Fatal("blocked on the named pipe")
			}
			if code != exitBadInput || !strings.Contains(errs, c.want) {
				t.Errorf("exit %d, stderr %q, want 2 and %q", code, errs, c.want)
			}
		})
	}
}
