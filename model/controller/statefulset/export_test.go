package statefulset

import (
	"fmt"

	"github.com/podsim/podsim/model"
)

// CheckIndex reports the first ordinal of wl whose filing in c's index
// disagrees with its pod now, or nil.
func CheckIndex(c *Controller, wl *model.Workload) error {
	st := c.of(wl)
	for ord := range max(st.room, len(st.ordinals)) {
		p := st.podAt(ord)
		has := p != nil
		bad := !has || unavailable(p)
		got := [5]bool{st.unhealthy.next(ord) == ord, st.actionable.next(ord) == ord, st.present.next(ord) == ord,
			st.presentUnhealthy.next(ord) == ord, st.live.next(ord) == ord}
		want := [5]bool{bad, !has || (p.Phase().Terminal() && !p.Terminating()), has, has && bad, has && !p.Terminating()}
		if got != want {
			return fmt.Errorf("ordinal %d: index %v, pods say %v", ord, got, want)
		}
	}
	return nil
}
