package report

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/podsim/podsim/model"
)

// jsonChange is one timeline line of `-o jsonl`; field order is the
// contract's (scenario-v1.md section 5).
type jsonChange struct {
	T            float64 `json:"t"`
	Kind         string  `json:"kind"`
	Pod          string  `json:"pod,omitempty"`
	Node         string  `json:"node,omitempty"`
	Workload     string  `json:"workload,omitempty"`
	Object       string  `json:"object,omitempty"`
	Container    string  `json:"container,omitempty"`
	From         string  `json:"from,omitempty"`
	To           string  `json:"to,omitempty"`
	State        string  `json:"state,omitempty"`
	Type         string  `json:"type,omitempty"`
	Condition    string  `json:"condition,omitempty"`
	Status       string  `json:"status,omitempty"`
	Reason       string  `json:"reason,omitempty"`
	Message      string  `json:"message,omitempty"`
	ExitCode     *int32  `json:"exitCode,omitempty"`
	RestartCount *int32  `json:"restartCount,omitempty"`
}

// Seconds is virtual time as a JSON number of seconds.
func Seconds(d time.Duration) float64 { return d.Seconds() }

func toJSON(c *model.Change) jsonChange {
	j := jsonChange{T: Seconds(c.T), Kind: c.Kind, Pod: c.Pod, Node: c.Node, Workload: c.Workload, Object: c.Object, Container: c.Container,
		From: c.From, To: c.To, State: c.State, Status: c.Status, Reason: c.Reason, Message: c.Message}
	switch c.Kind {
	case "node":
		j.Condition = c.Type
	default:
		j.Type = c.Type
	}
	if c.Kind == "container" {
		rc := c.RestartCount
		j.RestartCount = &rc
		if c.HasExitCode {
			ec := c.ExitCode
			j.ExitCode = &ec
		}
	}
	return j
}

// WriteJSONL writes the timeline as JSON lines, one object per change.
func WriteJSONL(w io.Writer, changes []model.Change) error {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	for i := range changes {
		if err := enc.Encode(toJSON(&changes[i])); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// WriteTimeline writes the timeline as a table a person reads: time, the
// object, and what happened to it.
func WriteTimeline(w io.Writer, changes []model.Change) error {
	rows := make([][]string, 0, len(changes))
	for i := range changes {
		c := &changes[i]
		rows = append(rows, []string{FormatTime(c.T), object(c), Describe(c)})
	}
	return writeTable(w, []string{"TIME", "OBJECT", "CHANGE"}, rows)
}

func object(c *model.Change) string {
	switch {
	case c.Workload != "" && c.Object != "":
		return strings.ToLower(c.Object) + "/" + c.Workload
	case c.Workload != "":
		return "workload/" + c.Workload
	case c.Kind == "node" || (c.Node != "" && c.Pod == ""):
		return "node/" + c.Node
	case c.Container != "":
		return "pod/" + c.Pod + "/" + c.Container
	}
	return "pod/" + c.Pod
}

// Describe says in words what one change was.
func Describe(c *model.Change) string {
	switch c.Kind {
	case "phase":
		if c.From == "" {
			return "phase " + c.To
		}
		return "phase " + c.From + " -> " + c.To
	case "container":
		var b strings.Builder
		b.WriteString(c.State)
		var details []string
		if c.Reason != "" {
			details = append(details, c.Reason)
		}
		if c.HasExitCode {
			details = append(details, fmt.Sprintf("exit %d", c.ExitCode))
		}
		if c.State == "Running" || c.RestartCount > 0 {
			details = append(details, fmt.Sprintf("restarts %d", c.RestartCount))
		}
		if len(details) > 0 {
			b.WriteString(" (" + strings.Join(details, ", ") + ")")
		}
		return b.String()
	case "condition", "node", "workload":
		s := c.Type + "=" + c.Status
		if c.Reason != "" {
			s += " (" + c.Reason + ")"
		}
		return s
	case "event":
		return c.Type + " " + c.Reason + ": " + c.Message
	case "pod":
		if c.Message != "" {
			return c.Reason + " (" + c.Message + ")"
		}
		return c.Reason
	}
	return c.Kind
}

// FormatTime prints virtual time compactly: 0s, 45s, 1m30s, 2h0m5s.
func FormatTime(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
