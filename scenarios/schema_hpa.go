package scenarios

import "github.com/podsim/podsim/internal/yamlstrict"

// kindHPA is the kind of a HorizontalPodAutoscaler in spec.workloads.
const kindHPA = "HorizontalPodAutoscaler"

// HPASpec is the spec of a HorizontalPodAutoscaler (autoscaling/v2, or
// autoscaling/v1 with targetCPUUtilizationPercentage), inlined in
// WorkloadSpec.
type HPASpec struct {
	ScaleTargetRef *ObjectReference `yaml:"scaleTargetRef"`
	MinReplicas    *int32           `yaml:"minReplicas"`
	MaxReplicas    *int32           `yaml:"maxReplicas"`
	Metrics        []HPAMetric      `yaml:"metrics"`
	Behavior       *HPABehavior     `yaml:"behavior"`
	// TargetCPUUtilizationPercentage is autoscaling/v1's one metric.
	TargetCPUUtilizationPercentage *int32 `yaml:"targetCPUUtilizationPercentage"`
}

// ObjectReference names an object: an autoscaler's target, or the object
// an Object metric describes (a CrossVersionObjectReference).
type ObjectReference struct {
	APIVersion string `yaml:"apiVersion"`
	Kind       string `yaml:"kind"`
	Name       string `yaml:"name"`
}

// HPAMetric is one metric of an autoscaler: type Resource, Pods or Object
// and the field of that name.
type HPAMetric struct {
	Type     string             `yaml:"type"`
	Resource *HPAResourceMetric `yaml:"resource"`
	Pods     *HPAPodsMetric     `yaml:"pods"`
	Object   *HPAObjectMetric   `yaml:"object"`
}

// HPAResourceMetric is a resource of the pods (cpu or memory) against a
// Utilization or AverageValue target.
type HPAResourceMetric struct {
	Name   string          `yaml:"name"`
	Target HPAMetricTarget `yaml:"target"`
}

// HPAPodsMetric is a metric of each pod (requests_per_second) against an
// AverageValue target.
type HPAPodsMetric struct {
	Metric HPAMetricName   `yaml:"metric"`
	Target HPAMetricTarget `yaml:"target"`
}

// HPAObjectMetric is a metric of another object (a Service's
// requests_per_second) against a Value or AverageValue target.
type HPAObjectMetric struct {
	DescribedObject ObjectReference `yaml:"describedObject"`
	Metric          HPAMetricName   `yaml:"metric"`
	Target          HPAMetricTarget `yaml:"target"`
}

// HPAMetricName names a metric (a MetricIdentifier).
type HPAMetricName struct {
	Name string `yaml:"name"`
}

// HPAMetricTarget is a metric's target: its type and the value of that
// type.
type HPAMetricTarget struct {
	Type               string    `yaml:"type"`
	AverageUtilization *int32    `yaml:"averageUtilization"`
	AverageValue       *Quantity `yaml:"averageValue"`
	Value              *Quantity `yaml:"value"`
}

// HPABehavior is an autoscaler's scaling behavior in each direction.
type HPABehavior struct {
	ScaleUp   *HPAScalingRules `yaml:"scaleUp"`
	ScaleDown *HPAScalingRules `yaml:"scaleDown"`
}

// HPAScalingRules are one direction's stabilization window, policies and
// how one is picked, and tolerance.
type HPAScalingRules struct {
	StabilizationWindowSeconds *int32             `yaml:"stabilizationWindowSeconds"`
	SelectPolicy               string             `yaml:"selectPolicy"`
	Policies                   []HPAScalingPolicy `yaml:"policies"`
	Tolerance                  *Quantity          `yaml:"tolerance"`
}

// HPAScalingPolicy lets the replicas change by Value pods (type Pods) or
// percent (type Percent) within any PeriodSeconds.
type HPAScalingPolicy struct {
	Type          string `yaml:"type"`
	Value         *int32 `yaml:"value"`
	PeriodSeconds *int32 `yaml:"periodSeconds"`
}

// HPASettings are kube-controller-manager's
// --horizontal-pod-autoscaler-* flags.
type HPASettings struct {
	SyncPeriod              *Duration `yaml:"syncPeriod"`
	Tolerance               *float64  `yaml:"tolerance"`
	DownscaleStabilization  *Duration `yaml:"downscaleStabilization"`
	CPUInitializationPeriod *Duration `yaml:"cpuInitializationPeriod"`
	InitialReadinessDelay   *Duration `yaml:"initialReadinessDelay"`
}

// HPACheck is what a check reads of a HorizontalPodAutoscaler's status
// (workload: its name), inlined in Expect.
type HPACheck struct {
	DesiredReplicas *IntRange `yaml:"desiredReplicas"`
	CurrentReplicas *IntRange `yaml:"currentReplicas"`
}

// The fields of an autoscaler podsim reads but does not simulate.
func init() { yamlstrict.Declare(hpaFields) }

func hpaFields() {
	Unmodelled[HPAMetric](map[string]string{
		"containerResource": "the metric proposes no replicas: podsim reads no single container's use",
		"external":          "the metric proposes no replicas: podsim serves no external metrics",
	})
	Unmodelled[HPAMetricName](map[string]string{
		"selector": "every pod's requests_per_second counts: podsim's metrics have no labels",
	})
}
