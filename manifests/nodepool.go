package manifests

import (
	"maps"
	"slices"

	"github.com/podsim/podsim/scenarios"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// A Karpenter NodePool (karpenter.sh/v1, kubernetes-sigs/karpenter
// pkg/apis/v1/nodepool.go and nodeclaim.go) is not in k8s.io/api: these
// types hold its fields, by their JSON names, for the strict checker and
// the decoder. Its status is read as anything.
type nodePool struct {
	metav1.TypeMeta `json:",inline"`
	Metadata        metav1.ObjectMeta `json:"metadata"`
	Spec            nodePoolSpec      `json:"spec"`
	Status          map[string]any    `json:"status"`
}

type nodePoolSpec struct {
	Template   nodeClaimTemplate   `json:"template"`
	Disruption *nodePoolDisruption `json:"disruption"`
	Limits     corev1.ResourceList `json:"limits"`
	Weight     *int32              `json:"weight"`
	Replicas   *int64              `json:"replicas"`
}

type nodeClaimTemplate struct {
	Metadata struct {
		Labels      map[string]string `json:"labels"`
		Annotations map[string]string `json:"annotations"`
	} `json:"metadata"`
	Spec nodeClaimSpec `json:"spec"`
}

type nodeClaimSpec struct {
	Requirements           []nodeRequirement `json:"requirements"`
	Taints                 []corev1.Taint    `json:"taints"`
	StartupTaints          []corev1.Taint    `json:"startupTaints"`
	ExpireAfter            string            `json:"expireAfter"`
	TerminationGracePeriod *metav1.Duration  `json:"terminationGracePeriod"`
	NodeClassRef           *struct {
		Group string `json:"group"`
		Kind  string `json:"kind"`
		Name  string `json:"name"`
	} `json:"nodeClassRef"`
}

type nodeRequirement struct {
	Key       string   `json:"key"`
	Operator  string   `json:"operator"`
	Values    []string `json:"values"`
	MinValues *int     `json:"minValues"`
}

type nodePoolDisruption struct {
	ConsolidationPolicy string `json:"consolidationPolicy"`
	ConsolidateAfter    string `json:"consolidateAfter"`
	Budgets             []struct {
		Nodes    string           `json:"nodes"`
		Reasons  []string         `json:"reasons"`
		Schedule *string          `json:"schedule"`
		Duration *metav1.Duration `json:"duration"`
	} `json:"budgets"`
}

// nodePool converts a NodePool into the scenario's workload of kind
// NodePool; the scenario's validation checks its values.
func (c *converter) nodePool(o *nodePool) *scenarios.Workload {
	sp, ts := &o.Spec, &o.Spec.Template.Spec
	out := &scenarios.Workload{APIVersion: o.APIVersion, Kind: o.Kind, Metadata: meta(&o.Metadata)}
	out.Spec.Template.Metadata = scenarios.ObjectMeta{Labels: sp.Template.Metadata.Labels, Annotations: sp.Template.Metadata.Annotations}
	nc := &out.Spec.Template.Spec.NodeClaimTemplateSpec
	for _, r := range ts.Requirements {
		nc.Requirements = append(nc.Requirements, scenarios.NodePoolRequirement{Key: r.Key, Operator: r.Operator, Values: r.Values, MinValues: r.MinValues})
	}
	nc.Taints, nc.StartupTaints, nc.ExpireAfter = taints(ts.Taints), taints(ts.StartupTaints), ts.ExpireAfter
	if g := ts.TerminationGracePeriod; g != nil {
		d := scenarios.Duration(g.Duration)
		nc.TerminationGracePeriod = &d
	}
	if r := ts.NodeClassRef; r != nil {
		nc.NodeClassRef = &scenarios.NodeClassRef{Group: r.Group, Kind: r.Kind, Name: r.Name}
	}
	if d := sp.Disruption; d != nil {
		out.Spec.Disruption = &scenarios.NodePoolDisruption{ConsolidationPolicy: d.ConsolidationPolicy, ConsolidateAfter: d.ConsolidateAfter}
		for _, b := range d.Budgets {
			nb := scenarios.NodePoolBudget{Nodes: b.Nodes, Reasons: b.Reasons, Schedule: b.Schedule}
			if b.Duration != nil {
				d := scenarios.Duration(b.Duration.Duration)
				nb.Duration = &d
			}
			out.Spec.Disruption.Budgets = append(out.Spec.Disruption.Budgets, nb)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(sp.Limits)) {
		q := sp.Limits[name]
		v, err := scenarios.ParseQuantity(q.String())
		if err != nil {
			c.errs = append(c.errs, convError{out, string(name) + " " + q.String() + ": " + err.Error()})
			continue
		}
		if out.Spec.Limits == nil {
			out.Spec.Limits = map[string]scenarios.Quantity{}
		}
		out.Spec.Limits[string(name)] = v
	}
	out.Spec.Weight = sp.Weight
	if sp.Replicas != nil {
		r := int32(min(*sp.Replicas, 1<<31-1))
		out.Spec.Replicas = &r
	}
	return out
}

func taints(in []corev1.Taint) []scenarios.Taint {
	var out []scenarios.Taint
	for _, t := range in {
		out = append(out, scenarios.Taint{Key: t.Key, Value: t.Value, Effect: string(t.Effect)})
	}
	return out
}
