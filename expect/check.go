package expect

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/report"
	"github.com/podsim/podsim/scenarios"
	"github.com/podsim/podsim/sim"
)

// describe and object are report's, for brevity here.
var (
	describe = report.Describe
	object   = report.Object
)

// checker compares expected with found values for one verdict.
type checker struct {
	*Checks
	v *Verdict
}

// cause describes the last change that led to a found value. It is only
// worked out when a check fails (expectations over a span check often).
type cause func() string

func (k *checker) fail(field, expected, found string, why cause) {
	f := Failure{Field: field, Expected: expected, Found: found}
	if why != nil {
		f.Cause = why()
	}
	k.v.Failures = append(k.v.Failures, f)
}

func (k *checker) str(field, expected, found string, cause cause) {
	if expected != "" && expected != found {
		if found == "" {
			found = "none"
		}
		k.fail(field, expected, found, cause)
	}
}

func (k *checker) num(field string, r *scenarios.IntRange, found int64, cause cause) {
	if r != nil && !r.Contains(found) {
		k.fail(field, r.String(), fmt.Sprint(found), cause)
	}
}

// subject names what an expectation is about: "pod web", "node node-a",
// "events", "workload api".
func subject(e *scenarios.Expect) string {
	switch {
	case e.Pod != "":
		return "pod " + model.Key(e.Namespace, e.Pod)
	case e.Node != "":
		return "node " + e.Node
	case e.Event != nil:
		return "events"
	case e.Workload != "":
		return "workload " + model.Key(e.Namespace, e.Workload)
	case e.Service != "":
		return "service " + model.Key(e.Namespace, e.Service)
	case e.NodeGroup != "":
		return "node group " + e.NodeGroup
	case e.PendingPods != nil:
		return "pending pods"
	}
	return "nothing"
}

// check evaluates e on the world as it is now, adding to v's failures.
func (c *Checks) check(e *scenarios.Expect, v *Verdict) {
	k := &checker{Checks: c, v: v}
	v.Subject = subject(e)
	switch {
	case e.Pod != "":
		k.pod(e)
	case e.Node != "":
		k.node(e)
	case e.Event != nil:
		k.events(e.Event, e.EventNamespace())
	case e.Workload != "":
		k.workload(e)
	case e.Service != "":
		k.service(e)
	case e.NodeGroup != "":
		k.nodeGroup(e)
	case e.PendingPods != nil:
		k.pendingPods(e)
	}
}

func (k *checker) pod(e *scenarios.Expect) {
	pod := refOf(e.Namespace, e.Pod)
	p := k.w.Pod(model.Key(e.Namespace, e.Pod))
	if e.Exists != nil {
		found := p != nil && !p.Deleted()
		if found != *e.Exists {
			k.fail("exists", fmt.Sprint(*e.Exists), fmt.Sprint(found), k.lastChange(pod, causeAny))
		}
	}
	if p == nil {
		if e.Exists == nil || *e.Exists {
			k.fail("", "the pod to exist", "no such pod", nil)
		}
		return
	}
	st := p.Status()
	phaseCause := k.lastChange(pod, causePhase)
	k.str("phase", e.Phase, string(st.Phase), phaseCause)
	if e.Transition != nil {
		k.transitions(e, phaseCause)
	}
	if e.Phases != nil {
		found := make([]string, len(p.Phases()))
		for i, ph := range p.Phases() {
			found[i] = string(ph)
		}
		if !slices.Equal(found, e.Phases) {
			k.fail("phases", "["+strings.Join(e.Phases, ", ")+"]", "["+strings.Join(found, ", ")+"]", phaseCause)
		}
	}
	k.str("status", e.Status, report.StatusColumn(p, &st), k.lastChange(pod, causePhaseOrContainer))
	if e.NodeName != nil {
		found := ""
		if p.Node != nil {
			found = p.Node.Name
		}
		if found != *e.NodeName {
			k.fail("nodeName", fmt.Sprintf("%q", *e.NodeName), fmt.Sprintf("%q", found), k.condCause(pod, model.PodScheduled))
		}
	}
	if e.NominatedNodeName != nil {
		if found := p.NominatedNodeName(); found != *e.NominatedNodeName {
			k.fail("nominatedNodeName", fmt.Sprintf("%q", *e.NominatedNodeName), fmt.Sprintf("%q", found), k.condCause(pod, model.PodScheduled))
		}
	}
	if e.Ready != nil {
		c, _ := st.Condition(model.Ready)
		found := c.Status == model.True
		if found != *e.Ready {
			k.fail("ready", fmt.Sprint(*e.Ready), fmt.Sprint(found), k.condCause(pod, model.Ready))
		}
	}
	if c := e.Condition; c != nil {
		got, ok := st.Condition(c.Type)
		k.condition(c, got, ok, k.condCause(pod, c.Type))
	}
	k.usage(e, p)
	if e.Container == "" {
		return
	}
	cs, ok := st.Container(e.Container)
	if !ok {
		k.fail("container "+e.Container, "a container", "none", nil)
		return
	}
	field := "container " + e.Container + " "
	cause := k.containerCause(refOf(e.Namespace, e.Pod), e.Container)
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
	if l := e.LastState; l != nil {
		if cs.LastState.Kind != model.StateTerminated {
			k.fail(field+"lastState", "a termination", "none", cause)
		} else {
			k.str(field+"lastState reason", l.Reason, cs.LastState.Reason, cause)
			k.num(field+"lastState exitCode", l.ExitCode, int64(cs.LastState.ExitCode), cause)
		}
	}
}

func (k *checker) condition(c *scenarios.ConditionCheck, got model.Condition, ok bool, cause cause) {
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
		k.fail("", "the node to exist", "no such node", nil)
		return
	}
	got, ok := n.Condition(e.Condition.Type)
	k.condition(e.Condition, got, ok, func() string {
		if ch := k.nodes[nodeCond{e.Node, e.Condition.Type}]; ch != nil {
			return "since " + sim.FormatTime(ch.T) + ": " + describe(ch)
		}
		return ""
	})
}

// EventMatches reports whether the event occurrence c (a change of kind
// event) is one that ev counts: its reason, and if given its type, its
// message (the component's), the pod it is about, the node it is about (the
// node itself, as `kubectl describe node` lists them) or the workload (a
// Deployment's also counts the events of its ReplicaSets: Change.Owner).
//
// ns is the namespace of ev's pod or workload ("" is default).
func EventMatches(ev *scenarios.EventCheck, ns string, c *model.Change) bool {
	switch {
	case c.Reason != ev.Reason,
		ev.Type != "" && c.Type != ev.Type,
		ev.Message != "" && c.Message != ev.Message,
		ev.Pod != "" && (c.Pod != ev.Pod || refOf(c.Namespace, "") != refOf(ns, "")),
		ev.Node != "" && (c.Pod != "" || c.Workload != "" || c.Node != ev.Node),
		ev.Workload != "" && (c.Workload != ev.Workload && c.Owner != ev.Workload || refOf(c.Namespace, "") != refOf(ns, "")):
		return false
	}
	return true
}

// events checks the count of the events ev names; ns is the namespace of
// its pod or workload.
func (k *checker) events(ev *scenarios.EventCheck, ns string) {
	ec := k.eventCounts[ev]
	last := ec.last
	want := ev.Count
	if want == nil && ev.Emitted == nil {
		r := scenarios.IntRange{Min: 1, HasMin: true}
		want = &r
	}
	field := ev.Reason
	if ev.Type != "" {
		field = ev.Type + " " + field
	}
	if ev.Pod != "" {
		field += " about pod " + model.Key(ns, ev.Pod)
	}
	if ev.Node != "" {
		field += " about node " + ev.Node
	}
	if ev.Workload != "" {
		field += " about " + ev.Workload
	}
	if ev.Message != "" {
		field += fmt.Sprintf(" with message %q", ev.Message)
	}
	cause := func() string {
		if last == nil {
			return ""
		}
		return fmt.Sprintf("last at %s: %s %s", sim.FormatTime(last.T), object(last), describe(last))
	}
	if want != nil {
		k.num(field+" count", want, ec.api, cause)
	}
	if ev.Emitted != nil {
		k.num(field+" emitted", ev.Emitted, ec.emitted, cause)
	}
}

// transitions checks the count of the pod's phase changes that match
// e.Transition, counted as they happened.
func (k *checker) transitions(e *scenarios.Expect, cause cause) {
	tr, tc := e.Transition, k.counters[e]
	n := tc.n
	times := make([]string, len(tc.times))
	for i, t := range tc.times {
		times[i] = sim.FormatTime(t)
	}
	want := e.Count
	if want == nil {
		r := scenarios.IntRange{Min: 1, HasMin: true}
		want = &r
	}
	if want.Contains(n) {
		return
	}
	from, to := tr.From, tr.To
	if from == "" {
		from = "any"
	}
	if to == "" {
		to = "any"
	}
	found := fmt.Sprint(n)
	if len(times) > 0 {
		more := ""
		if n > int64(len(times)) {
			more = fmt.Sprintf(" and %d more", n-int64(len(times)))
		}
		found += " at " + strings.Join(times, ", ") + more
	}
	k.fail("transition "+from+" -> "+to+" count", want.String(), found, cause)
}

// workload checks a controller's pods (those not yet deleted) and, for a
// Job, its Complete or Failed condition.
func (k *checker) workload(e *scenarios.Expect) {
	wl := k.w.Workload(model.Key(e.Namespace, e.Workload))
	if a := k.w.Autoscaler(model.Key(e.Namespace, e.Workload)); a != nil && (e.IsAutoscalerCheck() || wl == nil) {
		k.autoscaler(e, a)
		return
	}
	if b := k.w.DisruptionBudget(model.Key(e.Namespace, e.Workload)); b != nil && wl == nil {
		k.disruptionBudget(e, b)
		return
	}
	if wl == nil {
		k.fail("", "the workload to exist", "no such workload", nil)
		return
	}
	var exist, ready, succeeded, failed int64
	for _, p := range wl.Pods() {
		if p.Deleted() {
			continue
		}
		exist++
		st := p.Status()
		if c, ok := st.Condition(model.Ready); ok && c.Status == model.True {
			ready++
		}
		switch st.Phase {
		case model.Succeeded:
			succeeded++
		case model.Failed:
			failed++
		}
	}
	why := func() string { return k.workloadCause(wl) }
	k.num("readyPods", e.ReadyPods, ready, why)
	k.num("pods", e.Pods, exist, why)
	k.num("succeededPods", e.SucceededPods, succeeded, why)
	k.num("failedPods", e.FailedPods, failed, why)
	st := wl.ReplicaStatus()
	k.num("updatedPods", e.UpdatedPods, int64(st.UpdatedReplicas), why)
	k.num("availablePods", e.AvailablePods, int64(st.AvailableReplicas), why)
	k.num("jobs", e.Jobs, int64(len(wl.Jobs())), why)
	k.num("activeJobs", e.ActiveJobs, int64(wl.ActiveJobs()), why)
	if c := e.Condition; c != nil {
		got, ok := wl.Condition(c.Type)
		k.condition(c, got, ok, why)
	}
	if js := e.JobStatus; js != nil {
		k.jobStatus(js, wl.JobStatus(), why)
	}
}

// jobStatus checks a Job's status as its controller keeps it.
func (k *checker) jobStatus(js *scenarios.JobStatusCheck, st model.JobStatus, why cause) {
	k.num("jobStatus.active", js.Active, int64(st.Active), why)
	k.num("jobStatus.ready", js.Ready, int64(st.Ready), why)
	k.num("jobStatus.terminating", js.Terminating, int64(st.Terminating), why)
	k.num("jobStatus.succeeded", js.Succeeded, int64(st.Succeeded), why)
	k.num("jobStatus.failed", js.Failed, int64(st.Failed), why)
	for _, f := range []struct {
		name string
		want *string
		got  string
	}{{"jobStatus.completedIndexes", js.CompletedIndexes, st.CompletedIndexes}, {"jobStatus.failedIndexes", js.FailedIndexes, st.FailedIndexes}} {
		if f.want != nil && *f.want != f.got {
			k.fail(f.name, strconv.Quote(*f.want), strconv.Quote(f.got), why)
		}
	}
}

// disruptionBudget checks a PodDisruptionBudget's status and its
// DisruptionAllowed condition.
func (k *checker) disruptionBudget(e *scenarios.Expect, b *model.DisruptionBudget) {
	why := func() string {
		if ch := k.workloads[refOf(b.Spec.Namespace, b.Spec.Name)]; ch != nil {
			return "since " + sim.FormatTime(ch.T) + ": " + object(ch) + " " + describe(ch)
		}
		return ""
	}
	st := &b.Status
	k.num("disruptionsAllowed", e.DisruptionsAllowed, int64(st.DisruptionsAllowed), why)
	k.num("currentHealthy", e.CurrentHealthy, int64(st.CurrentHealthy), why)
	k.num("desiredHealthy", e.DesiredHealthy, int64(st.DesiredHealthy), why)
	k.num("expectedPods", e.ExpectedPods, int64(st.ExpectedPods), why)
	if c := e.Condition; c != nil {
		got := b.Condition
		k.condition(c, got, got.Type == c.Type, why)
	}
}

// autoscaler checks a HorizontalPodAutoscaler's status and conditions.
func (k *checker) autoscaler(e *scenarios.Expect, a *model.Autoscaler) {
	why := func() string {
		if ch := k.workloads[refOf(a.Spec.Namespace, a.Spec.Name)]; ch != nil {
			return "since " + sim.FormatTime(ch.T) + ": " + object(ch) + " " + describe(ch)
		}
		return ""
	}
	st := &a.Status
	k.num("desiredReplicas", e.DesiredReplicas, int64(st.DesiredReplicas), why)
	k.num("currentReplicas", e.CurrentReplicas, int64(st.CurrentReplicas), why)
	if c := e.Condition; c != nil {
		got, ok := st.Condition(c.Type)
		k.condition(c, got, ok, why)
	}
}

// workloadCause names the last change to the workload or any of its pods.
func (k *checker) workloadCause(wl *model.Workload) string {
	if ch := k.workloads[refOf(wl.Namespace(), wl.Spec.Name)]; ch != nil {
		return "since " + sim.FormatTime(ch.T) + ": " + object(ch) + " " + describe(ch)
	}
	return ""
}

// causeKind selects which of a pod's last changes explains a found value.
type causeKind uint8

const (
	causeAny              causeKind = iota // any change but events
	causePhase                             // its phase, and the container change before it
	causePhaseOrContainer                  // the later of the two
)

// lastChange describes the pod's last change of kind, as "since T: what".
func (k *checker) lastChange(pod ref, kind causeKind) cause {
	return func() string {
		h := k.pods[pod]
		var ch *model.Change
		switch kind {
		case causeAny:
			ch = h.last
		case causePhase:
			ch = h.phase
		case causePhaseOrContainer:
			ch = h.phaseOrContain
		}
		if ch == nil {
			return ""
		}
		s := "since " + sim.FormatTime(ch.T) + ": " + object(ch) + " " + describe(ch)
		if ch.Kind == model.ChangePhase && h.beforePhase != nil {
			// Say what the phase followed from: the last container change before it.
			s += ", after " + object(h.beforePhase) + " " + describe(h.beforePhase)
		}
		return s
	}
}

// containerCause describes the last change of one container of the pod.
func (k *checker) containerCause(pod ref, container string) cause {
	return func() string {
		if ch := k.pods[pod].byContainer[container]; ch != nil {
			return "since " + sim.FormatTime(ch.T) + ": " + object(ch) + " " + describe(ch)
		}
		return ""
	}
}

// condCause describes the last change of a pod condition.
func (k *checker) condCause(pod ref, typ string) cause {
	return func() string {
		if ch := k.pods[pod].conditions[typ]; ch != nil {
			return "since " + sim.FormatTime(ch.T) + ": " + describe(ch)
		}
		return ""
	}
}
