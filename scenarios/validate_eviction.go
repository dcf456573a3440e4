package scenarios

import "sort"

// evictionSettings checks the eviction manager's settings: evictionHard
// knows the signal memory.available only (quantities and durations are
// never negative when decoded).
func (v *validator) evictionSettings(st *Settings) {
	keys := make([]string, 0, len(st.EvictionHard))
	for k := range st.EvictionHard {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if k != "memory.available" {
			v.atMapKey(&st.EvictionHard, k, "evictionHard: unknown signal %q: podsim models memory.available only", k)
		}
	}
}
