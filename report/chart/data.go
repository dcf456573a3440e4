package chart

import (
	"encoding/json"
	"strconv"
	"time"
)

// Meta names the run a chart shows.
type Meta struct {
	Title       string // the scenario's name
	Description string
	Seed        uint64
	End         time.Duration // where the run stopped: open intervals end here
}

// appendData appends the chart's data as one compact JSON document: the
// page's script reads it. Times are seconds; strings (reasons, messages)
// are indices into "str"; every interval is an array. Its bytes depend on
// the run alone. flush (if not nil) may write out what b holds between
// pods and return what is left of it.
func (r *Recorder) appendData(b []byte, m Meta, flush func([]byte) []byte) []byte {
	b = append(b, `{"title":`...)
	b = appendStr(b, m.Title)
	b = append(b, `,"desc":`...)
	b = appendStr(b, m.Description)
	b = append(b, `,"seed":`...)
	b = strconv.AppendUint(b, m.Seed, 10)
	b = append(b, `,"end":`...)
	b = appendT(b, m.End)
	b = r.appendHPAs(b)

	b = append(b, `,"styles":[`...)
	for i, s := range styles {
		b = comma(b, i)
		b = append(b, '[')
		b = appendStr(b, s.state)
		b = append(b, ',')
		b = appendStr(b, s.label)
		b = append(b, ',')
		b = appendStr(b, s.color)
		b = append(b, ']')
	}
	b = append(b, ']')
	b = appendList(b, "phases", phaseNames)
	b = appendList(b, "phaseColors", phaseColors)
	b = appendList(b, "status", statusNames)
	b = appendList(b, "statusColors", statusColors)
	b = appendList(b, "faults", faultNames)
	b = appendList(b, "faultColors", faultColors)
	b = appendList(b, "colors", []string{taintColor, normalColor, warnColor, countColor, dipColor, servedColor, failedColor})
	b = appendList(b, "str", r.strs)

	b = append(b, `,"nodes":[`...)
	for i, n := range r.nodes {
		b = comma(b, i)
		b = append(b, `{"n":`...)
		b = appendStr(b, n.name)
		b = append(b, `,"r":`...)
		b = appendSteps(b, n.ready, true)
		b = append(b, `,"f":`...)
		b = appendSpans(b, n.faults, m.End)
		b = append(b, `,"tt":`...)
		b = appendSpans(b, n.taints, m.End)
		b = append(b, `,"ev":`...)
		b = appendMarks(b, n.marks)
		b = append(b, '}')
	}
	b = append(b, `],"wls":[`...)
	for i, wl := range r.wls {
		b = comma(b, i)
		b = append(b, `{"n":`...)
		b = appendStr(b, wl.name)
		b = append(b, `,"k":`...)
		b = appendStr(b, wl.kind)
		b = append(b, `,"p":`...)
		b = strconv.AppendInt(b, int64(wl.pods), 10)
		b = append(b, `,"r":`...)
		b = appendSteps(b, wl.ready, false)
		b = append(b, `,"ev":`...)
		b = appendMarks(b, wl.marks)
		b = append(b, '}')
	}
	b = append(b, `],"bare":`...)
	b = appendSteps(b, r.bare.ready, false)
	b = r.appendServices(b)
	b = append(b, `,"pods":[`...)
	for i, p := range r.pods {
		b = comma(b, i)
		b = p.appendData(b, m.End)
		if flush != nil {
			b = flush(b)
		}
	}
	return append(b, "]}"...)
}

// appendData appends the pod as an object of the chart's data, its open
// intervals ending at end.
func (p *podRec) appendData(b []byte, end time.Duration) []byte {
	b = append(b, `{"n":`...)
	b = appendStr(b, p.name)
	b = append(b, `,"node":`...)
	b = strconv.AppendInt(b, int64(p.nodeIndex()), 10)
	b = append(b, `,"wl":`...)
	b = strconv.AppendInt(b, int64(p.wlIndex()), 10)
	b = append(b, `,"c":`...)
	b = appendT(b, p.created)
	if p.hasGone {
		b = append(b, `,"g":`...)
		b = appendT(b, p.gone)
	}
	if p.hasTerm {
		b = append(b, `,"x":`...)
		b = appendT(b, p.terminating)
	}
	b = append(b, `,"ph":`...)
	b = appendSteps(b, p.phases, false)
	b = append(b, `,"r":`...)
	b = appendSteps(b, p.ready, true)
	b = append(b, `,"ev":`...)
	b = appendMarks(b, p.marks)
	b = append(b, `,"cs":[`...)
	for j, ct := range p.conts {
		b = comma(b, j)
		b = ct.appendData(b, end)
	}
	return append(b, "]}"...)
}

// appendData appends the container as an object of the chart's data, an
// open interval ending at end.
func (ct *contRec) appendData(b []byte, end time.Duration) []byte {
	b = append(b, `{"n":`...)
	b = appendStr(b, ct.name)
	b = append(b, `,"k":`...)
	b = strconv.AppendInt(b, int64(ct.kind), 10)
	b = append(b, `,"s":[`...)
	for k := range ct.segs {
		s := &ct.segs[k]
		b = comma(b, k)
		b = append(b, '[')
		b = appendT(b, s.start)
		b = append(b, ',')
		b = appendT(b, ct.segEnd(k, end))
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(s.style), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(s.reason), 10)
		b = append(b, ',')
		if s.hasExit {
			b = strconv.AppendInt(b, int64(s.exit), 10)
		} else {
			b = append(b, "null"...)
		}
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(s.restarts), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(s.lastReason), 10)
		b = append(b, ']')
	}
	return append(b, "]}"...)
}

// segEnd is where the container's k-th interval ends: end if it is open.
func (ct *contRec) segEnd(k int, end time.Duration) time.Duration {
	if ct.open && k == len(ct.segs)-1 {
		return max(end, ct.segs[k].start)
	}
	return ct.segs[k].end
}

func (p *podRec) nodeIndex() int {
	if p.node == nil {
		return -1
	}
	return p.node.index
}

func (p *podRec) wlIndex() int {
	if p.wl == nil {
		return -1
	}
	return p.wl.index
}

func comma(b []byte, i int) []byte {
	if i > 0 {
		return append(b, ',')
	}
	return b
}

// appendT appends virtual time as seconds, the shortest decimal that reads
// back the same.
func appendT(b []byte, d time.Duration) []byte {
	if d%time.Second == 0 {
		return strconv.AppendInt(b, int64(d/time.Second), 10)
	}
	return strconv.AppendFloat(b, d.Seconds(), 'f', -1, 64)
}

// appendStr appends s as a JSON string; <, > and & are escaped, so the
// data cannot close the page's script element.
func appendStr(b []byte, s string) []byte {
	q, _ := json.Marshal(s) // a string always encodes
	return append(b, q...)
}

func appendList(b []byte, key string, list []string) []byte {
	b = append(b, ',', '"')
	b = append(b, key...)
	b = append(b, `":[`...)
	for i, s := range list {
		b = comma(b, i)
		b = appendStr(b, s)
	}
	return append(b, ']')
}

// appendSteps appends [[t, v(, reason)], ...].
func appendSteps(b []byte, steps []step, withReason bool) []byte {
	b = append(b, '[')
	for i, s := range steps {
		b = comma(b, i)
		b = append(b, '[')
		b = appendT(b, s.t)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(s.v), 10)
		if withReason {
			b = append(b, ',')
			b = strconv.AppendInt(b, int64(s.reason), 10)
		}
		b = append(b, ']')
	}
	return append(b, ']')
}

// appendSpans appends [[start, end, what], ...]; an open span ends at end.
func appendSpans(b []byte, spans []span, end time.Duration) []byte {
	b = append(b, '[')
	for i, s := range spans {
		b = comma(b, i)
		b = append(b, '[')
		b = appendT(b, s.start)
		b = append(b, ',')
		e := s.end
		if s.open {
			e = max(end, s.start)
		}
		b = appendT(b, e)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(s.what), 10)
		b = append(b, ']')
	}
	return append(b, ']')
}

// appendMarks appends [[t, warning(0|1), reason, message], ...].
func appendMarks(b []byte, marks []mark) []byte {
	b = append(b, '[')
	for i, m := range marks {
		b = comma(b, i)
		b = append(b, '[')
		b = appendT(b, m.t)
		if m.warning {
			b = append(b, ",1,"...)
		} else {
			b = append(b, ",0,"...)
		}
		b = strconv.AppendInt(b, int64(m.reason), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(m.message), 10)
		b = append(b, ']')
	}
	return append(b, ']')
}
