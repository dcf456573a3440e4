package model

import (
	"strconv"
	"time"

	"github.com/podsim/podsim/sim"
)

// Node-pressure eviction: the kubelet's eviction manager
// (pkg/kubelet/eviction, docs/kubernetes-rules.md, Node-pressure
// eviction) for the signal memory.available, the node's memory capacity
// minus what its pods use now. A node with a pod whose behaviour uses
// memory is checked every housekeeping interval (10 s) by one timer. Below
// a threshold (Settings.EvictionHard, or Settings.EvictionSoft) the node
// gets MemoryPressure=True and the NoSchedule taint
// node.kubernetes.io/memory-pressure at once; a pod is evicted, one per
// check, ranked as rankMemoryPressure ranks them, once the hard threshold
// is met or the soft one has been met at every check for its grace period.
// The condition clears after Settings.EvictionPressureTransitionPeriod
// with no threshold met.

// MemoryThreshold is a memory.available threshold: Bytes, or when
// Percentage is set, that share (0..1] of the node's memory capacity.
type MemoryThreshold struct {
	Bytes      int64
	Percentage float32
}

// Of is the threshold in bytes on a node with capacity bytes of memory
// (GetThresholdQuantity); 0: none.
func (t MemoryThreshold) Of(capacity int64) int64 {
	if t.Percentage > 0 {
		return int64(float64(capacity) * float64(t.Percentage))
	}
	return t.Bytes
}

// TaintMemoryPressure is the taint of a node under memory pressure.
const TaintMemoryPressure = "node.kubernetes.io/memory-pressure"

// housekeepingInterval is the kubelet's evictionMonitoringPeriod.
const housekeepingInterval = 10 * time.Second

// pressure is a node's eviction manager state.
type pressure struct {
	n         *Node
	timer     sim.Timer
	on        bool          // MemoryPressure=True
	lastSeen  time.Duration // when memory.available was last below a threshold
	softMet   bool          // the soft threshold was met at the last check
	softSince time.Duration // ... and at every check since this one (thresholdsFirstObservedAt)
}

// watchMemory arms n's housekeeping timer if p, just bound to n, uses
// memory and the timer is not armed.
func (n *Node) watchMemory(p *Pod) {
	if !behaviourUsesMemory(p) {
		return
	}
	n.watchMemoryUse()
	e := n.evict
	if e == nil {
		e = &pressure{n: n}
		e.timer.Init(e.housekeep)
		n.evict = e
	}
	if !e.timer.Pending() {
		n.w.eng.Schedule(&e.timer, n.nextHousekeeping(), sim.Normal)
	}
}

// nextHousekeeping is the first housekeeping instant after now: every
// interval from when the node joined.
func (n *Node) nextHousekeeping() time.Duration {
	now := n.w.Now()
	return sim.AddSat(n.joinedAt, sim.MulSat(housekeepingInterval, int64((now-n.joinedAt)/housekeepingInterval)+1))
}

// behaviourUsesMemory reports whether a container of p has a behaviour
// that uses memory.
func behaviourUsesMemory(p *Pod) bool {
	for _, cs := range [2][]*container{p.init, p.regular} {
		for _, c := range cs {
			if b := c.spec.Behavior; b != nil && (b.Usage.Memory > 0 || b.PerRequest.Memory > 0 || b.LeakMemory > 0) {
				return true
			}
		}
	}
	return false
}

// MemoryAvailable is the node's memory.available signal now: its memory
// capacity minus what its pods use.
func (n *Node) MemoryAvailable() int64 {
	avail := n.Capacity.Memory
	for _, p := range n.pods {
		if !p.phase.Terminal() {
			_, mem, _ := p.Usage("")
			avail -= mem
		}
	}
	return avail
}

// housekeep is one synchronize of the eviction manager.
func (e *pressure) housekeep() {
	n := e.n
	if n.gone || n.down {
		return
	}
	now := n.w.Now()
	st := &n.w.settings
	avail := n.MemoryAvailable()
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
			n.setCondition("MemoryPressure", True, "KubeletHasInsufficientMemory", "kubelet has insufficient memory available")
			n.w.event("Node", n.Name, EventNormal, "NodeHasInsufficientMemory", "kubelet",
				"Node %s status is now: NodeHasInsufficientMemory", n.Name)
			n.AddTaint(Taint{Key: TaintMemoryPressure, Effect: "NoSchedule"})
		}
	case e.on && now-e.lastSeen >= st.EvictionPressureTransitionPeriod:
		e.on = false
		n.setCondition("MemoryPressure", False, "KubeletHasSufficientMemory", "kubelet has sufficient memory available")
		n.w.event("Node", n.Name, EventNormal, "NodeHasSufficientMemory", "kubelet",
			"Node %s status is now: NodeHasSufficientMemory", n.Name)
		n.removeTaint(TaintMemoryPressure, "NoSchedule")
		n.w.sched.q.pending |= eventNodeTaintsRemoved
		n.w.sched.kick()
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
		n.w.eventMsg("Node", n.Name, EventWarning, "EvictionThresholdMet", "kubelet", "Attempting to reclaim memory")
		if p := e.rank(); p != nil {
			grace := time.Duration(0)
			if !hardEviction {
				grace = min(st.EvictionMaxPodGracePeriod, p.Spec.TerminationGracePeriod)
			}
			p.evictForPressure(threshold, avail, grace)
		}
	}
	if e.on || n.anyUsesMemory() {
		n.w.eng.Schedule(&e.timer, n.nextHousekeeping(), sim.Normal)
	}
}

// anyUsesMemory reports whether a pod on n that is not finished uses
// memory by its behaviour.
func (n *Node) anyUsesMemory() bool {
	for _, p := range n.pods {
		if !p.phase.Terminal() && behaviourUsesMemory(p) {
			return true
		}
	}
	return false
}

// rank returns the pod to evict first, as rankMemoryPressure orders the
// active pods: those using more memory than they request first, then by
// priority (lower first), then by use above the request (larger first);
// ties keep binding order. Nil if there is none.
func (e *pressure) rank() *Pod {
	var best *Pod
	var bestOver int64
	for _, p := range e.n.pods {
		if p.phase.Terminal() || p.deleting || p.evictedMsg != "" {
			continue // not active: finished or already terminating
		}
		_, mem, _ := p.Usage("")
		over := mem - p.requests.Memory
		if best == nil || evictsBefore(over, p.priority, bestOver, best.priority) {
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

// evictForPressure is the eviction manager's evictPod: the Evicted event
// with upstream's message and the condition DisruptionTarget; with grace 0
// the pod's containers are killed at once and it goes Failed with reason
// Evicted, otherwise they are stopped within grace (preStop, SIGTERM) and
// it goes Failed once they have (syncEvicted).
func (p *Pod) evictForPressure(threshold, avail int64, grace time.Duration) {
	msg := "The node was low on resource: memory. Threshold quantity: " + formatBinarySI(threshold) +
		", available: " + formatBinarySI(avail) + ". "
	mrps := servedMilliRPS(p)
	for _, c := range p.regular {
		if _, mem := c.usage(mrps); mem > c.spec.Requests.Memory {
			msg += "Container " + c.spec.Name + " was using " + formatBinarySI(mem) + ", request is " +
				formatBinarySI(c.spec.Requests.Memory) + ", has larger consumption of memory. "
		}
	}
	p.eventMsg(EventWarning, "Evicted", "kubelet", msg)
	if grace > 0 {
		p.setCondition(DisruptionTarget, True, "TerminationByKubelet", msg)
		p.evictedMsg = msg
		for _, c := range p.all() {
			p.w.eng.Stop(&c.restartTimer)
			if c.processRunning() && !c.stopping {
				c.stop(grace, "Stopping container "+c.spec.Name)
			}
		}
		p.w.podChanged(p)
		p.requestSync()
		return
	}
	p.freeze()
	for _, c := range p.all() {
		if c.processRunning() {
			p.event(EventNormal, "Killing", "kubelet", "Stopping container %s", c.spec.Name)
			c.stopping = false
			c.terminate(137, ReasonError)
		}
	}
	p.setCondition(DisruptionTarget, True, "TerminationByKubelet", msg)
	p.failEvicted(msg)
}

// syncEvicted is the pod worker's sync of a pod being evicted with a
// grace period: nothing restarts, and once no container runs the pod goes
// Failed (the status manager holds the terminal phase until then).
func (p *Pod) syncEvicted() {
	for _, c := range p.all() {
		if c.processRunning() {
			return
		}
	}
	p.failEvicted(p.evictedMsg)
}

// failEvicted sets the phase Failed with reason Evicted and msg.
func (p *Pod) failEvicted(msg string) {
	p.evictedMsg = ""
	p.status.Reason, p.status.Message = "Evicted", msg
	if !p.phase.Terminal() {
		p.setPhase(Failed)
		p.updateConditions()
	}
	p.w.podChanged(p)
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
