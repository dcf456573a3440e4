package model

import (
	"fmt"
	"sort"
	"strings"

	"github.com/podsim/podsim/sim"
)

// scheduler binds pending pods to nodes, like kube-scheduler with its
// default filters (resources, nodeSelector, taints) and least-allocated
// scoring. Pods wait in a scheduling queue (schedqueue.go); a pass, run at
// the instant something was queued or a cluster event concerns a parked
// pod, tries every pod that is ready, one at a time. Each try checks nodes
// from a rotating start until it has found numFeasibleNodesToFind feasible
// ones (all nodes in clusters under 100) and takes the best score; ties go
// to the node found first. A pod that fits nowhere is marked Unschedulable
// and parked until an event that could make it fit.
type scheduler struct {
	w     *World
	q     schedQueue
	timer sim.Timer // the next pass
	flush sim.Timer // the next look for pods parked too long

	// nextStartNodeIndex is where the next pod's node scan starts: it
	// advances by the nodes each try processed, as upstream's does.
	nextStartNodeIndex int
	// percentageOfNodesToScore is the profile setting; 0 is adaptive.
	percentageOfNodesToScore int

	reasons []rejection // scratch: why nodes were filtered out in one try
}

func (s *scheduler) init(w *World) {
	s.w = w
	s.q.init()
	s.timer.Init(s.run)
	s.flush.Init(s.flushLeftover)
}

// add queues a new pod for scheduling.
func (s *scheduler) add(p *Pod) {
	s.q.add(p, s.w.Now())
	s.kick()
}

// forget drops an unscheduled pod that left the API from the queue.
func (s *scheduler) forget(p *Pod) { s.q.forget(p) }

// assignedPodFreed is the cluster event "a pod bound to a node was deleted
// or reached a terminal phase". The caller kicks once its change is done.
func (s *scheduler) assignedPodFreed() { s.q.pending |= eventAssignedPodFreed }

// nodeAdded is the cluster event "a node was added"; it kicks.
func (s *scheduler) nodeAdded() {
	s.q.pending |= eventNodeAdded
	s.kick()
}

// taintsRemoved is the cluster event "a node lost taints". The caller kicks.
func (s *scheduler) taintsRemoved() { s.q.pending |= eventNodeTaintsRemoved }

// nodeSchedulable is the cluster event "a node was uncordoned" (its spec
// and its unschedulable taint changed); it kicks.
func (s *scheduler) nodeSchedulable() {
	s.q.pending |= eventNodeSchedulable
	s.kick()
}

// kick arms a pass now if there is something to do: a pod ready to try,
// or an event since the last pass that concerns a parked pod.
func (s *scheduler) kick() {
	if s.timer.Pending() || !s.q.waiting() && !s.q.movable() {
		return
	}
	s.w.eng.Schedule(&s.timer, s.w.Now(), sim.Normal)
}

// run is a pass: move the parked pods the latest events concern, then try
// every pod ready, activeQ first, then backoffQ.
func (s *scheduler) run() {
	now := s.w.Now()
	s.q.movePending(now)
	for p := s.q.pop(); p != nil; p = s.q.pop() {
		s.scheduleOne(p)
	}
	if s.q.parked > 0 && !s.flush.Pending() {
		s.w.eng.Schedule(&s.flush, sim.AddSat(now/unschedulableFlushPeriod*unschedulableFlushPeriod, unschedulableFlushPeriod), sim.Normal)
	}
}

// flushLeftover runs every 30s while pods are parked: those parked for
// longer than podMaxInUnschedulablePodsDuration are tried again.
func (s *scheduler) flushLeftover() {
	now := s.w.Now()
	if s.q.flushLeftover(now) {
		s.kick()
	}
	if s.q.parked > 0 {
		s.w.eng.Schedule(&s.flush, sim.AddSat(now, unschedulableFlushPeriod), sim.Normal)
	}
}

// scheduleOne tries to bind p, just popped from the queue; a pod that fits
// nowhere is parked.
func (s *scheduler) scheduleOne(p *Pod) {
	if len(p.schedulingGates) > 0 {
		p.setCondition(PodScheduled, False, "SchedulingGated", "Scheduling is blocked due to non-empty scheduling gates")
		s.q.gate(p)
		return
	}
	best := s.findNode(p)
	if best == nil {
		msg, rejectors := s.fitError()
		c, _ := p.status.Condition(PodScheduled)
		if c.Reason != "Unschedulable" || c.Message != msg {
			p.setCondition(PodScheduled, False, "Unschedulable", msg)
			s.w.event("Pod", p.key, EventWarning, "FailedScheduling", "default-scheduler", "%s", msg)
		}
		s.q.park(p, rejectors, s.w.Now())
		return
	}
	if p.Namespace == DefaultNamespace { // one argument fewer to box: no allocation per pod more than before namespaces
		s.w.event("Pod", p.key, EventNormal, "Scheduled", "default-scheduler",
			"Successfully assigned default/%s to %s", p.Name, best.Name)
	} else {
		s.w.event("Pod", p.key, EventNormal, "Scheduled", "default-scheduler",
			"Successfully assigned %s to %s", p.key, best.Name)
	}
	p.bind(best)
}

// Upstream's bounds on how many feasible nodes a try looks for
// (pkg/scheduler/schedule_one.go).
const (
	minFeasibleNodesToFind           = 100
	minFeasibleNodesPercentageToFind = 5
)

// numFeasibleNodesToFind is how many feasible nodes a try looks for before
// it stops and scores them, as upstream's: every node in clusters under
// 100; else percentageOfNodesToScore of them, adaptive when 0 (50% less
// one point per 125 nodes, at least 5%), and at least 100.
func numFeasibleNodesToFind(percentage, numAllNodes int) int {
	if numAllNodes < minFeasibleNodesToFind {
		return numAllNodes
	}
	if percentage <= 0 {
		percentage = max(50-numAllNodes/125, minFeasibleNodesPercentageToFind)
	}
	return max(numAllNodes*percentage/100, minFeasibleNodesToFind)
}

// findNode returns the best node for p, or nil if none passes the filters;
// then s.reasons holds why each node was filtered out. It checks nodes from
// nextStartNodeIndex on, wrapping around, until numFeasibleNodesToFind
// nodes passed, and advances nextStartNodeIndex by the nodes it processed.
// Of the feasible nodes, the first with the highest score wins.
func (s *scheduler) findNode(p *Pod) *Node {
	nodes := s.w.nodes
	s.reasons = s.reasons[:0]
	if len(nodes) == 0 {
		return nil
	}
	want := numFeasibleNodesToFind(s.percentageOfNodesToScore, len(nodes))
	var best *Node
	bestScore := int64(-1)
	feasible, processed := 0, 0
	start := s.nextStartNodeIndex % len(nodes)
	for i := range nodes {
		n := nodes[(start+i)%len(nodes)]
		processed++
		why, taint := filter(p, n)
		if why != fits {
			s.reject(why, taint)
			continue
		}
		if sc := score(n, p.requests); sc > bestScore {
			best, bestScore = n, sc
		}
		if feasible++; feasible == want {
			break
		}
	}
	s.nextStartNodeIndex = (start + processed) % len(nodes)
	return best
}

// rejectReason is why a filter plugin turned a node down.
type rejectReason uint8

const (
	fits rejectReason = iota
	rejectUnschedulable
	rejectDiskFailed
	rejectNodeSelector
	rejectTaint
	rejectTooManyPods
	rejectCPU
	rejectMemory
)

// plugin is the filter plugin that gives the reason.
func (r rejectReason) plugin() plugins {
	switch r {
	case rejectUnschedulable, rejectDiskFailed:
		return pluginNodeUnschedulable
	case rejectNodeSelector:
		return pluginNodeAffinity
	case rejectTaint:
		return pluginTaintToleration
	case rejectTooManyPods, rejectCPU, rejectMemory:
		return pluginNodeResourcesFit
	}
	return 0
}

// rejection counts the nodes filtered out for one reason (and, for a taint,
// one taint key and value).
type rejection struct {
	why        rejectReason
	key, value string
	nodes      int
}

func (r *rejection) String() string {
	switch r.why {
	case rejectUnschedulable:
		return "node(s) were unschedulable"
	case rejectDiskFailed:
		return "node(s) had a failed disk"
	case rejectNodeSelector:
		return "node(s) didn't match Pod's node affinity/selector"
	case rejectTaint:
		return fmt.Sprintf("node(s) had untolerated taint {%s: %s}", r.key, r.value)
	case rejectTooManyPods:
		return "Too many pods"
	case rejectCPU:
		return "Insufficient cpu"
	case rejectMemory:
		return "Insufficient memory"
	}
	return ""
}

// reject counts a node filtered out for why (taint: the untolerated taint).
func (s *scheduler) reject(why rejectReason, taint *Taint) {
	var key, value string
	if taint != nil {
		key, value = taint.Key, taint.Value
	}
	for i := range s.reasons {
		r := &s.reasons[i]
		if r.why == why && r.key == key && r.value == value {
			r.nodes++
			return
		}
	}
	s.reasons = append(s.reasons, rejection{why: why, key: key, value: value, nodes: 1})
}

// fitError returns the FitError message for the last try, which found no
// node, and the plugins that rejected the pod.
func (s *scheduler) fitError() (string, plugins) {
	var rejectors plugins
	for i := range s.reasons {
		rejectors |= s.reasons[i].why.plugin()
	}
	return unschedulableMessage(len(s.w.nodes), s.reasons), rejectors
}

// filter returns why p cannot go to n, with the untolerated taint for
// rejectTaint, or fits. It reads the node's running totals: O(1) in the
// node's pods.
func filter(p *Pod, n *Node) (rejectReason, *Taint) {
	if n.unschedulable && !p.tolerates(Taint{Key: TaintUnschedulable, Effect: "NoSchedule"}) {
		return rejectUnschedulable, nil // NodeUnschedulable
	}
	if !n.Schedulable() {
		return rejectDiskFailed, nil
	}
	if p.affinityNode != "" && p.affinityNode != n.Name {
		return rejectNodeSelector, nil
	}
	if len(p.Spec.NodeSelector) > 0 {
		for k, v := range p.Spec.NodeSelector { // order is moot: any mismatch rejects
			if n.Labels[k] != v {
				return rejectNodeSelector, nil
			}
		}
	}
	for i := range n.Taints {
		t := &n.Taints[i]
		if (t.Effect == "NoSchedule" || t.Effect == "NoExecute") && !p.tolerates(*t) {
			return rejectTaint, t
		}
	}
	used, req := &n.used, &p.requests
	switch {
	case n.Capacity.Pods > 0 && used.Pods+1 > n.Capacity.Pods:
		return rejectTooManyPods, nil
	case req.MilliCPU > 0 && used.MilliCPU+req.MilliCPU > n.Capacity.MilliCPU:
		return rejectCPU, nil
	case req.Memory > 0 && used.Memory+req.Memory > n.Capacity.Memory:
		return rejectMemory, nil
	}
	return fits, nil
}

// score is kube-scheduler's LeastAllocated: the mean free fraction of cpu
// and memory after placing the pod, scaled to 0..100. It reads the node's
// running totals.
func score(n *Node, req Resources) int64 {
	part := func(used, req, capacity int64) int64 {
		if capacity <= 0 {
			return 0
		}
		return (capacity - used - req) * 100 / capacity
	}
	return (part(n.used.MilliCPU, req.MilliCPU, n.Capacity.MilliCPU) + part(n.used.Memory, req.Memory, n.Capacity.Memory)) / 2
}

// unschedulableMessage formats the scheduler's FitError message:
// "0/3 nodes are available: 2 Insufficient cpu, 1 Too many pods."
func unschedulableMessage(nodes int, reasons []rejection) string {
	if nodes == 0 {
		return "no nodes available to schedule pods"
	}
	parts := make([]string, 0, len(reasons))
	for i := range reasons {
		parts = append(parts, fmt.Sprintf("%d %s", reasons[i].nodes, reasons[i].String()))
	}
	sort.Strings(parts)
	return fmt.Sprintf("0/%d nodes are available: %s.", nodes, strings.Join(parts, ", "))
}
