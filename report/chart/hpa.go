package chart

import (
	"strconv"
	"time"

	"github.com/podsim/podsim/model"
)

// A lane per HorizontalPodAutoscaler in the page: its desired and current
// replicas and its first metric against that metric's target, as steps at
// each status its controller writes (heard from the object stream), and
// its events as markers.

// The HorizontalPodAutoscaler lane's colours: desired replicas (a line),
// current replicas (an area), the metric (a line; its target dashed).
var (
	desiredColor = "#54278f"
	currentColor = "#9e9ac8"
	metricColor  = "#e6550d"
)

// hpaRec is an autoscaler's statuses over time.
type hpaRec struct {
	name, ref string // its name; its target, Deployment/web
	min, max  int32
	metric    string // its first metric's name, "" without one
	percent   bool   // the metric is a utilization (else thousandths)
	target    int64
	steps     []hpaStep
	marks     []mark
}

// hpaStep is the status from t until the next step.
type hpaStep struct {
	t                time.Duration
	desired, current int32
	value            int64 // the first metric's current value
	valid            bool  // the last sync could compute it
}

// autoscaler records an autoscaler's status now.
func (r *Recorder) autoscaler(a *model.Autoscaler, t time.Duration) {
	for a.ID() >= len(r.hpas) {
		r.hpas = append(r.hpas, nil)
	}
	rec := r.hpas[a.ID()]
	if rec == nil {
		rec = &hpaRec{name: a.Key(), ref: a.Spec.TargetKind + "/" + a.Spec.TargetName, min: a.Spec.MinReplicas, max: a.Spec.MaxReplicas}
		if len(a.Spec.Metrics) > 0 {
			ms := &a.Spec.Metrics[0]
			rec.metric, rec.percent, rec.target = ms.Label(), ms.Target == model.TargetUtilization, ms.MilliValue
			if rec.percent {
				rec.target = int64(ms.Utilization)
			}
		}
		r.hpas[a.ID()] = rec
	}
	st := &a.Status
	if !st.Synced {
		return
	}
	s := hpaStep{t: t, desired: st.DesiredReplicas, current: st.CurrentReplicas}
	if len(st.CurrentMetrics) > 0 && st.CurrentMetrics[0].Valid && len(a.Spec.Metrics) > 0 {
		s.valid, s.value = true, a.Spec.Metrics[0].Current(&st.CurrentMetrics[0])
	}
	if n := len(rec.steps); n > 0 {
		last := &rec.steps[n-1]
		if last.desired == s.desired && last.current == s.current && last.valid == s.valid && last.value == s.value {
			return
		}
		if last.t == t || r.merges(n, last.t, t) {
			s.t = last.t
			*last = s
			return
		}
	}
	rec.steps = append(rec.steps, s)
	r.kept()
}

// hpaMark records an event about an autoscaler on its lane; false if
// there is no such autoscaler.
func (r *Recorder) hpaMark(c *model.Change, m mark) bool {
	key := model.Key(c.Namespace, c.Workload)
	for _, rec := range r.hpas {
		if rec != nil && rec.name == key {
			rec.marks = r.mark(rec.marks, m)
			return true
		}
	}
	return false
}

// appendHPAs appends "hpas": each autoscaler's name, target, bounds, its
// first metric's name and target, its steps as [t, desired, current,
// value or null], and its events; and "hpaColors": desired, current,
// metric.
func (r *Recorder) appendHPAs(b []byte) []byte {
	b = appendList(b, "hpaColors", []string{desiredColor, currentColor, metricColor})
	b = append(b, `,"hpas":[`...)
	i := 0
	for _, h := range r.hpas {
		if h == nil {
			continue
		}
		b = comma(b, i)
		i++
		b = append(b, `{"n":`...)
		b = appendStr(b, h.name)
		b = append(b, `,"ref":`...)
		b = appendStr(b, h.ref)
		b = append(b, `,"min":`...)
		b = strconv.AppendInt(b, int64(h.min), 10)
		b = append(b, `,"max":`...)
		b = strconv.AppendInt(b, int64(h.max), 10)
		b = append(b, `,"m":`...)
		b = appendStr(b, h.metric)
		b = append(b, `,"mt":`...)
		b = appendHPAValue(b, h.target, h.percent)
		b = append(b, `,"pct":`...)
		b = strconv.AppendBool(b, h.percent)
		b = append(b, `,"s":[`...)
		for k, s := range h.steps {
			b = comma(b, k)
			b = append(b, '[')
			b = appendT(b, s.t)
			b = append(b, ',')
			b = strconv.AppendInt(b, int64(s.desired), 10)
			b = append(b, ',')
			b = strconv.AppendInt(b, int64(s.current), 10)
			b = append(b, ',')
			if s.valid {
				b = appendHPAValue(b, s.value, h.percent)
			} else {
				b = append(b, "null"...)
			}
			b = append(b, ']')
		}
		b = append(b, `],"ev":`...)
		b = appendMarks(b, h.marks)
		b = append(b, '}')
	}
	return append(b, ']')
}

// appendHPAValue appends a percent as it is, thousandths as a decimal.
func appendHPAValue(b []byte, v int64, percent bool) []byte {
	if percent {
		return strconv.AppendInt(b, v, 10)
	}
	return strconv.AppendFloat(b, float64(v)/1000, 'f', -1, 64)
}
