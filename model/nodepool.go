package model

import "time"

// NodePool is a Karpenter NodePool (karpenter.sh/v1, pkg/apis/v1/nodepool.go)
// with its defaults applied: the template of the nodes
// model/controller/karpenter launches for pending pods, their limits and
// how it disrupts them. The core only holds it.
type NodePool struct {
	Name          string
	Labels        map[string]string // spec.template.metadata.labels
	Taints        []Taint           // spec.template.spec.taints
	StartupTaints []Taint           // spec.template.spec.startupTaints
	Requirements  []NodeRequirement // spec.template.spec.requirements
	// ExpireAfter is spec.template.spec.expireAfter (720h); Never is
	// sim.MaxDuration.
	ExpireAfter time.Duration
	// Limits are spec.limits: cpu (millicores), memory (bytes) and nodes;
	// a negative one is no limit.
	LimitMilliCPU, LimitMemory, LimitNodes int64
	// Disruption: consolidationPolicy (WhenEmptyOrUnderutilized or
	// WhenEmpty), consolidateAfter (Never is sim.MaxDuration) and budgets
	// (nodes: 10% when none is given).
	ConsolidationPolicy string
	ConsolidateAfter    time.Duration
	Budgets             []NodePoolBudget
	Weight              int32 // spec.weight; 0 if unset
	// Hash changes when the template changes: nodes launched from another
	// hash have drifted.
	Hash string
}

// NodeRequirement is one of a NodePool's requirements: a node label key,
// an operator (In, NotIn, Exists, DoesNotExist, Gt, Lt) and its values.
type NodeRequirement struct {
	Key, Operator string
	Values        []string
}

// NodePoolBudget is one of a NodePool's disruption budgets: how many of
// its nodes (a count or a percentage) may be disrupted at once, for the
// reasons listed (none: every reason).
type NodePoolBudget struct {
	Nodes   string
	Reasons []string
}

// InstanceType is a kind of machine a cloud offers Karpenter (podsim has
// no cloud: the scenario lists them): its allocatable resources, its price,
// how long one takes to boot (BootDist, if set, is drawn instead of
// BootTime) and the labels its nodes carry.
type InstanceType struct {
	Name         string
	Capacity     Resources
	PricePerHour float64
	BootTime     time.Duration
	BootDist     Dist
	Labels       map[string]string
}

// AddNodePool adds a NodePool, or replaces the one of its name (a new
// template drifts the nodes launched from the old one).
func (w *World) AddNodePool(p *NodePool) {
	for i, q := range w.nodePools {
		if q.Name == p.Name {
			w.nodePools[i] = p
			return
		}
	}
	w.nodePools = append(w.nodePools, p)
}

// NodePools are the NodePools, in the order they were added.
func (w *World) NodePools() []*NodePool { return w.nodePools }

// SetInstanceTypes sets the instance types the cloud offers.
func (w *World) SetInstanceTypes(its []InstanceType) { w.instTypes = its }

// InstanceTypes are the instance types the cloud offers.
func (w *World) InstanceTypes() []InstanceType { return w.instTypes }

// NodePoolEvent records an event on NodePool name (Karpenter's
// NoCompatibleInstanceTypes, DisruptionBlocked).
func (w *World) NodePoolEvent(name string, typ EventType, reason, source, msg string) {
	w.eventMsg("NodePool", name, typ, reason, source, msg)
}
