package scenarios

import "reflect"

// The sections of docs/scenario-format.md that list the rollout's types
// (docs_test.go checks them).
func init() {
	docSections[reflect.TypeFor[RolloutFault]()] = "rollout fault"
	docSections[reflect.TypeFor[DeploymentStrategy]()] = "Deployment strategy"
	docSections[reflect.TypeFor[RollingUpdateDeployment]()] = "Rolling update"
}
