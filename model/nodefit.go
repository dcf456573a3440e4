package model

import "fmt"

// The node-local fit rules that the scheduler's filters, the kubelet's
// admission and the node autoscalers' simulations (SimNode.Fits) share,
// as upstream shares them: NodeResourcesFit's Fits
// (pkg/scheduler/framework/plugins/noderesources/fit.go, which the
// kubelet's predicate admission calls too) and the taint and node
// affinity helpers of k8s.io/component-helpers/scheduling/corev1. They
// are core rules: they read a pod and a node and nothing of the
// scheduler's state.

// The reasons these rules give, as the scheduler words them.
const (
	ReasonUnschedulable = "node(s) were unschedulable"
	ReasonDiskFailed    = "node(s) had a failed disk"
	ReasonNodeAffinity  = "node(s) didn't match Pod's node affinity/selector"
	ReasonTooManyPods   = "Too many pods"
	ReasonCPU           = "Insufficient cpu"
	ReasonMemory        = "Insufficient memory"
)

// TaintReason is TaintToleration's reason for a node with taint t that a
// pod does not tolerate.
func TaintReason(t *Taint) string {
	return fmt.Sprintf("node(s) had untolerated taint {%s: %s}", t.Key, t.Value)
}

// Shortage is what NodeResourcesFit found short on a node, as bits.
type Shortage uint8

// The shortages, in the order the filter reports them.
const (
	ShortPods Shortage = 1 << iota
	ShortCPU
	ShortMemory
)

// UntoleratedTaint returns the first NoSchedule or NoExecute taint of n
// that p does not tolerate, or nil (TaintToleration's filter).
func UntoleratedTaint(p *Pod, n *Node) *Taint {
	for i := range n.Taints {
		t := &n.Taints[i]
		if (t.Effect == "NoSchedule" || t.Effect == "NoExecute") && !p.tolerates(*t) {
			return t
		}
	}
	return nil
}

// FitsResources is NodeResourcesFit's filter (fitsRequest) for p on node
// n: with the requests of n's pods (less freed, if not nil: what the
// caller's view took off n, as preemption's dry run does) and those of
// nominated (the pods nominated to n) with a priority at least p's
// (RunFilterPluginsWithNominatedPods), p must fit in its pods, cpu and
// memory. It returns every shortage, and whether p could not fit even on
// the empty node (the node is then UnschedulableAndUnresolvable).
func FitsResources(p *Pod, n *Node, freed *Resources, nominated []*Pod) (short Shortage, unresolvable bool) {
	used, req, capacity := n.used, &p.requests, &n.Capacity
	if freed != nil {
		used.sub(*freed)
	}
	if len(nominated) > 0 {
		for _, q := range nominated {
			if q != p && q.priority >= p.priority {
				used.add(q.requests)
			}
		}
	}
	if capacity.Pods > 0 && used.Pods+1 > capacity.Pods {
		short |= ShortPods
	}
	if req.MilliCPU > 0 && req.MilliCPU > capacity.MilliCPU-used.MilliCPU {
		short |= ShortCPU
		unresolvable = unresolvable || req.MilliCPU > capacity.MilliCPU
	}
	if req.Memory > 0 && req.Memory > capacity.Memory-used.Memory {
		short |= ShortMemory
		unresolvable = unresolvable || req.Memory > capacity.Memory
	}
	return short, unresolvable
}

func (r *Resources) add(o Resources) {
	r.MilliCPU += o.MilliCPU
	r.Memory += o.Memory
	r.Pods += o.Pods
}

func (r *Resources) sub(o Resources) {
	r.MilliCPU -= o.MilliCPU
	r.Memory -= o.Memory
	r.Pods -= o.Pods
}
