// Package progress tells a person at a terminal how long work is going: a
// line on stderr, redrawn in place, for runs that take more than a second
// (virtual time reached, events per second) and a bar for a study's runs
// (with the time left). It draws only on a terminal (Terminal), so the
// output of a pipe, a file or CI is the same with or without it. It reads
// the wall clock through a clock.Clock, outside the model: the run loop
// calls it between chunks of events.
package progress

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/benbjohnson/clock"
	"github.com/mattn/go-isatty"

	"github.com/podsim/podsim/sim"
)

// isTerminal reports whether fd is a terminal (a variable for tests).
var isTerminal = func(fd uintptr) bool { return isatty.IsTerminal(fd) || isatty.IsCygwinTerminal(fd) }

// Terminal returns w if it is a terminal, else nil (where progress is not
// drawn): a file, a pipe, /dev/null or a buffer.
func Terminal(w io.Writer) io.Writer {
	if f, ok := w.(*os.File); ok && isTerminal(f.Fd()) {
		return w
	}
	return nil
}

const (
	// Delay is how long work goes before its progress is shown.
	Delay = time.Second
	// redraw is the least time between two drawings of the line.
	redraw = 100 * time.Millisecond
)

// Runs shows the progress of simulation runs, one at a time or many at
// once (podsim test): the virtual time the latest run to report has
// reached and the events per second of all of them. A nil *Runs shows
// nothing; its methods are safe from several goroutines.
type Runs struct {
	mu     sync.Mutex
	w      io.Writer
	clk    clock.Clock
	start  time.Time
	drawn  time.Time
	shown  bool
	events uint64            // events of the runs, up to their last report
	fired  map[string]uint64 // the last count of each run going on
	done   int               // runs finished
	total  int               // runs in all; 0: one run, no count shown
}

// NewRuns returns a Runs drawing on w (nil: nothing, see Terminal) with
// the time of clk; total is the number of runs (0 for a single run).
func NewRuns(w io.Writer, clk clock.Clock, total int) *Runs {
	if w == nil {
		return nil
	}
	return &Runs{w: w, clk: clk, start: clk.Now(), fired: map[string]uint64{}, total: total}
}

// Tick reports that run name has reached virtual time now of until after
// fired events in all. It draws the line once the work has gone on for a
// second, at most every 100 ms.
func (r *Runs) Tick(name string, now, until time.Duration, fired uint64) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.count(name, fired)
	wall := r.clk.Now()
	elapsed := wall.Sub(r.start)
	if elapsed < Delay || r.shown && wall.Sub(r.drawn) < redraw {
		return
	}
	r.shown, r.drawn = true, wall
	var b strings.Builder
	if r.total > 1 {
		fmt.Fprintf(&b, "%d/%d done, ", r.done, r.total)
	}
	fmt.Fprintf(&b, "%s: %s of %s virtual time, %s events/s", name, short(now), short(until), Rate(r.events, elapsed))
	fmt.Fprintf(r.w, "\r%s\033[K", b.String())
}

func (r *Runs) count(name string, fired uint64) {
	if last := r.fired[name]; fired > last {
		r.events += fired - last
	}
	r.fired[name] = fired
}

// Finish reports that run name ended after fired events.
func (r *Runs) Finish(name string, fired uint64) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.count(name, fired)
	delete(r.fired, name)
	r.done++
}

// Close erases the line, if it was drawn: what comes after on the same
// stream starts on a clean line.
func (r *Runs) Close() {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.shown {
		fmt.Fprint(r.w, "\r\033[K")
		r.shown = false
	}
}

// short formats a duration to the second (to the millisecond below
// one second): 0s, 450ms, 12m30s, 2h, 2h0m5s.
func short(d time.Duration) string {
	if d < time.Second {
		d = d.Round(time.Millisecond)
	} else {
		d = d.Round(time.Second)
	}
	return sim.FormatTime(d)
}

// Rate formats n things in d per second compactly: 950, 12k, 2.3M.
func Rate(n uint64, d time.Duration) string {
	if d <= 0 {
		return "-"
	}
	r := float64(n) / d.Seconds()
	switch {
	case r >= 1e9:
		return fmt.Sprintf("%.1fG", r/1e9)
	case r >= 1e6:
		return fmt.Sprintf("%.1fM", r/1e6)
	case r >= 1e4:
		return fmt.Sprintf("%.0fk", r/1e3)
	}
	return fmt.Sprintf("%.0f", r)
}

// Bar returns a progress callback for a study's runs (sweep.Options'
// Progress: after each run, how many of all are done) that redraws a bar
// named name on w, with an estimate of the time left from the pace of the
// runs finished so far; nil when w is nil (see Terminal). The line is
// erased when the last run is done.
func Bar(w io.Writer, clk clock.Clock, name string) func(done, total int) {
	if w == nil {
		return nil
	}
	start := clk.Now()
	first := -1 // runs done before this process started them (a resumed study)
	return func(done, total int) {
		if first < 0 {
			first = done - 1
		}
		fmt.Fprintf(w, "\r%s\033[K", barLine(name, done, total, done-first, clk.Now().Sub(start)))
		if done == total {
			fmt.Fprint(w, "\r\033[K")
		}
	}
}

// barLine is the bar after done of total runs, ran of them in elapsed here.
func barLine(name string, done, total, ran int, elapsed time.Duration) string {
	const width = 30
	n := width * done / max(total, 1)
	line := fmt.Sprintf("%s [%s%s] %d/%d runs", name, strings.Repeat("#", n), strings.Repeat(".", width-n), done, total)
	if ran > 0 && done < total && elapsed > 0 {
		left := time.Duration(float64(elapsed) / float64(ran) * float64(total-done))
		line += ", about " + short(max(left.Round(time.Second), time.Second)) + " left"
	}
	return line
}
