// Package nodeshutdown is the kubelet's graceful node shutdown manager
// (pkg/kubelet/nodeshutdown): it holds systemd's shutdown back with an
// inhibitor lock for shutdownGracePeriod. When a shutdown begins
// (model.Node.Shutdown) it records a Normal Shutdown event on the node,
// reports Ready=False "node is shutting down", rejects new pods
// (NodeShutdown), then kills the active pods by priority group (killPods):
// regular pods with shutdownGracePeriod - shutdownGracePeriodCriticalPods,
// then critical pods (priority at least system-cluster-critical's) with
// shutdownGracePeriodCriticalPods, each pod with the smaller of its
// group's period and its own grace period. The next group starts when
// every pod of the group has stopped or the group's period has run out.
// Each pod gets DisruptionTarget (TerminationByKubelet) and ends Failed,
// reason Terminated. Then the lock is released and the node powers off.
// A node whose shutdownGracePeriod is 0 has the manager off: the core
// powers it off at once.
package nodeshutdown

import (
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/sim"
)

// Upstream's messages (nodeshutdown_manager.go, the kubelet's events.go
// and rejectPod).
const (
	msgNodeShutdown           = "Pod was terminated in response to imminent node shutdown."
	reasonRejected            = "NodeShutdown"
	msgRejected               = "Pod was rejected as the node is shutting down."
	criticalPriority          = 2000000000 // scheduling.SystemCriticalPriority
	reasonDisruptionByKubelet = "TerminationByKubelet"
)

// Manager is the shutdown managers of every node's kubelet; register it
// with model.World.Register. It keeps its state of a node by Node.ID.
type Manager struct {
	w     *model.World
	nodes []*state // by Node.ID; nil: not shutting down
}

// state is a node's shutdown under way.
type state struct {
	n        *model.Node
	critical bool           // the critical group is being killed
	back     *time.Duration // how long the node stays off (nil: for good)
	timer    sim.Timer      // the group's period runs out
}

// New returns the shutdown managers of w's nodes.
func New(w *model.World) *Manager { return &Manager{w: w} }

// ShuttingDown reports whether n is in a graceful shutdown.
func (m *Manager) ShuttingDown(n *model.Node) bool { return m.of(n) != nil }

func (m *Manager) of(n *model.Node) *state {
	if n.ID() < len(m.nodes) {
		return m.nodes[n.ID()]
	}
	return nil
}

// Shutdown begins n's graceful shutdown now (the core calls it for a
// node up, not shutting down, whose manager is on); the node stays off for
// back once it powers off (nil: for good).
func (m *Manager) Shutdown(n *model.Node, back *time.Duration) {
	for n.ID() >= len(m.nodes) {
		m.nodes = append(m.nodes, nil)
	}
	s := &state{n: n, back: back}
	s.timer.Init(func() { m.nextGroup(s) })
	m.nodes[n.ID()] = s
	n.Event(model.EventNormal, "Shutdown", "kubelet", "Shutdown manager detected shutdown event")
	if n.Reachable() && n.Ready() {
		n.MarkNotReady("KubeletNotReady", "node is shutting down")
	}
	m.killGroup(s)
}

// AdmitPod is the manager's Admit: a pod the kubelet is about to start on
// a node shutting down is rejected, as rejectPod does.
func (m *Manager) AdmitPod(p *model.Pod) bool {
	if m.of(p.Node) == nil {
		return true
	}
	p.Reject(reasonRejected, msgRejected)
	return false
}

// killGroup kills the active pods of the current group and waits for
// them, or moves on at once if it has none.
func (m *Manager) killGroup(s *state) {
	cfg := s.n.ShutdownConfig
	period := cfg.GracePeriod - cfg.CriticalPods
	if s.critical {
		period = cfg.CriticalPods
	}
	any := false
	for _, p := range s.n.Pods() {
		if !active(p) || (p.Priority() >= criticalPriority) != s.critical {
			continue
		}
		any = true
		grace := min(period, p.Spec.TerminationGracePeriod)
		p.SetDisruptionTarget(reasonDisruptionByKubelet, msgNodeShutdown)
		p.StopForKubelet(model.ReasonNodeShutdownTerminated, msgNodeShutdown, grace)
		p.RequestSync()
	}
	if !any {
		m.nextGroup(s)
		return
	}
	// Late: the kills due when the period ends (SIGKILL at the same
	// instant) finish first, as killPodFunc returns when they are done.
	m.w.Engine().Schedule(&s.timer, sim.AddSat(m.w.Now(), period), sim.Late)
}

// active reports whether the manager kills the pod: it is active (getPods:
// not terminal, not deleted) and not already stopped by the kubelet for
// another reason.
func active(p *model.Pod) bool {
	return !p.Deleted() && !p.Phase().Terminal() && p.KubeletStopReason() == ""
}

// nextGroup ends the current group: the critical group follows the
// regular one; after the critical one the node powers off.
func (m *Manager) nextGroup(s *state) {
	if m.of(s.n) != s {
		return
	}
	m.w.Engine().Stop(&s.timer)
	if !s.critical {
		s.critical = true
		m.killGroup(s)
		return
	}
	m.nodes[s.n.ID()] = nil
	s.n.PowerOff(s.back)
}

// PodStopped hears that a pod the kubelet stops for good changed phase:
// once none of the group it killed is left, the next group starts.
func (m *Manager) PodStopped(p *model.Pod) {
	if p.KubeletStopReason() != model.ReasonNodeShutdownTerminated {
		return
	}
	s := m.of(p.Node)
	if s == nil {
		return
	}
	for _, q := range s.n.Pods() {
		if q.KubeletStopReason() == model.ReasonNodeShutdownTerminated && !q.Phase().Terminal() && !q.Deleted() &&
			(q.Priority() >= criticalPriority) == s.critical {
			return
		}
	}
	m.nextGroup(s)
}
