package model

// A Deployment's condition types and reasons and its strategy; its
// controller is model/controller/deployment.

// Deployment condition types and reasons (apps/v1,
// pkg/controller/deployment/util/deployment_util.go).
const (
	DeploymentAvailable   = "Available"
	DeploymentProgressing = "Progressing"

	ReasonNewReplicaSetCreated       = "NewReplicaSetCreated"
	ReasonReplicaSetUpdated          = "ReplicaSetUpdated"
	ReasonNewReplicaSetAvailable     = "NewReplicaSetAvailable"
	ReasonProgressDeadlineExceeded   = "ProgressDeadlineExceeded"
	ReasonMinimumReplicasAvailable   = "MinimumReplicasAvailable"
	ReasonMinimumReplicasUnavailable = "MinimumReplicasUnavailable"
)

// StrategyType is a Deployment's spec.strategy.type.
type StrategyType uint8

// Deployment strategies.
const (
	RollingUpdate StrategyType = iota // the default
	Recreate
)

func (s StrategyType) String() string {
	if s == Recreate {
		return "Recreate"
	}
	return "RollingUpdate"
}
