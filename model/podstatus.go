package model

import (
	"slices"
	"strconv"
	"time"
)

// The writers of a pod's API status, for the kubelet's status manager
// only: the kubelet owns the status it reports, and writes it through
// these and no field of the core (a controller's write is SetCondition).
// Each records its change as the timeline and the parts expect; none
// checks whether the node's kubelet could report it (the kubelet does).

// SetPhase sets status.phase; a phase it already has is no change. The
// node's totals follow a change between terminal and not (release, hold),
// then Kubelet.PhaseSet hears it.
func (p *Pod) SetPhase(ph Phase) { p.setPhase(ph) }

// SetKubeletCondition sets the pod condition of type t as the kubelet
// generates it; lastTransitionTime moves only when the status changes,
// and every change bumps ConditionGen. Unlike SetCondition it does not
// regenerate the status.
func (p *Pod) SetKubeletCondition(t string, s ConditionStatus, reason, msg string) {
	p.setCondition(t, s, reason, msg)
}

// RemoveCondition drops p's condition of type t, if any: the change has
// Status "".
func (p *Pod) RemoveCondition(t string) {
	conds := p.status.Conditions
	for i := range conds {
		if conds[i].Type == t {
			p.status.Conditions = slices.Delete(conds, i, i+1)
			p.w.record(Change{Kind: ChangeCondition, Pod: p.Name, Namespace: p.Namespace, Type: t})
			return
		}
	}
}

// ConditionGen counts the changes of p's conditions (SetKubeletCondition,
// SetCondition, a condition added): while it holds, no condition changed.
func (p *Pod) ConditionGen() uint32 { return p.condGen }

// SetStatusReason sets status.reason and status.message, as the kubelet
// does when it fails the pod for good (Evicted, DeadlineExceeded, a
// rejection at admission).
func (p *Pod) SetStatusReason(reason, msg string) {
	p.status.Reason, p.status.Message = reason, msg
}

// SetStartTime sets status.startTime: when the kubelet first set the pod's
// sandbox up.
func (p *Pod) SetStartTime(t time.Duration) {
	p.status.StartTime, p.status.Started = t, true
}

// SetSandboxed records whether the pod's sandbox is set up (see Sandboxed).
func (p *Pod) SetSandboxed(up bool) { p.sandbox = up }

// IP is status.podIP: its sandbox's address, "" before it has one.
func (p *Pod) IP() string { return p.status.PodIP }

// AssignIP gives the pod's new sandbox the next address of its node's
// range, as status.podIP (once per sandbox; see podip.go).
func (p *Pod) AssignIP() {
	n := p.Node
	i := n.nextIP
	n.nextIP = (i + 1) % 253
	p.status.PodIP = "10.244." + strconv.Itoa(n.id%256) + "." + strconv.Itoa(i+2)
}
