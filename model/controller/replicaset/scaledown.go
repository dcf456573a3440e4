package replicaset

import (
	"math/bits"
	"sort"
	"time"

	"github.com/podsim/podsim/model"
)

// scaleDown deletes n of rs's active pods at now, those the ReplicaSet
// controller ranks first for deletion (getPodsToDelete), each with event
// SuccessfulDelete, as far as the API client's tokens go: it returns when
// the next token comes if some had to wait (0: none). Pods on a node
// count the active pods of every ReplicaSet of the workload there
// (getIndirectlyRelatedPods).
func (c *Controller) scaleDown(wl *model.Workload, rs *model.ReplicaSet, n int, now time.Duration) (wait time.Duration) {
	onNode := map[*model.Node]int{}
	for _, p := range wl.Pods() {
		if p.IsActive() {
			onNode[p.Node]++
		}
	}
	var pods []*model.Pod // newest first: a stable sort leaves ties that way
	for i := len(rs.Pods) - 1; i >= 0; i-- {
		if p := rs.Pods[i]; p.IsActive() {
			pods = append(pods, p)
		}
	}
	sort.SliceStable(pods, func(i, j int) bool { return deleteFirst(pods[i], pods[j], onNode, now) })
	for _, p := range pods[:min(n, len(pods))] {
		if wait = c.api.take(now); wait > 0 {
			return wait
		}
		wl.ReplicaSetEvent(rs.Name, model.EventNormal, "SuccessfulDelete", source, "Deleted pod: "+p.Name)
		p.Delete(nil)
	}
	return 0
}

// phaseOrdinal orders phases for deletion: Pending, Unknown, Running.
func phaseOrdinal(ph model.Phase) int {
	switch ph {
	case model.Pending:
		return 0
	case model.Unknown:
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
func deleteFirst(a, b *model.Pod, onNode map[*model.Node]int, now time.Duration) bool {
	if (a.Node == nil) != (b.Node == nil) {
		return a.Node == nil
	}
	if oa, ob := phaseOrdinal(a.Phase()), phaseOrdinal(b.Phase()); oa != ob {
		return oa < ob
	}
	ra, rb := a.IsReady(), b.IsReady()
	if ra != rb {
		return !ra
	}
	if na, nb := onNode[a.Node], onNode[b.Node]; na != nb {
		return na > nb
	}
	if ra && rb {
		ta, tb := readySince(a), readySince(b)
		if d := logRank(now-ta) - logRank(now-tb); ta != tb && d != 0 {
			return d < 0
		}
	}
	if ma, mb := maxRestarts(a), maxRestarts(b); ma != mb {
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

// maxRestarts is the highest restart count among the pod's containers.
func maxRestarts(p *model.Pod) int32 {
	var m int32
	for i := range p.Containers() {
		m = max(m, p.ContainerStatusAt(i).RestartCount)
	}
	return m
}
