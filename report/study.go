package report

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/podsim/podsim/sim"
)

// StudyResult is what a study found: every metric summarised per cell of
// its grid, and what the plots draw.
type StudyResult struct {
	Name     string
	Scenario string // the base scenario's file
	Duration time.Duration
	Seeds    int
	Params   []string   // parameter names
	Cells    [][]string // per cell, the value of each parameter
	Metrics  []Metric   // the metrics shown, in order
	// Summaries holds, by metric (as in Metrics) then cell, the summary.
	Summaries [][]Summary
	// Runs holds per cell what the plots draw of each of its runs.
	Runs []CellRuns
	// RestartsTotal makes the restarts plot count every pod's restarts
	// together instead of per pod (a study's output.restarts: total).
	RestartsTotal bool
}

// CellRuns are what the plots draw of the runs of one cell, a slice
// element per run in seed order.
type CellRuns struct {
	TimeToReady [][]float64 // the samples of pod.timeToReady (s)
	// The series of RunMetrics: ready pods, restarts and pods so far.
	Ready, Restarts, Pods [][]float64
}

// CellLabel names cell c: "replicas=3, evictionTimeout=300s".
func (r *StudyResult) CellLabel(c int) string {
	if len(r.Params) == 0 {
		return "base"
	}
	parts := make([]string, len(r.Params))
	for i, p := range r.Params {
		parts[i] = p + "=" + r.Cells[c][i]
	}
	return strings.Join(parts, ", ")
}

// FormatNumber prints a statistic for a table: integers as such, others
// with two decimals (one from 100 on), NaN as "-".
func FormatNumber(x float64) string {
	switch {
	case math.IsNaN(x):
		return "-"
	case x == math.Trunc(x) && math.Abs(x) < 1e15:
		return strconv.FormatFloat(x, 'f', 0, 64)
	case math.Abs(x) >= 100:
		return strconv.FormatFloat(x, 'f', 1, 64)
	}
	return strconv.FormatFloat(x, 'f', 2, 64)
}

func (r *StudyResult) heading() string {
	runs := len(r.Cells) * r.Seeds
	return fmt.Sprintf("Study %s: %d cells x %d seeds = %d runs of %s virtual time (base scenario %s)",
		r.Name, len(r.Cells), r.Seeds, runs, sim.FormatTime(r.Duration), r.Scenario)
}

var statHeader = []string{"N", "MEAN", "SD", "P50", "P90", "P99", "MIN", "MAX", "95% CI OF MEAN"}

// tableRows are the table's rows: per metric, one row per cell, the
// metric's name and unit only on its first row.
func (r *StudyResult) tableRows(repeat bool) [][]string {
	var rows [][]string
	for m, met := range r.Metrics {
		for c := range r.Cells {
			s := r.Summaries[m][c]
			name, unit := met.Name, met.Unit
			if c > 0 && !repeat {
				name, unit = "", ""
			}
			row := []string{name, unit}
			row = append(row, r.Cells[c]...)
			ci := "-"
			if !math.IsNaN(s.CILow) {
				ci = "[" + FormatNumber(s.CILow) + ", " + FormatNumber(s.CIHigh) + "]"
			}
			row = append(row, strconv.Itoa(s.N), FormatNumber(s.Mean), FormatNumber(s.SD), FormatNumber(s.P50),
				FormatNumber(s.P90), FormatNumber(s.P99), FormatNumber(s.Min), FormatNumber(s.Max), ci)
			rows = append(rows, row)
		}
	}
	return rows
}

func (r *StudyResult) tableHeader() []string {
	h := []string{"METRIC", "UNIT"}
	for _, p := range r.Params {
		h = append(h, strings.ToUpper(p))
	}
	return append(h, statHeader...)
}

// WriteStudyTable writes the heading and one table: a row per metric and
// cell, the statistics but the interval right aligned. markdown writes a
// GitHub Markdown table instead of plain columns two spaces apart.
func WriteStudyTable(w io.Writer, r *StudyResult, markdown bool) error {
	header := r.tableHeader()
	right := make([]bool, len(header))
	for i := 2 + len(r.Params); i < len(header)-1; i++ {
		right[i] = true
	}
	if markdown {
		if err := writeTrimmed(w, []byte("**"+r.heading()+"**\n\n")); err != nil {
			return err
		}
		return writeMarkdown(w, header, r.tableRows(true), right)
	}
	if err := writeTrimmed(w, []byte(r.heading()+"\n\n")); err != nil {
		return err
	}
	return writeColumns(w, header, r.tableRows(false), "  ", right)
}

// csvNumber prints a statistic exactly, NaN as an empty field.
func csvNumber(x float64) string {
	if math.IsNaN(x) {
		return ""
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// WriteStudyCSV writes one record per metric and cell, full precision, for
// notebooks: cell, the parameters, metric, unit, n, runs, mean, sd, p50,
// p90, p99, min, max, ci95_low, ci95_high (empty where undefined).
func WriteStudyCSV(w io.Writer, r *StudyResult) error {
	cw := csv.NewWriter(w)
	head := []string{"cell"}
	head = append(head, r.Params...)
	head = append(head, "metric", "unit", "n", "runs", "mean", "sd", "p50", "p90", "p99", "min", "max", "ci95_low", "ci95_high")
	if err := cw.Write(head); err != nil {
		return err
	}
	for m, met := range r.Metrics {
		for c := range r.Cells {
			s := r.Summaries[m][c]
			rec := []string{strconv.Itoa(c)}
			rec = append(rec, r.Cells[c]...)
			rec = append(rec, met.Name, met.Unit, strconv.Itoa(s.N), strconv.Itoa(s.Runs))
			for _, x := range []float64{s.Mean, s.SD, s.P50, s.P90, s.P99, s.Min, s.Max, s.CILow, s.CIHigh} {
				rec = append(rec, csvNumber(x))
			}
			if err := cw.Write(rec); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// jsonNumber is a float that is null when NaN.
type jsonNumber float64

func (x jsonNumber) MarshalJSON() ([]byte, error) {
	if math.IsNaN(float64(x)) {
		return []byte("null"), nil
	}
	return strconv.AppendFloat(nil, float64(x), 'g', -1, 64), nil
}

// WriteStudyJSON writes the study's result as one JSON document.
func WriteStudyJSON(w io.Writer, r *StudyResult) error {
	type stats struct {
		Metric string      `json:"metric"`
		Unit   string      `json:"unit"`
		Cell   int         `json:"cell"`
		N      int         `json:"n"`
		Runs   int         `json:"runs"`
		Mean   jsonNumber  `json:"mean"`
		SD     jsonNumber  `json:"sd"`
		P50    jsonNumber  `json:"p50"`
		P90    jsonNumber  `json:"p90"`
		P99    jsonNumber  `json:"p99"`
		Min    jsonNumber  `json:"min"`
		Max    jsonNumber  `json:"max"`
		CI95   *[2]float64 `json:"ci95"`
	}
	type cell struct {
		Index  int               `json:"index"`
		Label  string            `json:"label"`
		Values map[string]string `json:"values"`
	}
	type metric struct {
		Name  string `json:"name"`
		Unit  string `json:"unit"`
		Scope string `json:"scope"`
		Help  string `json:"help"`
	}
	doc := struct {
		Study      string   `json:"study"`
		Scenario   string   `json:"scenario"`
		Duration   float64  `json:"duration"`
		Seeds      int      `json:"seeds"`
		Parameters []string `json:"parameters"`
		Cells      []cell   `json:"cells"`
		Metrics    []metric `json:"metrics"`
		Results    []stats  `json:"results"`
	}{Study: r.Name, Scenario: r.Scenario, Duration: Seconds(r.Duration), Seeds: r.Seeds, Parameters: r.Params}
	if doc.Parameters == nil {
		doc.Parameters = []string{}
	}
	for c := range r.Cells {
		v := map[string]string{}
		for i, p := range r.Params {
			v[p] = r.Cells[c][i]
		}
		doc.Cells = append(doc.Cells, cell{c, r.CellLabel(c), v})
	}
	for m, met := range r.Metrics {
		doc.Metrics = append(doc.Metrics, metric(met))
		for c := range r.Cells {
			s := r.Summaries[m][c]
			st := stats{Metric: met.Name, Unit: met.Unit, Cell: c, N: s.N, Runs: s.Runs,
				Mean: jsonNumber(s.Mean), SD: jsonNumber(s.SD), P50: jsonNumber(s.P50), P90: jsonNumber(s.P90),
				P99: jsonNumber(s.P99), Min: jsonNumber(s.Min), Max: jsonNumber(s.Max)}
			if !math.IsNaN(s.CILow) {
				st.CI95 = &[2]float64{s.CILow, s.CIHigh}
			}
			doc.Results = append(doc.Results, st)
		}
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}
