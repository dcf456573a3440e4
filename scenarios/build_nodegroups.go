package scenarios

import (
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/sim"
)

// zoneLabel is the well-known label of a node's zone.
const zoneLabel = "topology.kubernetes.io/zone"

// settings puts the node groups and the Cluster Autoscaler's flags
// (upstream's defaults under the file's) into st.
func (na *NodeAutoscaling) settings(st *model.Settings) {
	for i := range na.NodeGroups {
		st.NodeGroups = append(st.NodeGroups, nodeGroup(&na.NodeGroups[i]))
	}
	in := na.ClusterAutoscaler
	if in == nil {
		return
	}
	ca := model.DefaultClusterAutoscaler()
	if in.Expander != "" {
		ca.Expander = in.Expander
	}
	ca.Priorities = in.Priorities
	for _, d := range []struct {
		out *time.Duration
		in  *Duration
	}{{&ca.ScanInterval, in.ScanInterval}, {&ca.ScaleDownUnneededTime, in.ScaleDownUnneededTime},
		{&ca.ScaleDownDelayAfterAdd, in.ScaleDownDelayAfterAdd}, {&ca.ScaleDownDelayAfterDelete, in.ScaleDownDelayAfterDelete},
		{&ca.ScaleDownDelayAfterFailure, in.ScaleDownDelayAfterFailure}, {&ca.MaxNodeProvisionTime, in.MaxNodeProvisionTime},
		{&ca.InitialNodeGroupBackoff, in.InitialNodeGroupBackoff}, {&ca.MaxNodeGroupBackoff, in.MaxNodeGroupBackoff},
		{&ca.NodeGroupBackoffReset, in.NodeGroupBackoffReset}} {
		setDur(d.out, d.in)
	}
	setBool := func(out *bool, in *bool) {
		if in != nil {
			*out = *in
		}
	}
	setBool(&ca.ScaleDownEnabled, in.ScaleDownEnabled)
	setBool(&ca.SkipNodesWithSystemPods, in.SkipNodesWithSystemPods)
	if t := in.ScaleDownUtilizationThreshold; t != nil {
		ca.ScaleDownUtilizationThreshold = *t
	}
	if n := in.MaxGracefulTerminationSec; n != nil {
		ca.MaxGracefulTermination = sim.Seconds(int64(*n))
	}
	if n := in.MaxEmptyBulkDelete; n != nil {
		ca.MaxEmptyBulkDelete = *n
	}
	if n := in.MaxNodesTotal; n != nil {
		ca.MaxNodesTotal = *n
	}
	st.ClusterAutoscaler = &ca
}

// nodeGroup converts a node group: its template with the zone's label,
// the group's name and price.
func nodeGroup(g *NodeGroup) model.NodeGroup {
	t := &g.Template
	labels := t.Labels
	if g.Zone != "" {
		labels = make(map[string]string, len(t.Labels)+1)
		for k, v := range t.Labels {
			labels[k] = v
		}
		labels[zoneLabel] = g.Zone
	}
	var taints []model.Taint
	for _, x := range t.Taints {
		taints = append(taints, model.Taint{Key: x.Key, Value: x.Value, Effect: x.Effect})
	}
	out := model.NodeGroup{Name: g.Name,
		Template: model.NodeSpec{Labels: labels, Capacity: resources(t.Capacity, defaultCapacity), Taints: taints, Group: g.Name}}
	if g.Min != nil {
		out.Min = max(*g.Min, 0)
	}
	if g.Max != nil {
		out.Max = *g.Max
	}
	if g.PricePerHour != nil {
		out.Template.PricePerHour = *g.PricePerHour
	}
	if g.BootTime != nil {
		out.BootTime, out.BootDist = g.BootTime.Model()
	}
	return out
}

// addGroupNodes adds each node group's min nodes, Ready, named
// <group>-0 ... <group>-(min-1).
func addGroupNodes(w *model.World) {
	for _, g := range w.Settings().NodeGroups {
		for _, name := range GroupNodeNames(g.Name, g.Min) {
			spec := g.Template
			spec.Name = name
			w.AddNode(spec)
		}
	}
}

// nodeGroupBootFailureAction makes the group's new nodes fail to boot
// from the fault's time, for its for if given.
func nodeGroupBootFailureAction(c *faultWorld, f *NodeGroupFault) func() {
	d := c.draw(f.For)
	return func() {
		c.w.FailNodeBoot(f.Group, true)
		if d != nil {
			c.w.Schedule(sim.AddSat(c.w.Now(), *d), func() { c.w.FailNodeBoot(f.Group, false) })
		}
	}
}
