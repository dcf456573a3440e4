package scenarios

// EvictFault asks the Eviction API (policy/v1) to evict a pod, as `kubectl
// drain` does for each of a node's pods: the pod's PodDisruptionBudget may
// refuse it (429), and a refused eviction changes nothing.
type EvictFault struct {
	Pod                string `yaml:"pod"`
	Namespace          string `yaml:"namespace"`
	GracePeriodSeconds *int64 `yaml:"gracePeriodSeconds"` // nil: the pod's terminationGracePeriodSeconds
}
