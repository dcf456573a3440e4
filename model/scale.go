package model

import (
	"fmt"
	"hash/fnv"
	"math/bits"
	"sort"
	"time"
)

// Scale sets the replicas of a ReplicaSet or Deployment now, as `kubectl
// scale` does. A Deployment's controller scales its ReplicaSet (event
// ScalingReplicaSet, "Scaled up replica set <rs> from 2 to 4"); the
// ReplicaSet creates or deletes pods at its next sync. It reports whether
// the workload has replicas to scale.
func (wl *Workload) Scale(replicas int) bool {
	if _, ok := wl.scale(); !ok {
		return false
	}
	old := wl.Spec.Replicas
	if old == replicas {
		return true
	}
	wl.Spec.Replicas = replicas
	if wl.Spec.Kind == KindDeployment {
		op := "up"
		if replicas < old {
			op = "down"
		}
		wl.w.event(KindDeployment, wl.key, EventNormal, "ScalingReplicaSet", "deployment-controller",
			"Scaled %s replica set %s from %d to %d", op, wl.ReplicaSetName(), old, replicas)
	}
	wl.w.controllerScaleChanged(wl)
	wl.requestSync()
	return true
}

// announce is what the controller of a new workload says before its first
// sync: a Deployment's controller creates its ReplicaSet with the
// Deployment's replicas (getNewReplicaSet: "Scaled up replica set <rs> from
// 0 to N", when N > 0).
func (wl *Workload) announce() {
	if wl.Spec.Kind == KindDeployment && wl.Spec.Replicas > 0 {
		wl.w.event(KindDeployment, wl.key, EventNormal, "ScalingReplicaSet", "deployment-controller",
			"Scaled up replica set %s from 0 to %d", wl.ReplicaSetName(), wl.Spec.Replicas)
	}
}

// safeAlphabet is apimachinery's rand.SafeEncodeString alphabet: no vowels,
// no digits that read like letters.
const safeAlphabet = "bcdfghjklmnpqrstvwxz2456789"

// ReplicaSetName is the name of a Deployment's ReplicaSet,
// <deployment>-<pod-template-hash>. The hash is FNV-32a, written in
// decimal and each digit mapped into the safe alphabet as
// controller.ComputeHash does, but of podsim's own digest of the template
// (each container's name and image), not of the whole object: names differ
// from a real cluster's.
func (wl *Workload) ReplicaSetName() string {
	h := fnv.New32a()
	t := wl.Spec.Template
	for _, list := range [][]ContainerSpec{t.InitContainers, t.Containers} {
		for i := range list {
			fmt.Fprintf(h, "%s=%s;", list[i].Name, list[i].Image)
		}
	}
	digits := []byte(fmt.Sprint(h.Sum32()))
	for i, b := range digits {
		digits[i] = safeAlphabet[int(b)%len(safeAlphabet)]
	}
	return wl.Spec.Name + "-" + string(digits)
}

// scaleDown deletes n of the workload's active pods, those the ReplicaSet
// controller ranks first for deletion (getPodsToDelete), each with event
// SuccessfulDelete.
func (wl *Workload) scaleDown(n int) {
	var pods []*Pod // newest first: a stable sort leaves ties that way
	onNode := map[*Node]int{}
	for i := len(wl.pods) - 1; i >= 0; i-- {
		if p := wl.pods[i]; active(p) {
			pods = append(pods, p)
			onNode[p.Node]++
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
