package scenarios

// PodKubelet holds the pod spec's fields the kubelet acts on beyond
// running containers (inline in PodSpec).
type PodKubelet struct {
	// ActiveDeadlineSeconds fails the pod (DeadlineExceeded) once it has
	// been active this long since its startTime.
	ActiveDeadlineSeconds *int64 `yaml:"activeDeadlineSeconds"`
}
