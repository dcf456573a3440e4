package model

import "time"

// NodeGroup is a node group of a cloud (spec.nodeGroups): identical nodes
// made from Template, between Min and Max of them, named <Name>-<n>. The
// Cluster Autoscaler (model/controller/clusterautoscaler) resizes it.
type NodeGroup struct {
	Name     string
	Min, Max int
	// Template is every node's spec but its name: capacity, labels
	// (with the zone's), taints; Group and PricePerHour are the group's.
	Template NodeSpec
	// BootTime is how long a new node takes to turn Ready; BootDist, if
	// set, is drawn for each node instead.
	BootTime time.Duration
	BootDist Dist
}

// ClusterAutoscalerSettings are the Cluster Autoscaler's flags
// (cluster-autoscaler/config/flags/flags.go); DefaultClusterAutoscaler
// has upstream's defaults.
type ClusterAutoscalerSettings struct {
	Expander                      string // least-waste, random, most-pods, priority or price
	Priorities                    map[int][]string
	ScanInterval                  time.Duration
	ScaleDownEnabled              bool
	ScaleDownUtilizationThreshold float64
	ScaleDownUnneededTime         time.Duration
	ScaleDownDelayAfterAdd        time.Duration
	ScaleDownDelayAfterDelete     time.Duration
	ScaleDownDelayAfterFailure    time.Duration
	MaxNodeProvisionTime          time.Duration
	MaxGracefulTermination        time.Duration
	MaxEmptyBulkDelete            int
	MaxNodesTotal                 int // 0: no limit
	InitialNodeGroupBackoff       time.Duration
	MaxNodeGroupBackoff           time.Duration
	NodeGroupBackoffReset         time.Duration
	SkipNodesWithSystemPods       bool
	SkipNodesWithLocalStorage     bool
}

// DefaultClusterAutoscaler returns the Cluster Autoscaler's defaults.
func DefaultClusterAutoscaler() ClusterAutoscalerSettings {
	return ClusterAutoscalerSettings{Expander: "least-waste", ScanInterval: 10 * time.Second, ScaleDownEnabled: true,
		ScaleDownUtilizationThreshold: 0.5, ScaleDownUnneededTime: 10 * time.Minute, ScaleDownDelayAfterAdd: 10 * time.Minute,
		ScaleDownDelayAfterFailure: 3 * time.Minute, MaxNodeProvisionTime: 15 * time.Minute,
		MaxGracefulTermination: 600 * time.Second, MaxEmptyBulkDelete: 10,
		InitialNodeGroupBackoff: 5 * time.Minute, MaxNodeGroupBackoff: 30 * time.Minute, NodeGroupBackoffReset: 3 * time.Hour,
		SkipNodesWithSystemPods: true, SkipNodesWithLocalStorage: true}
}

// FailNodeBoot makes the nodes provisioned for group from now on never
// boot (fail true) or boot again (false): a cloud whose instances of the
// group never join (the nodeGroupBootFailure fault).
func (w *World) FailNodeBoot(group string, fail bool) {
	if w.bootFailing == nil {
		w.bootFailing = map[string]bool{}
	}
	w.bootFailing[group] = fail
}
