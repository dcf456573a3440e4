package model

import (
	"time"
)

// Taint is a node taint.
type Taint struct {
	Key, Value, Effect string
	TimeAdded          time.Duration
}

// NodeSpec describes a node to add.
type NodeSpec struct {
	Name     string
	Labels   map[string]string
	Capacity Resources // what the scheduler counts: status.allocatable
	Taints   []Taint
	Shutdown NodeShutdown // the kubelet's graceful node shutdown (nodeshutdown.go)
	Total    Resources    // status.capacity, before the kubelet's reservations; zero: Capacity

	// Group is the node group (or Karpenter NodePool) that made the node,
	// "" for a node of spec.nodes; PricePerHour is what it costs to run.
	Group        string
	PricePerHour float64
}

// Node is a machine with a kubelet.
type Node struct {
	// What the scheduler reads of every node it filters, together at the
	// start (the array of Nodes is walked in order): the first 64 bytes
	// hold Capacity, used, id and the two flags, the next Taints.
	Capacity Resources // what the scheduler counts: status.allocatable

	// used is what the node's pods that still hold resources request: the
	// sum over n.pods of the pods not in a terminal phase (their milliCPU,
	// memory, and one pod each). It is kept as a running total by hold and
	// release, which every change of n.pods or of a bound pod's phase goes
	// through, so the scheduler reads it in O(1).
	used                      Resources
	id                        int  // see ID
	unschedulable, diskFailed bool // spec.unschedulable: cordoned (cordon.go); the disk failed
	Taints                    []Taint

	w      *World
	Name   string
	Labels map[string]string
	Total  Resources // status.capacity; zero: Capacity

	Group        string  // the node group or NodePool that made it, "" if none (NodeSpec.Group)
	PricePerHour float64 // what it costs to run (NodeSpec.PricePerHour)

	Conditions []Condition
	CreatedAt  time.Duration
	pods       []*Pod   // pods bound here, in binding order
	events     eventLog // about the node, in order of first occurrence
	pids       int32    // the last process id given on it (nextPID); 0: not counted yet

	ShutdownConfig NodeShutdown // the kubelet's shutdownGracePeriod settings
	nextIP         int          // the next pod address of its range to give, from 0 for .2 (podip.go)

	down, partitioned bool
	gone              bool // the Node object was deleted (nodedelete.go)
	booting           bool // provisioned, its kubelet not yet Ready (nodeprovision.go)
	provisioned       bool // added by ProvisionNode (nodeprovision.go)
	downAt            time.Duration
	joinedAt          time.Duration // heartbeats are due every NodeStatusUpdateFrequency from here
	silentAt          time.Duration // ... until here, when it lost contact
}

// nodeSlabSize is how many Nodes are allocated at a time.
const nodeSlabSize = 256

// AddNode adds a Ready node now.
func (w *World) AddNode(s NodeSpec) *Node {
	n := w.newNode(s)
	n.setCondition(Ready, True, "KubeletReady", "kubelet is posting ready status")
	w.nodeAdded(n)
	return n
}

// newNode puts a node of spec s in the API, with no condition yet.
func (w *World) newNode(s NodeSpec) *Node {
	if len(w.nodeSlab) == 0 {
		w.nodeSlab = make([]Node, nodeSlabSize) // side by side: the scheduler's scans walk them in order
	}
	n := &w.nodeSlab[0]
	w.nodeSlab = w.nodeSlab[1:]
	*n = Node{w: w, Name: s.Name, Labels: registeredLabels(s.Name, s.Labels), Capacity: s.Capacity,
		Taints: s.Taints, ShutdownConfig: s.Shutdown, Total: s.Total, CreatedAt: w.Now(), joinedAt: w.Now(),
		Group: s.Group, PricePerHour: s.PricePerHour}
	n.id = w.nodesAdded
	w.nodesAdded++
	w.nodes = append(w.nodes, n)
	w.nodeIdx[n.Name] = n
	w.object(ObjectChange{Kind: ObjectNode, Op: ObjectAdded, Node: n})
	return n
}

// ID numbers the nodes in the order added, from 0, deleted ones included:
// parts keep their state of a node in slices indexed by it.
func (n *Node) ID() int { return n.id }

// Schedulable reports whether the scheduler may place pods here at all.
func (n *Node) Schedulable() bool { return !n.diskFailed }

// Condition returns the node condition of type t, if set.
func (n *Node) Condition(t string) (Condition, bool) {
	for _, c := range n.Conditions {
		if c.Type == t {
			return c, true
		}
	}
	return Condition{}, false
}

// Ready reports whether the node's Ready condition is True.
func (n *Node) Ready() bool {
	c, _ := n.Condition(Ready)
	return c.Status == True
}

// Allocated is what the node's pods that hold resources request (the
// scheduler's running total): pods bound here and not in a terminal phase.
func (n *Node) Allocated() Resources { return n.used }

// Pods returns the pods bound to the node, in binding order.
func (n *Node) Pods() []*Pod { return n.pods }

func (n *Node) setCondition(t string, s ConditionStatus, reason, msg string) {
	n.w.nodesChanged()
	for i := range n.Conditions {
		c := &n.Conditions[i]
		if c.Type == t {
			if c.Status == s && c.Reason == reason {
				return
			}
			if c.Status != s {
				c.LastTransitionTime = n.w.Now()
			}
			c.Status, c.Reason, c.Message = s, reason, msg
			n.w.record(Change{Kind: ChangeNode, Node: n.Name, Type: t, Status: string(s), Reason: reason})
			return
		}
	}
	n.Conditions = append(n.Conditions, Condition{Type: t, Status: s, Reason: reason, Message: msg, LastTransitionTime: n.w.Now()})
	n.w.record(Change{Kind: ChangeNode, Node: n.Name, Type: t, Status: string(s), Reason: reason})
}

// hold adds the requests of p, a pod bound here that holds resources, to
// the node's running totals.
func (n *Node) hold(p *Pod) {
	n.used.add(p.requests)
	n.w.podHeld(p, n)
}

// release takes the requests of p, which held resources here until now, off
// the node's running totals.
func (n *Node) release(p *Pod) {
	n.used.sub(p.requests)
	n.w.podReleased(p, n)
	n.w.kubelet.Released(n, p)
}

// boundNode returns the node whose pods include p (p.Node until p leaves
// the API), or nil.
func (p *Pod) boundNode() *Node {
	if p.deleted {
		return nil
	}
	return p.Node
}
