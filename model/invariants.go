package model

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/podsim/podsim/sim"
)

// Invariants is a sink that checks, at every change and after every
// instant at which anything changed, rules that hold in any run of any
// scenario. Tests and fuzzing attach it; it reads the model's internals.
//
// At each change:
//   - changes come in time order, stamped with the world's time;
//   - a pod's phases follow each other (From is the last To), along legal
//     transitions: a new pod is Pending, a terminal phase is sticky; a
//     name is taken by a new pod (a StatefulSet's replacement) only once
//     the pod that had it is gone from the API;
//   - a container's restartCount never decreases;
//   - a pod is scheduled (PodScheduled turns True) at most once;
//   - no container starts (turns Running) on a powered-off node, or in a
//     pod whose phase is terminal.
//
// After each instant, for every pod and node that changed in it:
//   - a pod's phase is the last one announced; it is bound to at most one
//     node, the first it was bound to, and that node lists it once;
//   - a node's running totals of requests (used) equal a recount over its
//     pods, and never exceed its capacity;
//   - no process of a pod on a powered-off node has anything in flight
//     (exit, hook, SIGTERM, SIGKILL, pull), and no container of a terminal
//     pod on a reachable node runs unless it is being stopped;
//   - no time lies ahead of now or is negative, and no span is negative:
//     container states (FinishedAt >= StartedAt), conditions'
//     lastTransitionTime, the pod's startTime and deletion;
//   - every event about the object has count >= 1 and
//     firstSeen <= lastSeen <= now.
type Invariants struct {
	w          *World
	violations []Violation
	last       time.Duration

	pods     map[string]*podSeen
	dirty    []string // pods changed in this instant, in order of first change
	nodes    []string // nodes changed in this instant
	objects  []objectKey
	checking bool // an end-of-instant check is scheduled
}

// A Violation is one broken rule: when, which rule, and what was seen.
type Violation struct {
	T       time.Duration
	Rule    string
	Message string
}

func (v Violation) String() string { return fmt.Sprintf("at %s: %s: %s", v.T, v.Rule, v.Message) }

// The rules, as Violation.Rule names them.
const (
	RuleTime        = "time"        // changes in time order; no time ahead of now, none negative
	RulePhase       = "phase"       // legal, continuous phase transitions; terminal is sticky
	RuleRestarts    = "restarts"    // restartCount never decreases
	RuleAllocation  = "allocation"  // a node's requests: recount equals running total, within capacity
	RuleBinding     = "binding"     // a pod is bound at most once
	RuleRunning     = "running"     // no container runs on a powered-off node or in a terminal pod
	RuleDuration    = "duration"    // no negative span
	RuleEventCount  = "event-count" // every event occurred; its API count is at most its occurrences
	RuleReady       = "ready"       // a pod's Ready, as read without its conditions, is its Ready condition's
	maxViolations   = 100
	invariantsLimit = "... more violations not kept"
)

type podSeen struct {
	phase     Phase
	created   bool
	gone      bool // deleted from the API: the name may be taken again
	scheduled bool
	node      *Node
	restarts  map[string]int32
}

// NewInvariants returns a checker subscribed to w. Subscribe it before the
// world is populated, so that it sees every pod from its creation.
func NewInvariants(w *World) *Invariants {
	v := &Invariants{w: w, pods: map[string]*podSeen{}}
	w.Subscribe(v)
	return v
}

// Violations returns the rules broken so far (at most 100), in order.
func (v *Invariants) Violations() []Violation { return v.violations }

// Err returns nil if no rule was broken, or an error listing the violations.
func (v *Invariants) Err() error {
	if len(v.violations) == 0 {
		return nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d invariant violation(s):", len(v.violations))
	for _, x := range v.violations {
		b.WriteString("\n  ")
		b.WriteString(x.String())
	}
	return errors.New(b.String())
}

func (v *Invariants) fail(rule, format string, args ...any) {
	if len(v.violations) == maxViolations {
		v.violations = append(v.violations, Violation{T: v.w.Now(), Rule: rule, Message: invariantsLimit})
	}
	if len(v.violations) > maxViolations {
		return
	}
	v.violations = append(v.violations, Violation{T: v.w.Now(), Rule: rule, Message: fmt.Sprintf(format, args...)})
}

func (v *Invariants) pod(name string) *podSeen {
	s := v.pods[name]
	if s == nil {
		s = &podSeen{restarts: map[string]int32{}}
		v.pods[name] = s
	}
	return s
}

// Change checks one change and notes what it touched for the end of the
// instant.
func (v *Invariants) Change(c *Change) {
	now := v.w.Now()
	if c.T != now {
		v.fail(RuleTime, "change stamped %s at time %s", c.T, now)
	}
	if c.T < v.last {
		v.fail(RuleTime, "change at %s after one at %s: %s", c.T, v.last, describeChange(c))
	}
	if c.T < 0 {
		v.fail(RuleTime, "change at negative time %s", c.T)
	}
	v.last = max(v.last, c.T)
	pod := Key(c.Namespace, c.Pod)
	if c.Pod != "" {
		v.touchPod(pod)
	}
	if c.Node != "" {
		v.touchNode(c.Node)
	}
	switch c.Kind {
	case ChangePhase:
		v.phaseChange(c, pod)
	case ChangeContainer:
		v.containerChange(c, pod)
	case ChangePod:
		if c.Reason == "Deleted" {
			v.pod(pod).gone = true
		}
	case ChangeCondition:
		if c.Type == PodScheduled && c.Status == string(True) {
			s := v.pod(pod)
			if s.scheduled {
				v.fail(RuleBinding, "pod %s scheduled a second time", c.Pod)
			}
			s.scheduled = true
		}
	case ChangeEvent:
		if c.Pod == "" && c.Node == "" {
			k := objectKey{c.Object, Key(c.Namespace, c.Workload)}
			if !slices.Contains(v.objects, k) {
				v.objects = append(v.objects, k)
			}
		}
	}
	if !v.checking {
		v.checking = true
		v.w.eng.At(now, sim.Late, v.EndInstant)
	}
}

func (v *Invariants) touchPod(name string) {
	if !slices.Contains(v.dirty, name) {
		v.dirty = append(v.dirty, name)
	}
	if p := v.w.Pod(name); p != nil && p.Node != nil {
		v.touchNode(p.Node.Name)
	}
}

func (v *Invariants) touchNode(name string) {
	if !slices.Contains(v.nodes, name) {
		v.nodes = append(v.nodes, name)
	}
}

// legalPhase reports whether a pod's phase may go from one to the other:
// a pod is created Pending; a terminal phase never changes; any other
// phase may move to any phase (Running goes back to Pending when a new
// sandbox runs the init containers again, as a real kubelet shows).
func legalPhase(from, to Phase) bool {
	switch {
	case from == "":
		return to == Pending
	case from.Terminal():
		return false
	}
	switch to {
	case Pending, Running, Succeeded, Failed, Unknown:
		return to != from
	}
	return false
}

// phaseChange checks a phase change of the pod with this key.
func (v *Invariants) phaseChange(c *Change, key string) {
	s := v.pod(key)
	if c.From == "" && s.gone {
		*s = podSeen{restarts: map[string]int32{}} // a new pod of the same name
	}
	if c.From == "" && s.created {
		v.fail(RulePhase, "pod %s created a second time", c.Pod)
	} else if s.created && c.From != s.phase {
		v.fail(RulePhase, "pod %s phase %q -> %q, but its phase was %q", c.Pod, c.From, c.To, s.phase)
	}
	if !legalPhase(c.From, c.To) {
		v.fail(RulePhase, "pod %s illegal phase transition %q -> %q", c.Pod, c.From, c.To)
	}
	s.created, s.phase = true, c.To
}

// containerChange checks a container change of the pod with this key.
func (v *Invariants) containerChange(c *Change, key string) {
	s := v.pod(key)
	if last, ok := s.restarts[c.Container]; ok && c.RestartCount < last {
		v.fail(RuleRestarts, "pod %s container %s restartCount %d -> %d", c.Pod, c.Container, last, c.RestartCount)
	}
	s.restarts[c.Container] = max(s.restarts[c.Container], c.RestartCount)
	if c.State != StateRunning {
		return
	}
	p := v.w.Pod(key)
	if p == nil {
		return
	}
	if p.Node != nil && p.Node.down {
		v.fail(RuleRunning, "pod %s container %s runs on node %s, which is powered off", c.Pod, c.Container, p.Node.Name)
	}
	if p.terminal() {
		v.fail(RuleRunning, "pod %s container %s runs in a pod that is %s", c.Pod, c.Container, p.Phase())
	}
}

// EndInstant checks the state of every pod, node and object that changed
// at this instant. The checker runs it itself after each instant; a test
// may call it directly.
func (v *Invariants) EndInstant() {
	v.checking = false
	now := v.w.Now()
	for _, name := range v.dirty {
		if p := v.w.Pod(name); p != nil {
			v.checkPod(p, now)
		}
	}
	for _, name := range v.nodes {
		if n := v.w.nodeIdx[name]; n != nil {
			v.checkNode(n, now)
		}
	}
	for _, k := range v.objects {
		if l := v.w.otherEvents[k]; l != nil {
			v.checkEvents(k.kind+" "+k.object, l.list, now)
		} else if wl := v.w.workloadIdx[k.object]; wl != nil {
			v.checkEvents(k.kind+" "+k.object, wl.events.list, now)
		}
	}
	v.dirty, v.nodes, v.objects = v.dirty[:0], v.nodes[:0], v.objects[:0]
}

func (v *Invariants) checkPod(p *Pod, now time.Duration) {
	s := v.pod(p.Key())
	if p.Phase() != s.phase {
		v.fail(RulePhase, "pod %s is %q, but its last phase change said %q", p.Name, p.Phase(), s.phase)
	}
	if p.Node != nil {
		if s.node == nil {
			s.node = p.Node
		} else if s.node != p.Node {
			v.fail(RuleBinding, "pod %s bound to %s, then to %s", p.Name, s.node.Name, p.Node.Name)
		}
	} else if s.node != nil {
		v.fail(RuleBinding, "pod %s was bound to %s, now to no node", p.Name, s.node.Name)
	}
	for i := range p.Containers() {
		st := p.StatusOf(i)
		where := "pod " + p.Name + " container " + st.Name
		if st.RestartCount < s.restarts[st.Name] {
			v.fail(RuleRestarts, "%s restartCount %d, was %d", where, st.RestartCount, s.restarts[st.Name])
		}
		v.checkState(where+" state", st.State, now)
		v.checkState(where+" lastState", st.LastState, now)
		if !p.deleted && p.Node != nil {
			p.w.kubelet.CheckContainer(v, p, i, where)
		}
	}
	for i := range p.conds {
		c := p.cond(&p.conds[i])
		v.checkTime("pod "+p.Name+" condition "+c.Type+" lastTransitionTime", c.LastTransitionTime, now)
	}
	if r := p.readyOfConditions(); p.ready() != r {
		v.fail(RuleReady, "pod %s reads as Ready %t, its Ready condition says %t", p.Name, p.ready(), r)
	}
	if p.started {
		v.checkTime("pod "+p.Name+" startTime", p.startTime, now)
		if p.startTime < p.CreatedAt {
			v.fail(RuleDuration, "pod %s started at %s, before its creation at %s", p.Name, p.startTime, p.CreatedAt)
		}
	}
	v.checkTime("pod "+p.Name+" creationTimestamp", p.CreatedAt, now)
	if p.deleted {
		v.checkTime("pod "+p.Name+" deletion", p.DeletedAt(), now)
		if p.DeletedAt() < p.CreatedAt {
			v.fail(RuleDuration, "pod %s deleted at %s, before its creation at %s", p.Name, p.DeletedAt(), p.CreatedAt)
		}
	}
	if at, grace, ok := p.DeletionTimestamp(); ok && (grace < 0 || at < v.w.past) {
		v.fail(RuleDuration, "pod %s deletion grace %s, deadline %s", p.Name, grace, at)
	}
	v.checkEvents("pod "+p.Name, p.events.list, now)
}

func (v *Invariants) checkState(where string, s ContainerState, now time.Duration) {
	switch s.Kind {
	case StateRunning:
		v.checkTime(where+" startedAt", s.StartedAt, now)
	case StateTerminated:
		v.checkTime(where+" startedAt", s.StartedAt, now)
		v.checkTime(where+" finishedAt", s.FinishedAt, now)
		if s.FinishedAt < s.StartedAt {
			v.fail(RuleDuration, "%s finished at %s, before it started at %s", where, s.FinishedAt, s.StartedAt)
		}
	}
}

func (v *Invariants) checkTime(what string, t, now time.Duration) {
	if t < v.w.past || t > now {
		v.fail(RuleTime, "%s is %s, now is %s", what, t, now)
	}
}

func (v *Invariants) checkNode(n *Node, now time.Duration) {
	var sum Resources
	seen := make(map[*Pod]bool, len(n.pods))
	for _, p := range n.pods {
		if seen[p] {
			v.fail(RuleBinding, "node %s lists pod %s twice", n.Name, p.Name)
		}
		seen[p] = true
		if p.Node != n {
			v.fail(RuleBinding, "node %s lists pod %s, which is bound elsewhere", n.Name, p.Name)
		}
		if !p.terminal() {
			sum.MilliCPU += p.requests.MilliCPU
			sum.Memory += p.requests.Memory
			sum.Pods++
		}
	}
	if sum != n.used {
		v.fail(RuleAllocation, "node %s running totals %+v, recount %+v", n.Name, n.used, sum)
	}
	c := n.Capacity
	if sum.MilliCPU > c.MilliCPU || sum.Memory > c.Memory || c.Pods > 0 && sum.Pods > c.Pods {
		v.fail(RuleAllocation, "node %s requests %+v exceed its allocatable %+v", n.Name, sum, c)
	}
	for _, cd := range n.Conditions {
		v.checkTime("node "+n.Name+" condition "+cd.Type+" lastTransitionTime", cd.LastTransitionTime, now)
	}
	v.checkEvents("node "+n.Name, n.events.list, now)
}

func (v *Invariants) checkEvents(about string, events []*Event, now time.Duration) {
	for _, e := range events {
		if e.Occurrences < 1 || e.Count < 0 || e.Count > e.Occurrences {
			v.fail(RuleEventCount, "%s event %s %q has count %d of %d occurrences", about, e.Reason(), e.Message(), e.Count, e.Occurrences)
		}
		if e.FirstSeen < 0 || e.FirstSeen > e.LastOccurred || e.LastOccurred > now ||
			e.Count > 0 && (e.LastSeen < e.FirstSeen || e.LastSeen > e.LastOccurred) {
			v.fail(RuleTime, "%s event %s: firstSeen %s, lastSeen %s, last occurred %s, now %s", about, e.Reason(),
				e.FirstSeen, e.LastSeen, e.LastOccurred, now)
		}
	}
}

func describeChange(c *Change) string {
	return fmt.Sprintf("%s pod=%q container=%q node=%q reason=%q", c.Kind, c.Pod, c.Container, c.Node, c.Reason)
}
