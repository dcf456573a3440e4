package scenarios

// The faults that do what a kubectl command does to a workload or a node
// (rollout, taint, scale).

// RolloutFault gives a Deployment's container a new image, as `kubectl
// set image` does: a new pod template, rolled out by its strategy.
type RolloutFault struct {
	Workload  string `yaml:"workload"`
	Namespace string `yaml:"namespace"`
	Image     string `yaml:"image"`
	Container string `yaml:"container"` // may be left out when the template has one container
}

// TaintFault puts a taint on a node, as `kubectl taint` does.
type TaintFault struct {
	Node   string `yaml:"node"`
	Key    string `yaml:"key"`
	Value  string `yaml:"value"`
	Effect string `yaml:"effect"`
}

// ScaleFault sets the replicas of a ReplicaSet, Deployment or StatefulSet
// (`kubectl scale`).
type ScaleFault struct {
	Workload  string `yaml:"workload"`
	Namespace string `yaml:"namespace"`
	Replicas  *int32 `yaml:"replicas"`
}
