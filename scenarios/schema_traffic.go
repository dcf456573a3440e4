package scenarios

import (
	"fmt"

	"github.com/podsim/podsim/internal/yamlstrict"
	"go.yaml.in/yaml/v3"
)

// Traffic sends requests to a Service at a rate that may change over time.
type Traffic struct {
	Service   string `yaml:"service"`
	Namespace string `yaml:"namespace"` // of the Service; "" is default
	RPS       Series `yaml:"rps"`
}

// KubeProxy holds kube-proxy's sync periods: it applies endpoint changes
// at most once per minSyncPeriod (default 1s) and syncs at least once per
// syncPeriod (default 30s).
type KubeProxy struct {
	MinSyncPeriod *Duration `yaml:"minSyncPeriod"`
	SyncPeriod    *Duration `yaml:"syncPeriod"`
}

// MetricsServer holds metrics-server's scrape interval (its
// --metric-resolution, 15s as its Helm chart ships).
type MetricsServer struct {
	MetricResolution *Duration `yaml:"metricResolution"`
}

// Selector is a workload's spec.selector: a label selector (a
// PodDisruptionBudget's matchLabels, a controller's, accepted quietly), or
// a Service's labels as a plain mapping (app: web), which Labels collects.
type Selector struct {
	LabelSelector `yaml:",inline"`
	Labels        map[string]string `yaml:",inline"`
}

// SleepAction is the sleep hook action: the hook lasts Seconds.
type SleepAction struct {
	Seconds *int64 `yaml:"seconds"`
}

// kindService is the kind of a Service in spec.workloads.
const kindService = "Service"

// A Service's fields beyond its selector: how each is treated.
func init() { yamlstrict.Declare(serviceFields) }

func serviceFields() {
	Ignore[WorkloadSpec]("ports", "clusterIP", "clusterIPs", "ipFamilies", "ipFamilyPolicy", "type",
		"loadBalancerIP", "loadBalancerSourceRanges", "loadBalancerClass", "allocateLoadBalancerNodePorts",
		"healthCheckNodePort", "externalIPs")
	Unmodelled[WorkloadSpec](map[string]string{
		"publishNotReadyAddresses": "a pod is a ready endpoint only when Ready",
		"sessionAffinity":          "requests are split evenly over the endpoints: there is no client affinity",
		"sessionAffinityConfig":    "requests are split evenly over the endpoints: there is no client affinity",
		"externalTrafficPolicy":    "every endpoint gets an even share, wherever the request enters",
		"internalTrafficPolicy":    "every endpoint gets an even share, wherever the request comes from",
		"trafficDistribution":      "every endpoint gets an even share, whatever its zone",
		"externalName":             "an ExternalName Service has no endpoints podsim can simulate",
	})
}

// Usage is a use of CPU and memory.
type Usage struct {
	CPU    *Quantity `yaml:"cpu"`
	Memory *Quantity `yaml:"memory"`
}

// Leak is a memory leak: the process's memory grows by Memory for every
// Per it runs (default 1m), from its start; a restart starts it over.
type Leak struct {
	Memory *Quantity `yaml:"memory"`
	Per    *Duration `yaml:"per"`
}

// QuantityRange is a quantity (exactly it) or a range {min: Q, max: Q},
// either bound optional.
type QuantityRange struct {
	Min, Max       Quantity
	HasMin, HasMax bool
}

// Contains reports whether milli (thousandths of a unit) is in the range.
func (r QuantityRange) Contains(milli int64) bool {
	return (!r.HasMin || milli >= r.Min.MilliValue()) && (!r.HasMax || milli <= r.Max.MilliValue())
}

// String returns "500m", "at least 100Mi", "at most 1", "100m..200m".
func (r QuantityRange) String() string {
	switch {
	case r.HasMin && r.HasMax && r.Min.MilliValue() == r.Max.MilliValue():
		return r.Min.String()
	case r.HasMin && r.HasMax:
		return r.Min.String() + ".." + r.Max.String()
	case r.HasMin:
		return "at least " + r.Min.String()
	case r.HasMax:
		return "at most " + r.Max.String()
	}
	return "any"
}

// UnmarshalYAML accepts a quantity or {min: Q, max: Q}.
func (r *QuantityRange) UnmarshalYAML(n *yaml.Node) error {
	*r = QuantityRange{}
	if n.Kind == yaml.ScalarNode {
		var q Quantity
		if err := q.UnmarshalYAML(n); err != nil {
			return err
		}
		*r = QuantityRange{Min: q, Max: q, HasMin: true, HasMax: true}
		return nil
	}
	if n.Kind != yaml.MappingNode {
		return fmt.Errorf("expected a quantity such as 500m or 128Mi, or {min: Q, max: Q}, found %s", describeNode(n))
	}
	var errs ErrorList
	out := QuantityRange{}
	for _, p := range distPairs(n, &errs, "range", []string{"min", "max"}) {
		var q Quantity
		if err := q.UnmarshalYAML(p.val); err != nil {
			errs.Add("", nodePos(p.val), "%s: %s", p.name, err.Error())
			continue
		}
		if p.name == "min" {
			out.Min, out.HasMin = q, true
		} else {
			out.Max, out.HasMax = q, true
		}
	}
	if len(errs) > 0 {
		return errs
	}
	if !out.HasMin && !out.HasMax {
		return fmt.Errorf("a range takes min, max or both")
	}
	if out.HasMin && out.HasMax && out.Max.MilliValue() < out.Min.MilliValue() {
		return fmt.Errorf("max (%s) must not be less than min (%s)", out.Max, out.Min)
	}
	*r = out
	return nil
}
