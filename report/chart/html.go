package chart

import (
	_ "embed"
	"html"
	"io"
	"strings"
)

var (
	//go:embed page.html
	pageHTML string
	//go:embed page.css
	pageCSS string
	//go:embed page.js
	pageJS string
)

// WriteHTML writes the chart as one self-contained page: its style, its
// script and the run's data (compact JSON, see appendData) are inline, and
// it loads nothing from anywhere. The same run writes the same bytes.
func (r *Recorder) WriteHTML(w io.Writer, m Meta) error {
	head, rest, _ := strings.Cut(pageHTML, "{{DATA}}")
	head = strings.NewReplacer("{{TITLE}}", html.EscapeString(m.Title), "{{CSS}}", pageCSS).Replace(head)
	rest = strings.Replace(rest, "{{JS}}", pageJS, 1)
	b := make([]byte, 0, len(head)+len(rest)+64<<10)
	b = append(b, head...)
	var err error
	b = r.appendData(b, m, func(b []byte) []byte { // a page of many pods goes out a megabyte at a time
		if len(b) < 1<<20 || err != nil {
			return b
		}
		_, err = w.Write(b)
		return b[:0]
	})
	if err != nil {
		return err
	}
	b = append(b, rest...)
	_, err = w.Write(b)
	return err
}
