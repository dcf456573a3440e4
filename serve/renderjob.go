package serve

import (
	"strconv"
	"strings"

	"github.com/podsim/podsim/model"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
)

// jobSpecPolicies renders the Job's spec beyond its counts: its completion
// mode, per-index backoff, pod failure policy, success policy and pod
// replacement policy, as the API defaults them.
func jobSpecPolicies(out *batchv1.JobSpec, sp *model.WorkloadSpec) {
	mode := batchv1.NonIndexedCompletion
	if sp.Indexed {
		mode = batchv1.IndexedCompletion
	}
	out.CompletionMode = &mode
	repl := batchv1.TerminatingOrFailed
	if sp.PodReplacementFailed || sp.PodFailurePolicy != nil {
		repl = batchv1.Failed
	}
	out.PodReplacementPolicy = &repl
	if n := sp.BackoffLimitPerIndex; n != nil {
		out.BackoffLimitPerIndex = int32p(*n)
	}
	if n := sp.MaxFailedIndexes; n != nil {
		out.MaxFailedIndexes = int32p(*n)
	}
	if pol := sp.PodFailurePolicy; pol != nil {
		out.PodFailurePolicy = &batchv1.PodFailurePolicy{Rules: []batchv1.PodFailurePolicyRule{}}
		for _, r := range pol.Rules {
			rule := batchv1.PodFailurePolicyRule{Action: batchv1.PodFailurePolicyAction(r.Action)}
			if e := r.OnExitCodes; e != nil {
				op := batchv1.PodFailurePolicyOnExitCodesOpIn
				if e.NotIn {
					op = batchv1.PodFailurePolicyOnExitCodesOpNotIn
				}
				rule.OnExitCodes = &batchv1.PodFailurePolicyOnExitCodesRequirement{Operator: op, Values: e.Values}
				if e.ContainerName != "" {
					name := e.ContainerName
					rule.OnExitCodes.ContainerName = &name
				}
			}
			for _, c := range r.OnPodConditions {
				rule.OnPodConditions = append(rule.OnPodConditions, batchv1.PodFailurePolicyOnPodConditionsPattern{
					Type: corev1.PodConditionType(c.Type), Status: corev1.ConditionStatus(c.Status)})
			}
			out.PodFailurePolicy.Rules = append(out.PodFailurePolicy.Rules, rule)
		}
	}
	if len(sp.SuccessPolicy) > 0 {
		out.SuccessPolicy = &batchv1.SuccessPolicy{}
		for _, r := range sp.SuccessPolicy {
			var rule batchv1.SuccessPolicyRule
			if r.SucceededIndexes != nil {
				s := formatIntervals(r.SucceededIndexes)
				rule.SucceededIndexes = &s
			}
			if r.SucceededCount > 0 {
				rule.SucceededCount = int32p(r.SucceededCount)
			}
			out.SuccessPolicy.Rules = append(out.SuccessPolicy.Rules, rule)
		}
	}
}

// formatIntervals writes intervals as the API does ("0-2,4").
func formatIntervals(ivs []model.Interval) string {
	var b strings.Builder
	for i, iv := range ivs {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(iv.First))
		if iv.Last > iv.First {
			b.WriteByte('-')
			b.WriteString(strconv.Itoa(iv.Last))
		}
	}
	return b.String()
}
