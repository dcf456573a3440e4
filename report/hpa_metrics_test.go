package report

import "testing"

// The load step of hpa/load-step.yaml: rescaled to 4 at 1m15s, 7 at
// 1m30s and 3 at 11m15s; the 7 pods are all ready 10s after the second
// scale-up (their start and readiness delay), 25s after the first.
func TestMetricsHPA(t *testing.T) {
	_, got := measure(t, "../scenarios/hpa/load-step.yaml")
	replicaSeconds := 2*75 + 4*15 + 7*585 + 3*225
	want := map[string][]float64{
		"hpa.rescales":       {3},
		"hpa.maxReplicas":    {7},
		"hpa.replicaHours":   {float64(replicaSeconds) / 3600},
		"hpa.timeToCapacity": {25},
	}
	for name, w := range want {
		if !equal(got[name], w) {
			t.Errorf("%s = %v, want %v", name, got[name], w)
		}
	}
}
