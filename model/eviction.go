package model

import (
	"fmt"
	"time"
)

// HTTP status codes of the Eviction API's answers.
const (
	EvictionCreated         = 201 // evicted: the pod is being deleted
	EvictionNotFound        = 404 // the pod is gone already
	EvictionTooManyRequests = 429 // refused: its disruption budget allows none now
	EvictionInternalError   = 500 // refused: the pod has more than one budget
)

// EvictionResult is the Eviction API's answer: its status code and, for a
// refusal, the error's message and cause.
type EvictionResult struct {
	Code    int
	Message string
	Cause   string // for 429: the disruption budget's cause
}

// Evict asks the Eviction API to evict the pod (POST pods/eviction, as
// pkg/registry/core/pod/storage/eviction.go answers it):
//
//   - a pod that is Pending, finished or already being deleted is deleted
//     without looking at budgets (canIgnorePDB);
//   - a pod selected by more than one PodDisruptionBudget is refused (500);
//   - a pod that is not Ready is deleted without taking a disruption while
//     its budget has its desired healthy pods (unhealthyPodEvictionPolicy
//     IfHealthyBudget, the default), or always (AlwaysAllow);
//   - otherwise its budget's disruptionsAllowed must be above 0, or the
//     eviction is refused with 429 TooManyRequests; if it is, it takes one
//     (checkAndDecrement).
//
// An eviction that goes through sets the condition DisruptionTarget
// (EvictionByEvictionAPI) and deletes the pod with its own grace period.
func (p *Pod) Evict() EvictionResult { return p.EvictWithGrace(nil) }

// EvictWithGrace is Evict with the grace period of the Eviction's
// deleteOptions (nil: the pod's terminationGracePeriodSeconds), as
// `kubectl drain --grace-period` asks for it.
func (p *Pod) EvictWithGrace(grace *time.Duration) EvictionResult {
	if p.deleted {
		return EvictionResult{Code: EvictionNotFound, Message: fmt.Sprintf("pods %q not found", p.Name)}
	}
	if p.terminal() || p.Phase() == Pending || p.deleting {
		return p.evictNow(grace)
	}
	budgets := p.w.BudgetsOf(p)
	switch {
	case len(budgets) > 1:
		return EvictionResult{Code: EvictionInternalError,
			Message: "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support."}
	case len(budgets) == 0:
		return p.evictNow(grace)
	}
	b := budgets[0]
	st := &b.Status
	if !p.ready() && (b.Spec.AlwaysAllowUnhealthy || st.CurrentHealthy >= st.DesiredHealthy && st.DesiredHealthy > 0) {
		return p.evictNow(grace)
	}
	if st.DisruptionsAllowed <= 0 {
		return EvictionResult{Code: EvictionTooManyRequests,
			Message: "Cannot evict pod as it would violate the pod's disruption budget.",
			Cause:   fmt.Sprintf("The disruption budget %s needs %d healthy pods and has %d currently", b.Spec.Name, st.DesiredHealthy, st.CurrentHealthy)}
	}
	st.DisruptionsAllowed--
	b.w.object(ObjectChange{Kind: ObjectBudget, Op: ObjectUpdated, Budget: b})
	if st.DisruptionsAllowed == 0 {
		b.UpdateCondition()
	}
	return p.evictNow(grace)
}

// evictNow is addConditionAndDeletePod: DisruptionTarget, then a graceful
// delete.
func (p *Pod) evictNow(grace *time.Duration) EvictionResult {
	p.setCondition(DisruptionTarget, True, "EvictionByEvictionAPI", "Eviction API: evicting")
	p.Delete(grace)
	return EvictionResult{Code: EvictionCreated}
}
