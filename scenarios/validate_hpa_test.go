package scenarios

import (
	"strings"
	"testing"
)

// Every problem of a HorizontalPodAutoscaler, its settings and its checks
// is reported at its line and column, with a suggestion where one fits.
func TestHPAErrorsHavePositions(t *testing.T) {
	const src = `apiVersion: podsim/v1
kind: Scenario
metadata: {name: t}
spec:
  settings: {horizontalPodAutoscaler: {syncPeriod: 0s, tolerance: -0.5}}
  workloads:
    - {apiVersion: v1, kind: Service, metadata: {name: web}, spec: {selector: {app: web}}}
    - apiVersion: apps/v1
      kind: Deployment
      metadata: {name: web}
      spec: {replicas: 1, template: {spec: {containers: [{name: app, image: x}]}}}
    - apiVersion: autoscaling/v2
      kind: HorizontalPodAutoscaler
      metadata: {name: web}
      spec:
        scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: wbe}
        minReplicas: 5
        maxReplicas: 3
        replicas: 2
        metrics:
          - {type: Resource, resource: {name: cpux, target: {type: Utilisation, averageUtilization: 50}}}
          - {type: Pods, pods: {metric: {name: rps}, target: {type: AverageValue, averageValue: 10}}}
          - {type: Object, object: {describedObject: {kind: Service, name: wbe}, metric: {name: requests_per_second}, target: {type: Value}}}
          - {type: Resorce}
        behavior:
          scaleUp: {selectPolicy: max, policies: [{type: Pod, value: 4, periodSeconds: 15}]}
          scaleDown: {stabilizationWindowSeconds: 7200, policies: [{type: Percent, value: 0, periodSeconds: 15}]}
    - apiVersion: autoscaling/v1
      kind: HorizontalPodAutoscaler
      metadata: {name: v1}
      spec:
        scaleTargetRef: {kind: DaemonSet, name: web}
        maxReplicas: 3
        metrics: [{type: Resource}]
    - apiVersion: apps/v1
      kind: ReplicaSet
      metadata: {name: rs}
      spec: {maxReplicas: 3, template: {spec: {containers: [{name: app, image: x}]}}}
  expect:
    - {workload: rs, desiredReplicas: 2}
    - {workload: v1, currentReplicas: 1}
`
	_, err := Parse("s.yaml", []byte(src))
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{
		"s.yaml:5:52: syncPeriod must be positive",
		"s.yaml:5:67: tolerance must not be negative",
		"s.yaml:16:71: scaleTargetRef: no Deployment \"wbe\"; did you mean \"web\"?",
		"s.yaml:17:22: minReplicas (5) must not be greater than maxReplicas (3)",
		"s.yaml:19:9: a HorizontalPodAutoscaler has no replicas",
		"s.yaml:21:47: resource \"cpux\": want cpu or memory; did you mean \"cpu\"?",
		"s.yaml:21:68: target type \"Utilisation\": want Utilization or AverageValue; did you mean \"Utilization\"?",
		"s.yaml:22:48: metric \"rps\": podsim provides requests_per_second (from spec.traffic)",
		"s.yaml:23:76: no Service \"wbe\"; did you mean \"web\"?",
		"s.yaml:23:127: a target of type Value needs value",
		"s.yaml:24:20: metric type \"Resorce\": want Resource, Pods or Object; did you mean \"Resource\"?",
		"s.yaml:26:35: selectPolicy \"max\": want Max, Min or Disabled; did you mean \"Max\"?",
		"s.yaml:26:58: policy type \"Pod\": want Pods or Percent; did you mean \"Pods\"?",
		"s.yaml:27:51: stabilizationWindowSeconds must be between 0 and 3600",
		"s.yaml:27:68: a policy needs a value of at least 1",
		"s.yaml:32:32: scaleTargetRef kind \"DaemonSet\": a HorizontalPodAutoscaler scales a Deployment, ReplicaSet or StatefulSet",
		"s.yaml:34:9: autoscaling/v1 has no metrics or behavior: use autoscaling/v2, or targetCPUUtilizationPercentage",
		"s.yaml:38:14: only a HorizontalPodAutoscaler has maxReplicas",
		"s.yaml:40:39: desiredReplicas and currentReplicas are checked on a HorizontalPodAutoscaler (workload: its name)",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("missing %q in:\n%v", want, err)
		}
	}
}
