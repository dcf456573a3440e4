package report

import (
	"io"
	"strings"
	"time"

	"github.com/podsim/podsim/model"
)

// Watch writes what `kubectl get pods -w` prints while a run goes: a header,
// then a row (NAME READY STATUS RESTARTS AGE) each time a pod's READY,
// STATUS or restart count changes. It is a sink that notes which pods
// changed; the caller runs the world one instant at a time and calls Flush
// after each, so that a row shows the pod as it stands once every change of
// that instant is made: what `podsim run --at T` prints for it. A pod's
// first row comes when it is created; a deleted pod gets no row. (The "ago"
// of RESTARTS moves with time and alone makes no row.)
//
// Each column is as wide as its widest cell so far, header included, as
// kubectl's printer has it (k8s.io/cli-runtime/pkg/printers/tabwriter.go:
// a tabwriter that remembers its widths, flushed after each object): a
// row that widens a column does not widen the rows above it. The first
// write error stops it; Err returns it.
type Watch struct {
	world  *model.World
	out    io.Writer
	widths watchWidths
	dirty  []podRef
	last   map[podRef]watchRow // the last row written, of pods alive
	marked podRef              // the pod noted last since Flush, if any
	line   []byte
	err    error
}

// watchWidths are the widths of the columns of a Watch's rows so far.
type watchWidths struct{ name, ready, status, restarts int }

// watchRow is what decides whether a pod gets a new row.
type watchRow struct {
	ready, status, restarts string
	dirty                   bool
}

// NewWatch returns a Watch writing to out, and writes its header.
func NewWatch(out io.Writer, world *model.World) *Watch {
	v := &Watch{world: world, out: out, last: map[podRef]watchRow{}}
	v.write(PodRow{Name: "NAME", Ready: "READY", Status: "STATUS", Restarts: "RESTARTS", Age: "AGE"})
	return v
}

// Change notes that c's pod may have a new row (model.Sink).
func (v *Watch) Change(c *model.Change) {
	if c.Pod == "" {
		return
	}
	ref := podRef{c.Namespace, c.Pod}
	if len(v.dirty) > 0 && ref == v.marked { // a pod's changes come together
		return
	}
	v.marked = ref
	r := v.last[ref]
	if r.dirty {
		return
	}
	r.dirty = true
	v.last[ref] = r
	v.dirty = append(v.dirty, ref)
}

// Flush writes a row for each pod noted since the last Flush whose row
// changed, in the order of their first change; now is the instant just
// ended.
func (v *Watch) Flush(now time.Duration) {
	for _, ref := range v.dirty {
		prev := v.last[ref] // status "": no row yet
		p := v.world.Pod(model.Key(ref.ns, ref.name))
		if p == nil || p.Deleted() {
			delete(v.last, ref)
			continue
		}
		row := GetPod(p, now)
		row.Name = p.Key() // namespace/name outside default
		cur := watchRow{ready: row.Ready, status: row.Status, restarts: restartCount(row.Restarts)}
		v.last[ref] = cur
		if prev.status != "" && prev.ready == cur.ready && prev.status == cur.status && prev.restarts == cur.restarts {
			continue
		}
		v.write(row)
	}
	v.dirty = v.dirty[:0]
}

// restartCount is the count of a RESTARTS cell, without its "(5s ago)".
func restartCount(cell string) string {
	n, _, _ := strings.Cut(cell, " ")
	return n
}

// Err is the first error writing failed with, if any.
func (v *Watch) Err() error { return v.err }

// write widens the columns to fit r and writes it.
func (v *Watch) write(r PodRow) {
	if v.err != nil {
		return
	}
	w := &v.widths
	w.name = max(w.name, width(r.Name))
	w.ready = max(w.ready, width(r.Ready))
	w.status = max(w.status, width(r.Status))
	w.restarts = max(w.restarts, width(r.Restarts))
	b := v.line[:0]
	for _, cell := range []struct {
		s     string
		width int
	}{{r.Name, w.name}, {r.Ready, w.ready}, {r.Status, w.status}, {r.Restarts, w.restarts}} {
		b = append(b, cell.s...)
		for range max(cell.width-width(cell.s), 0) + 3 {
			b = append(b, ' ')
		}
	}
	b = append(b, r.Age...)
	b = append(b, '\n')
	v.line = b
	_, v.err = v.out.Write(b)
}
