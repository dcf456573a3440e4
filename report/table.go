// Package report turns a simulated world into what people and machines
// read: timelines (text and JSON lines), kubectl-style views, and the
// verdicts of a scenario's expectations.
package report

import (
	"bytes"
	"io"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"
)

// writeTable prints rows under header in kubectl's plain layout: left
// aligned columns three spaces apart, no borders, no trailing blanks.
func writeTable(w io.Writer, header []string, rows [][]string) error {
	var buf bytes.Buffer
	t := tablewriter.NewTable(&buf,
		tablewriter.WithRenderer(renderer.NewBlueprint(tw.Rendition{
			Borders: tw.BorderNone,
			Symbols: tw.NewSymbols(tw.StyleNone),
			Settings: tw.Settings{
				Separators: tw.Separators{BetweenRows: tw.Off, BetweenColumns: tw.Off},
				Lines:      tw.Lines{ShowHeaderLine: tw.Off},
			},
		})),
		tablewriter.WithHeaderAlignment(tw.AlignLeft),
		tablewriter.WithRowAlignment(tw.AlignLeft),
		tablewriter.WithPadding(tw.Padding{Right: "   ", Overwrite: true}),
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithRowAutoWrap(tw.WrapNone),
		tablewriter.WithHeaderAutoWrap(tw.WrapNone),
	)
	t.Header(header)
	if err := t.Bulk(rows); err != nil {
		return err
	}
	if err := t.Render(); err != nil {
		return err
	}
	return writeTrimmed(w, buf.Bytes())
}

// writeTrimmed copies a rendered table, dropping trailing blanks on every
// line (tablewriter pads the last column).
func writeTrimmed(w io.Writer, table []byte) error {
	for _, line := range bytes.SplitAfter(table, []byte("\n")) {
		nl := bytes.HasSuffix(line, []byte("\n"))
		line = bytes.TrimRight(line, " \n")
		if len(line) == 0 && !nl {
			continue
		}
		if _, err := w.Write(append(line, '\n')); err != nil {
			return err
		}
	}
	return nil
}
