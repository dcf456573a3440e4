package replicaset

import (
	"fmt"
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/sim"
)

// CheckCounts makes every count of every ReplicaSet controller compare
// itself with countAll, reporting the first difference to fail; the
// returned func stops it.
func CheckCounts(fail func(string)) (stop func()) {
	checkCount = func(rs *model.ReplicaSet, now, minReady time.Duration, st model.ReplicaCounts, next time.Duration) {
		if want, wantNext := countAll(rs, now, minReady); st != want || next != wantNext {
			fail(fmt.Sprintf("ReplicaSet %s at %v: counted %+v (next %v), all of its pods give %+v (next %v)",
				rs.Name, now, st, next, want, wantNext))
		}
	}
	return func() { checkCount = nil }
}

// countAll is calculateStatus counted over every pod of rs at now, as
// the controller counted before it kept tallies: its active pods, those
// Ready, those available (Ready for more than minReady), and when the
// next Ready pod becomes available plus a second (0: none waits).
func countAll(rs *model.ReplicaSet, now, minReady time.Duration) (st model.ReplicaCounts, next time.Duration) {
	for _, p := range rs.Pods {
		if !p.IsActive() {
			continue
		}
		st.Replicas++
		if !p.IsReady() {
			continue
		}
		st.Ready++
		if minReady == 0 {
			st.Available++
			continue
		}
		since := readySince(p)
		if sim.AddSat(since, minReady) < now {
			st.Available++
		} else if at := sim.AddSat(since, minReady+time.Second); next == 0 || at < next {
			next = at
		}
	}
	return st, next
}
