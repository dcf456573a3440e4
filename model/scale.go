package model

import (
	"math/bits"
	"sort"
	"time"
)

// Scale sets the replicas of a ReplicaSet or Deployment now, as `kubectl
// scale` does. A Deployment's controller scales its ReplicaSets at once
// (event ScalingReplicaSet, "Scaled up replica set <rs> from 2 to 4"; in
// proportion when a rollout is under way); the ReplicaSets create or
// delete pods at their next sync. It reports whether the workload has
// replicas to scale.
func (wl *Workload) Scale(replicas int) bool {
	if _, ok := wl.scale(); !ok {
		return false
	}
	if wl.Spec.Replicas == replicas {
		return true
	}
	wl.Spec.Replicas = replicas
	if wl.Spec.Kind == KindDeployment {
		wl.syncDeployment()
	} else if wl.Spec.Kind == KindReplicaSet {
		wl.rc.rss[0].replicas = replicas
	}
	wl.w.workloadScaled(wl)
	return true
}

// scaleDown deletes n of rs's active pods, those the ReplicaSet controller
// ranks first for deletion (getPodsToDelete), each with event
// SuccessfulDelete. Pods on a node count the active pods of every
// ReplicaSet of the workload there (getIndirectlyRelatedPods).
func (wl *Workload) scaleDown(rs *replicaSet, n int) {
	onNode := map[*Node]int{}
	for _, p := range wl.pods {
		if active(p) {
			onNode[p.Node]++
		}
	}
	var pods []*Pod // newest first: a stable sort leaves ties that way
	for i := len(rs.pods) - 1; i >= 0; i-- {
		if p := rs.pods[i]; active(p) {
			pods = append(pods, p)
		}
	}
	now := wl.w.Now()
	sort.SliceStable(pods, func(i, j int) bool { return deleteFirst(pods[i], pods[j], onNode, now) })
	for _, p := range pods[:min(n, len(pods))] {
		wl.w.event(wl.Spec.Kind, wl.key, EventNormal, "SuccessfulDelete", "replicaset-controller", "Deleted pod: %s", p.Name)
		p.Delete(nil)
	}
}

// phaseOrdinal orders phases for deletion: Pending, Unknown, Running.
func phaseOrdinal(ph Phase) int {
	switch ph {
	case Pending:
		return 0
	case Unknown:
		return 1
	}
	return 2
}

// deleteFirst is ActivePodsWithRanks.Less (pkg/controller/controller_utils.go)
// with LogarithmicScaleDown, as it is by default: unassigned before
// assigned; Pending, Unknown, then Running; not ready before ready; more
// of the workload's pods on the node before fewer; ready for less time
// before more, and created later before earlier, both in powers of two of
// their age; more container restarts before fewer; created later before
// earlier. Ties, which upstream breaks by UID, keep the order the caller
// gave.
func deleteFirst(a, b *Pod, onNode map[*Node]int, now time.Duration) bool {
	if (a.Node == nil) != (b.Node == nil) {
		return a.Node == nil
	}
	if oa, ob := phaseOrdinal(a.phase), phaseOrdinal(b.phase); oa != ob {
		return oa < ob
	}
	ra, rb := a.ready(), b.ready()
	if ra != rb {
		return !ra
	}
	if na, nb := onNode[a.Node], onNode[b.Node]; na != nb {
		return na > nb
	}
	if ra && rb {
		ta, tb := a.readySince(), b.readySince()
		if d := logRank(now-ta) - logRank(now-tb); ta != tb && d != 0 {
			return d < 0
		}
	}
	if ma, mb := a.maxRestarts(), b.maxRestarts(); ma != mb {
		return ma > mb
	}
	if d := logRank(now-a.CreatedAt) - logRank(now-b.CreatedAt); d != 0 {
		return d < 0
	}
	return a.CreatedAt > b.CreatedAt
}

// logRank is floor(log2(d in seconds)), 0 below two seconds.
func logRank(d time.Duration) int {
	s := uint64(max(d/time.Second, 1))
	return bits.Len64(s) - 1
}

// readySince is the Ready condition's last transition time.
func (p *Pod) readySince() time.Duration {
	c, _ := p.status.Condition(Ready)
	return c.LastTransitionTime
}

// maxRestarts is the highest restart count among the pod's containers.
func (p *Pod) maxRestarts() int32 {
	var m int32
	for _, c := range p.all() {
		m = max(m, c.status.RestartCount)
	}
	return m
}
