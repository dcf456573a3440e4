package report

import (
	"errors"
	"fmt"
	"image/color"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// PlotFiles are the plots WriteStudyPlots draws, by file name without
// extension; each comes as .svg and .png.
var PlotFiles = []string{"time-to-ready-cdf", "ready-pods", "restarts"}

// PlotOutcome says what became of one plot of PlotFiles.
type PlotOutcome struct {
	Name    string
	Skipped string // why it was not written; empty when it was
}

// WriteStudyPlots draws the study's plots into dir (created if missing),
// each as SVG and PNG, and says what became of each, in the order of
// PlotFiles:
//   - time-to-ready-cdf: the share of pods ready within t, per cell;
//   - ready-pods: pods with Ready=True over virtual time, per cell;
//   - restarts: container restarts so far over virtual time, per pod (as
//     the table's pod.restarts) or of every pod together (RestartsTotal).
//
// Each cell's line has a shaded band from the 10% to the 90% quantile of
// its runs where they differ. Cells whose curves are the same point for
// point are drawn once and named together in the legend ("A = B"). A plot
// with nothing to show (no curve, or one flat value everywhere) is
// skipped: not written, and its files of an earlier run in dir are
// removed, so that dir never shows a plot of another study.
func WriteStudyPlots(dir string, r *StudyResult) ([]PlotOutcome, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var out []PlotOutcome
	for _, sp := range []*studyPlot{r.cdfPlot(), r.readyPlot(), r.restartsPlot()} {
		out = append(out, PlotOutcome{Name: sp.name, Skipped: sp.empty})
		for _, ext := range []string{".svg", ".png"} {
			path := filepath.Join(dir, sp.name+ext)
			if sp.empty != "" {
				if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
					return nil, err
				}
				continue
			}
			if err := sp.save(path); err != nil {
				return nil, fmt.Errorf("plot %s: %w", sp.name+ext, err)
			}
		}
	}
	return out, nil
}

// studyPlot is one plot of a study, ready to draw.
type studyPlot struct {
	name, title, xLabel, yLabel string
	curves                      []curve
	labels                      []string // by cell, for the legend
	notes                       []string // legend entries without a curve
	footer                      string   // the legend's last line: how to read the curves
	share                       bool     // y is a share of pods, 0 to 1
	integer                     bool     // y counts whole things
	empty                       string   // why there is nothing to draw; "" when there is
}

// cdfPlot is the share of pods ready within t, a step line per cell.
func (r *StudyResult) cdfPlot() *studyPlot {
	sp := &studyPlot{name: PlotFiles[0], title: r.Name + ": time to Ready",
		xLabel: "time from creation to first Ready (s)", yLabel: "share of pods ready", share: true, labels: r.labels()}
	var curves []curve
	for c, cr := range r.Runs {
		if cu, ok := cdfCurve(c, cr.TimeToReady); ok {
			curves = append(curves, cu)
		} else {
			sp.notes = append(sp.notes, sp.labels[c]+": no pod got ready")
		}
	}
	sp.curves = coincide(curves)
	if len(sp.curves) == 0 {
		sp.empty = "no pod got ready in any run"
	}
	sp.footer = r.line("every pod", "every pod of the %s pooled") + "; " + bandNote(sp.curves, r.Seeds, true)
	return sp
}

// readyPlot is the ready pods over virtual time, per cell.
func (r *StudyResult) readyPlot() *studyPlot {
	sp := &studyPlot{name: PlotFiles[1], title: r.Name + ": ready pods", yLabel: "ready pods", integer: true, labels: r.labels()}
	x, unit := r.seriesX()
	sp.xLabel = "virtual time (" + unit + ")"
	var curves []curve
	for c, cr := range r.Runs {
		curves = append(curves, seriesCurve(c, x, cr.Ready))
	}
	sp.seriesDone(curves, r.Seeds, "ready pods", r.line("the one seed", "mean of the %s"))
	return sp
}

// restartsPlot is the container restarts so far over virtual time, per
// cell: per pod, or of every pod together.
func (r *StudyResult) restartsPlot() *studyPlot {
	sp := &studyPlot{name: PlotFiles[2], labels: r.labels()}
	x, unit := r.seriesX()
	sp.xLabel = "virtual time (" + unit + ")"
	var curves []curve
	for c, cr := range r.Runs {
		if r.RestartsTotal {
			curves = append(curves, seriesCurve(c, x, cr.Restarts))
		} else {
			curves = append(curves, perPodCurve(c, x, cr.Restarts, cr.Pods))
		}
	}
	if r.RestartsTotal {
		sp.title = r.Name + ": container restarts, all pods together"
		sp.yLabel = "restarts so far, total of all pods"
		sp.integer = true
		sp.seriesDone(curves, r.Seeds, "restarts", r.line("the one seed", "mean of the %s"))
	} else {
		sp.title = r.Name + ": container restarts per pod"
		sp.yLabel = "restarts per pod so far"
		sp.seriesDone(curves, r.Seeds, "restarts per pod",
			r.line("its restarts over its pods", "the restarts of all %s over their pods")+" (it ends at the table's mean)")
	}
	return sp
}

// seriesDone finishes a plot of time series: merges coinciding curves,
// says why it is empty when what stays one value, and how to read it.
func (sp *studyPlot) seriesDone(curves []curve, seeds int, what, line string) {
	sp.curves = coincide(curves)
	if v, isFlat := flat(sp.curves); isFlat {
		sp.empty = fmt.Sprintf("%s stay %s for the whole run in every seed of every cell", what, FormatNumber(v))
	}
	sp.footer = line + "; " + bandNote(sp.curves, seeds, false)
}

// bandNote says how to read the bands of curves, each the spread of
// seeds runs (of their curves when curves is true), or that there are
// none. Below 10 runs the 10% and 90% quantiles are the lowest and the
// highest run.
func bandNote(cs []curve, seeds int, curves bool) string {
	banded := false
	for _, c := range cs {
		banded = banded || c.banded()
	}
	of := "the seeds"
	if curves {
		of = "the seeds' own curves"
	}
	switch {
	case seeds == 1:
		return "no band: one seed"
	case !banded:
		return "no band: the seeds agree everywhere"
	case seeds < 10:
		return "shaded: lowest to highest of " + of
	}
	return "shaded: 10-90% of " + of
}

// line says what a plot's lines are: one for a study of one seed, many
// (with "%s" for "N seeds") for more.
func (r *StudyResult) line(one, many string) string {
	if r.Seeds == 1 {
		return "line: " + one
	}
	return "line: " + fmt.Sprintf(many, fmt.Sprintf("%d seeds", r.Seeds))
}

func (r *StudyResult) labels() []string {
	out := make([]string, len(r.Cells))
	for c := range r.Cells {
		out[c] = r.CellLabel(c)
	}
	return out
}

// seriesX is the virtual time of each point of the series, in the unit
// that suits the run's length: seconds up to 2 minutes, minutes up to 3
// hours, then hours.
func (r *StudyResult) seriesX() ([]float64, string) {
	unit, name := time.Hour, "h"
	switch {
	case r.Duration <= 2*time.Minute:
		unit, name = time.Second, "s"
	case r.Duration <= 3*time.Hour:
		unit, name = time.Minute, "min"
	}
	x := make([]float64, SeriesPoints)
	for k := range x {
		x[k] = float64(SeriesTime(r.Duration, k)) / float64(unit)
	}
	return x, name
}

// The size of every plot without its legend, the margin around it, and
// the resolution of PNGs.
const (
	plotWidth  = 20 * vg.Centimeter
	plotHeight = 12 * vg.Centimeter
	plotMargin = 8 // points
	plotDPI    = 150
)

// palette colours curves by cell (Okabe and Ito's, which colour-blind
// readers tell apart, without its yellow); after every colour once, the
// dashes change.
var palette = []color.RGBA{
	{0x00, 0x72, 0xb2, 0xff}, // blue
	{0xd5, 0x5e, 0x00, 0xff}, // vermillion
	{0x00, 0x9e, 0x73, 0xff}, // green
	{0xcc, 0x79, 0xa7, 0xff}, // purple
	{0xe6, 0x9f, 0x00, 0xff}, // orange
	{0x56, 0xb4, 0xe9, 0xff}, // sky blue
	{0x00, 0x00, 0x00, 0xff}, // black
}

// bandAlpha and bandEdgeAlpha are how opaque a band and its outline are;
// plotHeadroom the share of the y
// range left free above the highest value, so that no line runs along the
// plot's top edge.
const (
	bandAlpha     = 0x30
	bandEdgeAlpha = 0x90
	plotHeadroom  = 0.04
)

// save writes the plot as SVG or PNG, by the file's extension.
func (sp *studyPlot) save(path string) error {
	leg := sp.legend()
	h := plotHeight + leg.height
	var c interface {
		vg.CanvasSizer
		io.WriterTo
	}
	if filepath.Ext(path) == ".png" {
		c = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(plotWidth, h), vgimg.UseDPI(plotDPI))}
	} else {
		c = vgsvg.New(plotWidth, h)
	}
	sp.draw(draw.New(c), leg)
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := c.WriteTo(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// draw draws the plot on c: title, axes and curves, the legend below.
func (sp *studyPlot) draw(c draw.Canvas, leg *legend) {
	c.SetColor(color.White) // the whole picture, legend and margins included
	c.Fill(c.Rectangle.Path())
	m := vg.Points(plotMargin)
	c = draw.Crop(c, m, -m, m, -m)
	p := plot.New()
	p.BackgroundColor = nil
	p.Title.Text = sp.title
	p.Title.TextStyle.Font.Size = vg.Points(13)
	p.Title.Padding = vg.Points(8)
	p.X.Label.Text, p.Y.Label.Text = sp.xLabel, sp.yLabel
	p.X.Tick.Marker, p.Y.Tick.Marker = ticks{}, ticks{integer: sp.integer}
	p.Add(plotter.NewGrid())
	var lines []plot.Plotter
	for _, cu := range sp.curves {
		b, l := cu.plotters()
		if b != nil {
			p.Add(b)
		}
		lines = append(lines, l)
	}
	p.Add(lines...) // over every band
	p.X.Min, p.Y.Min = 0, 0
	if sp.share {
		p.Y.Max = 1
	}
	if p.X.Max <= p.X.Min {
		p.X.Max = p.X.Min + 1
	}
	p.Y.Max *= 1 + plotHeadroom
	p.Draw(draw.Crop(c, 0, 0, leg.height, 0))
	leg.draw(draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{Min: c.Min, Max: vg.Point{X: c.Max.X, Y: c.Min.Y + leg.height}}})
}

// plotters are the curve's band (nil when its runs agree everywhere) and
// its line, in the colour and dashes of its first cell.
func (cu *curve) plotters() (*band, *plotter.Line) {
	c := cu.cells[0]
	col := palette[c%len(palette)]
	pts := make(plotter.XYs, len(cu.x))
	for i := range cu.x {
		pts[i] = plotter.XY{X: cu.x[i], Y: cu.mid[i]}
	}
	l := &plotter.Line{XYs: pts, StepStyle: plotter.PostStep}
	l.LineStyle = draw.LineStyle{Color: col, Width: vg.Points(1.5), Dashes: plotutil.Dashes(c / len(palette))}
	if !cu.banded() {
		return nil, l
	}
	// Along hi, then back along lo, each as a step line.
	var ring plotter.XYs
	n := len(cu.x)
	for i := 0; i < n; i++ {
		ring = append(ring, plotter.XY{X: cu.x[i], Y: cu.hi[i]})
		if i+1 < n {
			ring = append(ring, plotter.XY{X: cu.x[i+1], Y: cu.hi[i]})
		}
	}
	for i := n - 1; i >= 0; i-- {
		if i+1 < n {
			ring = append(ring, plotter.XY{X: cu.x[i+1], Y: cu.lo[i]})
		}
		ring = append(ring, plotter.XY{X: cu.x[i], Y: cu.lo[i]})
	}
	return &band{ring: ring, color: color.NRGBA{R: col.R, G: col.G, B: col.B, A: bandAlpha},
		edge: color.NRGBA{R: col.R, G: col.G, B: col.B, A: bandEdgeAlpha}}, l
}

// band fills a polygon in data coordinates and outlines it thinly, so that
// overlapping bands stay apart.
type band struct {
	ring        plotter.XYs
	color, edge color.Color
}

// Plot implements plot.Plotter.
func (b *band) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	pts := make([]vg.Point, len(b.ring))
	for i, xy := range b.ring {
		pts[i] = vg.Point{X: trX(xy.X), Y: trY(xy.Y)}
	}
	c.FillPolygon(b.color, c.ClipPolygonXY(pts))
	c.StrokeLines(draw.LineStyle{Color: b.edge, Width: vg.Points(0.6)}, c.ClipLinesXY(append(pts, pts[0]))...)
}

// DataRange implements plot.DataRanger.
func (b *band) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax = plotter.Range(plotter.XValues{XYer: b.ring})
	ymin, ymax = plotter.Range(plotter.YValues{XYer: b.ring})
	return
}

// Thumbnail implements plot.Thumbnailer: a swatch of the band's colour.
func (b *band) Thumbnail(c *draw.Canvas) {
	c.FillPolygon(b.color, []vg.Point{c.Min, {X: c.Min.X, Y: c.Max.Y}, c.Max, {X: c.Max.X, Y: c.Min.Y}})
}

// legend is the key under a plot: an entry per curve (its cells'
// labels, "A = B" when several cells coincide) and per note, in columns
// that fill the width, then the footer on a line of its own.
type legend struct {
	entries []legendEntry
	footer  string
	style   text.Style
	rows    int
	colW    vg.Length
	lineH   vg.Length // an entry's height, padding included
	height  vg.Length // of everything
}

type legendEntry struct {
	text   string
	thumbs []plot.Thumbnailer
}

const (
	legendFont    = 10 // points
	legendThumb   = 24 // points: the width of a curve's sample
	legendPadding = 3  // points between entries
	legendGap     = 14 // points between columns
)

// legend lays out the key of sp in the plot's width. The names of cells
// that coincide wrap onto lines of their own ("= B") when they do not fit
// the width; the key then has one column, so that they stay together.
func (sp *studyPlot) legend() *legend {
	l := &legend{footer: sp.footer}
	proto := plot.NewLegend()
	l.style = proto.TextStyle
	l.style.Font.Size = vg.Points(legendFont)
	width := plotWidth - 2*vg.Points(plotMargin)
	textW := width - vg.Points(legendThumb) - l.style.Width(" ")
	wrapped := false
	for _, cu := range sp.curves {
		e := legendEntry{text: sp.labels[cu.cells[0]]}
		b, line := cu.plotters()
		if b != nil {
			e.thumbs = append(e.thumbs, b)
		}
		e.thumbs = append(e.thumbs, line)
		for _, c := range cu.cells[1:] {
			if more := e.text + " = " + sp.labels[c]; l.style.Width(more) <= textW {
				e.text = more
				continue
			}
			l.entries = append(l.entries, e)
			e, wrapped = legendEntry{text: "= " + sp.labels[c]}, true
		}
		l.entries = append(l.entries, e)
	}
	for _, n := range sp.notes {
		l.entries = append(l.entries, legendEntry{text: n})
	}
	ext := l.style.FontExtents()
	l.lineH = ext.Height + vg.Points(legendPadding)
	for _, e := range l.entries {
		l.colW = max(l.colW, vg.Points(legendThumb)+l.style.Width(" "+e.text))
	}
	cols := max(1, int((width+vg.Points(legendGap))/(l.colW+vg.Points(legendGap))))
	if wrapped {
		cols = 1
	}
	cols = min(cols, max(len(l.entries), 1))
	l.rows = (len(l.entries) + cols - 1) / cols
	l.height = vg.Length(l.rows)*l.lineH + vg.Points(legendPadding)
	if l.footer != "" {
		l.height += l.lineH
	}
	l.height += vg.Points(plotMargin) // between the x axis label and the key
	return l
}

// draw draws the legend in c, the strip under the plot.
func (l *legend) draw(c draw.Canvas) {
	top := c.Max.Y - vg.Points(plotMargin)
	for i, e := range l.entries {
		col, row := i/l.rows, i%l.rows
		x := c.Min.X + vg.Length(col)*(l.colW+vg.Points(legendGap))
		y := top - vg.Length(row+1)*l.lineH
		icon := draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
			Min: vg.Point{X: x, Y: y + vg.Points(1)},
			Max: vg.Point{X: x + vg.Points(legendThumb), Y: y + l.lineH - vg.Points(legendPadding)},
		}}
		for _, t := range e.thumbs {
			t.Thumbnail(&icon)
		}
		l.text(c, x+vg.Points(legendThumb)+l.style.Width(" "), y, e.text)
	}
	if l.footer != "" {
		l.text(c, c.Min.X, top-vg.Length(l.rows+1)*l.lineH-vg.Points(legendPadding), l.footer)
	}
}

// text writes s with its baseline above y by the font's descent.
func (l *legend) text(c draw.Canvas, x, y vg.Length, s string) {
	desc := l.style.FontExtents().Descent
	c.FillText(l.style, vg.Point{X: x, Y: y + desc + vg.Points(legendPadding)/2}, s)
}
