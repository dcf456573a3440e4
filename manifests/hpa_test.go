package manifests

import (
	"strings"
	"testing"
)

// An autoscaling/v2 HPA keeps its target, bounds, every metric and its
// behavior; a metric podsim does not simulate and a metric's selector get
// a warning at their line; an autoscaling/v1 HPA keeps its CPU target.
func TestHPAConverted(t *testing.T) {
	s, warns := parseOK(t, `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: app, image: x, resources: {requests: {cpu: 100m, memory: 64Mi}}}]}
---
apiVersion: v1
kind: Service
metadata: {name: web}
spec: {selector: {app: web}}
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 2
  maxReplicas: 9
  metrics:
    - {type: Resource, resource: {name: memory, target: {type: AverageValue, averageValue: 48Mi}}}
    - {type: Pods, pods: {metric: {name: requests_per_second, selector: {matchLabels: {a: b}}}, target: {type: AverageValue, averageValue: "8"}}}
    - {type: Object, object: {describedObject: {apiVersion: v1, kind: Service, name: web}, metric: {name: requests_per_second}, target: {type: Value, value: 1k}}}
    - {type: External, external: {metric: {name: queue}, target: {type: Value, value: "1"}}}
  behavior:
    scaleUp: {stabilizationWindowSeconds: 30, selectPolicy: Min, policies: [{type: Pods, value: 2, periodSeconds: 60}], tolerance: 50m}
    scaleDown: {selectPolicy: Disabled}
---
apiVersion: autoscaling/v1
kind: HorizontalPodAutoscaler
metadata: {name: v1}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  maxReplicas: 4
  targetCPUUtilizationPercentage: 65
`)
	ws := s.Workloads()
	if len(ws) != 4 {
		t.Fatalf("%d workloads", len(ws))
	}
	h := ws[2].Spec.HPASpec
	switch {
	case ws[2].Kind != "HorizontalPodAutoscaler" || h.ScaleTargetRef.Name != "web" || *h.MinReplicas != 2 || *h.MaxReplicas != 9:
		t.Errorf("v2 %+v", h)
	case len(h.Metrics) != 4 || h.Metrics[0].Resource.Target.AverageValue.Value() != 48<<20 || h.Metrics[1].Pods.Metric.Name != "requests_per_second":
		t.Errorf("metrics %+v", h.Metrics)
	case h.Metrics[2].Object.Target.Value.MilliValue() != 1_000_000 || h.Metrics[2].Object.DescribedObject.Name != "web":
		t.Errorf("object metric %+v", h.Metrics[2].Object)
	case *h.Behavior.ScaleUp.StabilizationWindowSeconds != 30 || h.Behavior.ScaleUp.SelectPolicy != "Min" ||
		*h.Behavior.ScaleUp.Policies[0].Value != 2 || h.Behavior.ScaleUp.Tolerance.MilliValue() != 50 || h.Behavior.ScaleDown.SelectPolicy != "Disabled":
		t.Errorf("behavior %+v %+v", h.Behavior.ScaleUp, h.Behavior.ScaleDown)
	}
	if v1 := ws[3].Spec.HPASpec; ws[3].APIVersion != "autoscaling/v1" || *v1.TargetCPUUtilizationPercentage != 65 || *v1.MaxReplicas != 4 {
		t.Errorf("v1 %+v", v1)
	}
	for _, want := range []string{
		"x.yaml:24:63: warning: selector is not simulated",
		"x.yaml:26:24: warning: external is not simulated",
	} {
		if !strings.Contains(warns, want) {
			t.Errorf("warnings lack %q:\n%s", want, warns)
		}
	}
}
