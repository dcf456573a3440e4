package model

import (
	"time"

	"github.com/podsim/podsim/sim"
)

// PowerOff cuts a node's power now, for d (nil: for good). Its containers
// die with it, but nobody hears of it: the API keeps showing the pods as
// they were until the node controller notices the silence. When the power
// comes back the kubelet finds every container gone (Terminated, reason
// Unknown, exit 255), finishes the deletions it missed and restarts the rest
// as their restart policies say.
func (n *Node) PowerOff(d *time.Duration) {
	if n.down || n.gone {
		return
	}
	wasReachable := n.Reachable()
	n.down, n.downAt = true, n.w.Now()
	n.w.object(ObjectChange{Kind: ObjectNode, Op: ObjectUpdated, Node: n})
	n.w.kubelet.NodePoweredOff(n)
	if wasReachable {
		n.lostContact()
	}
	if d != nil {
		n.w.eng.At(sim.AddSat(n.w.Now(), *d), sim.Normal, n.powerOn)
	}
}

func (n *Node) powerOn() {
	if !n.down || n.gone {
		return
	}
	n.down = false
	n.w.object(ObjectChange{Kind: ObjectNode, Op: ObjectUpdated, Node: n})
	n.w.kubelet.NodePoweredOn(n, n.downAt)
	if n.Reachable() {
		n.markReady()
		n.w.kubelet.Reconnected(n)
	}
}

// Partition cuts a node off from the control plane now, for d (nil: for
// good). Its kubelet keeps running its containers; nothing it reports gets
// through, and API changes (deletions) do not reach it until it heals.
func (n *Node) Partition(d *time.Duration) {
	if n.partitioned || n.gone {
		return
	}
	wasReachable := n.Reachable()
	n.partitioned = true
	n.w.object(ObjectChange{Kind: ObjectNode, Op: ObjectUpdated, Node: n})
	if wasReachable {
		n.lostContact()
	}
	if d != nil {
		n.w.eng.At(sim.AddSat(n.w.Now(), *d), sim.Normal, n.heal)
	}
}

func (n *Node) heal() {
	if !n.partitioned || n.gone {
		return
	}
	n.partitioned = false
	n.w.object(ObjectChange{Kind: ObjectNode, Op: ObjectUpdated, Node: n})
	if n.Reachable() {
		n.markReady()
		n.w.kubelet.Reconnected(n)
	}
}

// DiskFailure kills the node's disk now: every container on it dies, its
// pods fail, the kubelet reports the node NotReady and it takes no new pods.
func (n *Node) DiskFailure() {
	if n.diskFailed || n.gone {
		return
	}
	n.diskFailed = true
	n.w.nodesChanged()
	n.w.object(ObjectChange{Kind: ObjectNode, Op: ObjectUpdated, Node: n})
	n.setCondition("ReadonlyFilesystem", True, "FilesystemIsReadOnly", "Filesystem is read-only")
	n.w.event("Node", n.Name, EventWarning, "FilesystemIsReadOnly", "kernel-monitor", "Remounting filesystem read-only")
	n.w.kubelet.DiskFailed(n)
	if n.Reachable() {
		n.markNotReady("KubeletNotReady", "container runtime is down: disk failure")
	}
	n.w.nodeDiskFailed(n)
}

// freeze stops everything the kubelet had in flight for the pod: timers of
// processes, pulls, hooks, backoffs and probes.
func (p *Pod) freeze() {
	p.busy = false
	p.stopWorker()
	for _, c := range p.all() {
		for _, t := range [...]*sim.Timer{&c.exitTimer, &c.restartTimer, &c.pullTimer, &c.hookTimer, &c.termTimer, &c.killTimer} {
			p.w.eng.Stop(t)
		}
		c.inHook, c.ordered = hookNone, false
		for _, pr := range c.probes {
			pr.halt()
		}
	}
	p.w.listenerChanged(p)
}

// reboot is the kubelet coming back after a power loss at downAt: every
// container it had is gone.
func (p *Pod) reboot(downAt time.Duration) {
	if p.deleted {
		return
	}
	for _, c := range p.all() {
		if c.processRunning() { // published Running, or still in postStart
			c.stopping, c.unpublished = false, false
			c.setFlags(false, false)
			c.setState(ContainerState{Kind: StateTerminated, Reason: "Unknown", ExitCode: 255,
				StartedAt: c.startedAt, FinishedAt: downAt})
			p.w.useChanged(p)
		}
		for _, pr := range c.probes {
			if !pr.done {
				pr.startTicks(0)
			}
		}
	}
	if p.sandbox && !p.deleting && !p.phase.Terminal() && p.Spec.RestartPolicy != RestartNever {
		// The sandbox died with the node: the kubelet makes a new one and
		// runs the init containers again before the others restart.
		p.event(EventNormal, "SandboxChanged", "kubelet", "Pod sandbox changed, it will be killed and re-created.")
		p.setCondition(PodReadyToStartContainers, False, "", "")
		p.resandbox = true
		for _, c := range p.init {
			if !c.spec.Sidecar && c.status.State.Kind == StateTerminated && c.status.State.ExitCode == 0 {
				c.rerun = true
			}
		}
	}
	p.requestSync()
}
