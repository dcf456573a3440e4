package job

import (
	"strconv"
	"strings"

	"github.com/podsim/podsim/model"
)

// formatIndexes writes the indexes set in set as the API does
// (orderedIntervals.String): "0-2,4,6,7".
func formatIndexes(set []bool) string {
	var b strings.Builder
	for i := 0; i < len(set); i++ {
		if !set[i] {
			continue
		}
		j := i
		for j+1 < len(set) && set[j+1] {
			j++
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(i))
		switch {
		case j == i+1:
			b.WriteByte(',')
			b.WriteString(strconv.Itoa(j))
		case j > i+1:
			b.WriteByte('-')
			b.WriteString(strconv.Itoa(j))
		}
		i = j
	}
	return b.String()
}

// policyMatch is what a failed pod's match against the pod failure policy
// decides (matchPodFailurePolicy): the action of the rule that matched
// ("" if none), whether the failure counts toward the backoff limits
// (not if Ignore), and for FailJob the Job's failure message.
type policyMatch struct {
	action string
	count  bool
	rule   int
	// What matched: a container and its exit code, or a condition type.
	container string
	exitCode  int32
	condition string
}

// matchPodFailurePolicy matches failed pod p against pol's rules in order.
// A FailIndex rule of a Job without backoffLimitPerIndex matches nothing
// (the API refuses such a Job).
func matchPodFailurePolicy(pol *model.PodFailurePolicy, p *model.Pod, perIndex bool) policyMatch {
	if pol == nil {
		return policyMatch{count: true}
	}
	for i := range pol.Rules {
		r := &pol.Rules[i]
		m := policyMatch{rule: i, count: true}
		switch {
		case r.OnExitCodes != nil:
			c := matchOnExitCodes(p, r.OnExitCodes)
			if c == nil {
				continue
			}
			m.container, m.exitCode = c.Name, c.State.ExitCode
		case r.OnPodConditions != nil:
			t, ok := matchOnPodConditions(p, r.OnPodConditions)
			if !ok {
				continue
			}
			m.condition = t
		default:
			continue
		}
		switch r.Action {
		case model.ActionIgnore:
			m.action, m.count = model.ActionIgnore, false
			return m
		case model.ActionFailIndex:
			if perIndex {
				m.action = model.ActionFailIndex
				return m
			}
		case model.ActionCount, model.ActionFailJob:
			m.action = r.Action
			return m
		}
	}
	return policyMatch{count: true}
}

// failJobMessage is the FailJob rule's message for the Job's
// FailureTarget and Failed conditions.
func (m *policyMatch) failJobMessage(p *model.Pod) string {
	if m.condition != "" {
		return "Pod " + p.Namespace + "/" + p.Name + " has condition " + m.condition + " matching FailJob rule at index " + strconv.Itoa(m.rule)
	}
	return "Container " + m.container + " for pod " + p.Namespace + "/" + p.Name + " failed with exit code " +
		strconv.Itoa(int(m.exitCode)) + " matching FailJob rule at index " + strconv.Itoa(m.rule)
}

// matchOnExitCodes returns the first terminated container, regular ones
// then init ones, whose non-zero exit code matches req.
func matchOnExitCodes(p *model.Pod, req *model.OnExitCodes) *model.ContainerStatus {
	for i := range p.Containers() {
		c := p.ContainerStatusAt(i)
		st := &c.State
		if st.Kind != model.StateTerminated || st.ExitCode == 0 || (req.ContainerName != "" && req.ContainerName != c.Name) {
			continue
		}
		in := false
		for _, v := range req.Values {
			if v == st.ExitCode {
				in = true
				break
			}
		}
		if in != req.NotIn {
			return c
		}
	}
	return nil
}

// matchOnPodConditions returns the type of the first of p's conditions
// that a pattern matches.
func matchOnPodConditions(p *model.Pod, pats []model.PodConditionPattern) (string, bool) {
	for _, c := range p.Conditions() {
		for _, pat := range pats {
			if c.Type == pat.Type && c.Status == pat.Status {
				return c.Type, true
			}
		}
	}
	return "", false
}

// matchSuccessPolicy returns the message of the first rule of rules that
// the succeeded indexes meet ("Matched rules at index 0"), as
// matchSuccessPolicy does.
func matchSuccessPolicy(rules []model.SuccessPolicyRule, succeeded []bool, total int) (string, bool) {
	if total == 0 {
		return "", false
	}
	for i, r := range rules {
		met := false
		if r.SucceededIndexes != nil {
			want, have := 0, 0
			for _, iv := range r.SucceededIndexes {
				for ix := iv.First; ix <= iv.Last && ix < len(succeeded); ix++ {
					want++
					if succeeded[ix] {
						have++
					}
				}
			}
			met = want > 0 && (have == want || (r.SucceededCount > 0 && have >= r.SucceededCount))
		} else {
			met = r.SucceededCount > 0 && total >= r.SucceededCount
		}
		if met {
			return "Matched rules at index " + strconv.Itoa(i), true
		}
	}
	return "", false
}
