package model

import (
	"fmt"
	"sort"
	"strings"

	"github.com/podsim/podsim/sim"
)

// scheduler binds pending pods to nodes, like kube-scheduler with its
// default filters (resources, nodeSelector, taints) and least-allocated
// scoring. Ties go to the node added first. A pod that fits nowhere is
// marked Unschedulable and tried again whenever the cluster changes.
type scheduler struct {
	w     *World
	queue []*Pod // unscheduled pods, creation order
	timer sim.Timer
}

func (s *scheduler) init(w *World) {
	s.w = w
	s.timer.Init(s.run)
}

// add queues a pod for scheduling.
func (s *scheduler) add(p *Pod) {
	s.queue = append(s.queue, p)
	s.kick()
}

// kick asks for a scheduling pass now: the cluster changed.
func (s *scheduler) kick() {
	if len(s.queue) > 0 && !s.timer.Pending() {
		s.w.eng.Schedule(&s.timer, s.w.Now(), sim.Normal)
	}
}

func (s *scheduler) run() {
	keep := s.queue[:0]
	for _, p := range s.queue {
		if p.deleted || p.Node != nil {
			continue
		}
		if !s.schedule(p) {
			keep = append(keep, p)
		}
	}
	clear(s.queue[len(keep):])
	s.queue = keep
}

// schedule tries to bind p; it reports whether p left the queue.
func (s *scheduler) schedule(p *Pod) bool {
	if len(p.schedulingGates) > 0 {
		p.setCondition(PodScheduled, False, "SchedulingGated", "Scheduling is blocked due to non-empty scheduling gates")
		return false
	}
	var best *Node
	bestScore := int64(-1)
	var reasons map[string]int // why nodes were filtered out; made only when one is
	req := p.requests
	for _, n := range s.w.nodes {
		if why := s.filter(p, n, req); why != "" {
			if reasons == nil {
				reasons = map[string]int{}
			}
			reasons[why]++
			continue
		}
		if sc := score(n, req); sc > bestScore {
			best, bestScore = n, sc
		}
	}
	if best == nil {
		msg := unschedulableMessage(len(s.w.nodes), reasons)
		c, _ := p.status.Condition(PodScheduled)
		if c.Reason != "Unschedulable" || c.Message != msg {
			p.setCondition(PodScheduled, False, "Unschedulable", msg)
			s.w.event("Pod", p.Name, EventWarning, "FailedScheduling", "default-scheduler", "%s", msg)
		}
		return false
	}
	s.w.event("Pod", p.Name, EventNormal, "Scheduled", "default-scheduler",
		"Successfully assigned default/%s to %s", p.Name, best.Name)
	p.bind(best)
	return true
}

// filter returns why p cannot go to n, or "" if it can. It reads the node's
// running totals: O(1) in the node's pods.
func (s *scheduler) filter(p *Pod, n *Node, req Resources) string {
	if !n.Schedulable() {
		return "node(s) had a failed disk"
	}
	for k, v := range p.Spec.NodeSelector {
		if n.Labels[k] != v {
			return "node(s) didn't match Pod's node affinity/selector"
		}
	}
	for _, t := range n.Taints {
		if (t.Effect == "NoSchedule" || t.Effect == "NoExecute") && !p.tolerates(t) {
			return fmt.Sprintf("node(s) had untolerated taint {%s: %s}", t.Key, t.Value)
		}
	}
	used := n.used
	switch {
	case n.Capacity.Pods > 0 && used.Pods+1 > n.Capacity.Pods:
		return "Too many pods"
	case req.MilliCPU > 0 && used.MilliCPU+req.MilliCPU > n.Capacity.MilliCPU:
		return "Insufficient cpu"
	case req.Memory > 0 && used.Memory+req.Memory > n.Capacity.Memory:
		return "Insufficient memory"
	}
	return ""
}

// score is kube-scheduler's LeastAllocated: the mean free fraction of cpu
// and memory after placing the pod, scaled to 0..100.
func score(n *Node, req Resources) int64 {
	used := n.used
	part := func(used, req, capacity int64) int64 {
		if capacity <= 0 {
			return 0
		}
		return (capacity - used - req) * 100 / capacity
	}
	return (part(used.MilliCPU, req.MilliCPU, n.Capacity.MilliCPU) + part(used.Memory, req.Memory, n.Capacity.Memory)) / 2
}

// unschedulableMessage formats the scheduler's FitError message:
// "0/3 nodes are available: 2 Insufficient cpu, 1 Too many pods."
func unschedulableMessage(nodes int, reasons map[string]int) string {
	if nodes == 0 {
		return "no nodes available to schedule pods"
	}
	parts := make([]string, 0, len(reasons))
	for r, n := range reasons {
		parts = append(parts, fmt.Sprintf("%d %s", n, r))
	}
	sort.Strings(parts)
	return fmt.Sprintf("0/%d nodes are available: %s.", nodes, strings.Join(parts, ", "))
}
