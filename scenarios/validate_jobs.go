package scenarios

import (
	"slices"

	"github.com/podsim/podsim/model"
)

// Limits of the batch API's validation (pkg/apis/batch/validation).
const (
	maxPodFailurePolicyRules      = 20
	maxPodFailurePolicyExitCodes  = 255
	maxPodFailurePolicyConditions = 20
	maxSuccessPolicyRules         = 20
	maxIndexedParallelism         = 100000
	maxCompletionsPerIndex        = 100000
)

// jobPolicies checks a Job's (or a CronJob's job template's) policies as
// the API validates them: each value one the API knows, with a suggestion
// for a misspelt one, and the combinations it allows.
func (v *validator) jobPolicies(sp *WorkloadSpec) {
	jp := &sp.JobPolicies
	indexed := false
	switch m := jp.CompletionMode; m {
	case "", "NonIndexed":
	case "Indexed":
		indexed = true
		if sp.Completions == nil {
			v.at(&jp.CompletionMode, "completionMode Indexed needs completions: one pod per index 0..completions-1")
		}
		if n := sp.Parallelism; n != nil && *n > maxIndexedParallelism {
			v.at(n, "parallelism must be at most %d with completionMode Indexed", maxIndexedParallelism)
		}
	default:
		v.at(&jp.CompletionMode, "completionMode %q: want NonIndexed or Indexed%s", m, didYouMean(m, []string{"NonIndexed", "Indexed"}))
	}
	if n := jp.BackoffLimitPerIndex; n != nil {
		switch {
		case *n < 0:
			v.at(n, "backoffLimitPerIndex must not be negative")
		case !indexed:
			v.atKey(n, "backoffLimitPerIndex needs completionMode Indexed")
		case sp.Completions != nil && *sp.Completions > maxCompletionsPerIndex:
			v.at(sp.Completions, "completions must be at most %d with backoffLimitPerIndex", maxCompletionsPerIndex)
		}
	}
	if n := jp.MaxFailedIndexes; n != nil {
		switch {
		case jp.BackoffLimitPerIndex == nil:
			v.atKey(n, "maxFailedIndexes needs backoffLimitPerIndex")
		case *n < 0:
			v.at(n, "maxFailedIndexes must not be negative")
		case sp.Completions != nil && *n > *sp.Completions:
			v.at(n, "maxFailedIndexes (%d) must be at most completions (%d)", *n, *sp.Completions)
		}
	}
	switch p := jp.PodReplacementPolicy; p {
	case "", "Failed":
	case "TerminatingOrFailed":
		if jp.PodFailurePolicy != nil {
			v.at(&jp.PodReplacementPolicy, "podReplacementPolicy must be Failed with a podFailurePolicy")
		}
	default:
		v.at(&jp.PodReplacementPolicy, "podReplacementPolicy %q: want TerminatingOrFailed or Failed%s", p,
			didYouMean(p, []string{"TerminatingOrFailed", "Failed"}))
	}
	if pol := jp.PodFailurePolicy; pol != nil {
		if rp := sp.Template.Spec.RestartPolicy; rp != "Never" {
			v.atKey(pol, "a podFailurePolicy needs the pod template's restartPolicy Never (it is %q)", rp)
		}
		if len(pol.Rules) > maxPodFailurePolicyRules {
			v.atKey(&pol.Rules, "at most %d rules", maxPodFailurePolicyRules)
		}
		for i := range pol.Rules {
			v.podFailurePolicyRule(&pol.Rules[i], jp, &sp.Template.Spec)
		}
	}
	if s := jp.SuccessPolicy; s != nil {
		v.successPolicy(s, indexed, sp.Completions)
	}
}

// podFailurePolicyRule checks one rule: its action, and exactly one of
// onExitCodes and onPodConditions.
func (v *validator) podFailurePolicyRule(r *PodFailurePolicyRule, jp *JobPolicies, ps *PodSpec) {
	actions := []string{model.ActionFailJob, model.ActionFailIndex, model.ActionIgnore, model.ActionCount}
	switch {
	case r.Action == "":
		v.at(r, "a rule needs an action: FailJob, FailIndex, Ignore or Count")
	case !slices.Contains(actions, r.Action):
		v.at(&r.Action, "action %q: want FailJob, FailIndex, Ignore or Count%s", r.Action, didYouMean(r.Action, actions))
	case r.Action == model.ActionFailIndex && jp.BackoffLimitPerIndex == nil:
		v.at(&r.Action, "action FailIndex needs backoffLimitPerIndex")
	}
	switch {
	case r.OnExitCodes == nil && r.OnPodConditions == nil:
		v.at(r, "a rule needs onExitCodes or onPodConditions")
	case r.OnExitCodes != nil && r.OnPodConditions != nil:
		v.atKey(&r.OnPodConditions, "a rule has onExitCodes or onPodConditions, not both")
	case r.OnExitCodes != nil:
		v.onExitCodes(r.OnExitCodes, ps)
	default:
		if len(r.OnPodConditions) > maxPodFailurePolicyConditions {
			v.atKey(&r.OnPodConditions, "at most %d patterns", maxPodFailurePolicyConditions)
		}
		for i := range r.OnPodConditions {
			c := &r.OnPodConditions[i]
			if c.Type == "" {
				v.at(c, "a pattern needs a type (DisruptionTarget, ...)")
			}
			if st := c.Status; st != "" && st != "True" && st != "False" && st != "Unknown" {
				v.at(&c.Status, "status %q: want True, False or Unknown%s", st, didYouMean(st, []string{"True", "False", "Unknown"}))
			}
		}
	}
}

// onExitCodes checks an exit code requirement: In or NotIn, 1 to 255
// distinct values in increasing order (In without 0), and a container of
// the pod.
func (v *validator) onExitCodes(e *OnExitCodes, ps *PodSpec) {
	switch e.Operator {
	case "In", "NotIn":
	case "":
		v.at(e, "onExitCodes needs an operator: In or NotIn")
	default:
		v.at(&e.Operator, "operator %q: want In or NotIn%s", e.Operator, didYouMean(e.Operator, []string{"In", "NotIn"}))
	}
	switch {
	case len(e.Values) == 0:
		v.atKey(e, "onExitCodes needs values: at least one exit code")
	case len(e.Values) > maxPodFailurePolicyExitCodes:
		v.atKey(&e.Values, "at most %d values", maxPodFailurePolicyExitCodes)
	}
	for i, x := range e.Values {
		switch {
		case e.Operator == "In" && x == 0:
			v.at(&e.Values[i], "operator In cannot match exit code 0: a container that exits 0 did not fail")
		case i > 0 && x <= e.Values[i-1]:
			v.at(&e.Values[i], "values must be distinct and in increasing order")
		}
	}
	if n := e.ContainerName; n != nil && findContainer(ps, *n) == nil {
		v.at(n, "containerName %q is no container of the pod%s", *n, containerHint(ps, *n))
	}
}

// successPolicy checks an Indexed Job's success policy: 1 to 20 rules,
// each with succeededIndexes (indexes as "0,2-4", within completions) or
// succeededCount (at most completions, and the indexes' number), or both.
func (v *validator) successPolicy(s *SuccessPolicy, indexed bool, completions *int32) {
	if !indexed {
		v.atKey(s, "successPolicy needs completionMode Indexed")
		return
	}
	switch {
	case len(s.Rules) == 0:
		v.atKey(s, "successPolicy needs rules: at least one")
	case len(s.Rules) > maxSuccessPolicyRules:
		v.atKey(&s.Rules, "at most %d rules", maxSuccessPolicyRules)
	}
	total := 0
	if completions != nil {
		total = int(*completions)
	}
	for i := range s.Rules {
		r := &s.Rules[i]
		size := total
		switch {
		case r.SucceededIndexes == nil && r.SucceededCount == nil:
			v.at(r, "a rule needs succeededIndexes or succeededCount")
		case r.SucceededIndexes != nil:
			ivs, ok := model.ParseIndexes(*r.SucceededIndexes, int(^uint(0)>>1))
			size = 0
			for _, iv := range ivs {
				size += iv.Last - iv.First + 1
			}
			switch {
			case !ok:
				v.at(r.SucceededIndexes, "succeededIndexes %q: want indexes in increasing order, as 0,2-4", *r.SucceededIndexes)
			case len(ivs) > 0 && ivs[len(ivs)-1].Last >= total:
				v.at(r.SucceededIndexes, "succeededIndexes %q: indexes go from 0 to completions-1 (%d)", *r.SucceededIndexes, total-1)
			}
		}
		if n := r.SucceededCount; n != nil {
			switch {
			case *n < 0:
				v.at(n, "succeededCount must not be negative")
			case int(*n) > total:
				v.at(n, "succeededCount (%d) must be at most completions (%d)", *n, total)
			case r.SucceededIndexes != nil && int(*n) > size:
				v.at(n, "succeededCount (%d) must be at most the number of succeededIndexes (%d)", *n, size)
			}
		}
	}
}
