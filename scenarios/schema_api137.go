package scenarios

import "github.com/podsim/podsim/internal/yamlstrict"

// The fields that k8s.io/api gained from v1.35 to v1.37 in the objects
// podsim simulates, and how each is treated. All three are alpha, behind
// gates that are off by default (pkg/features/kube_features.go); podsim
// runs each pod as a cluster with the gates off would, and says so.
func init() { yamlstrict.Declare(api137Fields) }

func api137Fields() {
	Unmodelled[PodSpec](map[string]string{
		// +featureGate=GenericWorkload; the gang plugin holds a group's
		// pods until its minCount can be placed (GangScheduling).
		"schedulingGroup": "workload-aware (gang) scheduling is not simulated: each pod is scheduled on its own",
		// +featureGate=EvictionRequestAPI
		"evictionResponders": "an eviction is never handed to a responder: the pod is evicted, or the eviction refused, at once",
	})
	Unmodelled[WorkloadSpec](map[string]string{
		// +featureGate=WorkloadWithJob (batch/v1 JobSpec)
		"scheduling": "workload-aware (gang) scheduling is not simulated: each of the Job's pods is scheduled on its own",
	})
}
