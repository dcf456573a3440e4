package report

import "testing"

// A rolling update of 4 replicas with maxSurge 1 and maxUnavailable 1
// (scenarios/rollouts/rolling-update.yaml): one pod short of available
// from 1m to 1m8s and from 1m8s to 1m16s; at most 7 pods at 1m8s (4 new,
// 1 old, 2 old terminating); done when the last old pod is gone at 1m19s.
func TestMetricsRollingUpdate(t *testing.T) {
	_, got := measure(t, "../scenarios/rollouts/rolling-update.yaml")
	want := map[string][]float64{
		"workload.notAvailableReplicaSeconds": {16},
		"workload.minAvailableReplicas":       {3},
		"workload.maxPods":                    {7},
		"workload.rolloutTime":                {19},
	}
	for name, w := range want {
		if !equal(got[name], w) {
			t.Errorf("%s = %v, want %v", name, got[name], w)
		}
	}
}

// A rollout stuck on a crash-looping image never finishes (no rolloutTime
// sample); 3 of 4 stay available from 1m on.
func TestMetricsStuckRollout(t *testing.T) {
	_, got := measure(t, "../scenarios/rollouts/stuck-crashloop.yaml")
	want := map[string][]float64{
		"workload.notAvailableReplicaSeconds": {240},
		"workload.minAvailableReplicas":       {3},
		"workload.rolloutTime":                nil,
	}
	for name, w := range want {
		if !equal(got[name], w) {
			t.Errorf("%s = %v, want %v", name, got[name], w)
		}
	}
}

// A StatefulSet's controller counts no available pods: it keeps its
// unavailableReplicaSeconds (from its spec's replicas, the same as before
// Deployments reported their counts) and gets none of the availability
// metrics, which only the Deployment beside it has. Both lose a pod's
// readiness at 1m45s (node not ready); the Deployment's is replaced at
// 6m45s (taint eviction), the StatefulSet's only at 11m.
func TestMetricsStatefulSetBesideDeployment(t *testing.T) {
	_, got := measure(t, "../scenarios/statefulset/partition-contrast.yaml")
	want := map[string][]float64{
		"workload.unavailableReplicaSeconds":  {300, 555}, // api, db
		"workload.minReadyReplicas":           {1, 1},
		"workload.notAvailableReplicaSeconds": {300}, // api only
		"workload.minAvailableReplicas":       {1},
		"workload.maxPods":                    {3},
	}
	for name, w := range want {
		if !equal(got[name], w) {
			t.Errorf("%s = %v, want %v", name, got[name], w)
		}
	}
}
