package scenarios

import (
	"slices"
	"time"

	"github.com/podsim/podsim/model"
)

var (
	phaseNames = []string{"Pending", "Running", "Succeeded", "Failed", "Unknown"}
	stateNames = []string{"Waiting", "Running", "Terminated"}
)

func (v *validator) expect(e *Expect) {
	v.expectWhen(e)
	v.expectTransition(e)
	if !v.expectSubjects(e) {
		return
	}
	v.expectPodFields(e)
	v.expectWorkloadFields(e)
	v.expectValues(e)
	v.namespace(&e.Namespace)
	if e.Namespace != "" && e.Node != "" {
		v.atKey(&e.Namespace, "a node has no namespace: namespace goes with pod, workload or event")
	}
	switch {
	case e.Pod != "":
		ps := v.podTemplate(&e.Pod, e.Namespace, false)
		if e.Container != "" {
			v.containerRef(ps, e.Pod, &e.Container, e)
		}
	case e.Workload != "":
		switch k := model.Key(e.Namespace, e.Workload); {
		case v.workloads[k] != nil || v.budgets[k] != nil || v.cronJobOf(k) != nil || v.hpaNamed(k) != nil:
		case v.classes[e.Workload] != nil:
			v.at(&e.Workload, "%q is a PriorityClass: it has no status to check", e.Workload)
		default:
			v.at(&e.Workload, "no workload called %q%s%s", e.Workload, inNamespace(e.Namespace), v.hint(e.Workload, e.Namespace, false))
		}
	case e.Node != "":
		v.nodeRef(&e.Node, e)
		if e.Condition == nil {
			v.at(e, "a node expectation checks a condition")
		}
	case e.Event != nil:
		if ns := e.Event.Namespace; ns != "" && e.Namespace != "" && ns != e.Namespace {
			v.at(&e.Event.Namespace, "event: namespace %q, but the expectation's is %q: give one", ns, e.Namespace)
		}
		v.expectEvent(e.Event, e.EventNamespace())
	}
}

// expectWhen checks when an expectation holds: at most one of at, within
// and always, inside the run.
func (v *validator) expectWhen(e *Expect) {
	end := Duration(time.Hour) // the default duration
	if d := v.s.File.Spec.Duration; d != nil && d.D() > 0 {
		end = *d
	}
	if e.At != nil && e.At.D() > end.D() {
		v.at(e.At, "at %s is after the end of the run (%s)", e.At, end)
	}
	whens := 0
	for _, set := range []bool{e.At != nil, e.Within != nil, e.Always != nil} {
		if set {
			whens++
		}
	}
	if whens > 1 {
		v.at(e, "an expectation takes one of at, within and always; found %d", whens)
	}
	for _, sp := range []*Span{e.Within, e.Always} {
		switch {
		case sp == nil:
		case sp.To() < sp.From():
			v.at(&sp[1], "the span ends (%s) before it starts (%s)", &sp[1], &sp[0])
		case sp.To() > end.D():
			v.at(&sp[1], "%s is after the end of the run (%s)", &sp[1], end)
		}
	}
}

// expectTransition checks a transition and the count that goes with it.
func (v *validator) expectTransition(e *Expect) {
	if tr := e.Transition; tr != nil {
		if tr.From == "" && tr.To == "" {
			v.at(tr, "transition: give from, to or both")
		}
		for _, ph := range []*string{&tr.From, &tr.To} {
			if *ph != "" && !slices.Contains(phaseNames, *ph) {
				v.at(ph, "phase %q: want Pending, Running, Succeeded, Failed or Unknown", *ph)
			}
		}
		if e.Within != nil || e.Always != nil {
			v.atKey(&e.Transition, "a transition is counted up to at; it takes no within or always")
		}
	}
	if e.Count != nil && e.Transition == nil {
		v.atKey(&e.Count, "count goes with transition (an event's count goes inside event)")
	}
}

// expectSubjects reports whether the expectation is about exactly one of
// pod, workload, node, service or event, and says so when not.
func (v *validator) expectSubjects(e *Expect) bool {
	subjects := 0
	v.serviceExpect(e)
	for _, s := range []string{e.Pod, e.Workload, e.Node, e.Service, e.NodeGroup} {
		if s != "" {
			subjects++
		}
	}
	if e.Event != nil {
		subjects++
	}
	if e.PendingPods != nil && e.NodeGroup == "" {
		subjects++
	}
	v.expectNodeGroup(e)
	if subjects != 1 {
		v.at(e, "an expectation is about exactly one of pod, workload, node, service, event, nodeGroup or pendingPods; found %d", subjects)
		return false
	}
	return true
}

// expectPodFields reports the fields only a pod has, set on another subject.
func (v *validator) expectPodFields(e *Expect) {
	podOnly := func(what string, set bool, ptr any) {
		if set && e.Pod == "" {
			v.atKey(ptr, "%s is checked on a pod", what)
		}
	}
	podOnly("phase", e.Phase != "", &e.Phase)
	podOnly("phases", e.Phases != nil, &e.Phases)
	podOnly("status", e.Status != "", &e.Status)
	podOnly("ready", e.Ready != nil, e.Ready)
	podOnly("exists", e.Exists != nil, e.Exists)
	podOnly("container", e.Container != "", &e.Container)
	podOnly("transition", e.Transition != nil, &e.Transition)
	podOnly("nodeName", e.NodeName != nil, e.NodeName)
	podOnly("nominatedNodeName", e.NominatedNodeName != nil, e.NominatedNodeName)
}

// expectWorkloadFields reports the counts of a workload set on a subject
// that does not have them.
func (v *validator) expectWorkloadFields(e *Expect) {
	wk := model.Key(e.Namespace, e.Workload)
	pdb := v.workloads[wk] == nil && v.budgets[wk] != nil
	for _, r := range []*IntRange{e.ReadyPods, e.Pods, e.SucceededPods, e.FailedPods} {
		switch {
		case r == nil:
		case e.Workload == "":
			v.atKey(r, "readyPods, pods, succeededPods and failedPods are checked on a workload")
		case pdb:
			v.atKey(r, "readyPods, pods, succeededPods and failedPods are checked on a controller; a PodDisruptionBudget has currentHealthy, desiredHealthy, expectedPods and disruptionsAllowed")
		}
	}
	kind := ""
	if w := v.workloads[wk]; w != nil {
		kind = w.Kind
	}
	if e.UpdatedPods != nil && kind != "Deployment" {
		v.atKey(e.UpdatedPods, "updatedPods is checked on a Deployment")
	}
	if e.AvailablePods != nil && kind != "Deployment" && kind != "ReplicaSet" {
		v.atKey(e.AvailablePods, "availablePods is checked on a ReplicaSet or Deployment")
	}
	for _, r := range []*IntRange{e.Jobs, e.ActiveJobs} {
		if r != nil && kind != kindCronJob {
			v.atKey(r, "jobs and activeJobs are checked on a CronJob (workload: its name)")
		}
	}
	if e.JobStatus != nil && kind != "Job" && v.cronJobOf(wk) == nil {
		v.atKey(e.JobStatus, "jobStatus is checked on a Job (workload: its name, or a CronJob's Job's)")
	}
	v.expectHPAFields(e, wk)
	for _, r := range []*IntRange{e.DisruptionsAllowed, e.CurrentHealthy, e.DesiredHealthy, e.ExpectedPods} {
		if r != nil && !pdb {
			v.atKey(r, "disruptionsAllowed, currentHealthy, desiredHealthy and expectedPods are checked on a PodDisruptionBudget (workload: its name)")
		}
	}
}

// expectValues checks the expected values themselves: a container for
// container fields, known phases and states, a complete condition.
func (v *validator) expectValues(e *Expect) {
	if e.Container == "" {
		for _, set := range []struct {
			ok  bool
			ptr any
		}{{e.State != "", &e.State}, {e.Reason != "", &e.Reason}, {e.ExitCode != nil, e.ExitCode}, {e.RestartCount != nil, e.RestartCount}, {e.LastState != nil, e.LastState}} {
			if set.ok {
				v.atKey(set.ptr, "state, reason, exitCode, restartCount and lastState need a container")
			}
		}
	}
	if l := e.LastState; l != nil && l.Reason == "" && l.ExitCode == nil {
		v.at(l, "lastState: give reason, exitCode or both")
	}
	if e.Phase != "" && !slices.Contains(phaseNames, e.Phase) {
		v.at(&e.Phase, "phase %q: want Pending, Running, Succeeded, Failed or Unknown", e.Phase)
	}
	for i := range e.Phases {
		if !slices.Contains(phaseNames, e.Phases[i]) {
			v.at(&e.Phases[i], "phase %q: want Pending, Running, Succeeded, Failed or Unknown", e.Phases[i])
		}
	}
	if e.State != "" && !slices.Contains(stateNames, e.State) {
		v.at(&e.State, "state %q: want Waiting, Running or Terminated", e.State)
	}
	if c := e.Condition; c != nil {
		if c.Type == "" {
			v.at(c, "condition: type is required")
		}
		if !slices.Contains([]string{"True", "False", "Unknown"}, c.Status) {
			v.at(c, "condition: status must be \"True\", \"False\" or \"Unknown\"")
		}
	}
}

// expectEvent checks an event expectation in namespace ns: a reason, at
// most one object it is about, each of them known, and a known type.
func (v *validator) expectEvent(ev *EventCheck, ns string) {
	if ev.Reason == "" {
		v.at(ev, "event: reason is required")
	}
	if ev.Pod != "" {
		v.podTemplate(&ev.Pod, ns, false)
	}
	if ev.Node != "" {
		v.nodeRef(&ev.Node, ev)
	}
	if k := model.Key(ns, ev.Workload); ev.Workload != "" && v.workloads[k] == nil && v.budgets[k] == nil && v.cronJobOf(k) == nil && !v.nodePoolNamed(ev.Workload) {
		v.at(&ev.Workload, "no workload called %q%s%s", ev.Workload, inNamespace(ns), v.hint(ev.Workload, ns, false))
	}
	objects := 0
	for _, o := range []string{ev.Pod, ev.Node, ev.Workload} {
		if o != "" {
			objects++
		}
	}
	if objects > 1 {
		v.at(ev, "event: give one of pod, node and workload (node counts the events about the node itself)")
	}
	if ev.Type != "" && ev.Type != "Normal" && ev.Type != "Warning" {
		v.at(&ev.Type, "event type %q: want Normal or Warning", ev.Type)
	}
}

// EventNamespace is the namespace of an event expectation's pod or
// workload: the event check's own, else the expectation's ("" is default).
func (e *Expect) EventNamespace() string {
	if e.Event != nil && e.Event.Namespace != "" {
		return e.Event.Namespace
	}
	return e.Namespace
}
