package report

import (
	"slices"
	"strconv"
	"time"

	"github.com/podsim/podsim/model"
)

// write writes b, an event built in t.buf, unless a write failed before,
// and keeps b's memory for the next event.
func (t *Trace) write(b []byte) {
	t.buf = b[:0]
	if t.err == nil {
		_, t.err = t.out.Write(b)
	}
}

// event starts one trace event: its separator and the opening brace.
func (t *Trace) event() []byte {
	b := t.buf[:0]
	if !t.first {
		b = append(b, ",\n"...)
	}
	t.first = false
	return append(b, '{')
}

func (t *Trace) newProc(name string) *traceProc {
	p := &traceProc{pid: t.nextPid, name: name}
	t.nextPid++
	return p
}

func (t *Trace) newThread(name string) traceThread {
	th := traceThread{tid: t.nextTid, name: name}
	t.nextTid++
	return th
}

// use writes the names of process p and of thread th in it, once each.
func (t *Trace) use(p *traceProc, th *traceThread) {
	if !p.named {
		p.named = true
		t.meta("process_name", p.pid, 0, p.name)
		t.metaInt("process_sort_index", p.pid, 0, p.pid)
	}
	if th != nil && !slices.Contains(th.named, p.pid) {
		th.named = append(th.named, p.pid)
		t.meta("thread_name", p.pid, th.tid, th.name)
		t.metaInt("thread_sort_index", p.pid, th.tid, th.tid)
	}
}

func (t *Trace) meta(what string, pid, tid int, name string) {
	b := t.head(what, "", 'M', pid, tid)
	b = append(b, `,"args":{"name":`...)
	b = appendString(b, name)
	t.write(append(b, "}}"...))
}

func (t *Trace) metaInt(what string, pid, tid, v int) {
	b := t.head(what, "", 'M', pid, tid)
	b = append(b, `,"args":{"sort_index":`...)
	b = strconv.AppendInt(b, int64(v), 10)
	t.write(append(b, "}}"...))
}

// head starts an event with its name, category, phase, pid and tid (tid 0:
// none, for process-wide events).
func (t *Trace) head(name, cat string, ph byte, pid, tid int) []byte {
	return t.headJoined(name, "", "", cat, ph, pid, tid)
}

// headJoined is head for the name a+sep+b (b empty: a), joined without
// allocating.
func (t *Trace) headJoined(a, sep, c, cat string, ph byte, pid, tid int) []byte {
	b := t.event()
	b = append(b, `"name":`...)
	b = t.strs.append(b, a)
	if c != "" {
		for _, part := range [2]string{sep, c} {
			b = b[:len(b)-1] // reopen the string
			m := len(b)
			b = t.strs.append(b, part)
			b = append(b[:m], b[m+1:]...) // without part's opening quote
		}
	}
	if cat != "" {
		b = append(b, `,"cat":`...)
		b = t.strs.append(b, cat)
	}
	b = append(b, `,"ph":"`...)
	b = append(b, ph, '"')
	b = append(b, `,"pid":`...)
	b = strconv.AppendInt(b, int64(pid), 10)
	if tid != 0 {
		b = append(b, `,"tid":`...)
		b = strconv.AppendInt(b, int64(tid), 10)
	}
	return b
}

// appendMicros appends virtual time d as trace time: microseconds, with
// the nanoseconds as decimals when there are any.
func appendMicros(b []byte, d time.Duration) []byte {
	b = strconv.AppendInt(b, int64(d/time.Microsecond), 10)
	if ns := int64(d % time.Microsecond); ns != 0 {
		frac := []byte{'.', byte('0' + ns/100), byte('0' + ns/10%10), byte('0' + ns%10)}
		for frac[len(frac)-1] == '0' {
			frac = frac[:len(frac)-1]
		}
		b = append(b, frac...)
	}
	return b
}

func appendTS(b []byte, d time.Duration) []byte {
	b = append(b, `,"ts":`...)
	return appendMicros(b, d)
}

// args appends the details of c as the event's args, and closes it.
func (t *Trace) args(b []byte, c *model.Change) []byte {
	b = append(b, `,"args":{`...)
	n := len(b)
	switch c.Kind {
	case model.ChangePhase:
		b = t.arg(b, n, "from", string(c.From))
	case model.ChangeContainer:
		b = t.arg(b, n, "state", c.State.String())
	}
	b = t.arg(b, n, "type", c.Type)
	b = t.arg(b, n, "status", c.Status)
	b = t.arg(b, n, "reason", c.Reason)
	b = t.arg(b, n, "message", c.Message)
	if c.Kind == model.ChangeContainer {
		if len(b) > n {
			b = append(b, ',')
		}
		if c.HasExitCode {
			b = append(b, `"exitCode":`...)
			b = strconv.AppendInt(b, int64(c.ExitCode), 10)
			b = append(b, ',')
		}
		b = append(b, `"restartCount":`...)
		b = strconv.AppendInt(b, int64(c.RestartCount), 10)
	}
	return append(b, "}}"...)
}

// arg appends "key":"value" to args that start at b[n:], unless value is
// empty.
func (t *Trace) arg(b []byte, n int, key, value string) []byte {
	if value == "" {
		return b
	}
	if len(b) > n {
		b = append(b, ',')
	}
	b = append(b, '"')
	b = append(b, key...)
	b = append(b, '"', ':')
	return t.strs.append(b, value)
}
