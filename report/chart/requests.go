package chart

import (
	"strconv"
	"time"

	"github.com/podsim/podsim/model"
)

// A lane per Service with traffic: the requests it serves and those that
// fail, per second, as steps at each change of its rates (a rate step, a
// kube-proxy sync, an endpoint that stops listening), heard from the
// model's traffic notifications (model.TrafficSink).

// svcRec is a Service's rates over time.
type svcRec struct {
	name  string
	rates []rateStep
}

// rateStep is the rates, in thousandths of a request per second, from t
// until the next step.
type rateStep struct {
	t              time.Duration
	served, failed int64
}

// TrafficChanged records s's rates now (model.TrafficSink).
func (r *Recorder) TrafficChanged(t time.Duration, s *model.Service) {
	rec := r.svcIdx[s]
	if rec == nil {
		rec = &svcRec{name: s.Key()}
		r.svcs = append(r.svcs, rec)
		r.svcIdx[s] = rec
	}
	offered, served := s.Rates()
	st := rateStep{t: t, served: served, failed: offered - served}
	if n := len(rec.rates); n > 0 {
		last := &rec.rates[n-1]
		if last.served == st.served && last.failed == st.failed {
			return
		}
		if last.t == t || r.merges(n, last.t, t) {
			st.t = last.t
			*last = st
			return
		}
	}
	rec.rates = append(rec.rates, st)
	r.kept()
}

// appendServices appends "svcs": each Service's name and its steps as
// [t, served, failed], rates in requests per second.
func (r *Recorder) appendServices(b []byte) []byte {
	b = append(b, `,"svcs":[`...)
	for i, s := range r.svcs {
		b = comma(b, i)
		b = append(b, `{"n":`...)
		b = appendStr(b, s.name)
		b = append(b, `,"r":[`...)
		for k, st := range s.rates {
			b = comma(b, k)
			b = append(b, '[')
			b = appendT(b, st.t)
			b = append(b, ',')
			b = appendMilli(b, st.served)
			b = append(b, ',')
			b = appendMilli(b, st.failed)
			b = append(b, ']')
		}
		b = append(b, "]}"...)
	}
	return append(b, ']')
}

// appendMilli appends thousandths as a decimal number: 1500 as 1.5.
func appendMilli(b []byte, v int64) []byte {
	if v < 0 {
		b, v = append(b, '-'), -v
	}
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
