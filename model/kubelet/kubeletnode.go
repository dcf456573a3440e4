package kubelet

import (
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/sim"
)

// The kubelet's side of what happens to its node: a power loss and the
// boot after it, a failed disk, the control plane reached again, and the
// node status update that reports spec.unschedulable.

func (k *kubeletCore) NodePoweredOff(n *model.Node) {
	for _, q := range n.Pods() {
		p := k.pod(q)
		p.freeze()
	}
}

func (k *kubeletCore) NodePoweredOn(n *model.Node, downAt time.Duration) {
	for _, q := range append([]*model.Pod(nil), n.Pods()...) {
		p := k.pod(q)
		p.reboot(downAt)
	}
}

func (k *kubeletCore) DiskFailed(n *model.Node) {
	for _, q := range append([]*model.Pod(nil), n.Pods()...) {
		p := k.pod(q)
		if p.Phase().Terminal() || p.Deleted() {
			continue
		}
		p.freeze()
		for _, c := range p.all() {
			if c.processRunning() { // published Running, or still in postStart
				c.stopping = false
				c.terminate(137, model.ReasonError)
			}
		}
		if !p.Phase().Terminal() {
			p.SetPhase(model.Failed)
			p.updateConditions()
		}
		p.Eventf(model.EventWarning, "Failed", "kubelet", "Error: the node's disk failed; the pod cannot run")
		p.World().AnnouncePodChanged(q)
	}
}

func (k *kubeletCore) Reconnected(n *model.Node) {
	k.reportSchedulable(n)
	for _, q := range append([]*model.Pod(nil), n.Pods()...) {
		p := k.pod(q)
		p.hearDelete()
		p.updateStatus()
		p.requestSync()
	}
}

// UnschedulableSet arranges for the kubelet to notice the change of
// spec.unschedulable at its next node status update (every
// NodeStatusUpdateFrequency from when it joined): recordNodeSchedulableEvent
// logs NodeNotSchedulable or NodeSchedulable if the value differs from the
// one it saw last.
func (k *kubeletCore) UnschedulableSet(n *model.Node) {
	w := n.World()
	f := w.NodeStatusUpdateFrequency()
	joined, _, _ := n.Heartbeats()
	next := sim.AddSat(joined, sim.MulSat(f, int64((w.Now()-joined)/f)+1))
	w.Engine().At(next, sim.Normal, func() { k.reportSchedulable(n) })
}

// reportSchedulable is the kubelet's recordNodeSchedulableEvent during a
// node status update that gets through.
func (k *kubeletCore) reportSchedulable(n *model.Node) {
	ns := k.node(n)
	if n.Gone() || !n.Reachable() || ns.reportedUnschedulable == n.Unschedulable() {
		return
	}
	ns.reportedUnschedulable = n.Unschedulable()
	reason := "NodeSchedulable"
	if n.Unschedulable() {
		reason = "NodeNotSchedulable"
	}
	n.World().Eventf("Node", n.Name, model.EventNormal, reason, "kubelet", "Node %s status is now: %s", n.Name, reason)
}

// freeze stops everything the kubelet had in flight for the pod: timers of
// processes, pulls, hooks, backoffs and probes.
func (p *podState) freeze() {
	p.busy = false
	p.stopWorker()
	for _, c := range p.all() {
		c.stopTimers()
		c.inHook, c.ordered = hookNone, false
		c.Probes.Halt()
	}
	p.World().AnnounceListenerChanged(p.Pod)
}

// reboot is the kubelet coming back after a power loss at downAt: every
// container it had is gone.
func (p *podState) reboot(downAt time.Duration) {
	if p.Deleted() {
		return
	}
	for _, c := range p.all() {
		if c.processRunning() { // published Running, or still in postStart
			c.stopping, c.Run.Unpublished = false, false
			c.setFlags(false, false)
			c.setState(model.ContainerState{Kind: model.StateTerminated, Reason: "Unknown", ExitCode: 255,
				StartedAt: c.startedAt, FinishedAt: downAt})
			p.World().UseChanged(p.Pod)
		}
		c.Probes.Restart()
	}
	if p.Sandboxed() && !p.Terminating() && !p.Phase().Terminal() && p.Spec.RestartPolicy != model.RestartNever {
		// The sandbox died with the node: the kubelet makes a new one and
		// runs the init containers again before the others restart.
		p.Eventf(model.EventNormal, "SandboxChanged", "kubelet", "Pod sandbox changed, it will be killed and re-created.")
		p.SetKubeletCondition(model.PodReadyToStartContainers, model.False, "", "")
		p.resandbox = true
		for _, c := range p.init {
			if !c.Spec.Sidecar && c.Status.State.Kind == model.StateTerminated && c.Status.State.ExitCode == 0 {
				c.rerun = true
			}
		}
	}
	p.requestSync()
}
