package model

import (
	"time"

	"github.com/podsim/podsim/sim"
)

// The kubelet's graceful node shutdown manager (pkg/kubelet/nodeshutdown):
// it holds systemd's shutdown back with an inhibitor lock for
// shutdownGracePeriod. When a shutdown begins it records a Normal Shutdown
// event on the node, reports Ready=False "node is shutting down", rejects
// new pods (NodeShutdown), then kills the active pods by priority group
// (killPods): regular pods with shutdownGracePeriod -
// shutdownGracePeriodCriticalPods, then critical pods (priority at least
// system-cluster-critical's) with shutdownGracePeriodCriticalPods, each pod
// with the smaller of its group's period and its own grace period. The
// next group starts when every pod of the group has stopped or the group's
// period has run out. Each pod gets DisruptionTarget (TerminationByKubelet)
// and ends Failed, reason Terminated. Then the lock is released and the
// node powers off. A shutdownGracePeriod of 0 turns the manager off: the
// node powers off at once.

// NodeShutdown is a node's graceful shutdown configuration (the kubelet's
// shutdownGracePeriod and shutdownGracePeriodCriticalPods); zero: off.
type NodeShutdown struct {
	GracePeriod, CriticalPods time.Duration
}

// Upstream's reasons and messages (nodeshutdown_manager.go, the kubelet's
// events.go and rejectPod).
const (
	ReasonNodeShutdownTerminated = "Terminated"
	msgNodeShutdown              = "Pod was terminated in response to imminent node shutdown."
	ReasonNodeShutdownRejected   = "NodeShutdown"
	msgNodeShutdownRejected      = "Pod was rejected as the node is shutting down."
	criticalPriority             = 2000000000 // scheduling.SystemCriticalPriority
)

// nodeShutdown is the shutdown manager's state of a node shutting down.
type nodeShutdown struct {
	critical bool           // the critical group is being killed
	back     *time.Duration // how long the node stays off (nil: for good)
	timer    sim.Timer      // the group's period runs out
}

// Shutdown begins a planned power-off of the node now; it stays off for d
// (nil: for good). See the comment at the top of nodeshutdown.go.
func (n *Node) Shutdown(d *time.Duration) {
	if n.down || n.gone || n.shutdown != nil {
		return
	}
	if n.ShutdownConfig.GracePeriod <= 0 {
		n.PowerOff(d)
		return
	}
	n.shutdown = &nodeShutdown{back: d}
	n.shutdown.timer.Init(n.nextShutdownGroup)
	n.w.event("Node", n.Name, EventNormal, "Shutdown", "kubelet", "Shutdown manager detected shutdown event")
	if n.Reachable() && n.Ready() {
		n.markNotReady("KubeletNotReady", "node is shutting down")
	}
	n.killShutdownGroup()
}

// ShuttingDown reports whether the node is in a graceful shutdown.
func (n *Node) ShuttingDown() bool { return n.shutdown != nil }

// killShutdownGroup kills the active pods of the current group and waits
// for them, or moves on at once if it has none.
func (n *Node) killShutdownGroup() {
	s := n.shutdown
	period := n.ShutdownConfig.GracePeriod - n.ShutdownConfig.CriticalPods
	if s.critical {
		period = n.ShutdownConfig.CriticalPods
	}
	any := false
	for _, p := range n.pods {
		if !p.shutdownActive() || (p.priority >= criticalPriority) != s.critical {
			continue
		}
		any = true
		grace := period
		if p.Spec.TerminationGracePeriod <= grace {
			grace = p.Spec.TerminationGracePeriod
		}
		p.setCondition(DisruptionTarget, True, "TerminationByKubelet", msgNodeShutdown)
		p.stopForKubelet(ReasonNodeShutdownTerminated, msgNodeShutdown, grace)
		p.requestSync()
	}
	if !any {
		n.nextShutdownGroup()
		return
	}
	// Late: the kills due when the period ends (SIGKILL at the same
	// instant) finish first, as killPodFunc returns when they are done.
	n.w.eng.Schedule(&s.timer, sim.AddSat(n.w.Now(), period), sim.Late)
}

// shutdownActive reports whether the shutdown manager kills the pod: it
// is active (getPods: not terminal, not deleted) and not already stopped
// by the kubelet for another reason.
func (p *Pod) shutdownActive() bool {
	return !p.deleted && !p.phase.Terminal() && p.stopReason == ""
}

// nextShutdownGroup ends the current group: the critical group follows
// the regular one; after the critical one the node powers off.
func (n *Node) nextShutdownGroup() {
	s := n.shutdown
	if s == nil {
		return
	}
	n.w.eng.Stop(&s.timer)
	if !s.critical {
		s.critical = true
		n.killShutdownGroup()
		return
	}
	n.shutdown = nil
	n.PowerOff(s.back)
}

// shutdownPodStopped is a pod the shutdown manager killed having stopped:
// once none of its group is left, the next group starts.
func (n *Node) shutdownPodStopped() {
	s := n.shutdown
	if s == nil {
		return
	}
	for _, p := range n.pods {
		if p.stopReason == ReasonNodeShutdownTerminated && !p.phase.Terminal() && !p.deleted &&
			(p.priority >= criticalPriority) == s.critical {
			return
		}
	}
	n.nextShutdownGroup()
}

// rejectForShutdown is the shutdown manager's Admit refusing a pod bound
// to a node that is shutting down: the kubelet's rejectPod.
func (p *Pod) rejectForShutdown() {
	p.eventMsg(EventWarning, ReasonNodeShutdownRejected, "kubelet", msgNodeShutdownRejected)
	p.status.Reason, p.status.Message = ReasonNodeShutdownRejected, "Pod was rejected: "+msgNodeShutdownRejected
	p.setPhase(Failed)
	p.w.podChanged(p)
}
