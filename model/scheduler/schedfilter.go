package scheduler

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/podsim/podsim/model"
)

// The filters, in upstream's order (default_plugins.go): NodeUnschedulable
// (and podsim's failed disk), TaintToleration, NodeAffinity,
// NodeResourcesFit, PodTopologySpread, InterPodAffinity. The first that
// rejects a node gives its reasons.

// statusCode is a filter's verdict on a node.
type statusCode uint8

const (
	fits statusCode = iota
	unschedulable
	// unresolvable is UnschedulableAndUnresolvable: removing pods from the
	// node would not help, so preemption leaves it alone.
	unresolvable
)

// rejectReason is one reason a filter turned a node down.
type rejectReason uint8

const (
	rejectNone rejectReason = iota
	rejectUnschedulable
	rejectDiskFailed
	rejectTaint
	rejectNodeAffinity
	rejectAbsent // left out by NodeAffinity's PreFilter
	rejectTooManyPods
	rejectCPU
	rejectMemory
	rejectSpreadNoLabel
	rejectSpread
	rejectAffinity
	rejectAntiAffinity
	rejectExistingAntiAffinity
	rejectNoVictims  // preemption: no pod of lower priority on the node
	rejectNotHelpful // preemption: the node was not a candidate
)

var rejectText = [...]string{
	rejectUnschedulable:        model.ReasonUnschedulable,
	rejectDiskFailed:           model.ReasonDiskFailed,
	rejectNodeAffinity:         model.ReasonNodeAffinity,
	rejectAbsent:               "node(s) didn't satisfy plugin(s) [NodeAffinity]",
	rejectTooManyPods:          model.ReasonTooManyPods,
	rejectCPU:                  model.ReasonCPU,
	rejectMemory:               model.ReasonMemory,
	rejectSpreadNoLabel:        reasonSpreadNoLabel,
	rejectSpread:               reasonSpread,
	rejectAffinity:             reasonAffinityRules,
	rejectAntiAffinity:         reasonAntiAffinityRules,
	rejectExistingAntiAffinity: reasonExistingAntiAffinity,
	rejectNoVictims:            "No preemption victims found for incoming pod",
	rejectNotHelpful:           "Preemption is not helpful for scheduling",
}

// plugin is the filter plugin that gives the reason.
func (r rejectReason) plugin() plugins {
	switch r {
	case rejectUnschedulable, rejectDiskFailed:
		return pluginNodeUnschedulable
	case rejectNodeAffinity, rejectAbsent:
		return pluginNodeAffinity
	case rejectTaint:
		return pluginTaintToleration
	case rejectTooManyPods, rejectCPU, rejectMemory:
		return pluginNodeResourcesFit
	case rejectSpreadNoLabel, rejectSpread:
		return pluginPodTopologySpread
	case rejectAffinity, rejectAntiAffinity, rejectExistingAntiAffinity:
		return pluginInterPodAffinity
	}
	return 0
}

// nodeStatus is the filters' verdict on a node: its code and reasons
// (NodeResourcesFit may give several).
type nodeStatus struct {
	code    statusCode
	reasons [3]rejectReason
	taint   *model.Taint // for rejectTaint
}

func (st nodeStatus) fits() bool { return st.code == fits }

func rejected(code statusCode, r rejectReason) nodeStatus {
	return nodeStatus{code: code, reasons: [3]rejectReason{r}}
}

// preFilter prepares the filters' state for a try of p.
func (s *Scheduler) preFilter(p *model.Pod) {
	cy := &s.cy
	cy.p = p
	cy.plan = s.planFor(p)
	cy.nodeAffinity = hasRequiredNodeAffinity(p)
	if len(cy.plan.hard) > 0 {
		cy.spread.prepare(s.w, p, cy.plan.hard)
	} else {
		cy.spread.cons = nil
	}
	cy.interPod.prepare(&s.index, p, cy.plan)
}

// filter runs the filters for the pod of the try on node n. It reads the
// node's running totals and the index: O(1) in the node's pods.
func (s *Scheduler) filter(n *model.Node) nodeStatus {
	s.filtered++
	s.nodesRead++
	st := s.nodeFilters(n)
	if st.fits() && (s.cy.spread.cons != nil || s.cy.interPod.active()) {
		st = s.podFilters(n)
	}
	return st
}

// nodeFilters runs, for the pod of the try, the filters that read only
// node n and the pod (NodeUnschedulable to NodeResourcesFit), and sets
// cy.preferTaints if n passes TaintToleration with a PreferNoSchedule
// taint.
func (s *Scheduler) nodeFilters(n *model.Node) nodeStatus {
	p := s.cy.p
	if n.Unschedulable() && !p.Tolerates(model.Taint{Key: model.TaintUnschedulable, Effect: "NoSchedule"}) {
		return rejected(unresolvable, rejectUnschedulable) // NodeUnschedulable
	}
	if !n.Schedulable() {
		return rejected(unresolvable, rejectDiskFailed)
	}
	if len(n.Taints) > 0 {
		if t := model.UntoleratedTaint(p, n); t != nil {
			st := rejected(unresolvable, rejectTaint)
			st.taint = t
			return st
		}
		s.cy.preferTaints = s.cy.preferTaints || hasPreferNoSchedule(n)
	}
	if s.cy.nodeAffinity && !model.MatchesNodeAffinity(p, n) {
		return rejected(unresolvable, rejectNodeAffinity)
	}
	return resourcesStatus(model.FitsResources(p, n, s.freedOn(n), s.nominatedTo(n.ID())))
}

// resourcesStatus is the status of NodeResourcesFit's verdict: every
// shortage is a reason, in the filter's order.
func resourcesStatus(short model.Shortage, unresolvableToo bool) nodeStatus {
	var st nodeStatus
	if short == 0 {
		return st
	}
	k := 0
	if short&model.ShortPods != 0 {
		st.reasons[k], k = rejectTooManyPods, k+1
	}
	if short&model.ShortCPU != 0 {
		st.reasons[k], k = rejectCPU, k+1
	}
	if short&model.ShortMemory != 0 {
		st.reasons[k] = rejectMemory
	}
	st.code = unschedulable
	if unresolvableToo {
		st.code = unresolvable
	}
	return st
}

// podFilters runs the filters that count pods (PodTopologySpread,
// InterPodAffinity) on node n.
func (s *Scheduler) podFilters(n *model.Node) nodeStatus {
	if s.cy.spread.cons != nil {
		if why, hopeless := s.cy.spread.check(int32(n.ID())); why != "" {
			if hopeless {
				return rejected(unresolvable, rejectSpreadNoLabel)
			}
			return rejected(unschedulable, rejectSpread)
		}
	}
	if s.cy.interPod.active() {
		switch why, _ := s.cy.interPod.check(n); why {
		case reasonAffinityRules:
			return rejected(unresolvable, rejectAffinity)
		case reasonAntiAffinityRules:
			return rejected(unschedulable, rejectAntiAffinity)
		case reasonExistingAntiAffinity:
			return rejected(unschedulable, rejectExistingAntiAffinity)
		}
	}
	return nodeStatus{}
}

// hasPreferNoSchedule reports whether n has a PreferNoSchedule taint.
func hasPreferNoSchedule(n *model.Node) bool {
	for i := range n.Taints {
		if n.Taints[i].Effect == "PreferNoSchedule" {
			return true
		}
	}
	return false
}

// rejection counts the nodes filtered out for one reason (and, for a taint,
// one taint key and value).
type rejection struct {
	why        rejectReason
	key, value string
	nodes      int
}

func (r *rejection) String() string {
	if r.why == rejectTaint {
		return model.TaintReason(&model.Taint{Key: r.key, Value: r.value})
	}
	return rejectText[r.why]
}

// reject records why node n was filtered out; a node where preemption
// might help joins the potential candidates.
func (s *Scheduler) reject(n *model.Node, st nodeStatus) {
	cy := &s.cy
	if k := len(cy.reasons); k > 0 && st == cy.lastReject && cy.lastLen == k {
		// The same status as the node before: its reasons, counted then,
		// are the last ones of the list (most nodes fail alike).
		for i := range st.reasons {
			if st.reasons[i] == rejectNone {
				break
			}
			cy.reasons[cy.lastAt[i]].nodes++
		}
	} else {
		cy.reasons = countReasons(cy.reasons, st, 1)
		cy.lastReject, cy.lastLen = st, len(cy.reasons)
		for i, why := range st.reasons {
			if why != rejectNone {
				cy.lastAt[i] = indexOfReason(cy.reasons, st, why)
			}
		}
	}
	if st.code == unschedulable {
		s.cy.potential = append(s.cy.potential, n)
	}
}

// indexOfReason returns where in list the reason why of status st is.
func indexOfReason(list []rejection, st nodeStatus, why rejectReason) int {
	var key, value string
	if why == rejectTaint && st.taint != nil {
		key, value = st.taint.Key, st.taint.Value
	}
	for i := range list {
		if r := &list[i]; r.why == why && r.key == key && r.value == value {
			return i
		}
	}
	return -1
}

// countReasons adds k nodes with status st to the counts.
func countReasons(list []rejection, st nodeStatus, k int) []rejection {
	for _, why := range st.reasons {
		if why == rejectNone {
			break
		}
		var key, value string
		if why == rejectTaint && st.taint != nil {
			key, value = st.taint.Key, st.taint.Value
		}
		found := false
		for i := range list {
			if r := &list[i]; r.why == why && r.key == key && r.value == value {
				r.nodes += k
				found = true
				break
			}
		}
		if !found {
			list = append(list, rejection{why: why, key: key, value: value, nodes: k})
		}
	}
	return list
}

// fitError returns the FitError message for the last try, which found no
// node, and the plugins that rejected the pod.
func (s *Scheduler) fitError() (string, plugins) {
	reasons := s.cy.reasons
	if s.cy.absent > 0 {
		reasons = countReasons(reasons, rejected(unresolvable, rejectAbsent), s.cy.absent)
		s.cy.reasons = reasons
	}
	var rejectors plugins
	for i := range reasons {
		rejectors |= reasons[i].why.plugin()
	}
	return s.cy.fitMsg.message("", len(s.w.Nodes()), reasons), rejectors
}

// messageCache keeps the last message made from a list of reasons: pods
// turned down alike, as a queue of Pending pods is, share one string
// instead of formatting it again per try.
type messageCache struct {
	prefix  string
	nodes   int
	reasons []rejection
	msg     string
}

// message is prefix + unschedulableMessage(nodes, reasons).
func (c *messageCache) message(prefix string, nodes int, reasons []rejection) string {
	if c.msg != "" && c.prefix == prefix && c.nodes == nodes && slices.Equal(c.reasons, reasons) {
		return c.msg
	}
	c.prefix, c.nodes, c.reasons = prefix, nodes, append(c.reasons[:0], reasons...)
	c.msg = prefix + unschedulableMessage(nodes, reasons)
	return c.msg
}

// joinCache keeps the last join of two messages with a space.
type joinCache struct{ a, b, msg string }

func (c *joinCache) join(a, b string) string {
	if c.msg == "" || c.a != a || c.b != b {
		c.a, c.b, c.msg = a, b, a+" "+b
	}
	return c.msg
}

// unschedulableMessage formats the scheduler's FitError message:
// "0/3 nodes are available: 2 Insufficient cpu, 1 Too many pods."
func unschedulableMessage(nodes int, reasons []rejection) string {
	if nodes == 0 {
		return "no nodes available to schedule pods"
	}
	msg := fmt.Sprintf("0/%d nodes are available:", nodes)
	if len(reasons) == 0 {
		return msg
	}
	parts := make([]string, 0, len(reasons))
	for i := range reasons {
		parts = append(parts, fmt.Sprintf("%d %s", reasons[i].nodes, reasons[i].String()))
	}
	sort.Strings(parts)
	return msg + " " + strings.Join(parts, ", ") + "."
}
