package scenarios

// Karpenter: NodePools (karpenter.sh/v1) in spec.workloads and manifests,
// and the instance types a cloud would offer them (podsim has none).

// kindNodePool is the kind of a Karpenter NodePool in spec.workloads.
const kindNodePool = "NodePool"

// nodePoolAPIVersion is the apiVersion of a NodePool.
const nodePoolAPIVersion = "karpenter.sh/v1"

// InstanceType is a kind of machine Karpenter may launch (spec.instanceTypes):
// its allocatable capacity (cpu, memory, pods), its price, how long one
// takes to boot, and the labels its nodes carry (topology.kubernetes.io/zone,
// karpenter.sh/capacity-type, kubernetes.io/arch, ...).
type InstanceType struct {
	Name         string              `yaml:"name"`
	Capacity     map[string]Quantity `yaml:"capacity"`
	PricePerHour *float64            `yaml:"pricePerHour"`
	BootTime     *DurationDist       `yaml:"bootTime"`
	Labels       map[string]string   `yaml:"labels"`
}

// NodePoolSpec is a NodePool's spec beside its template, inlined in
// WorkloadSpec.
type NodePoolSpec struct {
	Disruption *NodePoolDisruption `yaml:"disruption"`
	Limits     map[string]Quantity `yaml:"limits"`
	Weight     *int32              `yaml:"weight"`
}

// NodePoolDisruption is a NodePool's spec.disruption.
type NodePoolDisruption struct {
	ConsolidationPolicy string           `yaml:"consolidationPolicy"`
	ConsolidateAfter    string           `yaml:"consolidateAfter"` // a duration or Never
	Budgets             []NodePoolBudget `yaml:"budgets"`
}

// NodePoolBudget is one disruption budget: nodes (a count or a
// percentage) for the reasons listed (none: all). A budget's schedule and
// duration are refused: podsim keeps every budget active.
type NodePoolBudget struct {
	Nodes    string    `yaml:"nodes"`
	Reasons  []string  `yaml:"reasons"`
	Schedule *string   `yaml:"schedule"`
	Duration *Duration `yaml:"duration"`
}

// NodeClaimTemplateSpec is a NodePool's spec.template.spec beside what a
// pod template has, inlined in PodSpec: only a NodePool's template has it.
type NodeClaimTemplateSpec struct {
	Requirements           []NodePoolRequirement `yaml:"requirements"`
	Taints                 []Taint               `yaml:"taints"`
	StartupTaints          []Taint               `yaml:"startupTaints"`
	ExpireAfter            string                `yaml:"expireAfter"` // a duration or Never
	TerminationGracePeriod *Duration             `yaml:"terminationGracePeriod"`
	NodeClassRef           *NodeClassRef         `yaml:"nodeClassRef"`
}

// NodePoolRequirement is a node selector requirement (minValues is read
// and not simulated: every instance type is one offering).
type NodePoolRequirement struct {
	Key       string   `yaml:"key"`
	Operator  string   `yaml:"operator"`
	Values    []string `yaml:"values"`
	MinValues *int     `yaml:"minValues"`
}

// NodeClassRef names the cloud's node class (an EC2NodeClass, ...); podsim
// has no cloud and only reads it.
type NodeClassRef struct {
	Group string `yaml:"group"`
	Kind  string `yaml:"kind"`
	Name  string `yaml:"name"`
}

// NodePoolUpdateFault changes a NodePool's template labels, as `kubectl
// apply` of an edited NodePool does: the labels given are set (merged
// into the template's), and Karpenter sees the nodes launched from the
// old template as drifted.
type NodePoolUpdateFault struct {
	NodePool string            `yaml:"nodePool"`
	Labels   map[string]string `yaml:"labels"`
}
