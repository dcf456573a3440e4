package manifests

import "testing"

// A pod's activeDeadlineSeconds reaches the scenario's pod spec, with no
// warning: the kubelet's active deadline is simulated.
func TestPodActiveDeadlineSeconds(t *testing.T) {
	s, err := NewReader().Parse("pod.yaml", []byte(`apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  activeDeadlineSeconds: 45
  containers: [{name: c, image: i}]
`))
	if err != nil {
		t.Fatal(err)
	}
	if s.Warnings != nil && s.Warnings.Error() != "" {
		t.Errorf("warnings: %s", s.Warnings.Error())
	}
	if d := s.Pods()[0].Spec.ActiveDeadlineSeconds; d == nil || *d != 45 {
		t.Errorf("activeDeadlineSeconds = %v, want 45", d)
	}
}

// A container's resizePolicy reaches the scenario's container, with no
// warning: in-place resize is simulated.
func TestContainerResizePolicy(t *testing.T) {
	s, err := NewReader().Parse("pod.yaml", []byte(`apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers:
    - name: c
      image: i
      resizePolicy: [{resourceName: memory, restartPolicy: RestartContainer}]
`))
	if err != nil {
		t.Fatal(err)
	}
	if s.Warnings != nil && s.Warnings.Error() != "" {
		t.Errorf("warnings: %s", s.Warnings.Error())
	}
	if got := s.Pods()[0].Spec.Containers[0].ResizePolicy; len(got) != 1 || got[0].ResourceName != "memory" || got[0].RestartPolicy != "RestartContainer" {
		t.Errorf("resizePolicy = %+v", got)
	}
}
