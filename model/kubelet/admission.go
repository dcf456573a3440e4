package kubelet

import (
	"strconv"

	"github.com/podsim/podsim/model"
)

// The kubelet's predicate admission (pkg/kubelet/lifecycle/predicate.go,
// predicateAdmitHandler.Admit): before it sets a pod up, the kubelet checks
// that the pod fits beside the pods it has admitted already
// (scheduler.AdmissionCheck, noderesources.Fits: the pod count first, then
// cpu, then memory). A pod bound by spec.nodeName, which no scheduler
// checked, may not: the kubelet rejects it (rejectPod), Failed with the
// first insufficient resource as its reason.

// admitFits is the predicate admit handler's resource check of p on its
// node: against the requests of the pods the kubelet has admitted there
// (set up, not finished), the first resource p does not fit, with the
// amounts upstream's InsufficientResourceError reports. ok is true when
// p fits.
func (p *podState) admitFits() (reason string, requested, used, capacity int64, ok bool) {
	n := p.Node
	// The pods the kubelet admitted and that have not finished all hold
	// resources on n (Node.Allocated), so p fitting beside every pod that
	// holds them is p fitting beside those: most pods, placed by the
	// scheduler, need no walk of their node's pods.
	held, requests := n.Allocated(), p.Requests()
	if p.holds() {
		held.Sub(requests)
	}
	if reason, _, _, _ := firstShort(&requests, &held, &n.Capacity); reason == "" {
		return "", 0, 0, 0, true
	}
	var u model.Resources
	for _, q := range n.Pods() {
		if q != p.Pod && q.Sandboxed() && !q.Deleted() && !q.Phase().Terminal() {
			u.Add(q.Requests())
		}
	}
	reason, requested, used, capacity = firstShort(&requests, &u, &n.Capacity)
	return reason, requested, used, capacity, reason == ""
}

// firstShort is the first resource that requests r do not fit in capacity
// c beside used u (the pod count first, then cpu, then memory), with the
// amounts InsufficientResourceError reports; "" if r fits. A pod count of
// 0 sets no limit, as the scheduler reads it.
func firstShort(r, u, c *model.Resources) (reason string, requested, used, capacity int64) {
	switch {
	case c.Pods > 0 && u.Pods+1 > c.Pods:
		return model.ReasonOutOfPods, 1, u.Pods, c.Pods
	case r.MilliCPU > 0 && r.MilliCPU > c.MilliCPU-u.MilliCPU:
		return model.ReasonOutOfCPU, r.MilliCPU, u.MilliCPU, c.MilliCPU
	case r.Memory > 0 && r.Memory > c.Memory-u.Memory:
		return model.ReasonOutOfMemory, r.Memory, u.Memory, c.Memory
	}
	return "", 0, 0, 0
}

// admit is the kubelet's admission of p, about to be set up on its node:
// it reports whether p fits; if not, p is rejected as rejectPod does:
// event <reason> from the kubelet with upstream's message ("Node didn't
// have enough resource: cpu, requested: 500, used: 3800, capacity:
// 4000"), phase Failed, status reason <reason> and message "Pod was
// rejected: <message>".
func (p *podState) admit() bool {
	reason, req, used, capacity, ok := p.admitFits()
	if ok {
		return true
	}
	msg := "Node didn't have enough resource: " + reason[len("OutOf"):] + ", requested: " + strconv.FormatInt(req, 10) +
		", used: " + strconv.FormatInt(used, 10) + ", capacity: " + strconv.FormatInt(capacity, 10)
	p.Reject(reason, msg)
	return false
}
