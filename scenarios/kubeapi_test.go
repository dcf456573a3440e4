package scenarios

import (
	"strings"
	"testing"
	"time"
)

// spec.settings.kubeAPIQPS and kubeAPIBurst pace the ReplicaSet
// controller's creations: with 10 a second and a burst of 5, a ReplicaSet
// of 25 makes 5 pods at 0 and the last at 2 s; unset, the default bucket of
// 30 makes all 25 at 0.
func TestKubeAPIQPSPacesCreations(t *testing.T) {
	const src = `apiVersion: podsim/v1
kind: Scenario
metadata: {name: qps}
spec:
  duration: 10s
  settings: {SETTINGS}
  nodes: [{name: n, capacity: {cpu: "64", memory: 64Gi, pods: 110}}]
  workloads:
    - apiVersion: apps/v1
      kind: ReplicaSet
      metadata: {name: web}
      spec:
        replicas: 25
        template:
          metadata: {labels: {app: web}}
          spec: {containers: [{name: c, image: i:1}]}
`
	for _, tc := range []struct {
		settings   string
		atZero     int
		lastCreate time.Duration
	}{
		{"{kubeAPIQPS: 10, kubeAPIBurst: 5}", 5, 2 * time.Second},
		{"{}", 25, 0},
	} {
		s, err := Parse("qps.yaml", []byte(strings.Replace(src, "{SETTINGS}", tc.settings, 1)))
		if err != nil {
			t.Fatal(err)
		}
		r := s.Start(RunOptions{Until: s.Duration})
		r.Run(nil)
		pods := r.World.Pods()
		if len(pods) != 25 {
			t.Fatalf("%s: %d pods, want 25", tc.settings, len(pods))
		}
		atZero, last := 0, time.Duration(0)
		for _, p := range pods {
			if p.CreatedAt == 0 {
				atZero++
			}
			last = max(last, p.CreatedAt)
		}
		if atZero != tc.atZero || last != tc.lastCreate {
			t.Errorf("%s: %d pods made at 0 and the last at %v, want %d and %v", tc.settings, atZero, last, tc.atZero, tc.lastCreate)
		}
	}
}

func TestKubeAPIQPSIsChecked(t *testing.T) {
	for _, bad := range []string{"{kubeAPIQPS: 0}", "{kubeAPIQPS: -1}", "{kubeAPIQPS: .nan}", "{kubeAPIBurst: 0}", "{kubeAPIBurst: 2000000}"} {
		src := "apiVersion: podsim/v1\nkind: Scenario\nmetadata: {name: x}\nspec:\n  settings: " + bad + "\n"
		if _, err := Parse("x.yaml", []byte(src)); err == nil || !strings.Contains(err.Error(), "x.yaml:5:") {
			t.Errorf("%s: got %v, want an error at x.yaml:5", bad, err)
		}
	}
}
