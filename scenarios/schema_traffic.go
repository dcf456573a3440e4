package scenarios

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
func init() {
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
