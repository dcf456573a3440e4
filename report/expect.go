package report

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/scenarios"
)

// Verdict is the outcome of one expectation of a scenario.
type Verdict struct {
	Where    string        // FILE:LINE:COL of the expectation
	At       time.Duration // when it was checked
	Subject  string        // "pod web", "node node-a", "event BackOff"
	Failures []Failure     // empty when it held
}

// Passed reports whether every check of the expectation held.
func (v *Verdict) Passed() bool { return len(v.Failures) == 0 }

// Failure is one check of an expectation that did not hold.
type Failure struct {
	Field    string // "phase", "container app restartCount", ...
	Expected string
	Found    string
	Cause    string // the last change that led there, "" if none
}

// String formats a failure for a person:
// "at 2m0s pod web phase: expected Succeeded, found Failed (since 1m0s: ...)".
func (v *Verdict) String(f Failure) string {
	s := fmt.Sprintf("at %s %s %s: expected %s, found %s", FormatTime(v.At), v.Subject, f.Field, f.Expected, f.Found)
	if f.Cause != "" {
		s += " (" + f.Cause + ")"
	}
	return s
}

// Checks are a scenario's expectations, armed on a world.
type Checks struct {
	verdicts []Verdict
}

// Arm schedules every expectation of s on w, each at its time (default: the
// end of the run) after all changes at that instant. Call it before w.Run;
// read Verdicts after.
func Arm(s *scenarios.Scenario, w *model.World) *Checks {
	c := &Checks{verdicts: make([]Verdict, len(s.File.Spec.Expect))}
	for i := range s.File.Spec.Expect {
		e := &s.File.Spec.Expect[i]
		at := s.Duration
		if e.At != nil {
			at = e.At.D()
		}
		v := &c.verdicts[i]
		v.Where, v.At = s.Where(e), at
		w.Observe(at, func() { check(w, e, v) })
	}
	return c
}

// Verdicts returns one verdict per expectation, in file order.
func (c *Checks) Verdicts() []Verdict { return c.verdicts }

// Failed counts the expectations that did not hold.
func (c *Checks) Failed() int {
	n := 0
	for i := range c.verdicts {
		if !c.verdicts[i].Passed() {
			n++
		}
	}
	return n
}

// checker compares expected with found values for one verdict.
type checker struct {
	w *model.World
	v *Verdict
}

func (k *checker) fail(field, expected, found, cause string) {
	k.v.Failures = append(k.v.Failures, Failure{Field: field, Expected: expected, Found: found, Cause: cause})
}

func (k *checker) str(field, expected, found, cause string) {
	if expected != "" && expected != found {
		if found == "" {
			found = "none"
		}
		k.fail(field, expected, found, cause)
	}
}

func (k *checker) num(field string, r *scenarios.IntRange, found int64, cause string) {
	if r != nil && !r.Contains(found) {
		k.fail(field, r.String(), fmt.Sprint(found), cause)
	}
}

func check(w *model.World, e *scenarios.Expect, v *Verdict) {
	k := &checker{w: w, v: v}
	switch {
	case e.Pod != "":
		v.Subject = "pod " + e.Pod
		k.pod(e)
	case e.Node != "":
		v.Subject = "node " + e.Node
		k.node(e)
	case e.Event != nil:
		v.Subject = "events"
		k.events(e.Event)
	case e.Workload != "":
		v.Subject = "workload " + e.Workload
		k.workload(e)
	}
}

func (k *checker) pod(e *scenarios.Expect) {
	p := k.w.Pod(e.Pod)
	if e.Exists != nil {
		found := p != nil && !p.Deleted()
		if found != *e.Exists {
			k.fail("exists", fmt.Sprint(*e.Exists), fmt.Sprint(found), k.lastChange(e.Pod, "", nil))
		}
	}
	if p == nil {
		if e.Exists == nil || *e.Exists {
			k.fail("", "the pod to exist", "no such pod", "")
		}
		return
	}
	st := p.Status()
	phaseCause := k.lastChange(e.Pod, "", []string{"phase"})
	k.str("phase", e.Phase, string(st.Phase), phaseCause)
	if e.Phases != nil {
		found := make([]string, len(p.Phases()))
		for i, ph := range p.Phases() {
			found[i] = string(ph)
		}
		if !slices.Equal(found, e.Phases) {
			k.fail("phases", "["+strings.Join(e.Phases, ", ")+"]", "["+strings.Join(found, ", ")+"]", phaseCause)
		}
	}
	k.str("status", e.Status, StatusColumn(p, &st), k.lastChange(e.Pod, "", []string{"container", "phase"}))
	if e.Ready != nil {
		c, _ := st.Condition(model.Ready)
		found := c.Status == model.True
		if found != *e.Ready {
			k.fail("ready", fmt.Sprint(*e.Ready), fmt.Sprint(found), k.condCause(e.Pod, model.Ready))
		}
	}
	if c := e.Condition; c != nil {
		got, ok := st.Condition(c.Type)
		k.condition(c, got, ok, k.condCause(e.Pod, c.Type))
	}
	if e.Container == "" {
		return
	}
	cs, ok := st.Container(e.Container)
	if !ok {
		k.fail("container "+e.Container, "a container", "none", "")
		return
	}
	field := "container " + e.Container + " "
	cause := k.lastChange(e.Pod, e.Container, []string{"container"})
	k.str(field+"state", e.State, cs.State.Kind.String(), cause)
	k.str(field+"reason", e.Reason, cs.State.Reason, cause)
	if e.ExitCode != nil {
		t, ok := cs.Terminated()
		if !ok {
			k.fail(field+"exitCode", e.ExitCode.String(), "no termination yet", cause)
		} else {
			k.num(field+"exitCode", e.ExitCode, int64(t.ExitCode), cause)
		}
	}
	k.num(field+"restartCount", e.RestartCount, int64(cs.RestartCount), cause)
}

func (k *checker) condition(c *scenarios.ConditionCheck, got model.Condition, ok bool, cause string) {
	field := "condition " + c.Type
	if !ok {
		k.fail(field, c.Status, "not set", cause)
		return
	}
	k.str(field, c.Status, string(got.Status), cause)
	k.str(field+" reason", c.Reason, got.Reason, cause)
}

func (k *checker) node(e *scenarios.Expect) {
	n := k.w.Node(e.Node)
	if n == nil {
		k.fail("", "the node to exist", "no such node", "")
		return
	}
	got, ok := n.Condition(e.Condition.Type)
	cause := ""
	ch := k.w.Changes()
	for i := len(ch) - 1; i >= 0; i-- {
		if ch[i].Kind == "node" && ch[i].Node == e.Node && ch[i].Type == e.Condition.Type {
			cause = "since " + FormatTime(ch[i].T) + ": " + Describe(&ch[i])
			break
		}
	}
	k.condition(e.Condition, got, ok, cause)
}

func (k *checker) events(ev *scenarios.EventCheck) {
	var n int64
	for _, e := range k.w.Events() {
		switch {
		case e.Reason != ev.Reason,
			ev.Type != "" && string(e.Type) != ev.Type,
			ev.Pod != "" && (e.Kind != "Pod" || e.Object != ev.Pod),
			ev.Node != "" && (e.Kind != "Node" || e.Object != ev.Node):
			continue
		}
		n += int64(e.Count)
	}
	want := ev.Count
	if want == nil {
		r := scenarios.IntRange{Min: 1, HasMin: true}
		want = &r
	}
	field := ev.Reason
	if ev.Pod != "" {
		field += " about pod " + ev.Pod
	}
	if ev.Node != "" {
		field += " about node " + ev.Node
	}
	k.num(field+" count", want, n, "")
}

func (k *checker) workload(e *scenarios.Expect) {
	k.fail("", "a workload", "workloads are not simulated yet", "")
}

// lastChange describes the last change of a pod (or one of its containers)
// of one of kinds (all kinds if nil), as "since T: what".
func (k *checker) lastChange(pod, container string, kinds []string) string {
	ch := k.w.Changes()
	for i := len(ch) - 1; i >= 0; i-- {
		c := &ch[i]
		if c.Pod != pod || (container != "" && c.Container != container) {
			continue
		}
		if kinds != nil && !slices.Contains(kinds, c.Kind) {
			continue
		}
		if c.Kind == "event" && kinds == nil {
			continue
		}
		s := "since " + FormatTime(c.T) + ": " + object(c) + " " + Describe(c)
		if c.Kind == "phase" {
			// Say what the phase followed from: the last container change before it.
			for j := i - 1; j >= 0; j-- {
				if ch[j].Pod == pod && ch[j].Kind == "container" {
					s += ", after " + object(&ch[j]) + " " + Describe(&ch[j])
					break
				}
			}
		}
		return s
	}
	return ""
}

func (k *checker) condCause(pod, typ string) string {
	ch := k.w.Changes()
	for i := len(ch) - 1; i >= 0; i-- {
		if ch[i].Kind == "condition" && ch[i].Pod == pod && ch[i].Type == typ {
			return "since " + FormatTime(ch[i].T) + ": " + Describe(&ch[i])
		}
	}
	return ""
}
