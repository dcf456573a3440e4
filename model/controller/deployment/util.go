package deployment

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/podsim/podsim/model"
)

// The deployment controller's arithmetic, as pure functions of counts
// (pkg/controller/deployment/util/deployment_util.go): they decide, the
// controller (sync.go) acts.

// resolveFenceposts is ResolveFenceposts: maxSurge of desired rounded up,
// maxUnavailable rounded down; when both come to 0, maxUnavailable is 1
// (validation refuses both written as 0, but rounding down can reach it).
func resolveFenceposts(maxSurge, maxUnavailable model.IntOrPercent, desired int) (surge, unavailable int) {
	surge = maxSurge.Scaled(desired, true)
	unavailable = maxUnavailable.Scaled(desired, false)
	if surge == 0 && unavailable == 0 {
		unavailable = 1
	}
	return surge, unavailable
}

// maxSurge is MaxSurge: the pods a rolling Deployment may run above its
// replicas (0 under model.Recreate).
func maxSurge(s *model.WorkloadSpec) int {
	if s.Strategy != model.RollingUpdate {
		return 0
	}
	surge, _ := resolveFenceposts(s.MaxSurge, s.MaxUnavailable, s.Replicas)
	return surge
}

// maxUnavailable is MaxUnavailable: the pods a rolling Deployment may have
// unavailable, at most its replicas (0 under model.Recreate or with no replicas).
func maxUnavailable(s *model.WorkloadSpec) int {
	if s.Strategy != model.RollingUpdate || s.Replicas == 0 {
		return 0
	}
	_, unavailable := resolveFenceposts(s.MaxSurge, s.MaxUnavailable, s.Replicas)
	return min(unavailable, s.Replicas)
}

// newRSNewReplicas is NewRSNewReplicas: the replicas the new ReplicaSet
// should have, given all ReplicaSets' replicas (total, the new one's
// included) and the new one's (current). A rolling Deployment grows it up
// to replicas + maxSurge pods in all (maxSurge rounded up, without the
// fencepost rule), never past its replicas; model.Recreate sets it to replicas.
func newRSNewReplicas(s *model.WorkloadSpec, total, current int) int {
	if s.Strategy == model.Recreate {
		return s.Replicas
	}
	maxTotal := s.Replicas + s.MaxSurge.Scaled(s.Replicas, true)
	if total >= maxTotal {
		return current
	}
	return current + min(maxTotal-total, s.Replicas-current)
}

// proportion is GetProportion: how many replicas a ReplicaSet with
// replicas rs (and the max-replicas annotation maxReplicas, 0 if unset)
// gains or loses when a Deployment scales by toAdd, added of which are
// given out already. The Deployment has replicas d now, maxSurge surge,
// and statusReplicas pods as its status last said.
func proportion(rs, maxReplicas, d, surge, statusReplicas, toAdd, added int) int {
	if rs == 0 || toAdd == 0 || toAdd == added {
		return 0
	}
	fraction := replicaSetFraction(rs, maxReplicas, d, surge, statusReplicas)
	allowed := toAdd - added
	if toAdd > 0 {
		return min(fraction, allowed)
	}
	return max(fraction, allowed)
}

// replicaSetFraction is getReplicaSetFraction: the ReplicaSet's share of
// the Deployment's new size (replicas + maxSurge) in proportion to its
// share of the size it was scaled for (its max-replicas annotation, else
// the Deployment's status replicas), rounded half away from zero, less
// what it has. All of it when the Deployment scales to 0.
func replicaSetFraction(rs, maxReplicas, d, surge, statusReplicas int) int {
	if d == 0 {
		return -rs
	}
	annotated := maxReplicas
	if annotated <= 0 {
		annotated = statusReplicas
	}
	size := float64(rs*(d+surge)) / float64(annotated)
	return roundHalfAway(size) - rs
}

// roundHalfAway is integer.RoundToInt32.
func roundHalfAway(a float64) int {
	if a < 0 {
		return int(a - 0.5)
	}
	return int(a + 0.5)
}

// byCreation is ReplicaSetsByCreationTimestamp as a comparison: created
// earlier first, compared as the API stores creationTimestamp (whole
// seconds), then by name.
func byCreation(a, b *model.ReplicaSet) int {
	if c := cmp.Compare(a.Created/time.Second, b.Created/time.Second); c != 0 {
		return c
	}
	return strings.Compare(a.Name, b.Name)
}

// sortBySize sorts ReplicaSets by replicas, largest first; ties go to the
// newer first (ReplicaSetsBySizeNewer) or the older first
// (ReplicaSetsBySizeOlder).
func sortBySize(rss []*model.ReplicaSet, newerFirst bool) {
	slices.SortFunc(rss, func(a, b *model.ReplicaSet) int {
		if c := cmp.Compare(b.Replicas, a.Replicas); c != 0 {
			return c
		}
		if newerFirst {
			return byCreation(b, a)
		}
		return byCreation(a, b)
	})
}

// sortByCreation sorts ReplicaSets oldest first.
func sortByCreation(rss []*model.ReplicaSet) { slices.SortFunc(rss, byCreation) }
