package report

import (
	"strconv"

	"github.com/podsim/podsim/model"
)

// The trace's HorizontalPodAutoscalers, heard from the object stream
// (model.ObjectSink): a process per autoscaler, "HorizontalPodAutoscaler
// <name>", with
//   - a thread "events": the controller's events about it
//     (SuccessfulRescale, FailedGetResourceMetric, ...);
//   - a counter "replicas" of two series, desired and current, as its
//     status last said;
//   - a counter per metric of two series, current and target: "cpu
//     utilization (% of request)", "memory per pod", "<metric> per pod",
//     "<Kind> <name> <metric>" (cpu in cores, memory in bytes, a request
//     rate in requests per second). A sync that could not compute the
//     metric writes no new value.
//
// They are written at the end of the instant, with the status after all
// of its changes, and only when a value moved.

// traceHPA is an autoscaler's process, its values as last written and
// as heard this instant.
type traceHPA struct {
	a                      *model.Autoscaler
	proc                   traceProc
	events                 traceThread
	desired, current       int32
	nowDesired, nowCurrent int32
	synced                 bool // heard a status the controller wrote
	metrics                []traceMetric
	dirty, everCounts      bool
}

// traceMetric is one metric's counter: its name, its target, and the
// current value last written and heard this instant (thousandths, or a
// percent for a utilization).
type traceMetric struct {
	name          string
	percent       bool
	target        int64
	last, now     int64
	written, seen bool // seen: the value heard this instant is valid
}

// Object hears the autoscalers' statuses (model.ObjectSink); the other
// objects are in the timeline.
func (t *Trace) Object(o *model.ObjectChange) {
	if o.Kind != model.ObjectAutoscaler {
		return
	}
	if now := t.world.Now(); now != t.instant {
		t.counters()
		t.instant = now
	}
	h := t.autoscaler(o.Autoscaler)
	st := &o.Autoscaler.Status
	h.synced, h.nowDesired, h.nowCurrent = st.Synced, st.DesiredReplicas, st.CurrentReplicas
	for i := range h.metrics {
		m := &h.metrics[i]
		m.seen = i < len(st.CurrentMetrics) && st.CurrentMetrics[i].Valid
		if m.seen {
			m.now = o.Autoscaler.Spec.Metrics[i].Current(&st.CurrentMetrics[i])
		}
	}
	if !h.dirty {
		h.dirty = true
		t.dirtyHPAs = append(t.dirtyHPAs, h)
	}
}

// autoscaler is the autoscaler's process, made when first heard of.
func (t *Trace) autoscaler(a *model.Autoscaler) *traceHPA {
	for a.ID() >= len(t.hpas) {
		t.hpas = append(t.hpas, nil)
	}
	if h := t.hpas[a.ID()]; h != nil {
		return h
	}
	h := &traceHPA{a: a, proc: *t.newProc(model.KindHorizontalPodAutoscaler + " " + a.Key()), events: t.newThread("events")}
	for i := range a.Spec.Metrics {
		ms := &a.Spec.Metrics[i]
		target := ms.MilliValue
		if ms.Target == model.TargetUtilization {
			target = int64(ms.Utilization)
		}
		h.metrics = append(h.metrics, traceMetric{name: ms.Label(), percent: ms.Target == model.TargetUtilization, target: target})
	}
	t.hpas[a.ID()] = h
	return h
}

// hpaEvent writes an event about an autoscaler on its thread "events".
func (t *Trace) hpaEvent(c *model.Change) {
	a := t.world.Autoscaler(model.Key(c.Namespace, c.Workload))
	if a == nil {
		t.use(t.cluster, &t.clusterEvts)
		t.instantEvent(c, t.cluster.pid, t.clusterEvts.tid)
		return
	}
	h := t.autoscaler(a)
	t.use(&h.proc, &h.events)
	t.instantEvent(c, h.proc.pid, h.events.tid)
}

// hpaCounters writes the autoscalers' counters that moved in the instant
// just ended.
func (t *Trace) hpaCounters() {
	for _, h := range t.dirtyHPAs {
		h.dirty = false
		if !h.synced {
			continue
		}
		if !h.everCounts || h.nowDesired != h.desired || h.nowCurrent != h.current {
			t.use(&h.proc, nil)
			if t.admit(h.proc.pid, 0, t.instant) {
				b := t.head("replicas", "", 'C', h.proc.pid, 0)
				b = appendTS(b, t.instant)
				b = append(b, `,"args":{"desired":`...)
				b = strconv.AppendInt(b, int64(h.nowDesired), 10)
				b = append(b, `,"current":`...)
				b = strconv.AppendInt(b, int64(h.nowCurrent), 10)
				t.write(append(b, "}}"...))
			}
			h.everCounts, h.desired, h.current = true, h.nowDesired, h.nowCurrent
		}
		for i := range h.metrics {
			if m := &h.metrics[i]; m.seen && (!m.written || m.now != m.last) {
				t.hpaMetric(h, m)
			}
		}
	}
	clear(t.dirtyHPAs)
	t.dirtyHPAs = t.dirtyHPAs[:0]
}

// hpaMetric writes a metric's counter.
func (t *Trace) hpaMetric(h *traceHPA, m *traceMetric) {
	m.written, m.last = true, m.now
	t.use(&h.proc, nil)
	if !t.admit(h.proc.pid, 0, t.instant) {
		return
	}
	b := t.head(m.name, "", 'C', h.proc.pid, 0)
	b = appendTS(b, t.instant)
	b = append(b, `,"args":{"current":`...)
	b = appendTraceValue(b, m.now, m.percent)
	b = append(b, `,"target":`...)
	b = appendTraceValue(b, m.target, m.percent)
	t.write(append(b, "}}"...))
}

// appendTraceValue writes a percent as it is, a value in thousandths as a
// decimal.
func appendTraceValue(b []byte, v int64, percent bool) []byte {
	if percent {
		return strconv.AppendInt(b, v, 10)
	}
	return strconv.AppendFloat(b, float64(v)/1000, 'f', -1, 64)
}
