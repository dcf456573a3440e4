package report

import (
	"bufio"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"time"
	"unicode/utf8"

	"github.com/mattn/go-runewidth"
	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/sim"
)

// textSpoolMemory is how many bytes of rows the text timeline keeps in
// memory, in chunks of textSpoolChunk; past it the rows go to a temporary
// file (deleted when closed).
var textSpoolMemory, textSpoolChunk = 16 << 20, 1 << 20 // variables for the tests

// TextTimeline is a sink that writes the timeline as a table (TIME,
// OBJECT, CHANGE), each column as wide as its widest cell, in one run: it
// spools each row compactly while the run goes (the time, the object as an
// index into the objects seen, the change's words) and writes the table
// when Close is called, byte for byte what writeTable renders for the same
// rows (trailing blanks trimmed). It keeps at most 16 MiB of rows in
// memory; the rest go to a temporary file. The first error stops it; Close
// returns it. Change allocates nothing but a new object's name.
type TextTimeline struct {
	w        io.Writer
	chunks   [][]byte // spooled rows, in memory, full chunks
	mem      []byte   // the chunk being filled
	free     [][]byte // chunks written to the file, for reuse
	file     *os.File // spooled rows past mem's limit, if any
	spill    *bufio.Writer
	spilled  []int             // the lengths of the chunks in the file, in order
	objs     []string          // the objects seen, by index
	objWidth []int             // their display widths
	objIdx   map[string]uint32 // and their indices
	lastT    time.Duration
	haveT    bool
	timeW    int // the widest time
	objW     int // the widest object
	scratch  []byte
	err      error
}

// NewTextTimeline returns the sink; Close writes the table to w.
func NewTextTimeline(w io.Writer) *TextTimeline {
	return &TextTimeline{w: w, objIdx: map[string]uint32{}, timeW: len("TIME"), objW: len("OBJECT")}
}

// Change spools c's row.
func (t *TextTimeline) Change(c *model.Change) {
	if t.err != nil {
		return
	}
	if !t.haveT || c.T != t.lastT {
		t.lastT, t.haveT = c.T, true
		t.timeW = max(t.timeW, width(sim.FormatTime(c.T)))
	}
	t.scratch = appendObject(t.scratch[:0], c)
	id, ok := t.objIdx[string(t.scratch)]
	if !ok {
		name := string(t.scratch)
		id = uint32(len(t.objs))
		t.objs = append(t.objs, name)
		w := width(name)
		t.objWidth = append(t.objWidth, w)
		t.objW = max(t.objW, w)
		t.objIdx[name] = id
	}
	// The row: time, object, the change's length and words.
	if t.mem == nil {
		t.mem = t.newChunk()
	}
	t.mem = binary.AppendUvarint(t.mem, uint64(max(c.T, 0)))
	t.mem = binary.AppendUvarint(t.mem, uint64(id))
	t.scratch = appendDescribe(t.scratch[:0], c)
	t.mem = binary.AppendUvarint(t.mem, uint64(len(t.scratch)))
	t.mem = append(t.mem, t.scratch...)
	if len(t.mem) < textSpoolChunk {
		return
	}
	t.chunks, t.mem = append(t.chunks, t.mem), nil
	if len(t.chunks)*textSpoolChunk >= textSpoolMemory {
		t.spillRows()
	}
}

// newChunk returns an empty chunk, one written to the file if there is
// one.
func (t *TextTimeline) newChunk() []byte {
	if n := len(t.free); n > 0 {
		c := t.free[n-1][:0]
		t.free = t.free[:n-1]
		return c
	}
	return make([]byte, 0, textSpoolChunk+512)
}

// spillRows moves the full chunks to the temporary file, opening it first.
func (t *TextTimeline) spillRows() {
	if t.file == nil {
		f, err := os.CreateTemp("", "podsim-timeline-*")
		if err != nil {
			t.err = errors.New("the text timeline needs a temporary file past 16 MiB of rows: " + err.Error())
			return
		}
		_ = os.Remove(f.Name()) // the file lives until it is closed
		t.file, t.spill = f, bufio.NewWriterSize(f, 1<<20)
	}
	for _, c := range t.chunks {
		if _, err := t.spill.Write(c); err != nil {
			t.err = err
			return
		}
		t.free = append(t.free, c)
		t.spilled = append(t.spilled, len(c))
	}
	t.chunks = t.chunks[:0]
}

// Close writes the table: its header, then every row spooled. It returns
// the first error spooling or writing failed with.
func (t *TextTimeline) Close() error {
	if t.file != nil {
		defer t.file.Close()
	}
	if t.err != nil {
		return t.err
	}
	out := &tableWriter{t: t, w: t.w}
	out.row("TIME", len("TIME"), "OBJECT", len("OBJECT"), []byte("CHANGE"))
	if t.file != nil {
		if err := t.spill.Flush(); err != nil {
			return err
		}
		if _, err := t.file.Seek(0, io.SeekStart); err != nil {
			return err
		}
		r := bufio.NewReaderSize(t.file, 1<<20)
		var buf []byte
		for _, n := range t.spilled {
			if cap(buf) < n {
				buf = make([]byte, n)
			}
			if _, err := io.ReadFull(r, buf[:n]); err != nil {
				return err
			}
			if err := out.rows(buf[:n]); err != nil {
				return err
			}
		}
	}
	for _, c := range append(t.chunks, t.mem) {
		if err := out.rows(c); err != nil {
			return err
		}
	}
	return out.err
}

// width is the display width of s: its length when it is ASCII.
func width(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return runewidth.StringWidth(s)
		}
	}
	return len(s)
}

// tableWriter renders spooled rows.
type tableWriter struct {
	t         *TextTimeline
	w         io.Writer
	line      []byte
	lastT     time.Duration
	lastTime  string
	timeWidth int
	haveT     bool
	err       error
}

// errSpool is a spooled row cut short: the spool is not what was written.
var errSpool = errors.New("the text timeline's spooled rows are damaged")

// rows renders every row of spooled chunk b.
func (o *tableWriter) rows(b []byte) error {
	for len(b) > 0 && o.err == nil {
		v, n := binary.Uvarint(b)
		if n <= 0 {
			return errSpool
		}
		b = b[n:]
		if when := time.Duration(v); !o.haveT || when != o.lastT {
			o.lastT, o.lastTime, o.haveT = when, sim.FormatTime(when), true
			o.timeWidth = width(o.lastTime)
		}
		id, n := binary.Uvarint(b)
		if n <= 0 || id >= uint64(len(o.t.objs)) {
			return errSpool
		}
		b = b[n:]
		size, n := binary.Uvarint(b)
		if n <= 0 || size > uint64(len(b)-n) {
			return errSpool
		}
		b = b[n:]
		o.row(o.lastTime, o.timeWidth, o.t.objs[id], o.t.objWidth[id], b[:size])
		b = b[size:]
	}
	return o.err
}

// row writes one line: cells padded to their column and three spaces
// apart, trailing blanks trimmed (as writeTable renders it).
func (o *tableWriter) row(when string, whenWidth int, obj string, objWidth int, change []byte) {
	if o.err != nil {
		return
	}
	b := append(o.line[:0], when...)
	b = appendSpaces(b, o.t.timeW-whenWidth+3)
	b = append(b, obj...)
	b = appendSpaces(b, o.t.objW-objWidth+3)
	b = append(b, change...)
	n := len(b)
	for n > 0 && b[n-1] == ' ' {
		n--
	}
	b = append(b[:n], '\n')
	o.line = b
	_, o.err = o.w.Write(b)
}

func appendSpaces(b []byte, n int) []byte {
	for ; n > 0; n-- {
		b = append(b, ' ')
	}
	return b
}
