package chart

import (
	"strconv"
	"strings"
)

// svgHPAH is the height of an autoscaler's lane in the static picture.
const svgHPAH = 64

// hpa draws an autoscaler's lane at y, as the page draws it: its current
// replicas as an area and its desired replicas as a line, on a scale from
// 0 to the most of maxReplicas and any count it had; its first metric as
// a line against its target (dashed), on a scale from 0 to the most of
// twice the target and any value; its events as marks. It returns the y
// below the lane.
func (s *svg) hpa(h *hpaRec, y float64) float64 {
	s.rect(0, y, svgWidth, svgHPAH, "#fbfaff", "")
	s.text(8, y+16, ` font-weight="bold"`, "hpa/"+h.name)
	s.text(14, y+31, ` font-size="11" fill="#444"`, "→ "+h.ref+", "+strconv.Itoa(int(h.min))+" to "+strconv.Itoa(int(h.max))+" replicas")
	if h.metric != "" {
		s.text(14, y+45, ` font-size="11" fill="`+metricColor+`"`, h.metric)
		s.text(14, y+58, ` font-size="11" fill="`+metricColor+`"`, "target "+hpaValueText(h.target, h.percent)+" (dashed)")
	}
	top, peak := max(h.max, 1), h.target*2
	for _, st := range h.steps {
		top = max(top, st.desired, st.current)
		if st.valid {
			peak = max(peak, st.value)
		}
	}
	peak = max(peak, 1)
	base, ht := y+svgHPAH-3, float64(svgHPAH-10)
	yOf := func(v, of int64) float64 { return base - float64(v)/float64(of)*ht }
	var desired, metric strings.Builder
	for i, st := range h.steps {
		e := s.t1
		if i+1 < len(h.steps) {
			e = h.steps[i+1].t
		}
		x0, x1 := s.x(st.t), s.x(e)
		if st.current > 0 {
			yc := yOf(int64(st.current), int64(top))
			s.raw(`<g fill-opacity="0.45">`)
			s.rect(x0, yc, x1-x0, base-yc, currentColor, "")
			s.raw("</g>\n")
		}
		stepTo(&desired, i == 0, x0, x1, yOf(int64(st.desired), int64(top)))
		if st.valid {
			stepTo(&metric, metric.Len() == 0 || !h.steps[i-1].valid, x0, x1, yOf(st.value, peak))
		}
	}
	if h.metric != "" {
		yt := strconv.FormatFloat(yOf(h.target, peak), 'f', 1, 64)
		s.raw(`<path d="M`, strconv.Itoa(svgLabel), " ", yt, "H", strconv.Itoa(svgWidth-svgRight),
			`" stroke="`, metricColor, `" stroke-dasharray="4 3" fill="none"/>`+"\n")
	}
	for _, p := range []struct{ d, color string }{{desired.String(), desiredColor}, {metric.String(), metricColor}} {
		if p.d != "" {
			s.raw(`<path d="`, p.d, `" stroke="`, p.color, `" stroke-width="1.5" fill="none"/>`+"\n")
		}
	}
	s.marks(h.marks, y+1)
	return y + svgHPAH
}

// stepTo adds to a path a step from x0 to x1 at yy: a move to it when
// start, else a vertical line to it from where the path was.
func stepTo(p *strings.Builder, start bool, x0, x1, yy float64) {
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }
	if start {
		p.WriteString("M" + f(x0) + " " + f(yy))
	} else {
		p.WriteString("V" + f(yy))
	}
	p.WriteString("H" + f(x1))
}

// hpaValueText is a metric's value as the lane's label shows it: a
// percent, or thousandths as a decimal.
func hpaValueText(v int64, percent bool) string {
	if percent {
		return strconv.FormatInt(v, 10) + "%"
	}
	return strconv.FormatFloat(float64(v)/1000, 'f', -1, 64)
}

// hpaCount counts the autoscalers the recorder saw.
func (r *Recorder) hpaCount() int {
	n := 0
	for _, h := range r.hpas {
		if h != nil {
			n++
		}
	}
	return n
}
