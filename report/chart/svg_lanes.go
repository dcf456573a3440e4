package chart

import (
	"html"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/podsim/podsim/sim"
)

// axis draws the time axis at top and its grid lines down to bottom.
func (s *svg) axis(top, bottom float64) {
	step := tickStep(s.t1-s.t0, svgWidth-svgLabel-svgRight)
	y := top + svgAxisH
	s.text(14, y-9, ` fill="#555" font-size="11"`, "virtual time")
	s.raw(`<path d="M`, strconv.Itoa(svgLabel), " ")
	s.f(y - 0.5)
	s.raw("H", strconv.Itoa(svgWidth-svgRight), `" stroke="#999"/>`+"\n")
	for t := time.Duration(0); t >= 0 && t <= s.t1; t += step { // t < 0: past the longest run, it wrapped
		x := s.x(t)
		s.raw(`<path d="M`)
		s.f(x)
		s.raw(" ")
		s.f(y)
		s.raw("V")
		s.f(bottom)
		s.raw(`" stroke="#eceff3"/>` + "\n")
		s.text(x, y-9, ` text-anchor="middle" font-size="11" fill="#333"`, sim.FormatTime(t))
	}
}

// tickSteps are the axis' steps: 1ns to a week. A literal, not built at
// start-up: 1, 2, 5 ... 500 of each sub-second unit, then seconds.
var tickSteps = [...]time.Duration{
	1, 2, 5, 10, 20, 50, 100, 200, 500,
	1 * time.Microsecond, 2 * time.Microsecond, 5 * time.Microsecond, 10 * time.Microsecond, 20 * time.Microsecond,
	50 * time.Microsecond, 100 * time.Microsecond, 200 * time.Microsecond, 500 * time.Microsecond,
	1 * time.Millisecond, 2 * time.Millisecond, 5 * time.Millisecond, 10 * time.Millisecond, 20 * time.Millisecond,
	50 * time.Millisecond, 100 * time.Millisecond, 200 * time.Millisecond, 500 * time.Millisecond,
	1 * time.Second, 2 * time.Second, 5 * time.Second, 10 * time.Second, 15 * time.Second, 30 * time.Second,
	time.Minute, 2 * time.Minute, 5 * time.Minute, 10 * time.Minute, 15 * time.Minute, 30 * time.Minute,
	time.Hour, 2 * time.Hour, 3 * time.Hour, 6 * time.Hour, 12 * time.Hour, 24 * time.Hour, 48 * time.Hour, 7 * 24 * time.Hour,
}

// tickStep is the smallest step that puts ticks at least 90px apart.
func tickStep(span time.Duration, px float64) time.Duration {
	want := time.Duration(float64(span) / max(1, px/90))
	for _, st := range tickSteps {
		if st >= want {
			return st
		}
	}
	last := tickSteps[len(tickSteps)-1]
	return last * (want/last + 1)
}

func (s *svg) section(y *float64, label string) {
	s.rect(0, *y, svgWidth, 20, "#f3f5f8", "")
	s.text(8, *y+14, ` font-weight="bold"`, label)
	*y += 20
}

func (s *svg) node(n *nodeRec, y float64) {
	s.rect(0, y, svgWidth, svgNodeH, "#f8f9fb", "")
	s.text(14, y+16, ` font-weight="bold"`, n.name)
	s.steps(n.ready, s.t1, y+9, 8, func(st step) string { return statusColors[st.v] })
	for _, f := range n.faults {
		e := f.end
		if f.open {
			e = s.t1
		}
		title := faultNames[f.what] + " " + sim.FormatTime(f.start) + " – " + sim.FormatTime(e)
		x0, x1 := s.x(f.start), max(s.x(e), s.x(f.start)+2)
		s.raw("<g><title>", html.EscapeString(title), "</title>\n")
		for x := x0; x < x1; x += 4 {
			s.rect(x, y+18, min(2, x1-x), 5, faultColors[f.what], "")
		}
		s.raw("</g>\n")
	}
	for _, t := range n.taints {
		e := t.end
		if t.open {
			e = s.t1
		}
		s.bar(t.start, e, y+24, 3, taintColor, 1, "taint "+s.r.strs[t.what]+" "+sim.FormatTime(t.start)+" – "+sim.FormatTime(e))
	}
	s.marks(n.marks, y+1)
}

func (s *svg) group(g *svgGroup, y float64) {
	s.rect(0, y, svgWidth, svgGroupH, "#f3f5f8", "")
	wl := g.wl
	if wl == nil {
		wl = &s.r.bare
	}
	s.text(8, y+19, ` font-weight="bold"`, g.label+" ("+strconv.Itoa(wl.pods)+")")
	top := int32(max(1, wl.pods))
	for _, st := range wl.ready {
		top = max(top, st.v)
	}
	peak := int32(0)
	for _, st := range wl.ready {
		peak = max(peak, st.v)
	}
	h, base := float64(svgGroupH-10), y+svgGroupH-2
	for i, st := range wl.ready {
		if e := s.stepEnd(wl.ready, i); st.v < peak && e > st.t {
			s.bar(st.t, e, y+1, svgGroupH-2, dipColor, 0, "")
		}
	}
	var path strings.Builder
	for i, st := range wl.ready {
		e := s.stepEnd(wl.ready, i)
		yy := base - float64(st.v)/float64(top)*h
		if st.v > 0 {
			s.raw(`<g fill-opacity="0.35">`)
			s.rect(s.x(st.t), yy, s.x(e)-s.x(st.t), base-yy, countColor, "")
			s.raw("</g>\n")
		}
		if i == 0 {
			path.WriteString("M" + strconv.FormatFloat(s.x(st.t), 'f', 1, 64) + " " + strconv.FormatFloat(base, 'f', 1, 64))
		}
		path.WriteString("V" + strconv.FormatFloat(yy, 'f', 1, 64) + "H" + strconv.FormatFloat(s.x(e), 'f', 1, 64))
	}
	if path.Len() > 0 {
		s.raw(`<path d="`, path.String(), `" fill="none" stroke="`, countColor, `"/>`+"\n")
	}
	if g.wl != nil {
		s.marks(g.wl.marks, y+1)
	}
}

// stepEnd is where the i-th step ends: at the next, or the end of the run.
func (s *svg) stepEnd(list []step, i int) time.Duration {
	if i+1 < len(list) {
		return list[i+1].t
	}
	return s.t1
}

// pod draws a pod's lane at y and returns the y below it.
func (s *svg) pod(p *podRec, y float64, open bool, end time.Duration) float64 {
	if p.hasGone {
		end = p.gone
	}
	label := p.name
	if p.node != nil {
		label += "  (" + p.node.name + ")"
	}
	s.text(22, y+15, "", label)
	s.steps(p.phases, end, y+9, 9, func(st step) string { return phaseColors[st.v] })
	s.steps(p.ready, end, y+19, 3, func(st step) string {
		if statusNames[st.v] == "True" {
			return statusColors[st.v]
		}
		return ""
	})
	if p.hasTerm {
		s.bar(p.terminating, p.terminating, y+8, 15, "#000", 2, "Terminating at "+sim.FormatTime(p.terminating))
	}
	s.marks(p.marks, y+1)
	y += svgPodH
	if !open {
		return y
	}
	prev := -1
	for _, c := range p.conts {
		if prev >= 0 && prev < kindMain && c.kind == kindMain {
			s.raw(`<path d="M36 `)
			s.f(y + svgGap/2)
			s.raw("H", strconv.Itoa(svgWidth-svgRight), `" stroke="#c8ced6" stroke-dasharray="2 2"/>`+"\n")
			y += svgGap
		}
		prev = int(c.kind)
		name, attrs, h := c.name, ` font-size="11"`, 10.0
		switch c.kind {
		case kindInit:
			name, attrs, h = "init "+c.name, ` font-size="11" font-style="italic" fill="#666"`, 7
		case kindSidecar:
			name, attrs, h = "sidecar "+c.name, ` font-size="11" font-style="italic" fill="#666"`, 7
		}
		s.text(36, y+10, attrs, name)
		off := (svgContH - h) / 2
		var narrow []int
		for k := range c.segs {
			sg := &c.segs[k]
			e := c.segEnd(k, end)
			if s.x(e)-s.x(sg.start) < 3 {
				narrow = append(narrow, k)
				continue
			}
			s.bar(sg.start, e, y+off, h, styles[sg.style].color, 0, s.segTitle(c, k, end))
		}
		// Instants are drawn last, 3px wide, terminations on top: no longer
		// interval hides them.
		sort.SliceStable(narrow, func(i, j int) bool {
			return styles[c.segs[narrow[i]].style].state != "Terminated" && styles[c.segs[narrow[j]].style].state == "Terminated"
		})
		for _, k := range narrow {
			sg := &c.segs[k]
			s.bar(sg.start, c.segEnd(k, end), y+off-1, h+2, styles[sg.style].color, 3, s.segTitle(c, k, end))
		}
		y += svgContH
	}
	return y + 2
}

// segTitle is an interval's tooltip: state, reason, time, restarts, exit.
func (s *svg) segTitle(c *contRec, k int, end time.Duration) string {
	sg := &c.segs[k]
	st := styles[sg.style]
	reason := s.r.strs[sg.reason]
	if reason == "" {
		reason = st.label
	}
	e := c.segEnd(k, end)
	t := c.name + ": " + st.state + " (" + reason + ") " + sim.FormatTime(sg.start) + " – " + sim.FormatTime(e) +
		", restartCount " + strconv.Itoa(int(sg.restarts))
	if sg.hasExit {
		if st.state == "Terminated" {
			t += ", exit code " + strconv.Itoa(int(sg.exit))
		} else {
			t += ", last state Terminated (" + s.r.strs[sg.lastReason] + ", exit code " + strconv.Itoa(int(sg.exit)) + ")"
		}
	}
	return t
}
