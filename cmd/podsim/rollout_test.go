package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every problem of the rollout fields (strategy, minReadySeconds,
// progressDeadlineSeconds, rollout faults, behaviours by image and the
// updatedPods and availablePods checks), each with its place.
func TestRolloutErrors(t *testing.T) {
	_, errs, code := podsim(t, "validate", filepath.Join(root, "testdata", "invalid", "rollout.yaml"))
	if code != exitBadInput {
		t.Errorf("exit %d, want 2", code)
	}
	golden(t, "rollout.txt", strings.ReplaceAll(errs, root+"/", ""))
}

// A rollout in a namespace: the fault, the behaviour by image and the
// checks name the Deployment by namespace, and a Deployment of the same
// name in default keeps its template.
func TestRolloutInNamespace(t *testing.T) {
	file := filepath.Join(t.TempDir(), "ns-rollout.yaml")
	src := `apiVersion: podsim/v1
kind: Scenario
metadata: {name: ns-rollout}
spec:
  duration: 3m
  workloads:
    - apiVersion: apps/v1
      kind: Deployment
      metadata: {name: web, namespace: shop}
      spec:
        replicas: 2
        template:
          spec:
            containers:
              - {name: app, image: example/web:1, readinessProbe: {httpGet: {path: /, port: 80}, periodSeconds: 2}}
    - apiVersion: apps/v1
      kind: Deployment
      metadata: {name: web}
      spec:
        replicas: 2
        template: {spec: {containers: [{name: app, image: example/web:1}]}}
  behavior:
    - {pod: web, namespace: shop, container: app, image: example/web:2, startupTime: 5s}
  faults:
    - {at: 1m, rollout: {workload: web, namespace: shop, image: example/web:2}}
  expect:
    - {at: 1m, workload: web, namespace: shop, updatedPods: 1, condition: {type: Progressing, status: "True", reason: ReplicaSetUpdated}}
    - {at: 3m, workload: web, namespace: shop, pods: 2, updatedPods: 2, availablePods: 2}
    - {at: 3m, workload: web, namespace: shop, condition: {type: Progressing, status: "True", reason: NewReplicaSetAvailable}}
    - {at: 3m, pod: web-3, namespace: shop, phase: Running, ready: true}
    - {at: 3m, pod: web-0, namespace: shop, exists: false}
    - {at: 3m, workload: web, pods: 2, updatedPods: 2}
    - {at: 3m, pod: web-0, phase: Running}
    - event: {workload: web, reason: ScalingReplicaSet, count: 1}
`
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, code := podsim(t, "test", file)
	if code != exitOK {
		t.Errorf("exit %d\n%s%s", code, out, errs)
	}
}
