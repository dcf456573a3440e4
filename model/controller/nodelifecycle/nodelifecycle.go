// Package nodelifecycle is the node lifecycle controller
// (pkg/controller/nodelifecycle): it watches the nodes' heartbeats, marks a
// silent node's Ready condition Unknown and its pods not Ready, taints
// nodes that are not Ready (unreachable, not-ready) and lifts those taints
// when they are Ready again.
package nodelifecycle

import (
	"fmt"
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/sim"
)

// monitorPeriod is how often the controller looks at the nodes'
// heartbeats (nodeMonitorPeriod).
const monitorPeriod = 5 * time.Second

// Controller is the node lifecycle controller; register it with
// World.Register.
type Controller struct {
	w        *model.World
	monitors []*sim.Timer // by Node.ID: its next look at a silent node; nil until it fell silent
}

// New returns the node lifecycle controller of w.
func New(w *model.World) *Controller { return &Controller{w: w} }

// NodeUnreachable starts the watch on a node whose heartbeats stopped at
// now: at the first monitor pass more than NodeMonitorGracePeriod after
// the last heartbeat, Ready becomes Unknown.
func (c *Controller) NodeUnreachable(n *model.Node) {
	now := c.w.Now()
	deadline := sim.AddSat(n.LastHeartbeat(now), c.w.Settings().NodeMonitorGracePeriod)
	at := sim.AddSat(deadline/monitorPeriod*monitorPeriod, monitorPeriod) // the first pass strictly after
	id := n.ID()
	if id >= len(c.monitors) {
		c.monitors = append(c.monitors, make([]*sim.Timer, id+1-len(c.monitors))...)
	}
	if c.monitors[id] == nil {
		c.monitors[id] = sim.NewTimer(func() { c.markUnknown(n) })
	}
	c.w.Engine().Schedule(c.monitors[id], max(at, now), sim.Normal)
}

// NodeReachable ends the watch.
func (c *Controller) NodeReachable(n *model.Node) { c.stop(n) }

// NodeReadyPosted taints a node whose kubelet reports it not Ready, and
// lifts the taints of one Ready again.
func (c *Controller) NodeReadyPosted(n *model.Node) {
	if n.Ready() {
		n.Untaint(model.TaintUnreachable)
		n.Untaint(model.TaintNotReady)
		return
	}
	n.Event(model.EventNormal, "NodeNotReady", "node-controller", fmt.Sprintf("Node %s status is now: NodeNotReady", n.Name))
	n.Taint(model.TaintNotReady)
}

// NodeDeleted ends the watch; the controller notices at its next pass.
func (c *Controller) NodeDeleted(n *model.Node) {
	c.stop(n)
	eng := c.w.Engine()
	next := sim.AddSat(eng.Now()/monitorPeriod*monitorPeriod, monitorPeriod)
	eng.At(next, sim.Normal, func() {
		n.Event(model.EventNormal, "RemovingNode", "node-controller", fmt.Sprintf("Node %s event: Removing Node %s from Controller", n.Name, n.Name))
	})
}

func (c *Controller) stop(n *model.Node) {
	if id := n.ID(); id < len(c.monitors) && c.monitors[id] != nil {
		c.w.Engine().Stop(c.monitors[id])
	}
}

// markUnknown is the controller finding a silent node: Ready Unknown, the
// unreachable taint, and its pods not Ready.
func (c *Controller) markUnknown(n *model.Node) {
	if n.Reachable() {
		return
	}
	n.SetCondition(model.Ready, model.StatusUnknown, "NodeStatusUnknown", "Kubelet stopped posting node status.")
	n.Event(model.EventNormal, "NodeNotReady", "node-controller", fmt.Sprintf("Node %s status is now: NodeNotReady", n.Name))
	n.Taint(model.TaintUnreachable)
	for _, p := range n.Pods() {
		if p.Phase().Terminal() {
			continue
		}
		if p.MarkNotReady() {
			p.Event(model.EventWarning, "NodeNotReady", "node-controller", "Node is not ready")
		}
	}
}
