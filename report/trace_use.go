package report

import (
	"strconv"
	"time"

	"github.com/podsim/podsim/model"
)

// The trace's counters of the use of resources and of traffic, heard from
// the model's use and traffic notifications (model.UseSink,
// model.TrafficSink) and written once per instant, with the values after
// all of its changes:
//   - in a node's process, a counter "<pod> cpu" (millicores) and
//     "<pod> memory" (bytes) per pod bound to it, and "cpu in use" and
//     "memory in use", their sums;
//   - a process per Service with traffic, "Service <name>", with a
//     counter "requests per second" of two series, served and failed.
//
// Use is piecewise constant but for a leak, which the counters show at
// each change and at each metrics-server scrape.

// traceUse is a pod's use as last written and the node it counts on, and
// as heard this instant.
type traceUse struct {
	cpu, mem int64
	node     *traceNode
	nowCPU   int64
	nowMem   int64
	nowNode  *traceNode
	dirty    bool
	written  bool
}

// traceService is a Service's process and its rates as last written, and
// as heard this instant.
type traceService struct {
	proc                  traceProc
	offered, served       int64
	nowOffered, nowServed int64
	dirty, written        bool
}

// UseChanged marks p's use to be written at the end of the instant
// (model.UseSink).
func (t *Trace) UseChanged(now time.Duration, p *model.Pod) {
	t.advance(now)
	pt := t.pod(p.Key())
	if pt == nil {
		return
	}
	u := &pt.use
	u.nowCPU, u.nowMem, _ = p.Usage("")
	u.nowNode = nil
	if n := p.Node; n != nil && !p.Deleted() {
		u.nowNode = t.node(n.Name)
	}
	t.dirtyPodUse(pt)
}

func (t *Trace) dirtyPodUse(pt *tracePod) {
	if !pt.use.dirty {
		pt.use.dirty = true
		t.dirtyUse = append(t.dirtyUse, pt)
	}
}

// TrafficChanged marks s's rates to be written at the end of the instant
// (model.TrafficSink).
func (t *Trace) TrafficChanged(now time.Duration, s *model.Service) {
	t.advance(now)
	ts := t.services[s]
	if ts == nil {
		ts = &traceService{proc: *t.newProc("Service " + s.Key())}
		t.services[s] = ts
	}
	ts.nowOffered, ts.nowServed = s.Rates()
	if !ts.dirty {
		ts.dirty = true
		t.dirtySvcs = append(t.dirtySvcs, ts)
	}
}

// advance ends the instant being collected if the world has moved on.
func (t *Trace) advance(now time.Duration) {
	if now != t.instant {
		t.counters()
		t.instant = now
	}
}

// useCounters writes the pods' and nodes' use and the Services' rates
// that changed in the instant just ended.
func (t *Trace) useCounters() {
	for _, pt := range t.dirtyUse {
		u := &pt.use
		u.dirty = false
		cpu, mem, on := u.nowCPU, u.nowMem, u.nowNode
		if u.node != nil {
			u.node.useCPU -= u.cpu
			u.node.useMem -= u.mem
			t.dirtyNode(u.node)
		}
		if on != nil {
			on.useCPU += cpu
			on.useMem += mem
			t.dirtyNode(on)
		}
		if on == nil || u.written && cpu == u.cpu && mem == u.mem && on == u.node {
			u.cpu, u.mem, u.node = cpu, mem, on
			continue
		}
		u.cpu, u.mem, u.node, u.written = cpu, mem, on, true
		t.use(&on.proc, nil)
		t.useCounter(on.proc.pid, pt.p.Key(), " cpu", "millicores", cpu)
		t.useCounter(on.proc.pid, pt.p.Key(), " memory", "bytes", mem)
	}
	t.dirtyUse = t.dirtyUse[:0]
	for _, ts := range t.dirtySvcs {
		ts.dirty = false
		offered, served := ts.nowOffered, ts.nowServed
		if ts.written && offered == ts.offered && served == ts.served {
			continue
		}
		ts.offered, ts.served, ts.written = offered, served, true
		t.use(&ts.proc, nil)
		if !t.admit(ts.proc.pid, 0, t.instant) {
			continue
		}
		b := t.head("requests per second", "", 'C', ts.proc.pid, 0)
		b = appendTS(b, t.instant)
		b = append(b, `,"args":{"served":`...)
		b = appendMilli(b, served)
		b = append(b, `,"failed":`...)
		b = appendMilli(b, offered-served)
		t.write(append(b, "}}"...))
	}
	t.dirtySvcs = t.dirtySvcs[:0]
}

// nodeUseCounters writes n's use if it changed since it was last written.
func (t *Trace) nodeUseCounters(n *traceNode) {
	if n.useWritten && n.useCPU == n.lastUseCPU && n.useMem == n.lastUseMem {
		return
	}
	if !n.useWritten && n.useCPU == 0 && n.useMem == 0 {
		return // a node whose pods never used anything gets no counters
	}
	t.use(&n.proc, nil)
	if !n.useWritten || n.useCPU != n.lastUseCPU {
		t.counter(n.proc.pid, "cpu in use", "millicores", n.useCPU)
	}
	if !n.useWritten || n.useMem != n.lastUseMem {
		t.counter(n.proc.pid, "memory in use", "bytes", n.useMem)
	}
	n.useWritten, n.lastUseCPU, n.lastUseMem = true, n.useCPU, n.useMem
}

// useCounter writes the counter "<pod><what>" of one value.
func (t *Trace) useCounter(pid int, pod, what, key string, v int64) {
	if !t.admit(pid, 0, t.instant) {
		return
	}
	b := t.headJoined(pod, "", what, "", 'C', pid, 0)
	b = appendTS(b, t.instant)
	b = append(b, `,"args":{"`...)
	b = append(b, key...)
	b = append(b, `":`...)
	b = strconv.AppendInt(b, v, 10)
	t.write(append(b, "}}"...))
}

// appendMilli appends thousandths as a decimal number: 1500 as 1.5.
func appendMilli(b []byte, v int64) []byte {
	b = strconv.AppendInt(b, v/1000, 10)
	if f := v % 1000; f != 0 {
		frac := []byte{'.', byte('0' + f/100), byte('0' + f/10%10), byte('0' + f%10)}
		for frac[len(frac)-1] == '0' {
			frac = frac[:len(frac)-1]
		}
		b = append(b, frac...)
	}
	return b
}
