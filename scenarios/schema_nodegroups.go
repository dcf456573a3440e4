package scenarios

// NodeAutoscaling is the cloud's node groups and the Cluster Autoscaler
// that resizes them, inlined in Spec.
type NodeAutoscaling struct {
	NodeGroups        []NodeGroup        `yaml:"nodeGroups"`
	ClusterAutoscaler *ClusterAutoscaler `yaml:"clusterAutoscaler"`
	InstanceTypes     []InstanceType     `yaml:"instanceTypes"` // what Karpenter's NodePools launch (schema_karpenter.go)
}

// NodeGroup is a node group: min to max identical nodes made from
// template, named <name>-<n>; min of them are Ready at the start.
type NodeGroup struct {
	Name         string        `yaml:"name"`
	Min          *int          `yaml:"min"`
	Max          *int          `yaml:"max"`
	Template     NodeTemplate  `yaml:"template"`
	BootTime     *DurationDist `yaml:"bootTime"` // default 0: Ready once registered
	PricePerHour *float64      `yaml:"pricePerHour"`
	Zone         string        `yaml:"zone"` // the label topology.kubernetes.io/zone of its nodes
}

// NodeTemplate is a node group's node, as a node of spec.nodes gives it.
type NodeTemplate struct {
	Capacity map[string]Quantity `yaml:"capacity"`
	Labels   map[string]string   `yaml:"labels"`
	Taints   []Taint             `yaml:"taints"`
}

// ClusterAutoscaler is the Cluster Autoscaler's configuration, its flags
// (cluster-autoscaler/config/flags/flags.go); unset fields take upstream's
// defaults (model.DefaultClusterAutoscaler).
type ClusterAutoscaler struct {
	Expander string `yaml:"expander"`
	// Priorities is the priority expander's ConfigMap
	// (cluster-autoscaler-priority-expander): priority -> regular
	// expressions of group names.
	Priorities                    map[int][]string `yaml:"priorities"`
	ScanInterval                  *Duration        `yaml:"scanInterval"`
	ScaleDownEnabled              *bool            `yaml:"scaleDownEnabled"`
	ScaleDownUtilizationThreshold *float64         `yaml:"scaleDownUtilizationThreshold"`
	ScaleDownUnneededTime         *Duration        `yaml:"scaleDownUnneededTime"`
	ScaleDownDelayAfterAdd        *Duration        `yaml:"scaleDownDelayAfterAdd"`
	ScaleDownDelayAfterDelete     *Duration        `yaml:"scaleDownDelayAfterDelete"`
	ScaleDownDelayAfterFailure    *Duration        `yaml:"scaleDownDelayAfterFailure"`
	MaxNodeProvisionTime          *Duration        `yaml:"maxNodeProvisionTime"`
	MaxGracefulTerminationSec     *int             `yaml:"maxGracefulTerminationSec"`
	MaxEmptyBulkDelete            *int             `yaml:"maxEmptyBulkDelete"`
	MaxNodesTotal                 *int             `yaml:"maxNodesTotal"`
	InitialNodeGroupBackoff       *Duration        `yaml:"initialNodeGroupBackoffDuration"`
	MaxNodeGroupBackoff           *Duration        `yaml:"maxNodeGroupBackoffDuration"`
	NodeGroupBackoffReset         *Duration        `yaml:"nodeGroupBackoffResetTimeout"`
	SkipNodesWithSystemPods       *bool            `yaml:"skipNodesWithSystemPods"`
}

// NodeGroupFault makes the nodes a node group adds from the fault's time
// on never boot (for: until then; nil: for good).
type NodeGroupFault struct {
	Group string        `yaml:"group"`
	For   *DurationDist `yaml:"for"` // a distribution is drawn once, when the world is built
}

// NodeGroupCheck counts a node group's nodes (nodeGroup: its name), and
// the cluster's Pending pods, inlined in Expect.
type NodeGroupCheck struct {
	NodeGroup   string    `yaml:"nodeGroup"`
	Nodes       *IntRange `yaml:"nodes"`
	ReadyNodes  *IntRange `yaml:"readyNodes"`
	PendingPods *IntRange `yaml:"pendingPods"`
}
