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
	// The numbers of Ready and True, 0 until they have one: ready reads
	// them without a look-up.
	readyType, trueStatus uint16
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
	if len(ct.texts) == 0 {
		ct.texts = append(ct.texts, "")
	}
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

// lookup is text s's number, if it has one, without giving it one.
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
	switch s {
	case Ready:
		ct.readyType = i
	case string(True):
		ct.trueStatus = i
	}
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
func (p *Pod) ready() bool {
	ct := &p.w.mem.condTexts
	if ct.readyType == 0 || ct.trueStatus == 0 {
		return false // no condition is of type Ready, or True
	}
	for i := range p.conds {
		if p.conds[i].typ == ct.readyType {
			return p.conds[i].status == ct.trueStatus
		}
	}
	return false
}

// setCondition sets a pod condition; lastTransitionTime moves only when the
// status changes. It is not inlined: where the profile (default.pgo) let
// it be, the condition look-ups it inlines were left as calls (a
// crash-loop fleet's instructions grew 1.5%).
//
//go:noinline
func (p *Pod) setCondition(t string, s ConditionStatus, reason, msg string) {
	ct := &p.w.mem.condTexts
	if i := p.condIndex(t); i >= 0 {
		c := &p.conds[i]
		st, rs := ct.text(c.status), ct.text(c.reason)
		if same(st, string(s)) && same(rs, reason) && same(c.msg, msg) {
			return
		}
		if st != string(s) {
			c.at = p.w.Now()
		}
		changed := st != string(s) || rs != reason
		c.status, c.reason, c.msg = ct.number(string(s)), ct.number(reason), msg
		p.condGen++
		if changed {
			ch := p.begin(ChangeCondition)
			ch.Type, ch.Status, ch.Reason = t, string(s), reason
			p.w.emit()
			if t == Ready {
				p.w.podChanged(p)
			}
		}
		return
	}
	p.conds = append(p.conds, podCond{typ: ct.number(t), status: ct.number(string(s)), reason: ct.number(reason), rank: conditionRank(t), msg: msg, at: p.w.Now()})
	p.condGen++
	p.sortConditions()
	p.record(Change{Kind: ChangeCondition, Type: t, Status: string(s), Reason: reason})
	p.w.podConditionAdded(p, t)
}

// conditionOrder is the order in which the kubelet lists pod conditions.
var conditionOrder = [...]string{DisruptionTarget, PodResizePending, PodResizeInProgress, PodReadyToStartContainers, Initialized, Ready, ContainersReady, PodScheduled}

// sortConditions moves the condition just appended to its place in
// conditionOrder, after those of the same rank: the others are in order
// already (every append is followed by this, and a removal keeps the order).
func (p *Pod) sortConditions() {
	c := p.conds
	for j := len(c) - 1; j > 0 && c[j-1].rank > c[j].rank; j-- {
		c[j], c[j-1] = c[j-1], c[j]
	}
}

// conditionRank is the position of type t in conditionOrder; any other
// type ranks after them all.
func conditionRank(t string) uint8 {
	for i, o := range conditionOrder {
		if o == t {
			return uint8(i)
		}
	}
	return uint8(len(conditionOrder))
}

// SetCondition sets a custom pod condition (as a controller would for a
// readiness gate) and refreshes Ready.
func (p *Pod) SetCondition(t string, s ConditionStatus) {
	p.setCondition(t, s, "", "")
	p.w.kubelet.ConditionSetByUser(p)
}
