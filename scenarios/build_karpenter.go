package scenarios

import (
	"fmt"
	"hash/fnv"
	"maps"
	"slices"
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/sim"
)

// Karpenter's defaults (pkg/apis/v1/nodepool.go, nodeclaim.go).
const (
	defaultExpireAfter         = 720 * time.Hour
	defaultConsolidationPolicy = "WhenEmptyOrUnderutilized"
	defaultBudgetNodes         = "10%"
)

// hasNodePools reports whether the scenario has a NodePool: Karpenter
// launches its nodes, and there is no default node.
func (s *Scenario) hasNodePools() bool {
	return slices.ContainsFunc(s.workloads, func(w *Workload) bool { return w.Kind == kindNodePool })
}

// addNodePools gives w the scenario's instance types and NodePools.
func (s *Scenario) addNodePools(w *model.World) {
	if !s.hasNodePools() {
		return
	}
	var its []model.InstanceType
	for _, in := range s.File.Spec.InstanceTypes {
		it := model.InstanceType{Name: in.Name, Capacity: resources(in.Capacity, defaultCapacity), Labels: in.Labels}
		if in.PricePerHour != nil {
			it.PricePerHour = *in.PricePerHour
		}
		if in.BootTime != nil {
			it.BootTime, it.BootDist = in.BootTime.Model()
		}
		its = append(its, it)
	}
	w.SetInstanceTypes(its)
	for _, wl := range s.workloads {
		if wl.Kind == kindNodePool {
			w.AddNodePool(nodePoolSpec(wl))
		}
	}
}

// nodePoolSpec converts a NodePool with Karpenter's defaults.
func nodePoolSpec(wl *Workload) *model.NodePool {
	ts := &wl.Spec.Template.Spec.NodeClaimTemplateSpec
	sp := &wl.Spec.NodePoolSpec
	out := &model.NodePool{Name: wl.Metadata.Name, Labels: wl.Spec.Template.Metadata.Labels, ExpireAfter: defaultExpireAfter,
		LimitMilliCPU: -1, LimitMemory: -1, LimitNodes: -1, ConsolidationPolicy: defaultConsolidationPolicy}
	out.Taints, out.StartupTaints = modelTaints(ts.Taints), modelTaints(ts.StartupTaints)
	for _, r := range ts.Requirements {
		out.Requirements = append(out.Requirements, model.NodeRequirement{Key: r.Key, Operator: r.Operator, Values: r.Values})
	}
	if ts.ExpireAfter != "" {
		out.ExpireAfter = nillable(ts.ExpireAfter)
	}
	if q, ok := sp.Limits["cpu"]; ok {
		out.LimitMilliCPU = q.MilliValue()
	}
	if q, ok := sp.Limits["memory"]; ok {
		out.LimitMemory = q.Value()
	}
	if q, ok := sp.Limits["nodes"]; ok {
		out.LimitNodes = q.Value()
	}
	if sp.Weight != nil {
		out.Weight = *sp.Weight
	}
	if d := sp.Disruption; d != nil {
		if d.ConsolidationPolicy != "" {
			out.ConsolidationPolicy = d.ConsolidationPolicy
		}
		if d.ConsolidateAfter != "" {
			out.ConsolidateAfter = nillable(d.ConsolidateAfter)
		}
		for _, b := range d.Budgets {
			out.Budgets = append(out.Budgets, model.NodePoolBudget{Nodes: b.Nodes, Reasons: b.Reasons})
		}
	}
	if len(out.Budgets) == 0 {
		out.Budgets = []model.NodePoolBudget{{Nodes: defaultBudgetNodes}}
	}
	out.Hash = templateHash(out)
	return out
}

func modelTaints(in []Taint) []model.Taint {
	var out []model.Taint
	for _, t := range in {
		out = append(out, model.Taint{Key: t.Key, Value: t.Value, Effect: t.Effect})
	}
	return out
}

// nillable reads a NillableDuration: Never is sim.MaxDuration. Validation
// has checked its pattern.
func nillable(s string) time.Duration {
	if s == "Never" {
		return sim.MaxDuration
	}
	d, _ := time.ParseDuration(s)
	return d
}

// templateHash digests what of a NodePool's template its nodes carry
// (labels, taints, startup taints, requirements, expireAfter): another
// digest is drift. It is podsim's own digest, not Karpenter's
// nodepool-hash annotation.
func templateHash(p *model.NodePool) string {
	h := fnv.New64a()
	for _, k := range slices.Sorted(maps.Keys(p.Labels)) {
		fmt.Fprintf(h, "l %s=%s;", k, p.Labels[k])
	}
	fmt.Fprintf(h, "t %v;s %v;r %v;e %d", p.Taints, p.StartupTaints, p.Requirements, p.ExpireAfter)
	return fmt.Sprintf("%x", h.Sum64())
}

// nodePoolUpdateAction sets the fault's labels on the NodePool's template:
// a new template hash, so Karpenter's drift replaces the nodes launched
// from the old one.
func nodePoolUpdateAction(c *faultWorld, f *NodePoolUpdateFault) func() {
	return func() {
		for _, p := range c.w.NodePools() {
			if p.Name != f.NodePool {
				continue
			}
			np := *p
			np.Labels = maps.Clone(p.Labels)
			if np.Labels == nil {
				np.Labels = map[string]string{}
			}
			maps.Copy(np.Labels, f.Labels)
			np.Hash = templateHash(&np)
			c.w.AddNodePool(&np)
			return
		}
	}
}
