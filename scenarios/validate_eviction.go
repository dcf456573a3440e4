package scenarios

import (
	"maps"
	"slices"
)

// evictionSettings checks the eviction manager's settings as the kubelet's
// ParseThresholdConfig does: the signal memory.available only, a grace
// period for every soft threshold, and no negative grace period
// (quantities, percentages and durations are checked when decoded).
func (v *validator) evictionSettings(st *Settings) {
	e := &st.Eviction
	for _, k := range slices.Sorted(maps.Keys(e.EvictionHard)) {
		v.evictionSignal(&e.EvictionHard, "evictionHard", k)
	}
	for _, k := range slices.Sorted(maps.Keys(e.EvictionSoft)) {
		v.evictionSignal(&e.EvictionSoft, "evictionSoft", k)
		if _, ok := e.EvictionSoftGracePeriod[k]; !ok && k == memorySignal {
			v.atMapKey(&e.EvictionSoft, k, "evictionSoft: grace period must be specified for the soft eviction threshold %s: add evictionSoftGracePeriod: {%s: 1m30s}", k, k)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(e.EvictionSoftGracePeriod)) {
		v.evictionSignal(&e.EvictionSoftGracePeriod, "evictionSoftGracePeriod", k)
	}
	if g := e.EvictionMaxPodGracePeriod; g != nil && *g < 0 {
		v.at(g, "evictionMaxPodGracePeriod: %d: want seconds >= 0", *g)
	}
}

// evictionSignal checks one signal key of the map m called field.
func (v *validator) evictionSignal(m any, field, k string) {
	if k != memorySignal {
		v.atMapKey(m, k, "%s: unknown signal %q: podsim models %s only", field, k, memorySignal)
	}
}
