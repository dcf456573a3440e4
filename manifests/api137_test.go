package manifests

import (
	"strings"
	"testing"
)

// A manifest written for Kubernetes 1.36 or 1.37 with the fields added
// since 1.34 runs: each alpha field is accepted with a warning at its line
// that says what podsim does instead, its own fields are checked, and the
// gang scheduling kinds are ignored with one warning each.
func TestFieldsOfKubernetes137(t *testing.T) {
	s, warns := parseOK(t, `apiVersion: scheduling.k8s.io/v1alpha3
kind: PodGroup
metadata: {name: trainers}
spec: {schedulingPolicy: {gang: {minCount: 2}}}
---
apiVersion: v1
kind: Pod
metadata: {name: trainer-0}
spec:
  schedulingGroup: {podGroupName: trainers}
  evictionResponders: [{name: acme.io/drainer, priority: 10000}]
  containers: [{name: c, image: example/train:1}]
---
apiVersion: batch/v1
kind: Job
metadata: {name: train}
spec:
  scheduling: {schedulingPolicy: {gang: {minCount: 2}}}
  template:
    spec:
      restartPolicy: Never
      containers: [{name: c, image: example/train:1}]
`)
	if len(s.Pods()) != 1 || len(s.Workloads()) != 1 {
		t.Fatalf("%d pods and %d workloads, want 1 and 1", len(s.Pods()), len(s.Workloads()))
	}
	for _, want := range []string{
		`x.yaml:1:1: warning: scheduling.k8s.io/v1alpha3 PodGroup "trainers" is ignored: podsim simulates no workload-aware (gang) scheduling`,
		"x.yaml:10:3: warning: schedulingGroup is not simulated: workload-aware (gang) scheduling is not simulated: each pod is scheduled on its own",
		"x.yaml:11:3: warning: evictionResponders is not simulated: an eviction is never handed to a responder",
		"x.yaml:18:3: warning: scheduling is not simulated: workload-aware (gang) scheduling is not simulated: each of the Job's pods",
	} {
		if !strings.Contains(warns, want) {
			t.Errorf("no warning %q in:\n%s", want, warns)
		}
	}
	if strings.Contains(warns, "does not know") {
		t.Errorf("a field or kind of k8s.io/api v0.37 is unknown:\n%s", warns)
	}
}

// A kind podsim knows, under an apiVersion of a group that is not built
// into Kubernetes, is a custom resource's: ignored with a warning, not
// refused as an API no longer served.
func TestCustomResourceNamedAsABuiltinKind(t *testing.T) {
	_, warns := parseOK(t, `apiVersion: serving.knative.dev/v1
kind: Service
metadata: {name: hello}
spec: {template: {spec: {containers: [{image: example/hello:1}]}}}
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: Workload
metadata: {name: job-1}
`)
	for _, want := range []string{
		`x.yaml:1:1: warning: serving.knative.dev/v1 Service "hello" is ignored: podsim does not know this kind`,
		`x.yaml:6:1: warning: kueue.x-k8s.io/v1beta1 Workload "job-1" is ignored: podsim does not know this kind`,
	} {
		if !strings.Contains(warns, want) {
			t.Errorf("no warning %q in:\n%s", want, warns)
		}
	}
}
