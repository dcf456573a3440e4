package manifests

import (
	"github.com/podsim/podsim/scenarios"
	batchv1 "k8s.io/api/batch/v1"
)

// jobPolicies converts a Job's completion mode, per-index backoff, pod
// failure, success and pod replacement policies.
func jobPolicies(js *batchv1.JobSpec) scenarios.JobPolicies {
	out := scenarios.JobPolicies{BackoffLimitPerIndex: js.BackoffLimitPerIndex, MaxFailedIndexes: js.MaxFailedIndexes}
	if m := js.CompletionMode; m != nil {
		out.CompletionMode = string(*m)
	}
	if p := js.PodReplacementPolicy; p != nil {
		out.PodReplacementPolicy = string(*p)
	}
	if pol := js.PodFailurePolicy; pol != nil {
		out.PodFailurePolicy = &scenarios.PodFailurePolicy{}
		for _, r := range pol.Rules {
			rule := scenarios.PodFailurePolicyRule{Action: string(r.Action)}
			if e := r.OnExitCodes; e != nil {
				rule.OnExitCodes = &scenarios.OnExitCodes{ContainerName: e.ContainerName, Operator: string(e.Operator), Values: e.Values}
			}
			for _, c := range r.OnPodConditions {
				rule.OnPodConditions = append(rule.OnPodConditions, scenarios.PodConditionPattern{Type: string(c.Type), Status: string(c.Status)})
			}
			out.PodFailurePolicy.Rules = append(out.PodFailurePolicy.Rules, rule)
		}
	}
	if sp := js.SuccessPolicy; sp != nil {
		out.SuccessPolicy = &scenarios.SuccessPolicy{}
		for _, r := range sp.Rules {
			out.SuccessPolicy.Rules = append(out.SuccessPolicy.Rules, scenarios.SuccessPolicyRule{SucceededIndexes: r.SucceededIndexes, SucceededCount: r.SucceededCount})
		}
	}
	return out
}
