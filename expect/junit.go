package expect

import (
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/podsim/podsim/scenarios"
)

// JUnit XML, as GitHub Actions' test reporters, GitLab and Jenkins read it:
// <testsuites> holding one <testsuite name="podsim"> with a <testcase> per
// scenario (classname: the file, name: the scenario).

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Time     string      `xml:"time,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	ClassName string        `xml:"classname,attr"`
	Name      string        `xml:"name,attr"`
	File      string        `xml:"file,attr,omitempty"`
	Time      string        `xml:"time,attr"`
	Failure   *junitProblem `xml:"failure,omitempty"`
	Error     *junitProblem `xml:"error,omitempty"`
}

// junitProblem is a <failure> or <error>: a one-line message and the full
// report in the body.
type junitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Body    string `xml:",chardata"` // escaped; characters XML cannot hold become U+FFFD
}

func junitSeconds(d time.Duration) string { return fmt.Sprintf("%.3f", d.Seconds()) }

// WriteJUnit writes the suite's results as JUnit XML.
func WriteJUnit(w io.Writer, results []Result) error {
	s := junitSuite{Name: "podsim", Cases: []junitCase{}}
	var total time.Duration
	for i := range results {
		r := &results[i]
		if r.Skipped || r.Interrupted {
			continue
		}
		c := junitCase{ClassName: r.Path, Name: r.Name, File: r.Path, Time: junitSeconds(r.Elapsed)}
		total += r.Elapsed
		switch {
		case r.Err != nil:
			lines := r.ErrorLines()
			if c.Name == "" {
				c.Name = r.Path
			}
			c.Error = &junitProblem{Message: lines[0], Type: "InvalidScenario", Body: strings.Join(lines, "\n") + "\n"}
			s.Errors++
		case !r.Passed():
			var body strings.Builder
			fs := r.Failures()
			for _, f := range fs {
				fmt.Fprintf(&body, "%s: %s\n", f.Where, f.Message)
				body.WriteString(f.Diff)
			}
			c.Failure = &junitProblem{Message: fs[0].Where + ": " + fs[0].Message, Type: "ExpectationFailed", Body: body.String()}
			s.Failures++
		}
		s.Tests++
		s.Cases = append(s.Cases, c)
	}
	s.Time = junitSeconds(total)
	doc := junitSuites{Name: "podsim", Tests: s.Tests, Failures: s.Failures, Errors: s.Errors, Time: s.Time, Suites: []junitSuite{s}}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// WriteJUnitFile writes the JUnit report to path, creating its folder.
func WriteJUnitFile(path string, results []Result) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("--junit %s: %v", path, scenarios.ErrText(err))
	}
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("--junit %s: %v", path, scenarios.ErrText(err))
	}
	if err := WriteJUnit(f, results); err != nil {
		f.Close()
		return fmt.Errorf("--junit %s: %v", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("--junit %s: %v", path, err)
	}
	return nil
}
