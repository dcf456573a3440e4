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

// SetKnownCondition is SetKubeletCondition for a type, status and reason
// among the known texts (CondText): set by number, with no look-up.
func (p *Pod) SetKnownCondition(t, s, reason CondText, msg string) {
	p.setKnown(uint16(t), uint16(s), uint16(reason), msg)
}

// RemoveCondition drops p's condition of type t, if any: the change has
// Status "".
func (p *Pod) RemoveCondition(t string) {
	if i := p.condIndex(t); i >= 0 {
		if p.conds[i].typ == uint16(CondReady) {
			p.readyTrue = false
		}
		p.conds = slices.Delete(p.conds, i, i+1)
		p.record(Change{Kind: ChangeCondition, Type: t})
	}
}

// ConditionGen counts the changes of p's conditions (SetKubeletCondition,
// SetCondition, a condition added): while it holds, no condition was set or
// added. RemoveCondition (a resize's conditions only) does not count.
func (p *Pod) ConditionGen() uint32 { return p.condGen }

// SetStatusReason sets status.reason and status.message, as the kubelet
// does when it fails the pod for good (Evicted, DeadlineExceeded, a
// rejection at admission).
func (p *Pod) SetStatusReason(reason, msg string) {
	m := p.moreState()
	m.reason, m.message = reason, msg
}

// SetStartTime sets status.startTime: when the kubelet first set the pod's
// sandbox up.
func (p *Pod) SetStartTime(t time.Duration) {
	p.startTime, p.started = t, true
}

// SetSandboxed records whether the pod's sandbox is set up (see Sandboxed).
func (p *Pod) SetSandboxed(up bool) { p.sandbox = up }

// IP is status.podIP: its sandbox's address, "" before it has one.
func (p *Pod) IP() string { return p.w.mem.ips.text(p.ip) }

// AssignIP gives the pod's new sandbox the next address of its node's
// range, as status.podIP (once per sandbox; see podip.go).
func (p *Pod) AssignIP() {
	n := p.Node
	i := n.nextIP
	n.nextIP = (i + 1) % 253
	p.ip = p.w.mem.ips.number(n.id%256, i)
}

// podIPs are the addresses pods get, 10.244.<node>.<2 to 254>, each
// built once, when first given: a pod holds its address by number.
type podIPs struct {
	texts [256]*[253]string // by the node's and then the address's number
}

// number is the number of the address i (from 0) of the node numbered
// node (from 0 to 255), its text built if it has none yet: from 1.
func (a *podIPs) number(node, i int) uint16 {
	t := a.texts[node]
	if t == nil {
		t = new([253]string)
		a.texts[node] = t
	}
	if t[i] == "" {
		t[i] = "10.244." + strconv.Itoa(node) + "." + strconv.Itoa(i+2)
	}
	return uint16(node*253 + i + 1)
}

// text is the address numbered n, "" for 0.
func (a *podIPs) text(n uint16) string {
	if n == 0 {
		return ""
	}
	return a.texts[(n-1)/253][(n-1)%253]
}

// statusBlock is the room of a pod's conditions and, if it has one
// container, that container's status: one slab value, so a pod's status
// takes no allocation of its own.
type statusBlock struct {
	conditions [len(conditionOrder) - 3]podCond // the kubelet's five (DisruptionTarget and a resize's two are rare: they move the conditions to an array of their own)
	container  [1]ContainerStatus
}

// newStatus makes room for p's status: its conditions, and its container
// statuses, its init containers' then its regular ones' (status
// InitContainerStatuses and ContainerStatuses are the two halves).
func (p *Pod) newStatus() {
	b := p.w.mem.statuses.new()
	p.conds = b.conditions[:0:len(b.conditions)]
	spec := p.Spec
	ni, nr := len(spec.InitContainers), len(spec.Containers)
	cs := b.container[:]
	if ni+nr != 1 {
		cs = p.w.mem.containerStatuses.take(ni + nr)[:ni+nr]
	}
	for i := range spec.InitContainers {
		cs[i] = ContainerStatus{Name: spec.InitContainers[i].Name, Image: spec.InitContainers[i].Image}
	}
	for i := range spec.Containers {
		cs[ni+i] = ContainerStatus{Name: spec.Containers[i].Name, Image: spec.Containers[i].Image}
	}
	if ni > 1<<16-1 {
		panic("model: more than 65535 init containers")
	}
	p.statuses, p.ninit = cs, uint16(ni)
}

// initStatuses is status.initContainerStatuses (not a copy).
func (p *Pod) initStatuses() []ContainerStatus { return p.statuses[:p.ninit:p.ninit] }

// regularStatuses is status.containerStatuses (not a copy).
func (p *Pod) regularStatuses() []ContainerStatus { return p.statuses[p.ninit:] }

// StatusOf is the status of p's i-th container, its init containers
// first, below Containers(): the kubelet keeps it to read, and writes it
// through the writers below only.
func (p *Pod) StatusOf(i int) *ContainerStatus {
	return &p.statuses[i]
}

// SetContainerState sets the state of p's i-th container (as StatusOf
// counts) and records the change.
func (p *Pod) SetContainerState(i int, s ContainerState) {
	st := p.StatusOf(i)
	st.State = s
	ch := p.begin(ChangeContainer)
	ch.Container, ch.State = st.Name, s.Kind
	ch.Reason, ch.RestartCount = s.Reason, st.RestartCount
	if s.Kind == StateTerminated {
		ch.ExitCode, ch.HasExitCode = s.ExitCode, true
	}
	p.w.emit()
}

// SetContainerLastState sets the lastState of p's i-th container: its
// previous termination, or none. Nothing is recorded.
func (p *Pod) SetContainerLastState(i int, s ContainerState) { p.StatusOf(i).LastState = s }

// SetContainerRestarts sets the restartCount of p's i-th container.
// Nothing is recorded: the next state change carries it.
func (p *Pod) SetContainerRestarts(i int, n int32) { p.StatusOf(i).RestartCount = n }

// SetContainerFlags sets the started and ready flags of p's i-th
// container, and tells the object sinks when they flip.
func (p *Pod) SetContainerFlags(i int, started, ready bool) {
	st := p.StatusOf(i)
	if st.Started == started && st.Ready == ready {
		return
	}
	st.Started, st.Ready = started, ready
	p.w.object(ObjectChange{Kind: ObjectPod, Op: ObjectUpdated, Pod: p})
}
