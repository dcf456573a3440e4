// Package report turns a simulated world into what people and machines
// read: timelines (text and JSON lines), kubectl-style views, and the
// verdicts of a scenario's expectations.
package report

import (
	"bytes"
	"io"
	"strings"
)

// writeTable prints rows under header in kubectl's plain layout: left
// aligned columns three spaces apart, no borders, no trailing blanks.
func writeTable(w io.Writer, header []string, rows [][]string) error {
	return writeColumns(w, header, rows, "   ", nil)
}

// writeColumns prints rows under header as plain columns: each cell
// padded to its column's width (its widest cell's display width), then
// gap; right[i] aligns column i's rows (not its header) to the right.
// Cells are trimmed of surrounding blanks (tabs are four spaces), lines
// of trailing ones. A row
// shorter than the header has empty cells after its last.
func writeColumns(w io.Writer, header []string, rows [][]string, gap string, right []bool) error {
	heads, rows, widths := tableCells(header, rows)
	var b []byte
	line := func(cells []string, isHeader bool) error {
		b = b[:0]
		for i, colWidth := range widths {
			cell := cellAt(cells, i)
			pad := colWidth - width(cell)
			if !isHeader && i < len(right) && right[i] {
				b = appendSpaces(b, pad)
				b = append(b, cell...)
			} else {
				b = append(b, cell...)
				b = appendSpaces(b, pad)
			}
			b = append(b, gap...)
		}
		n := len(b)
		for n > 0 && b[n-1] == ' ' {
			n--
		}
		_, err := w.Write(append(b[:n], '\n'))
		return err
	}
	for _, h := range heads {
		if err := line(h, true); err != nil {
			return err
		}
	}
	for _, r := range rows {
		if err := line(r, false); err != nil {
			return err
		}
	}
	return nil
}

// writeMarkdown prints rows under header as a GitHub Markdown table: cells
// padded to their column with a blank on either side (at least three
// wide), the header left aligned; under it the alignment row, right[i]
// aligning column i's rows to the right (--:), the others to the left
// (:--); with no rows, every column to the left.
func writeMarkdown(w io.Writer, header []string, rows [][]string, right []bool) error {
	heads, rows, widths := tableCells(header, rows)
	for i := range widths {
		widths[i] = max(widths[i]+2, 3) // a blank either side
	}
	isRight := func(i int) bool { return len(rows) > 0 && i < len(right) && right[i] }
	var b []byte
	line := func(cells []string, alignRight func(int) bool) error {
		b = append(b[:0], '|')
		for i, colWidth := range widths {
			cell := cellAt(cells, i)
			pad := colWidth - width(cell) - 2
			if alignRight(i) {
				b = appendSpaces(b, pad+1)
				b = append(b, cell...)
				b = append(b, ' ')
			} else {
				b = append(b, ' ')
				b = append(b, cell...)
				b = appendSpaces(b, pad+1)
			}
			b = append(b, '|')
		}
		_, err := w.Write(append(b, '\n'))
		return err
	}
	for _, h := range heads {
		if err := line(h, func(int) bool { return false }); err != nil {
			return err
		}
	}
	b = append(b[:0], '|')
	for i, colWidth := range widths {
		if !isRight(i) {
			b = append(b, ':')
		}
		b = append(b, strings.Repeat("-", colWidth-1)...)
		if isRight(i) {
			b = append(b, ':')
		}
		b = append(b, '|')
	}
	if _, err := w.Write(append(b, '\n')); err != nil {
		return err
	}
	for _, r := range rows {
		if err := line(r, isRight); err != nil {
			return err
		}
	}
	return nil
}

// tableCells returns header and rows as the lines they print: every cell
// trimmed of surrounding blanks, its tabs made four spaces, and split at
// its newlines, a row of cells with n lines making n lines; and the
// display width of each column's widest line (as many columns as the
// header or the longest row has).
func tableCells(header []string, rows [][]string) ([][]string, [][]string, []int) {
	n := len(header)
	for _, r := range rows {
		n = max(n, len(r))
	}
	widths := make([]int, n)
	var lines [][]string
	split := func(cells []string) {
		first := len(lines)
		for i, c := range cells {
			c = strings.ReplaceAll(strings.TrimSpace(c), "\t", "    ")
			for k, l := range strings.Split(c, "\n") {
				for first+k >= len(lines) {
					lines = append(lines, make([]string, len(cells)))
				}
				lines[first+k][i] = l
				widths[i] = max(widths[i], width(l))
			}
		}
	}
	split(header)
	head := lines
	lines = nil
	for _, r := range rows {
		split(r)
	}
	return head, lines, widths
}

// cellAt is cells[i], or "" past its end.
func cellAt(cells []string, i int) string {
	if i < len(cells) {
		return cells[i]
	}
	return ""
}

// writeTrimmed copies text, dropping trailing blanks on every line.
func writeTrimmed(w io.Writer, text []byte) error {
	for _, line := range bytes.SplitAfter(text, []byte("\n")) {
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
