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
