package progress

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/benbjohnson/clock"
)

// Only a terminal gets progress: a buffer, a file, a pipe and /dev/null
// (a character device) do not; a terminal does.
func TestTerminalGating(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "stderr")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	defer pw.Close()
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	if Terminal(&bytes.Buffer{}) != nil || Terminal(f) != nil || Terminal(pw) != nil || Terminal(null) != nil {
		t.Error("progress on a non-terminal")
	}
	was := isTerminal
	defer func() { isTerminal = was }()
	isTerminal = func(fd uintptr) bool { return fd == f.Fd() }
	if Terminal(f) == nil || Terminal(pw) != nil {
		t.Error("a terminal gets no progress, or another file does")
	}
	if NewRuns(nil, clock.NewMock(), 0) != nil || Bar(nil, clock.NewMock(), "x") != nil {
		t.Error("no writer should mean no progress")
	}
	var r *Runs // what NewRuns returns off a terminal: does nothing
	r.Tick("x", 0, time.Hour, 1)
	r.Finish("x", 1)
	r.Close()
}

// A run shows nothing in its first second; then its virtual time and the
// events per second, redrawn at most every 100 ms; Close erases the line.
func TestRunsLine(t *testing.T) {
	clk := clock.NewMock()
	var b bytes.Buffer
	r := NewRuns(&b, clk, 0)
	clk.Add(900 * time.Millisecond)
	r.Tick("fleet", 10*time.Minute, time.Hour, 1_000_000)
	if b.Len() != 0 {
		t.Fatalf("drawn before a second: %q", b.String())
	}
	clk.Add(100 * time.Millisecond)
	r.Tick("fleet", 12*time.Minute+30*time.Second+400*time.Millisecond, time.Hour, 2_300_000)
	if want := "\rfleet: 12m30s of 1h virtual time, 2.3M events/s\033[K"; b.String() != want {
		t.Fatalf("line %q, want %q", b.String(), want)
	}
	b.Reset()
	clk.Add(50 * time.Millisecond)
	r.Tick("fleet", 13*time.Minute, time.Hour, 2_400_000)
	if b.Len() != 0 {
		t.Fatalf("redrawn within 100ms: %q", b.String())
	}
	r.Close()
	if b.String() != "\r\033[K" {
		t.Fatalf("Close wrote %q", b.String())
	}
	b.Reset()
	r.Close()
	if b.Len() != 0 {
		t.Fatal("a second Close erased again")
	}
}

// Many runs at once (podsim test): the count done, and the events of all.
func TestRunsOfASuite(t *testing.T) {
	clk := clock.NewMock()
	var b bytes.Buffer
	r := NewRuns(&b, clk, 3)
	r.Tick("a", time.Minute, 5*time.Minute, 40_000)
	r.Finish("a", 50_000)
	clk.Add(2 * time.Second)
	r.Tick("b", 30*time.Second, time.Hour, 30_000)
	r.Tick("c", 450*time.Millisecond, 10*time.Second, 20_000)
	if want := "\r1/3 done, b: 30s of 1h virtual time, 40k events/s\033[K"; b.String() != want {
		t.Fatalf("line %q, want %q", b.String(), want)
	}
	b.Reset()
	clk.Add(time.Second)
	r.Tick("c", 450*time.Millisecond, 10*time.Second, 40_000)
	if want := "\r1/3 done, c: 450ms of 10s virtual time, 40k events/s\033[K"; b.String() != want {
		t.Fatalf("line %q, want %q", b.String(), want)
	}
}

// The bar keeps its look and adds the time left at the pace of the runs
// done here (a resumed study's earlier runs do not count), and is erased
// at the end.
func TestBarTimeLeft(t *testing.T) {
	clk := clock.NewMock()
	var b bytes.Buffer
	bar := Bar(&b, clk, "study")
	clk.Add(2 * time.Second)
	bar(11, 40) // resumed: 10 done before, 1 here in 2s
	if want := "\rstudy [########......................] 11/40 runs, about 58s left\033[K"; b.String() != want {
		t.Fatalf("bar %q, want %q", b.String(), want)
	}
	b.Reset()
	clk.Add(58 * time.Minute)
	bar(39, 40)
	if !strings.Contains(b.String(), "39/40 runs, about 2m left") {
		t.Fatalf("bar %q", b.String())
	}
	b.Reset()
	bar(40, 40)
	if !strings.HasSuffix(b.String(), "40/40 runs\033[K\r\033[K") {
		t.Fatalf("last bar %q", b.String())
	}
}

func TestRate(t *testing.T) {
	for _, c := range []struct {
		n    uint64
		d    time.Duration
		want string
	}{{950, time.Second, "950"}, {12_345, time.Second, "12k"}, {2_300_000, time.Second, "2.3M"}, {3e9, time.Second, "3.0G"}, {1, 0, "-"}} {
		if got := Rate(c.n, c.d); got != c.want {
			t.Errorf("Rate(%d, %s) = %q, want %q", c.n, c.d, got, c.want)
		}
	}
}
