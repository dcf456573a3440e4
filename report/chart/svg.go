package chart

import (
	"html"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/podsim/podsim/sim"
)

// The static picture's limits: past them it shows the first ones and says
// how many it left out.
const (
	svgMaxPods     = 40 // pod lanes
	svgMaxNodes    = 12 // node lanes
	svgMaxGroups   = 24 // workload groups
	svgOpenPods    = 16 // up to this many pods shown, each shows its containers
	svgWidth       = 1200
	svgLabel       = 240 // the label column
	svgRight       = 16
	svgAxisH       = 26
	svgNodeH       = 28
	svgGroupH      = 30
	svgPodH        = 24
	svgContH       = 13
	svgGap         = 4
	svgLegendLineH = 18
)

// svg builds the picture's text.
type svg struct {
	b      []byte
	t0, t1 time.Duration
	r      *Recorder
}

func (s *svg) x(t time.Duration) float64 {
	return svgLabel + float64(t-s.t0)/float64(s.t1-s.t0)*(svgWidth-svgLabel-svgRight)
}

func (s *svg) f(v float64) { s.b = strconv.AppendFloat(s.b, v, 'f', 1, 64) }

func (s *svg) raw(parts ...string) {
	for _, p := range parts {
		s.b = append(s.b, p...)
	}
}

func (s *svg) rect(x, y, w, h float64, fill, title string) {
	s.raw(`<rect x="`)
	s.f(x)
	s.raw(`" y="`)
	s.f(y)
	s.raw(`" width="`)
	s.f(w)
	s.raw(`" height="`)
	s.f(h)
	s.raw(`" fill="`, fill, `"`)
	if title == "" {
		s.raw("/>\n")
		return
	}
	s.raw("><title>", html.EscapeString(title), "</title></rect>\n")
}

func (s *svg) text(x, y float64, attrs, text string) {
	s.raw(`<text x="`)
	s.f(x)
	s.raw(`" y="`)
	s.f(y)
	s.raw(`"`, attrs, ">", html.EscapeString(text), "</text>\n")
}

// bar draws [t0, t1] at least minW wide.
func (s *svg) bar(t0, t1 time.Duration, y, h float64, fill string, minW float64, title string) {
	x0, x1 := s.x(t0), s.x(t1)
	if x1-x0 < minW {
		c := (x0 + x1) / 2
		x0, x1 = c-minW/2, c+minW/2
	}
	s.rect(x0, y, x1-x0, h, fill, title)
}

// steps draws each step until the next (or end) in the colour colorOf
// gives ("" draws nothing).
func (s *svg) steps(list []step, end time.Duration, y, h float64, colorOf func(step) string) {
	for i, st := range list {
		e := end
		if i+1 < len(list) {
			e = list[i+1].t
		}
		if c := colorOf(st); c != "" && e > st.t {
			s.bar(st.t, e, y, h, c, 0, "")
		}
	}
}

// marks draws events: a diamond (Normal) or a triangle (Warning).
func (s *svg) marks(list []mark, y float64) {
	for _, m := range list {
		x := s.x(m.t)
		s.raw(`<path d="`)
		if m.warning {
			s.raw("M")
			s.f(x - 4)
			s.raw(" ")
			s.f(y)
			s.raw("h8l-4 7z")
		} else {
			s.raw("M")
			s.f(x)
			s.raw(" ")
			s.f(y)
			s.raw("l3 3.5l-3 3.5l-3 -3.5z")
		}
		color := normalColor
		if m.warning {
			color = warnColor
		}
		s.raw(`" fill="`, color, `"><title>`)
		s.raw(html.EscapeString(sim.FormatTime(m.t) + " " + s.r.strs[m.reason] + ": " + s.r.strs[m.message]))
		s.raw("</title></path>\n")
	}
}

// svgGroup is a workload's group (wl nil: the pods without a controller).
type svgGroup struct {
	label string
	wl    *wlRec
	pods  []*podRec
}

// WriteSVG writes the chart as a static SVG picture: a lane per node, then
// the pods grouped by workload, each group under its lane of ready pods.
// It shows at most 12 nodes, 24 groups and 40 pods (with their containers
// when it shows 16 pods or fewer) and says what it left out. The same run
// writes the same bytes.
func (r *Recorder) WriteSVG(w io.Writer, m Meta) error {
	s := &svg{r: r, t1: max(m.End, 1)}
	var groups []*svgGroup
	byWl := map[*wlRec]*svgGroup{}
	var bare *svgGroup
	for _, wl := range r.wls {
		g := &svgGroup{label: strings.ToLower(wl.kind) + "/" + wl.name, wl: wl}
		byWl[wl] = g
		groups = append(groups, g)
	}
	for _, p := range r.pods {
		if p.wl != nil {
			byWl[p.wl].pods = append(byWl[p.wl].pods, p)
			continue
		}
		if bare == nil {
			bare = &svgGroup{label: "pods without a controller"}
		}
		bare.pods = append(bare.pods, p)
	}
	if bare != nil {
		groups = append(groups, bare)
	}
	// What fits: the nodes and pods where something went wrong first,
	// then the others, each shown in its own order; the first groups,
	// sharing the pod lanes.
	shownNodes := pick(r.nodes, svgMaxNodes, (*nodeRec).eventful)
	if len(groups) > svgMaxGroups {
		groups = groups[:svgMaxGroups]
	}
	budget, shownPods := svgMaxPods, 0
	for i, g := range groups {
		share := max(1, budget/(len(groups)-i))
		g.pods = pick(g.pods, min(share, budget), (*podRec).eventful)
		budget -= len(g.pods)
		shownPods += len(g.pods)
	}
	openPods := shownPods <= svgOpenPods

	// Header.
	top := 28.0
	s.text(14, top, ` font-size="17" font-weight="bold"`, m.Title)
	for _, line := range wrap(m.Description, 150) {
		top += 18
		s.text(14, top, ` font-size="13" fill="#444"`, line)
	}
	top += 18
	s.text(14, top, ` font-size="12" fill="#777"`, "seed "+strconv.FormatUint(m.Seed, 10)+" · "+sim.FormatTime(m.End)+
		" of virtual time · "+strconv.Itoa(len(r.pods))+" pods on "+strconv.Itoa(len(r.nodes))+" nodes · "+strconv.Itoa(len(r.wls))+" workloads")
	top += 12

	body := s.b
	s.b = nil
	y := top + svgAxisH
	s.section(&y, "nodes")
	for _, n := range shownNodes {
		s.node(n, y)
		y += svgNodeH
	}
	for _, g := range groups {
		s.group(g, y)
		y += svgGroupH
		for _, p := range g.pods {
			y = s.pod(p, y, openPods, m.End)
		}
	}
	if r.hpaCount() > 0 {
		s.section(&y, "autoscalers")
		for _, h := range r.hpas {
			if h != nil {
				y = s.hpa(h, y)
			}
		}
	}
	var left []string
	if len(shownNodes) < len(r.nodes) {
		left = append(left, strconv.Itoa(len(shownNodes))+" of "+strconv.Itoa(len(r.nodes))+" nodes")
	}
	if shownPods < len(r.pods) {
		left = append(left, strconv.Itoa(shownPods)+" of "+strconv.Itoa(len(r.pods))+" pods")
	}
	if len(groups) < len(r.wls)+btoi(bare != nil) {
		left = append(left, strconv.Itoa(len(groups))+" of "+strconv.Itoa(len(r.wls)+btoi(bare != nil))+" groups")
	}
	if len(left) > 0 {
		y += 18
		s.text(14, y, ` font-size="12" fill="#a33"`, "Showing "+strings.Join(left, ", ")+"; podsim run FILE -o html shows them all.")
		y += 6
	}
	if r.merged {
		y += 18
		s.text(14, y, ` font-size="12" fill="#a33"`, "A long run: past "+strconv.Itoa(laneDetail)+" intervals or events, a lane shows one per "+
			sim.FormatTime(r.quantum)+" (the worst state, a Warning over a Normal event).")
		y += 6
	}
	lanes := s.b
	s.b = body
	s.axis(top, y)
	s.b = append(s.b, lanes...)
	y = s.legend(y + 24)
	s.raw("</svg>\n")

	head := `<svg xmlns="http://www.w3.org/2000/svg" width="` + strconv.Itoa(svgWidth) + `" height="` + strconv.Itoa(int(y)+8) +
		`" viewBox="0 0 ` + strconv.Itoa(svgWidth) + " " + strconv.Itoa(int(y)+8) + `" font-family="DejaVu Sans, Arial, sans-serif" font-size="12">` + "\n" +
		`<rect width="100%" height="100%" fill="#fff"/>` + "\n"
	if _, err := io.WriteString(w, head); err != nil {
		return err
	}
	_, err := w.Write(s.b)
	return err
}

// pick returns at most n of list, those for which eventful holds first,
// in list's order.
func pick[T any](list []T, n int, eventful func(T) bool) []T {
	if len(list) <= n {
		return list
	}
	take := make([]bool, len(list))
	left := n
	for pass := 0; pass < 2 && left > 0; pass++ {
		for i, v := range list {
			if left > 0 && !take[i] && (pass == 1 || eventful(v)) {
				take[i] = true
				left--
			}
		}
	}
	out := make([]T, 0, n)
	for i, v := range list {
		if take[i] {
			out = append(out, v)
		}
	}
	return out
}

// eventful reports whether the node was ever not Ready, faulty or tainted.
func (n *nodeRec) eventful() bool {
	return len(n.ready) > 1 || len(n.faults) > 0 || len(n.taints) > 0
}

// eventful reports whether the pod had a Warning event or was deleted.
func (p *podRec) eventful() bool {
	if p.hasGone || p.hasTerm {
		return true
	}
	for _, m := range p.marks {
		if m.warning {
			return true
		}
	}
	return false
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// legend draws the legend from y and returns the y below it.
func (s *svg) legend(y float64) float64 {
	type item struct{ color, label, shape string }
	rows := []struct {
		title string
		items []item
	}{}
	for _, state := range []string{"Waiting", "Running", "Terminated"} {
		var items []item
		for _, st := range styles {
			if st.state == state {
				items = append(items, item{st.color, st.label, "box"})
			}
		}
		rows = append(rows, struct {
			title string
			items []item
		}{state, items})
	}
	var pod []item
	for i, p := range phaseNames {
		pod = append(pod, item{phaseColors[i], p, "box"})
	}
	pod = append(pod, item{statusColors[1], "Ready", "thin"}, item{"#000", "Terminating", "tick"})
	node := []item{{statusColors[1], "Ready", "box"}, {statusColors[0], "NotReady", "box"}, {statusColors[2], "Unknown", "box"}}
	for i, f := range faultNames {
		node = append(node, item{faultColors[i], f, "hatch"})
	}
	node = append(node, item{taintColor, "taint", "thin"})
	events := []item{{normalColor, "Normal event", "diamond"}, {warnColor, "Warning event", "tri"}, {countColor, "ready pods of a group", "box"},
		{dipColor, "fewer ready than its peak", "box"}}
	rows = append(rows, struct {
		title string
		items []item
	}{"Pod", pod}, struct {
		title string
		items []item
	}{"Node", node}, struct {
		title string
		items []item
	}{"Marks", events})
	if s.r.hpaCount() > 0 {
		rows = append(rows, struct {
			title string
			items []item
		}{"Autoscaler", []item{{desiredColor, "desired replicas", "thin"}, {currentColor, "current replicas", "box"},
			{metricColor, "metric (its target dashed)", "thin"}}})
	}
	for _, row := range rows {
		s.text(14, y+10, ` font-weight="bold"`, row.title)
		x := 100.0
		for _, it := range row.items {
			switch it.shape {
			case "thin":
				s.rect(x, y+4, 16, 3, it.color, "")
			case "tick":
				s.rect(x+7, y, 2, 12, it.color, "")
			case "hatch":
				for k := 0.0; k < 16; k += 5 {
					s.rect(x+k, y, 2, 10, it.color, "")
				}
			case "diamond":
				s.raw(`<path d="M`)
				s.f(x + 8)
				s.raw(" ")
				s.f(y + 1)
				s.raw(`l4 4.5l-4 4.5l-4 -4.5z" fill="`, it.color, `"/>`+"\n")
			case "tri":
				s.raw(`<path d="M`)
				s.f(x + 3)
				s.raw(" ")
				s.f(y + 1)
				s.raw(`h10l-5 8z" fill="`, it.color, `"/>`+"\n")
			default:
				s.rect(x, y, 16, 10, it.color, "")
			}
			s.text(x+21, y+10, "", it.label)
			x += 21 + float64(len(it.label))*6.6 + 14
		}
		y += svgLegendLineH
	}
	return y
}

// wrap splits text into lines of at most width bytes, at spaces.
func wrap(text string, width int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(text) {
		if line != "" && len(line)+1+len(w) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}
