package scenarios

import (
	"fmt"
	"maps"
	"slices"

	"github.com/podsim/podsim/internal/yamlstrict"
)

// didYouMean is "; did you mean "x"?" for the candidate closest to name,
// if one is close enough to be a likely typo, or "". A one-letter name is
// no typo of another one-letter name.
func didYouMean(name string, candidates []string) string {
	if len(name) < 2 {
		return ""
	}
	slices.Sort(candidates) // ties go to the first
	if s := yamlstrict.SuggestName(name, candidates); s != "" {
		return fmt.Sprintf("; did you mean %q?", s)
	}
	return ""
}

// hint follows a reference to a pod or workload (withPods: a bare pod too,
// else a PodDisruptionBudget too) called name in namespace ns that is not
// there: where else one is (elsewhere), else the closest name in ns.
func (v *validator) hint(name, ns string, withPods bool) string {
	if h := v.elsewhere(name, ns); h != "" {
		return h
	}
	ns = namespaceOf(ns)
	var names []string
	collect := func(keys []string) {
		for _, key := range keys {
			if other, n := splitKey(key); other == ns {
				names = append(names, n)
			}
		}
	}
	collect(slices.Collect(maps.Keys(v.workloads)))
	if withPods {
		collect(slices.Collect(maps.Keys(v.pods)))
	} else {
		collect(slices.Collect(maps.Keys(v.budgets))) // an expectation may name one
	}
	return didYouMean(name, names)
}

// nodeHint is the closest node name to name.
func (v *validator) nodeHint(name string) string {
	names := slices.Collect(maps.Keys(v.nodes))
	if len(v.s.nodes) == 0 {
		names = append(names, DefaultNodeName)
	}
	return didYouMean(name, names)
}

// containerHint is the closest name to name among ps's containers.
func containerHint(ps *PodSpec, name string) string {
	var names []string
	for _, list := range [][]Container{ps.InitContainers, ps.Containers} {
		for i := range list {
			names = append(names, list[i].Name)
		}
	}
	return didYouMean(name, names)
}
