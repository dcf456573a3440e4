package model

import (
	"strconv"
	"strings"
)

// The Job's spec beyond its counts, as batch/v1 has it
// (pkg/controller/job: pod_failure_policy.go, success_policy.go,
// indexed_job_utils.go).

// Pod failure policy actions (batch/v1 PodFailurePolicyAction).
const (
	ActionFailJob   = "FailJob"
	ActionFailIndex = "FailIndex"
	ActionIgnore    = "Ignore"
	ActionCount     = "Count"
)

// PodFailurePolicy is a Job's spec.podFailurePolicy: the first rule that
// matches a failed pod decides what its failure does.
type PodFailurePolicy struct {
	Rules []PodFailurePolicyRule
}

// PodFailurePolicyRule matches a failed pod on its containers' exit codes
// (OnExitCodes) or on its conditions (OnPodConditions), exactly one.
type PodFailurePolicyRule struct {
	Action          string // ActionFailJob, ActionFailIndex, ActionIgnore or ActionCount
	OnExitCodes     *OnExitCodes
	OnPodConditions []PodConditionPattern
}

// OnExitCodes matches a container (ContainerName, or any when "") that
// terminated with a non-zero exit code In Values (or NotIn them).
type OnExitCodes struct {
	ContainerName string
	NotIn         bool
	Values        []int32
}

// PodConditionPattern matches a pod condition by type and status.
type PodConditionPattern struct {
	Type   string
	Status ConditionStatus
}

// SuccessPolicyRule is one rule of an Indexed Job's spec.successPolicy:
// the indexes SucceededIndexes all succeeded (or SucceededCount of them),
// or, without SucceededIndexes, any SucceededCount indexes.
type SuccessPolicyRule struct {
	SucceededIndexes []Interval // nil: none given
	SucceededCount   int        // 0: none given
}

// Interval is the indexes First..Last, both included.
type Interval struct{ First, Last int }

// ParseIndexes reads a list of indexes as the API writes them ("1,3-5,7"),
// dropping those at or past completions, as parseIndexesFromString does;
// ok is false at the first malformed or unordered part.
func ParseIndexes(s string, completions int) (out []Interval, ok bool) {
	if s == "" {
		return nil, true
	}
	last := -1
	for part := range strings.SplitSeq(s, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		first, err := strconv.Atoi(lo)
		if err != nil || first < 0 || first <= last {
			return nil, false
		}
		iv := Interval{first, first}
		if isRange {
			if iv.Last, err = strconv.Atoi(hi); err != nil || iv.Last < first {
				return nil, false
			}
		}
		last = iv.Last
		if iv.First >= completions {
			continue
		}
		iv.Last = min(iv.Last, completions-1)
		if n := len(out); n > 0 && out[n-1].Last == iv.First-1 {
			out[n-1].Last = iv.Last
		} else {
			out = append(out, iv)
		}
	}
	return out, true
}

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
func matchPodFailurePolicy(pol *PodFailurePolicy, p *Pod, perIndex bool) policyMatch {
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
			m.container, m.exitCode = c.spec.Name, c.status.State.ExitCode
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
		case ActionIgnore:
			m.action, m.count = ActionIgnore, false
			return m
		case ActionFailIndex:
			if perIndex {
				m.action = ActionFailIndex
				return m
			}
		case ActionCount, ActionFailJob:
			m.action = r.Action
			return m
		}
	}
	return policyMatch{count: true}
}

// failJobMessage is the FailJob rule's message for the Job's
// FailureTarget and Failed conditions.
func (m *policyMatch) failJobMessage(p *Pod) string {
	if m.condition != "" {
		return "Pod " + p.Namespace + "/" + p.Name + " has condition " + m.condition + " matching FailJob rule at index " + strconv.Itoa(m.rule)
	}
	return "Container " + m.container + " for pod " + p.Namespace + "/" + p.Name + " failed with exit code " +
		strconv.Itoa(int(m.exitCode)) + " matching FailJob rule at index " + strconv.Itoa(m.rule)
}

// matchOnExitCodes returns the first terminated container, regular ones
// then init ones, whose non-zero exit code matches req.
func matchOnExitCodes(p *Pod, req *OnExitCodes) *container {
	for _, cs := range [2][]*container{p.regular, p.init} {
		for _, c := range cs {
			st := &c.status.State
			if st.Kind != StateTerminated || st.ExitCode == 0 || (req.ContainerName != "" && req.ContainerName != c.spec.Name) {
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
	}
	return nil
}

// matchOnPodConditions returns the type of the first of p's conditions
// that a pattern matches.
func matchOnPodConditions(p *Pod, pats []PodConditionPattern) (string, bool) {
	for _, c := range p.status.Conditions {
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
func matchSuccessPolicy(rules []SuccessPolicyRule, succeeded []bool, total int) (string, bool) {
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
