package model

import (
	"time"
	"unsafe"
)

// podCond is a pod condition as the pod keeps it: its type, status and
// reason as numbers of the world's condition texts (condTexts), so a
// condition takes 32 bytes, not a Condition's 72. Condition builds the
// API record when it is read.
type podCond struct {
	typ, status, reason uint16
	rank                uint8 // of typ in conditionOrder (in what would be padding)
	msg                 string
	at                  time.Duration // lastTransitionTime
}

// condTexts are the texts of a world's pod conditions' types, statuses and
// reasons, each once; a podCond refers to them by number. There are few:
// the kubelet's, the controllers', and a scenario's readiness gates.
type condTexts struct {
	texts   []string          // by number; 0 is ""
	index   map[string]uint16 // the number of each text, once there are many
	scratch []Condition       // Pod.Conditions' answer, reused
	// The numbers of texts looked up lately, by their bytes' address and
	// length: the kubelet passes the same (constant or shared) strings
	// again. Two ways a set (recentWays), so that two hot texts whose
	// addresses share a set do not evict each other at every look-up. A
	// slot's pointer keeps those bytes alive, so they are never reused for
	// another text.
	recent [32][recentWays]recentText
}

// CondText is the number of a pod condition's type, status or reason
// among the texts every world numbers first, in this order: the kubelet
// sets the conditions it keeps by them (Pod.SetKnownCondition), with no
// look-up. The types come in conditionOrder's order.
type CondText uint16

// The known condition texts.
const (
	CondNone CondText = iota // "": no reason
	CondDisruptionTarget
	CondPodResizePending
	CondPodResizeInProgress
	CondPodReadyToStartContainers
	CondInitialized
	CondReady
	CondContainersReady
	CondPodScheduled
	CondTrue
	CondFalse
	CondUnknown
	CondPodCompleted
	CondPodFailed
	CondContainersNotReady
	CondContainersNotInitialized
	CondReadinessGatesNotReady
	condKnown // how many
)

// knownCondTexts are the texts of the CondText numbers.
var knownCondTexts = [condKnown]string{"", DisruptionTarget, PodResizePending, PodResizeInProgress,
	PodReadyToStartContainers, Initialized, Ready, ContainersReady, PodScheduled,
	string(True), string(False), string(StatusUnknown),
	"PodCompleted", "PodFailed", "ContainersNotReady", "ContainersNotInitialized", "ReadinessGatesNotReady"}

// init numbers the known texts first, once.
func (ct *condTexts) init() {
	if len(ct.texts) == 0 {
		ct.texts = append(make([]string, 0, 2*condKnown), knownCondTexts[:]...)
	}
}

// recentText is a slot of condTexts.recent.
type recentText struct {
	p *byte
	n int
	i uint16
}

// recentWays are the slots of a set of condTexts.recent.
const recentWays = 2

// set is the first slot of the set of condTexts.recent that text s, of
// bytes p, goes to.
func (ct *condTexts) set(p *byte, s string) *[recentWays]recentText {
	return &ct.recent[(uintptr(unsafe.Pointer(p))>>3^uintptr(len(s)))%uintptr(len(ct.recent))]
}

// recall is the number of text s if a slot of set r holds it.
func recall(r *[recentWays]recentText, p *byte, s string) (uint16, bool) {
	if r[0].p == p && r[0].n == len(s) {
		return r[0].i, true
	}
	if r[1].p == p && r[1].n == len(s) {
		return r[1].i, true
	}
	return 0, false
}

// remember puts text s, of bytes p and number i, in set r: first, its
// older slot moves to second.
func remember(r *[recentWays]recentText, p *byte, s string, i uint16) {
	r[1] = r[0]
	r[0] = recentText{p, len(s), i}
}

// number is text s's number, given one if it had none.
func (ct *condTexts) number(s string) uint16 {
	ct.init()
	if s == "" {
		return 0
	}
	p := unsafe.StringData(s)
	r := ct.set(p, s)
	if i, ok := recall(r, p, s); ok {
		return i
	}
	i := ct.find(s)
	remember(r, p, s, i)
	return i
}

// lookup is text s's number, if it has one, without giving it one (only
// the known texts get theirs, if the table had none yet).
func (ct *condTexts) lookup(s string) (uint16, bool) {
	if s == "" {
		return 0, true
	}
	p := unsafe.StringData(s)
	r := ct.set(p, s)
	if i, ok := recall(r, p, s); ok {
		return i, true
	}
	if ct.index != nil {
		i, ok := ct.index[s]
		return i, ok
	}
	ct.init()
	for i, t := range ct.texts {
		if same(t, s) {
			remember(r, p, s, uint16(i))
			return uint16(i), true
		}
	}
	return 0, false
}

// find is number, for a text other than "", without its memory of
// recent texts.
func (ct *condTexts) find(s string) uint16 {
	if ct.index != nil {
		if i, ok := ct.index[s]; ok {
			return i
		}
	} else {
		for i, t := range ct.texts {
			if same(t, s) {
				return uint16(i)
			}
		}
	}
	if len(ct.texts) > 1<<16-1 {
		panic("model: more than 65535 pod condition texts")
	}
	i := uint16(len(ct.texts))
	ct.texts = append(ct.texts, s)
	if ct.index != nil || len(ct.texts) > 32 {
		if ct.index == nil {
			ct.index = make(map[string]uint16, 64)
			for j, t := range ct.texts {
				ct.index[t] = uint16(j)
			}
		}
		ct.index[s] = i
	}
	return i
}

// text is the text of number i, which number gave.
func (ct *condTexts) text(i uint16) string { return ct.texts[i] }

// cond is the API record of c.
func (p *Pod) cond(c *podCond) Condition {
	ct := &p.w.mem.condTexts
	return Condition{Type: ct.text(c.typ), Status: ConditionStatus(ct.text(c.status)), Reason: ct.text(c.reason),
		Message: c.msg, LastTransitionTime: c.at}
}

// condIndex is the index in p.conds of its condition of type t, -1 if
// none: found by the type's number, which the kubelet's constant types
// find by their address.
func (p *Pod) condIndex(t string) int {
	n, ok := p.w.mem.condTexts.lookup(t)
	if !ok {
		return -1
	}
	for i := range p.conds {
		if p.conds[i].typ == n {
			return i
		}
	}
	return -1
}

// Condition returns the pod's condition of type t, if set, without
// copying its status.
func (p *Pod) Condition(t string) (Condition, bool) {
	if i := p.condIndex(t); i >= 0 {
		return p.cond(&p.conds[i]), true
	}
	return Condition{}, false
}

// Conditions is p's conditions now. Read them, do not keep them: the
// next call reuses the room.
func (p *Pod) Conditions() []Condition {
	ct := &p.w.mem.condTexts
	ct.scratch = p.appendConditions(ct.scratch[:0])
	return ct.scratch
}

// appendConditions appends p's conditions to cs, in the kubelet's order.
func (p *Pod) appendConditions(cs []Condition) []Condition {
	for i := range p.conds {
		cs = append(cs, p.cond(&p.conds[i]))
	}
	return cs
}

// ready is IsReady: the pod's Ready condition is True.
func (p *Pod) ready() bool { return p.readyTrue }

// readyOfConditions is ready as p's conditions say (setKnown and
// RemoveCondition keep readyTrue so; the invariants check it).
func (p *Pod) readyOfConditions() bool {
	for i := range p.conds {
		if p.conds[i].typ == uint16(CondReady) {
			return p.conds[i].status == uint16(CondTrue)
		}
	}
	return false
}

// setCondition sets a pod condition; lastTransitionTime moves only when the
// status changes.
func (p *Pod) setCondition(t string, s ConditionStatus, reason, msg string) {
	ct := &p.w.mem.condTexts
	p.setKnown(ct.number(t), ct.number(string(s)), ct.number(reason), msg)
}

// setKnown is setCondition by the numbers of the condition's type, status
// and reason (condTexts).
func (p *Pod) setKnown(typ, status, reason uint16, msg string) {
	for i := range p.conds {
		c := &p.conds[i]
		if c.typ != typ {
			continue
		}
		if c.status == status && c.reason == reason && same(c.msg, msg) {
			return
		}
		changed := c.status != status || c.reason != reason
		if c.status != status {
			c.at = p.w.Now()
		}
		c.status, c.reason, c.msg = status, reason, msg
		if typ == uint16(CondReady) {
			p.readyTrue = status == uint16(CondTrue)
		}
		p.condGen++
		if changed {
			ct := &p.w.mem.condTexts
			ch := p.begin(ChangeCondition)
			ch.Type, ch.Status, ch.Reason = ct.text(typ), ct.text(status), ct.text(reason)
			p.w.emit()
			if typ == uint16(CondReady) {
				p.w.podChanged(p)
			}
		}
		return
	}
	ct := &p.w.mem.condTexts
	p.conds = append(p.conds, podCond{typ: typ, status: status, reason: reason, rank: conditionRank(typ), msg: msg, at: p.w.Now()})
	if typ == uint16(CondReady) {
		p.readyTrue = status == uint16(CondTrue)
	}
	p.condGen++
	p.sortConditions()
	t := ct.text(typ)
	p.record(Change{Kind: ChangeCondition, Type: t, Status: ct.text(status), Reason: ct.text(reason)})
	p.w.podConditionAdded(p, t)
}

// conditionOrder is the order in which the kubelet lists pod conditions:
// the known types, as they are numbered.
var conditionOrder = [CondPodScheduled - CondDisruptionTarget + 1]string(knownCondTexts[CondDisruptionTarget : CondPodScheduled+1])

// sortConditions moves the condition just appended to its place in
// conditionOrder, after those of the same rank: the others are in order
// already (every append is followed by this, and a removal keeps the order).
func (p *Pod) sortConditions() {
	c := p.conds
	for j := len(c) - 1; j > 0 && c[j-1].rank > c[j].rank; j-- {
		c[j], c[j-1] = c[j-1], c[j]
	}
}

// conditionRank is the position in conditionOrder of the type numbered
// typ (its known types are numbered in that order); any other type ranks
// after them all.
func conditionRank(typ uint16) uint8 {
	if typ >= uint16(CondDisruptionTarget) && typ <= uint16(CondPodScheduled) {
		return uint8(typ - uint16(CondDisruptionTarget))
	}
	return uint8(len(conditionOrder))
}

// SetCondition sets a custom pod condition (as a controller would for a
// readiness gate) and refreshes Ready.
func (p *Pod) SetCondition(t string, s ConditionStatus) {
	p.setCondition(t, s, "", "")
	p.w.kubelet.ConditionSetByUser(p)
}
