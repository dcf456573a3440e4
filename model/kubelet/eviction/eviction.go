// Package eviction is the kubelet's eviction manager (pkg/kubelet/eviction;
// docs/kubernetes-rules.md, Node-pressure eviction) for the signal
// memory.available, the node's memory capacity minus what its pods use
// now. A node with a pod whose behaviour uses memory is checked every
// housekeeping interval (10 s) by one timer. Below a threshold
// (Settings.EvictionHard, or Settings.EvictionSoft) the node gets
// MemoryPressure=True and the NoSchedule taint
// node.kubernetes.io/memory-pressure at once; a pod is evicted, one per
// check, ranked as rankMemoryPressure ranks them, once the hard threshold
// is met or the soft one has been met at every check for its grace period.
// The condition clears after Settings.EvictionPressureTransitionPeriod
// with no threshold met. The kubelet kills the pod it evicts
// (model.Pod.EvictForPressure).
package eviction

import (
	"strconv"
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/sim"
)

// housekeepingInterval is the kubelet's evictionMonitoringPeriod.
const housekeepingInterval = 10 * time.Second

// Manager is the eviction manager of every node's kubelet: a part
// (model.World.Register) that starts watching a node when a pod that uses
// memory is bound to it (PodUsesMemory).
type Manager struct {
	w     *model.World
	st    model.Settings
	nodes []*pressure // by Node.ID; nil until watched
}

// pressure is a node's eviction manager state.
type pressure struct {
	m         *Manager
	n         *model.Node
	timer     sim.Timer
	on        bool          // MemoryPressure=True
	lastSeen  time.Duration // when memory.available was last below a threshold
	softMet   bool          // the soft threshold was met at the last check
	softSince time.Duration // ... and at every check since this one (thresholdsFirstObservedAt)
}

// New returns the eviction manager of w's kubelets.
func New(w *model.World) *Manager { return &Manager{w: w, st: w.Settings()} }

// PodUsesMemory arms n's housekeeping timer if it is not armed.
func (m *Manager) PodUsesMemory(_ *model.Pod, n *model.Node) {
	id := n.ID()
	for len(m.nodes) <= id {
		m.nodes = append(m.nodes, nil)
	}
	e := m.nodes[id]
	if e == nil {
		e = &pressure{m: m, n: n}
		e.timer.Init(e.housekeep)
		m.nodes[id] = e
	}
	if !e.timer.Pending() {
		m.w.Engine().Schedule(&e.timer, m.nextHousekeeping(n), sim.Normal)
	}
}

// nextHousekeeping is the first housekeeping instant after now: every
// interval from when the node joined.
func (m *Manager) nextHousekeeping(n *model.Node) time.Duration {
	now := m.w.Now()
	joined, _, _ := n.Heartbeats()
	return sim.AddSat(joined, sim.MulSat(housekeepingInterval, int64((now-joined)/housekeepingInterval)+1))
}

// MemoryAvailable is n's memory.available signal now: its memory capacity
// minus what its pods use.
func MemoryAvailable(n *model.Node) int64 {
	avail := n.Capacity.Memory
	for _, p := range n.Pods() {
		if !p.Phase().Terminal() {
			_, mem, _ := p.Usage("")
			avail -= mem
		}
	}
	return avail
}

// housekeep is one synchronize of the eviction manager.
func (e *pressure) housekeep() {
	n, w, st := e.n, e.m.w, &e.m.st
	if n.Gone() || n.PoweredOff() {
		return
	}
	now := w.Now()
	avail := MemoryAvailable(n)
	hard, soft := st.EvictionHard.Of(n.Capacity.Memory), st.EvictionSoft.Of(n.Capacity.Memory)
	hardMet, softMet := hard > 0 && avail < hard, soft > 0 && avail < soft
	if softMet && !e.softMet {
		e.softSince = now
	}
	e.softMet = softMet
	switch {
	case hardMet || softMet:
		e.lastSeen = now
		if !e.on {
			e.on = true
			n.SetCondition("MemoryPressure", model.True, "KubeletHasInsufficientMemory", "kubelet has insufficient memory available")
			n.Event(model.EventNormal, "NodeHasInsufficientMemory", "kubelet", "Node "+n.Name+" status is now: NodeHasInsufficientMemory")
			n.AddTaint(model.Taint{Key: model.TaintMemoryPressure, Effect: "NoSchedule"})
		}
	case e.on && now-e.lastSeen >= st.EvictionPressureTransitionPeriod:
		e.on = false
		n.SetCondition("MemoryPressure", model.False, "KubeletHasSufficientMemory", "kubelet has sufficient memory available")
		n.Event(model.EventNormal, "NodeHasSufficientMemory", "kubelet", "Node "+n.Name+" status is now: NodeHasSufficientMemory")
		n.RemovePressureTaint(model.TaintMemoryPressure)
	}
	// The thresholds whose grace periods are met, the hard one first
	// (byEvictionPriority keeps the configured order: hard, then soft).
	threshold, hardEviction := int64(0), false
	switch {
	case hardMet:
		threshold, hardEviction = hard, true
	case softMet && now-e.softSince >= st.EvictionSoftGracePeriod:
		threshold = soft
	}
	if threshold > 0 {
		n.Event(model.EventWarning, "EvictionThresholdMet", "kubelet", "Attempting to reclaim memory")
		if p := e.rank(); p != nil {
			grace := time.Duration(0)
			if !hardEviction {
				grace = min(st.EvictionMaxPodGracePeriod, p.Spec.TerminationGracePeriod)
			}
			p.EvictForPressure(message(p, threshold, avail), grace)
		}
	}
	if e.on || anyUsesMemory(n) {
		w.Engine().Schedule(&e.timer, e.m.nextHousekeeping(n), sim.Normal)
	}
}

// anyUsesMemory reports whether a pod on n that is not finished uses
// memory by its behaviour.
func anyUsesMemory(n *model.Node) bool {
	for _, p := range n.Pods() {
		if !p.Phase().Terminal() && p.UsesMemory() {
			return true
		}
	}
	return false
}

// rank returns the pod to evict first, as rankMemoryPressure orders the
// active pods: those using more memory than they request first, then by
// priority (lower first), then by use above the request (larger first);
// ties keep binding order. Nil if there is none.
func (e *pressure) rank() *model.Pod {
	var best *model.Pod
	var bestOver int64
	for _, p := range e.n.Pods() {
		if p.Phase().Terminal() || p.Terminating() || p.EvictingForPressure() {
			continue // not active: finished or already terminating
		}
		_, mem, _ := p.Usage("")
		over := mem - p.Requests().Memory
		if best == nil || evictsBefore(over, p.Priority(), bestOver, best.Priority()) {
			best, bestOver = p, over
		}
	}
	return best
}

// evictsBefore reports whether a pod using over bytes above its request
// at priority prio ranks strictly before one at (bOver, bPrio).
func evictsBefore(over int64, prio int32, bOver int64, bPrio int32) bool {
	if (over > 0) != (bOver > 0) {
		return over > 0
	}
	if prio != bPrio {
		return prio < bPrio
	}
	return over > bOver
}

// message is the eviction manager's message for evicting p (evictionMessage):
// the threshold and what is available, then each regular container using
// more memory than it requests.
func message(p *model.Pod, threshold, avail int64) string {
	msg := "The node was low on resource: memory. Threshold quantity: " + formatBinarySI(threshold) +
		", available: " + formatBinarySI(avail) + ". "
	mrps := p.ServedMilliRPS()
	first := len(p.Spec.InitContainers)
	for i := range p.Spec.Containers {
		req := p.Spec.Containers[i].Requests.Memory
		if u := p.UseAt(first+i, mrps); u.Memory > req {
			msg += "Container " + u.Name + " was using " + formatBinarySI(u.Memory) + ", request is " +
				formatBinarySI(req) + ", has larger consumption of memory. "
		}
	}
	return msg
}

// formatBinarySI writes b bytes as a Kubernetes BinarySI quantity does:
// in the largest power of 1024 that divides it.
func formatBinarySI(b int64) string {
	suffixes := [...]string{"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"}
	i := 0
	for b != 0 && b%1024 == 0 && i < len(suffixes)-1 {
		b /= 1024
		i++
	}
	return strconv.FormatInt(b, 10) + suffixes[i]
}
