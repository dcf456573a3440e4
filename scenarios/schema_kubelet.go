package scenarios

// PodKubelet holds the pod spec's fields the kubelet acts on beyond
// running containers (inline in PodSpec).
type PodKubelet struct {
	// ActiveDeadlineSeconds fails the pod (DeadlineExceeded) once it has
	// been active this long since its startTime.
	ActiveDeadlineSeconds *int64 `yaml:"activeDeadlineSeconds"`
}

// NameOnly is a list entry that only has a name (schedulingGates).
type NameOnly struct {
	Name string `yaml:"name"`
}

// ReadinessGate names a pod condition that must be True for Ready.
type ReadinessGate struct {
	ConditionType string `yaml:"conditionType"`
}

// NodeShutdown is the kubelet's graceful node shutdown configuration, of a
// node (spec.nodes) or of every node (settings): how long a shutdown is
// held back for the pods, and the part of it kept for critical pods.
type NodeShutdown struct {
	ShutdownGracePeriod             *Duration `yaml:"shutdownGracePeriod"`
	ShutdownGracePeriodCriticalPods *Duration `yaml:"shutdownGracePeriodCriticalPods"`
}

// ContainerKubelet holds a container's fields the kubelet acts on beyond
// running it (inline in Container).
type ContainerKubelet struct {
	// RestartPolicyRules decide, in order, whether a regular container
	// with its own restartPolicy restarts after an exit (KEP-5307).
	RestartPolicyRules []ContainerRestartRule `yaml:"restartPolicyRules"`
	// ResizePolicy says, per resource, whether an in-place resize restarts
	// the container (schema_resize.go).
	ResizePolicy []ContainerResizePolicy `yaml:"resizePolicy"`
	// Ports are the container's ports; probes may name one (schema_ports.go).
	Ports []ContainerPort `yaml:"ports"`
}

// ContainerRestartRule is one of a container's restartPolicyRules: its
// action when the exit code matches.
type ContainerRestartRule struct {
	Action    string          `yaml:"action"`
	ExitCodes *ExitCodesMatch `yaml:"exitCodes"`
}

// ExitCodesMatch matches an exit code In or NotIn the values.
type ExitCodesMatch struct {
	Operator string  `yaml:"operator"`
	Values   []int32 `yaml:"values"`
}
