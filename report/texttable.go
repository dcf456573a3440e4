package report

import (
	"bufio"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/mattn/go-runewidth"
	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/sim"
)

// textSpoolMemory is how many bytes of rows the text timeline keeps in
// memory, in chunks of textSpoolChunk; past it the rows go to a temporary
// file (deleted when closed). textWordsKept and textWordsBytes bound the
// changes' words it keeps once each: past them, a new change's words are
// spooled in its row.
var (
	textSpoolMemory, textSpoolChunk = 16 << 20, 1 << 20 // variables for the tests
	textWordsKept, textWordsBytes   = 1 << 16, 8 << 20
)

// TextTimeline is a sink that writes the timeline as a table (TIME,
// OBJECT, CHANGE), each column as wide as its widest cell, in one run: it
// spools each row compactly while the run goes (the time since the last
// row's if it moved on, the object as an index into the objects seen
// unless it is the last row's, the change's words as an index into the
// words seen, or, past textWordsKept of them, the words themselves) and
// writes the table when Close is called, byte for byte what writeTable
// renders for the same rows (trailing blanks trimmed). A fleet's rows
// repeat the same words (a container's state, an event), so its spool
// holds a few bytes a row. It keeps at most 16 MiB of rows in memory; the
// rest go to a temporary file. The first error stops it; Close returns
// it. Change allocates nothing but for a new object or new words.
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
	words    []string          // the changes' words kept, by index
	wordIdx  map[string]uint32 // and their indices
	wordsLen int               // the bytes of words
	recent   *recentWords      // the indices of the words of recent changes
	objTable objectTable       // the indices of the objects by their sources' addresses
	world    *model.World      // whose changes naming a pod are found in pods (FindPodsIn), if any
	pods     []podObjects      // by pod ID
	lastT    time.Duration     // the last row's time
	lastObj  uint32            // and object
	haveT    bool              // whether there was a row
	timeW    int               // the widest time
	objW     int               // the widest object
	scratch  []byte
	err      error
}

// NewTextTimeline returns the sink; Close writes the table to w.
func NewTextTimeline(w io.Writer) *TextTimeline {
	return &TextTimeline{w: w, objIdx: map[string]uint32{}, wordIdx: map[string]uint32{}, recent: new(recentWords),
		timeW: len("TIME"), objW: len("OBJECT")}
}

// Change spools c's row.
func (t *TextTimeline) Change(c *model.Change) {
	if t.err != nil {
		return
	}
	when := max(c.T, 0)
	if !t.haveT || when != t.lastT {
		t.timeW = max(t.timeW, timeWidth(when))
	}
	id := t.object(c)
	// The row: a uvarint whose lowest bit tells whether the time moved on
	// and whose rest is 0 for the last row's object, else 1 + the
	// object's index; the time since the last row's, if it moved on; the
	// change's words. A fleet's rows come in lockstep, a few a pod at one
	// instant: most take one byte for the two.
	if t.mem == nil {
		t.mem = t.newChunk()
	}
	obj := uint64(id) + 1
	if t.haveT && id == t.lastObj {
		obj = 0
	}
	moved := when != t.lastT
	t.mem = binary.AppendUvarint(t.mem, obj<<1|bit(moved))
	if moved {
		t.mem = binary.AppendVarint(t.mem, int64(when-t.lastT))
	}
	t.lastT, t.lastObj, t.haveT = when, id, true
	t.mem = t.appendWords(t.mem, c)
	if len(t.mem) < textSpoolChunk {
		return
	}
	t.chunks, t.mem = append(t.chunks, t.mem), nil
	if len(t.chunks)*textSpoolChunk >= textSpoolMemory {
		t.spillRows()
	}
}

// FindPodsIn has the timeline find the object of a change that names a
// pod (its phase, a container, a condition, an event about it) by the pod
// world says it is (model.World.ChangeNamesPod), in a slice by the pod's
// ID, before it looks anywhere else: those are most of a run's rows, and
// the slice is small enough to stay in the processor's caches where a
// table by address is not. Call it before the world is populated.
func (t *TextTimeline) FindPodsIn(world *model.World) { t.world = world }

// podObjects is what the timeline knows of a pod's objects: 1 + the
// index of the pod's own, and of its last container's (0: not yet).
type podObjects struct {
	pod, container uint32
	containerName  string
}

// object returns the index of c's object, seen first now if it is new.
func (t *TextTimeline) object(c *model.Change) uint32 {
	var po *podObjects
	if t.world != nil && c.Workload == "" && c.Object == "" && c.Kind != model.ChangeNode {
		if p := t.world.ChangeNamesPod(); p != nil { // c names p: its object is ns/pod/name[/container]
			if n := p.ID() + 1; n > len(t.pods) {
				t.pods = append(t.pods, make([]podObjects, n-len(t.pods))...)
			}
			po = &t.pods[p.ID()]
			switch {
			case c.Container == "" && po.pod != 0:
				return po.pod - 1
			case c.Container != "" && po.container != 0 && at(po.containerName, c.Container):
				return po.container - 1
			}
		}
	}
	id := t.objectByName(c)
	switch {
	case po == nil:
	case c.Container == "":
		po.pod = id + 1
	default:
		po.container, po.containerName = id+1, c.Container
	}
	return id
}

// objectByName returns the index of c's object, found by the addresses of
// the strings it is written from, else by its text, or seen first now.
func (t *TextTimeline) objectByName(c *model.Change) uint32 {
	h := objectHash(c)
	if id, ok := t.objTable.find(c, h); ok {
		return id
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
	t.objTable.add(c, h, id)
	return id
}

// appendWords appends c's words to a row: 1 + the index of the same words
// kept, as a uvarint; or 0, the words' length, and the words, keeping them
// if there is room.
func (t *TextTimeline) appendWords(b []byte, c *model.Change) []byte {
	slot := t.recent.slot(c)
	if slot.holds(c) {
		return binary.AppendUvarint(b, uint64(slot.word))
	}
	t.scratch = appendDescribe(t.scratch[:0], c)
	id, ok := t.wordIdx[string(t.scratch)]
	if !ok && len(t.words) < textWordsKept && t.wordsLen+len(t.scratch) <= textWordsBytes {
		words := string(t.scratch)
		id, ok = uint32(len(t.words)), true
		t.words = append(t.words, words)
		t.wordIdx[words] = id
		t.wordsLen += len(words)
	}
	if ok {
		slot.keep(c, id)
		return binary.AppendUvarint(b, uint64(id)+1)
	}
	return append(binary.AppendUvarint(append(b, 0), uint64(len(t.scratch))), t.scratch...)
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
	out.header()
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

// timeWidth is width(sim.FormatTime(d)) for d >= 0, counted without
// formatting from 1ms on: Duration.String's hours, minutes and seconds, the
// fraction without its trailing zeros, less the "0s" and "0m" FormatTime
// drops.
func timeWidth(d time.Duration) int {
	if d < time.Millisecond {
		return width(sim.FormatTime(d)) // 0s, ns and µs
	}
	u := uint64(d)
	if u < uint64(time.Second) { // 1.5ms
		return digits(u/1e6) + fractionWidth(u%1e6, 6) + 2
	}
	secs, frac := u/1e9, u%1e9
	w := digits(secs%60) + fractionWidth(frac, 9) + 1
	if secs >= 60 {
		w += digits(secs/60%60) + 1
		if secs >= 3600 {
			w += digits(secs/3600) + 1
		}
		if secs%60 == 0 && frac == 0 { // 1m0s is 1m
			w -= 2
			if secs >= 3600 && secs/60%60 == 0 { // 1h0m0s is 1h
				w -= 2
			}
		}
	}
	return w
}

// digits is the count of v's decimal digits.
func digits(v uint64) int {
	n := 1
	for ; v >= 10; v /= 10 {
		n++
	}
	return n
}

// fractionWidth is the width of a fraction of prec digits as
// Duration.String prints it: a point and its digits up to the last that
// is not zero; nothing when it is zero.
func fractionWidth(f uint64, prec int) int {
	if f == 0 {
		return 0
	}
	for f%10 == 0 {
		f /= 10
		prec--
	}
	return 1 + prec
}

// tableWriter renders spooled rows.
type tableWriter struct {
	t           *TextTimeline
	w           io.Writer
	line        []byte
	prefix      int // line's time and object cells, padded, as lastTime and lastObj
	lastObj     uint32
	lastRow     uint32 // the last row's object
	haveRow     bool   // whether there was a row
	lastT       time.Duration
	lastTime    string // lastT formatted
	lastPrinted string // the time cell of line's prefix
	timeWidth   int
	haveT       bool
	err         error
}

// errSpool is a spooled row cut short: the spool is not what was written.
var errSpool = errors.New("the text timeline's spooled rows are damaged")

// rows renders every row of spooled chunk b.
func (o *tableWriter) rows(b []byte) error {
	for len(b) > 0 && o.err == nil {
		head, n := binary.Uvarint(b)
		if n <= 0 {
			return errSpool
		}
		b = b[n:]
		var delta int64
		if head&1 == 1 {
			if delta, n = binary.Varint(b); n <= 0 {
				return errSpool
			}
			b = b[n:]
		}
		if when := o.lastT + time.Duration(delta); !o.haveT || when != o.lastT {
			o.lastT, o.lastTime, o.haveT = when, sim.FormatTime(when), true
			o.timeWidth = width(o.lastTime)
		}
		id := uint64(o.lastRow)
		if head >>= 1; head > 0 {
			id = head - 1
		} else if !o.haveRow {
			return errSpool
		}
		if id >= uint64(len(o.t.objs)) {
			return errSpool
		}
		o.lastRow, o.haveRow = uint32(id), true
		word, n := binary.Uvarint(b)
		if n <= 0 || word > uint64(len(o.t.words)) {
			return errSpool
		}
		b = b[n:]
		if word > 0 {
			writeRow(o, o.lastTime, o.timeWidth, uint32(id), o.t.words[word-1])
			continue
		}
		size, n := binary.Uvarint(b)
		if n <= 0 || size > uint64(len(b)-n) {
			return errSpool
		}
		b = b[n:]
		writeRow(o, o.lastTime, o.timeWidth, uint32(id), b[:size])
		b = b[size:]
	}
	return o.err
}

// header writes the table's first line.
func (o *tableWriter) header() {
	b := append(o.line[:0], "TIME"...)
	b = appendSpaces(b, o.t.timeW-len("TIME")+3)
	b = append(b, "OBJECT"...)
	b = appendSpaces(b, o.t.objW-len("OBJECT")+3)
	b = append(b, "CHANGE\n"...)
	o.line = b
	_, o.err = o.w.Write(b)
}

// writeRow writes one line: cells padded to their column and three spaces
// apart, trailing blanks trimmed (as writeTable renders it); the time and
// object cells are the previous line's when they are the same.
func writeRow[W string | []byte](o *tableWriter, when string, whenWidth int, obj uint32, change W) {
	if o.err != nil {
		return
	}
	b := o.line[:o.prefix]
	if o.prefix == 0 || obj != o.lastObj || when != o.lastPrinted {
		b = append(b[:0], when...)
		b = appendSpaces(b, o.t.timeW-whenWidth+3)
		b = append(b, o.t.objs[obj]...)
		b = appendSpaces(b, o.t.objW-o.t.objWidth[obj]+3)
		o.prefix, o.lastObj, o.lastPrinted = len(b), obj, when
	}
	b = append(b, change...)
	n := len(b)
	for n > 0 && b[n-1] == ' ' {
		n--
	}
	if n < o.prefix { // a blank change: the line is trimmed into its cells
		o.prefix = 0
	}
	b = append(b[:n], '\n')
	o.line = b
	_, o.err = o.w.Write(b)
}

// spaces pads cells.
var spaces = []byte(strings.Repeat(" ", 64))

func appendSpaces(b []byte, n int) []byte {
	for ; n > len(spaces); n -= len(spaces) {
		b = append(b, spaces...)
	}
	if n > 0 {
		b = append(b, spaces[:n]...)
	}
	return b
}
