package model

import "time"

// The kubelet's side of node-pressure eviction: what its eviction manager
// (model/kubelet/eviction; docs/kubernetes-rules.md, Node-pressure
// eviction) is configured with, what it hears (PodUsesMemory), and the
// kubelet's killing of a pod it evicts (Pod.EvictForPressure).

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

// watchMemory starts counting n's processes if p, just bound to n, uses
// memory, and tells the parts: the OOM killers first, which keep n's
// memory in use from then on.
func (n *Node) watchMemory(p *Pod) {
	if !p.UsesMemory() {
		return
	}
	n.countPIDs()
	for _, h := range n.w.parts.podUsesMemory {
		h.PodUsesMemory(p, n)
	}
}

// UsesMemory reports whether a container of p has a behaviour that uses
// memory.
func (pod *Pod) UsesMemory() bool {
	p := pod.kstate()
	for _, cs := range [2][]*container{p.init, p.regular} {
		for _, c := range cs {
			if b := c.spec.Behavior; b != nil && (b.Usage.Memory > 0 || b.PerRequest.Memory > 0 || b.LeakMemory > 0) {
				return true
			}
		}
	}
	return false
}

// EvictingForPressure reports whether the kubelet is evicting p with a
// grace period (EvictForPressure): its containers are stopping.
func (p *Pod) EvictingForPressure() bool { return p.kstate().evictedMsg != "" }

// RemovePressureTaint takes the kubelet's NoSchedule taint key off the
// node and wakes the pods the scheduler parked for the taint.
func (n *Node) RemovePressureTaint(key string) {
	n.removeTaint(key, "NoSchedule")
	n.w.nodePressureLifted(n)
}

// EvictForPressure is the kubelet's killing of a pod its eviction manager
// evicts (evictPod), with msg, upstream's message: the Evicted event and
// the condition DisruptionTarget; with grace 0 the pod's containers are
// killed at once and it goes Failed with reason Evicted, otherwise they
// are stopped within grace (preStop, SIGTERM) and it goes Failed once
// they have (syncEvicted).
func (pod *Pod) EvictForPressure(msg string, grace time.Duration) {
	p := pod.kstate()
	p.eventMsg(EventWarning, "Evicted", "kubelet", msg)
	if grace > 0 {
		p.SetKubeletCondition(DisruptionTarget, True, "TerminationByKubelet", msg)
		p.evictedMsg = msg
		for _, c := range p.all() {
			p.w.eng.Stop(&c.restartTimer)
			if c.processRunning() && !c.stopping {
				c.stop(grace, "Stopping container "+c.spec.Name)
			}
		}
		p.w.podChanged(pod)
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
	p.SetKubeletCondition(DisruptionTarget, True, "TerminationByKubelet", msg)
	p.failEvicted(msg)
}

// syncEvicted is the pod worker's sync of a pod being evicted with a
// grace period: nothing restarts, and once no container runs the pod goes
// Failed (the status manager holds the terminal phase until then).
func (p *podState) syncEvicted() {
	for _, c := range p.all() {
		if c.processRunning() {
			return
		}
	}
	p.failEvicted(p.evictedMsg)
}

// failEvicted sets the phase Failed with reason Evicted and msg.
func (p *podState) failEvicted(msg string) {
	p.evictedMsg = ""
	p.SetStatusReason("Evicted", msg)
	if !p.Phase().Terminal() {
		p.SetPhase(Failed)
		p.updateConditions()
	}
	p.w.podChanged(p.Pod)
}
