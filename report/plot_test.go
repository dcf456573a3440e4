package report

import (
	"bytes"
	"encoding/xml"
	"image"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/podsim/podsim/scenarios"
	"gonum.org/v1/plot/vg"
)

// series is a run's series: v everywhere, or from point from on, step.
func series(v, step float64, from int) []float64 {
	s := make([]float64, SeriesPoints)
	for k := range s {
		s[k] = v
		if k >= from {
			s[k] += step
		}
	}
	return s
}

// plotStudy is a study of three cells of two seeds: cells a and b
// measured the same, c differs; no container restarted; in cell c no pod
// got ready.
func plotStudy() *StudyResult {
	same := CellRuns{
		TimeToReady: [][]float64{{5, 10}, {10}},
		Ready:       [][]float64{series(0, 2, 10), series(0, 1, 20)},
		Restarts:    [][]float64{series(0, 0, 0), series(0, 0, 0)},
		Pods:        [][]float64{series(2, 0, 0), series(2, 0, 0)},
	}
	other := CellRuns{
		TimeToReady: [][]float64{nil, nil},
		Ready:       [][]float64{series(0, 0, 0), series(0, 0, 0)},
		Restarts:    same.Restarts,
		Pods:        same.Pods,
	}
	return &StudyResult{Name: "s", Duration: 10 * time.Minute, Seeds: 2, Params: []string{"k"},
		Cells: [][]string{{"a"}, {"b"}, {"c"}}, Runs: []CellRuns{same, same, other}}
}

// svgTexts lists the text elements of an SVG file.
func svgTexts(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	dec := xml.NewDecoder(bytes.NewReader(data))
	inText := false
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("%s: not XML: %v", path, err)
		}
		switch el := tok.(type) {
		case xml.StartElement:
			inText = el.Name.Local == "text"
		case xml.CharData:
			if inText {
				texts = append(texts, string(el))
			}
		case xml.EndElement:
			inText = false
		}
	}
	return texts
}

func TestStudyPlotsSkipCoincideAndLabel(t *testing.T) {
	dir := t.TempDir()
	stale := filepath.Join(dir, "restarts.png") // from an earlier study
	if err := os.WriteFile(stale, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := WriteStudyPlots(dir, plotStudy())
	if err != nil {
		t.Fatal(err)
	}
	want := []PlotOutcome{{"time-to-ready-cdf", ""}, {"ready-pods", ""},
		{"restarts", "restarts per pod stay 0 for the whole run in every seed of every cell"}}
	if !slices.Equal(out, want) {
		t.Errorf("outcomes %+v, want %+v", out, want)
	}
	for _, f := range []string{"restarts.png", "restarts.svg"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			t.Errorf("%s of a skipped plot is there", f)
		}
	}

	texts := svgTexts(t, filepath.Join(dir, "ready-pods.svg"))
	for _, w := range []string{"s: ready pods", "ready pods", "virtual time (min)", "k=a = k=b", "k=c",
		"line: mean of the 2 seeds; shaded: lowest to highest of the seeds"} {
		if !slices.Contains(texts, w) {
			t.Errorf("ready-pods.svg has no text %q: %q", w, texts)
		}
	}
	if slices.Contains(texts, "k=a") || slices.Contains(texts, "k=b") {
		t.Errorf("ready-pods.svg names a coinciding cell alone: %q", texts)
	}
	// Every number is a whole one (pods), with no needless decimals.
	num := regexp.MustCompile(`^-?[0-9][0-9,]*(\.[0-9]+)?$`)
	for _, s := range texts {
		if num.MatchString(s) && strings.Contains(s, ".") {
			t.Errorf("ready-pods.svg has the tick label %q", s)
		}
	}
	data, _ := os.ReadFile(filepath.Join(dir, "ready-pods.svg"))
	if !strings.Contains(string(data), "fill-opacity") {
		t.Error("ready-pods.svg has no band")
	}

	texts = svgTexts(t, filepath.Join(dir, "time-to-ready-cdf.svg"))
	for _, w := range []string{"s: time to Ready", "k=a = k=b", "k=c: no pod got ready"} {
		if !slices.Contains(texts, w) {
			t.Errorf("time-to-ready-cdf.svg has no text %q: %q", w, texts)
		}
	}

	// The PNG: the plot's width at its resolution, taller for its legend,
	// and nothing in its margin: the title keeps off the edge.
	f, err := os.Open(filepath.Join(dir, "ready-pods.png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	b := img.Bounds()
	px := func(l float64) int { return int(l / 72 * plotDPI) } // points to pixels
	if w := int(math.Round(20 / 2.54 * plotDPI)); b.Dx() != w || b.Dy() <= px(12/2.54*72) {
		t.Errorf("PNG %dx%d, want %d wide and taller than the plot", b.Dx(), b.Dy(), w)
	}
	margin := px(plotMargin) - 1
	blank := func(r image.Rectangle) bool {
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				if r, g, b, _ := img.At(x, y).RGBA(); r != 0xffff || g != 0xffff || b != 0xffff {
					return false
				}
			}
		}
		return true
	}
	for name, r := range map[string]image.Rectangle{
		"top": image.Rect(0, 0, b.Dx(), margin), "bottom": image.Rect(0, b.Dy()-margin, b.Dx(), b.Dy()),
		"left": image.Rect(0, 0, margin, b.Dy()), "right": image.Rect(b.Dx()-margin, 0, b.Dx(), b.Dy()),
	} {
		if !blank(r) {
			t.Errorf("something is drawn in the %s margin", name)
		}
	}
	if blank(image.Rect(0, margin, b.Dx(), margin+px(20))) {
		t.Error("no title under the top margin")
	}
}

func TestStudyPlotsSkipWhenNothingReady(t *testing.T) {
	r := plotStudy()
	r.Runs = r.Runs[2:]
	r.Cells = r.Cells[2:]
	dir := t.TempDir()
	out, err := WriteStudyPlots(dir, r)
	if err != nil {
		t.Fatal(err)
	}
	want := []PlotOutcome{{"time-to-ready-cdf", "no pod got ready in any run"},
		{"ready-pods", "ready pods stay 0 for the whole run in every seed of every cell"},
		{"restarts", "restarts per pod stay 0 for the whole run in every seed of every cell"}}
	if !slices.Equal(out, want) {
		t.Errorf("outcomes %+v, want %+v", out, want)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("%d files written for plots with nothing to show", len(ents))
	}
}

func TestRestartsPlotCounts(t *testing.T) {
	// Pods that crash now and then on a node that fails and comes back:
	// restarts, and pods created along the way.
	s, err := scenarios.LoadFile("../testdata/studies/tiny-base.yaml")
	if err != nil {
		t.Fatal(err)
	}
	r := &StudyResult{Name: "t", Duration: s.Duration, Seeds: 4, Cells: [][]string{{}}, Runs: make([]CellRuns, 1)}
	var samples [][]float64
	var totals [][]float64
	for k := range r.Seeds {
		sc := *s
		sc.Seed += uint64(k)
		m := measureRun(&sc)
		cr := &r.Runs[0]
		cr.Restarts, cr.Pods = append(cr.Restarts, m.Restarts), append(cr.Pods, m.Pods)
		samples = append(samples, m.Values[MetricIndex("pod.restarts")])
		totals = append(totals, m.Restarts)
	}
	perPod := r.restartsPlot()
	mean := Summarize(samples).Mean
	if mid := perPod.curves[0].mid; mean == 0 || math.Abs(mid[len(mid)-1]-mean) > 1e-12 {
		t.Errorf("per pod, the line ends at %v; the table's mean of pod.restarts is %v", mid[len(mid)-1], mean)
	}
	if perPod.yLabel != "restarts per pod so far" || !strings.Contains(perPod.title, "per pod") {
		t.Errorf("per pod: title %q, y axis %q", perPod.title, perPod.yLabel)
	}
	r.RestartsTotal = true
	total := r.restartsPlot()
	if mid := total.curves[0].mid; mid[len(mid)-1] != MeanSeries(totals)[SeriesPoints-1] {
		t.Errorf("total: the line ends at %v, want the mean total %v", mid[len(mid)-1], MeanSeries(totals)[SeriesPoints-1])
	}
	if total.yLabel != "restarts so far, total of all pods" || !total.integer {
		t.Errorf("total: y axis %q (integer %v)", total.yLabel, total.integer)
	}
}

func TestLegendWrapsCoincidingCells(t *testing.T) {
	// Eight cells that measured the same, with long labels: one curve whose
	// names go on as "= ..." lines, each within the plot's width.
	r := &StudyResult{Name: "w", Duration: time.Hour, Seeds: 1, Params: []string{"aRatherLongParameterName", "another"}}
	for c := range 8 {
		r.Cells = append(r.Cells, []string{"value-" + string(rune('a'+c)), "x"})
		r.Runs = append(r.Runs, CellRuns{Ready: [][]float64{series(0, 1, 5)}})
	}
	sp := r.readyPlot()
	if len(sp.curves) != 1 || len(sp.curves[0].cells) != 8 {
		t.Fatalf("%d curves, want one for the 8 cells", len(sp.curves))
	}
	l := sp.legend()
	if len(l.entries) < 2 || len(l.entries[0].thumbs) == 0 {
		t.Fatalf("entries %+v: want the names wrapped, the first line with the curve's sample", l.entries)
	}
	names := 0
	for i, e := range l.entries {
		if i > 0 && (!strings.HasPrefix(e.text, "= ") || e.thumbs != nil) {
			t.Errorf("line %d: %q, want a continuation without a sample", i, e.text)
		}
		if w := vg.Points(legendThumb) + l.style.Width(" "+e.text); w > plotWidth-2*vg.Points(plotMargin) {
			t.Errorf("line %d (%q) is %v wide, wider than the plot", i, e.text, w)
		}
		names += strings.Count(e.text, "aRatherLongParameterName=")
	}
	if names != 8 || l.rows != len(l.entries) {
		t.Errorf("%d names in %d rows of %d entries; want 8 in one column", names, l.rows, len(l.entries))
	}
}
