package scenarios

import (
	"math"

	"github.com/podsim/podsim/model"
)

// jobPolicies converts a Job's policies into out, whose counts are set,
// with the API's defaults: backoffLimit, when not given, is the largest
// int32 with backoffLimitPerIndex (defaultBackoffLimit otherwise); an
// onPodConditions pattern's status is True.
func jobPolicies(jp *JobPolicies, defaultBackoff bool, out *model.WorkloadSpec) {
	out.Indexed = jp.CompletionMode == "Indexed"
	out.PodReplacementFailed = jp.PodReplacementPolicy == "Failed"
	if n := jp.BackoffLimitPerIndex; n != nil {
		v := int(*n)
		out.BackoffLimitPerIndex = &v
		if defaultBackoff {
			out.BackoffLimit = math.MaxInt32
		}
	}
	if n := jp.MaxFailedIndexes; n != nil {
		v := int(*n)
		out.MaxFailedIndexes = &v
	}
	if pol := jp.PodFailurePolicy; pol != nil {
		out.PodFailurePolicy = &model.PodFailurePolicy{}
		for _, r := range pol.Rules {
			rule := model.PodFailurePolicyRule{Action: r.Action}
			if e := r.OnExitCodes; e != nil {
				rule.OnExitCodes = &model.OnExitCodes{NotIn: e.Operator == "NotIn", Values: e.Values}
				if e.ContainerName != nil {
					rule.OnExitCodes.ContainerName = *e.ContainerName
				}
			}
			for _, c := range r.OnPodConditions {
				st := model.ConditionStatus(c.Status)
				if st == "" {
					st = model.True
				}
				rule.OnPodConditions = append(rule.OnPodConditions, model.PodConditionPattern{Type: c.Type, Status: st})
			}
			out.PodFailurePolicy.Rules = append(out.PodFailurePolicy.Rules, rule)
		}
	}
	if sp := jp.SuccessPolicy; sp != nil {
		for _, r := range sp.Rules {
			var rule model.SuccessPolicyRule
			if r.SucceededIndexes != nil {
				rule.SucceededIndexes, _ = model.ParseIndexes(*r.SucceededIndexes, out.Completions)
				if rule.SucceededIndexes == nil {
					rule.SucceededIndexes = []model.Interval{} // given, but past completions
				}
			}
			if r.SucceededCount != nil {
				rule.SucceededCount = int(*r.SucceededCount)
			}
			out.SuccessPolicy = append(out.SuccessPolicy, rule)
		}
	}
}
