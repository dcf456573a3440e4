package kubelet

import (
	"time"

	"github.com/podsim/podsim/model"
)

// The kubelet's side of node-pressure eviction: what its eviction manager
// (model/kubelet/eviction; docs/kubernetes-rules.md, Node-pressure
// eviction) is configured with, what it hears (PodUsesMemory), and the
// kubelet's killing of a pod it evicts (Pod.EvictForPressure).

func (k *kubeletCore) EvictingForPressure(p *model.Pod) bool { return k.pod(p).stop.evictedMsg != "" }

// EvictForPressure: with grace 0 the pod's containers are killed at once
// and it goes Failed with reason Evicted, otherwise they are stopped
// within grace (preStop, SIGTERM) and it goes Failed once they have
// (syncEvicted).
func (k *kubeletCore) EvictForPressure(pod *model.Pod, msg string, grace time.Duration) {
	p := k.pod(pod)
	p.Event(model.EventWarning, "Evicted", "kubelet", msg)
	if grace > 0 {
		p.SetKubeletCondition(model.DisruptionTarget, model.True, "TerminationByKubelet", msg)
		p.stopping().evictedMsg = msg
		for _, c := range p.all() {
			c.stopRestart()
			if c.processRunning() && !c.stopping {
				c.stop(grace, "Stopping container "+c.Spec.Name)
			}
		}
		p.World().AnnouncePodChanged(pod)
		p.requestSync()
		return
	}
	p.freeze()
	for _, c := range p.all() {
		if c.processRunning() {
			p.Eventf(model.EventNormal, "Killing", "kubelet", "Stopping container %s", c.Spec.Name)
			c.stopping = false
			c.terminate(137, model.ReasonError)
		}
	}
	p.SetKubeletCondition(model.DisruptionTarget, model.True, "TerminationByKubelet", msg)
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
	p.failEvicted(p.stop.evictedMsg)
}

// failEvicted sets the phase Failed with reason Evicted and msg.
func (p *podState) failEvicted(msg string) {
	if p.stop.evictedMsg != "" {
		p.stop.evictedMsg = ""
	}
	p.SetStatusReason("Evicted", msg)
	if !p.Phase().Terminal() {
		p.SetPhase(model.Failed)
		p.updateConditions()
	}
	p.World().AnnouncePodChanged(p.Pod)
}
