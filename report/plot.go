package report

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// PlotFiles are the files WriteStudyPlots writes, without extension; each
// comes as .svg and .png.
var PlotFiles = []string{"time-to-ready-cdf", "ready-pods", "restarts"}

// WriteStudyPlots draws the study into dir (created if missing): the CDF of
// the pods' time to ready per cell, ready pods over time and container
// restarts over time (each the mean over the cell's runs), each as SVG and
// PNG.
func WriteStudyPlots(dir string, r *StudyResult) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	plots := []*plot.Plot{r.cdfPlot(), r.seriesPlot(r.Ready, "Ready pods over time", "ready pods (mean over seeds)"),
		r.seriesPlot(r.Restarts, "Container restarts over time", "restarts so far (mean over seeds)")}
	for i, p := range plots {
		for _, ext := range []string{".svg", ".png"} {
			if err := savePlot(p, filepath.Join(dir, PlotFiles[i]+ext)); err != nil {
				return fmt.Errorf("plot %s: %w", PlotFiles[i]+ext, err)
			}
		}
	}
	return nil
}

// plotWidth and plotHeight are the size of every plot; PNGs have plotDPI.
const (
	plotWidth  = 20 * vg.Centimeter
	plotHeight = 12 * vg.Centimeter
	plotDPI    = 150
)

// savePlot writes p as SVG or PNG, by the file's extension.
func savePlot(p *plot.Plot, path string) error {
	var c interface {
		vg.CanvasSizer
		io.WriterTo
	}
	if filepath.Ext(path) == ".png" {
		c = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(plotWidth, plotHeight), vgimg.UseDPI(plotDPI))}
	} else {
		c = vgsvg.New(plotWidth, plotHeight)
	}
	p.Draw(draw.New(c))
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

func (r *StudyResult) newPlot(title, x, y string) *plot.Plot {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s: %s", r.Name, title)
	p.Title.TextStyle.Font.Size = vg.Points(13)
	p.X.Label.Text, p.Y.Label.Text = x, y
	p.Add(plotter.NewGrid())
	p.Legend.Top = true
	p.Legend.Left = true
	p.Legend.TextStyle.Font.Size = vg.Points(10)
	p.Legend.Padding = vg.Points(2)
	return p
}

func (r *StudyResult) style(l *plotter.Line, c int) {
	l.Color = plotutil.Color(c)
	l.Dashes = plotutil.Dashes(c)
	l.Width = vg.Points(1.5)
}

// cdfPlot is the share of pods ready within t, one step line per cell.
func (r *StudyResult) cdfPlot() *plot.Plot {
	p := r.newPlot("time to Ready (CDF over every pod of every seed)", "time from creation to first Ready (s)", "share of pods ready")
	p.Legend.Top, p.Legend.Left = false, false
	p.Legend.XOffs, p.Legend.YOffs = -vg.Points(8), vg.Points(8)
	p.Y.Min, p.Y.Max = 0, 1
	p.X.Min = 0
	any := false
	for c := range r.Cells {
		xs := r.TimeToReady[c]
		if len(xs) == 0 {
			continue
		}
		pts := make(plotter.XYs, 0, len(xs)+1)
		pts = append(pts, plotter.XY{X: xs[0], Y: 0})
		for i, x := range xs {
			pts = append(pts, plotter.XY{X: x, Y: float64(i+1) / float64(len(xs))})
		}
		l, err := plotter.NewLine(pts)
		if err != nil {
			continue
		}
		l.StepStyle = plotter.PostStep
		r.style(l, c)
		p.Add(l)
		p.Legend.Add(r.CellLabel(c), l)
		any = true
	}
	if !any {
		p.Title.Text += " - no pod got ready"
		p.X.Max = 1
	}
	return p
}

// seriesPlot draws one mean time series per cell against minutes.
func (r *StudyResult) seriesPlot(series [][]float64, title, y string) *plot.Plot {
	p := r.newPlot(title, "virtual time (min)", y)
	p.Y.Min = 0
	top := 0.0
	for c := range r.Cells {
		s := series[c]
		for _, v := range s {
			top = max(top, v)
		}
		pts := make(plotter.XYs, len(s))
		for k, v := range s {
			pts[k] = plotter.XY{X: SeriesTime(r.Duration, k).Minutes(), Y: v}
		}
		l, err := plotter.NewLine(pts)
		if err != nil {
			continue
		}
		l.StepStyle = plotter.PostStep
		r.style(l, c)
		p.Add(l)
		p.Legend.Add(r.CellLabel(c), l)
	}
	// Room above the lines for the legend: a line per cell.
	p.Y.Max = max(top, 1) * (1 + 0.12*float64(len(r.Cells)+1))
	p.Legend.XOffs, p.Legend.YOffs = vg.Points(8), -vg.Points(4)
	return p
}
