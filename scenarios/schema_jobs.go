package scenarios

// JobPolicies are a Job's fields beyond its counts (batch/v1 JobSpec), read
// inline in WorkloadSpec: how its pods are indexed, retried, judged failed
// and judged done (validate_jobs.go checks them, as the API would).
type JobPolicies struct {
	CompletionMode       string            `yaml:"completionMode"`       // NonIndexed (default) or Indexed
	BackoffLimitPerIndex *int32            `yaml:"backoffLimitPerIndex"` // Indexed: failures of one index before it fails
	MaxFailedIndexes     *int32            `yaml:"maxFailedIndexes"`     // with backoffLimitPerIndex: failed indexes before the Job fails
	PodFailurePolicy     *PodFailurePolicy `yaml:"podFailurePolicy"`
	PodReplacementPolicy string            `yaml:"podReplacementPolicy"` // TerminatingOrFailed or Failed
	SuccessPolicy        *SuccessPolicy    `yaml:"successPolicy"`        // Indexed
}

// PodFailurePolicy is a Job's spec.podFailurePolicy: the first rule that
// matches a failed pod decides its action.
type PodFailurePolicy struct {
	Rules []PodFailurePolicyRule `yaml:"rules"`
}

// PodFailurePolicyRule matches a failed pod by exit codes or by
// conditions (exactly one) and names the action: FailJob, FailIndex,
// Ignore or Count.
type PodFailurePolicyRule struct {
	Action          string                `yaml:"action"`
	OnExitCodes     *OnExitCodes          `yaml:"onExitCodes"`
	OnPodConditions []PodConditionPattern `yaml:"onPodConditions"`
}

// OnExitCodes matches a container's non-zero exit code In or NotIn values.
type OnExitCodes struct {
	ContainerName *string `yaml:"containerName"`
	Operator      string  `yaml:"operator"`
	Values        []int32 `yaml:"values"`
}

// PodConditionPattern matches a pod condition (DisruptionTarget) by type
// and status (default True).
type PodConditionPattern struct {
	Type   string `yaml:"type"`
	Status string `yaml:"status"`
}

// SuccessPolicy is an Indexed Job's spec.successPolicy.
type SuccessPolicy struct {
	Rules []SuccessPolicyRule `yaml:"rules"`
}

// SuccessPolicyRule is met when the indexes SucceededIndexes ("0,2-4")
// have all succeeded, or SucceededCount of them (of any, without
// SucceededIndexes).
type SuccessPolicyRule struct {
	SucceededIndexes *string `yaml:"succeededIndexes"`
	SucceededCount   *int32  `yaml:"succeededCount"`
}

// JobStatusCheck checks a Job's status as its controller keeps it (as
// `kubectl get job -o yaml` shows it): counts that stay when a finished
// pod is deleted, and an Indexed Job's indexes.
type JobStatusCheck struct {
	Active           *IntRange `yaml:"active"`
	Ready            *IntRange `yaml:"ready"`
	Terminating      *IntRange `yaml:"terminating"`
	Succeeded        *IntRange `yaml:"succeeded"`
	Failed           *IntRange `yaml:"failed"`
	CompletedIndexes *string   `yaml:"completedIndexes"`
	FailedIndexes    *string   `yaml:"failedIndexes"`
}
