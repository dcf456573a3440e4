package model

import (
	"time"

	"github.com/podsim/podsim/sim"
)

// What node autoscalers (the Cluster Autoscaler, Karpenter) need of the
// core: nodes that boot, a node as their estimators simulate it, and
// their account of why they did not act.

// Booting messages: a registered node whose kubelet has no network yet
// reports this until its CNI plugin is up (the kubelet's runtime state,
// pkg/kubelet/kubelet_node_status.go, setNodeReadyCondition).
const (
	reasonKubeletNotReady = "KubeletNotReady"
	msgNetworkNotReady    = "container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized"
)

// ProvisionNode adds a node a node autoscaler asked the cloud for: its
// Node object is registered now, NotReady (KubeletNotReady), with the
// not-ready NoSchedule taint the API server's NodeTaint admission puts on
// every new node (plugin/pkg/admission/nodetaint), and the node lifecycle
// controller hears it NotReady (it adds NoExecute). It becomes Ready
// after boot, as a kubelet posting its first ready status makes it
// (sim.MaxDuration, or its group is failing, World.FailNodeBoot: it never
// does). A node deleted before then stays deleted.
func (w *World) ProvisionNode(s NodeSpec, boot time.Duration) *Node {
	s.Taints = append(append([]Taint(nil), s.Taints...), Taint{Key: TaintNotReady, Effect: "NoSchedule", TimeAdded: w.Now()})
	if w.bootFailing[s.Group] {
		boot = sim.MaxDuration
	}
	n := w.newNode(s)
	n.booting, n.provisioned = true, true
	n.setCondition(Ready, False, reasonKubeletNotReady, msgNetworkNotReady)
	w.nodeAdded(n)
	n.w.nodeReadyPosted(n)
	if at := sim.AddSat(w.Now(), boot); at < sim.MaxDuration {
		w.eng.At(at, sim.Normal, func() {
			if n.gone || !n.booting {
				return
			}
			n.booting = false
			if !n.Reachable() {
				return
			}
			n.markReady()
		})
	}
	return n
}

// Booting reports whether n was provisioned and its kubelet has not yet
// posted Ready.
func (n *Node) Booting() bool { return n.booting }

// Provisioned reports whether n was added by ProvisionNode (a node
// autoscaler's scale-up), not as one of the scenario's nodes.
func (n *Node) Provisioned() bool { return n.provisioned }

// SimNode is a node as a node autoscaler's estimator sees it: a copy of a
// real node (Node.Simulate) or of a node group's template
// (SimulateNode), with the pods the simulation packed onto it. Nothing in
// the world changes.
type SimNode struct{ n Node }

// SimulateNode returns an empty simulated node of spec s (named s.Name).
func SimulateNode(s NodeSpec) *SimNode {
	return &SimNode{n: Node{Name: s.Name, Labels: registeredLabels(s.Name, s.Labels), Capacity: s.Capacity, Taints: s.Taints,
		Group: s.Group, PricePerHour: s.PricePerHour}}
}

// Simulate returns a simulated copy of n holding what n's pods request
// now. Its taints are n's at this instant.
func (n *Node) Simulate() *SimNode {
	return &SimNode{n: Node{Name: n.Name, Labels: n.Labels, Capacity: n.Capacity, Taints: append([]Taint(nil), n.Taints...),
		used: n.used, unschedulable: n.unschedulable, diskFailed: n.diskFailed, Group: n.Group, PricePerHour: n.PricePerHour}}
}

// Fits reports whether p passes the scheduler's node-local filters on the
// simulated node, in upstream's order (NodeUnschedulable,
// TaintToleration, NodeAffinity, NodeResourcesFit), and if not the first
// rejecting filter's reasons as the scheduler words them ("Insufficient
// cpu", "node(s) had untolerated taint {key: value}"). Topology spread and
// inter-pod affinity are not simulated (docs/kubernetes-rules.md).
func (s *SimNode) Fits(p *Pod) (bool, string) {
	n := &s.n
	switch {
	case n.unschedulable && !p.tolerates(Taint{Key: TaintUnschedulable, Effect: "NoSchedule"}):
		return false, ReasonUnschedulable
	case n.diskFailed:
		return false, ReasonDiskFailed
	}
	if t := UntoleratedTaint(p, n); t != nil {
		return false, TaintReason(t)
	}
	if !MatchesNodeAffinity(p, n) {
		return false, ReasonNodeAffinity
	}
	short, _ := FitsResources(p, n, nil, nil) // no pod is nominated to a simulated node
	if short == 0 {
		return true, ""
	}
	msg := ""
	for _, r := range [...]struct {
		bit    Shortage
		reason string
	}{{ShortPods, ReasonTooManyPods}, {ShortCPU, ReasonCPU}, {ShortMemory, ReasonMemory}} {
		if short&r.bit != 0 {
			if msg != "" {
				msg += ", "
			}
			msg += r.reason
		}
	}
	return false, msg
}

// Admits is Fits without the reasons, for a packer that only needs to
// know whether p goes there: it builds no message.
func (s *SimNode) Admits(p *Pod) bool {
	n := &s.n
	if n.unschedulable && !p.tolerates(Taint{Key: TaintUnschedulable, Effect: "NoSchedule"}) || n.diskFailed ||
		UntoleratedTaint(p, n) != nil || !MatchesNodeAffinity(p, n) {
		return false
	}
	short, _ := FitsResources(p, n, nil, nil)
	return short == 0
}

// Add packs p onto the simulated node: it holds p's requests from now on.
func (s *SimNode) Add(p *Pod) { s.n.used.add(p.requests) }

// Remove takes p's requests off the simulated node.
func (s *SimNode) Remove(p *Pod) { s.n.used.sub(p.requests) }

// Allocated is what the simulated node's pods request.
func (s *SimNode) Allocated() Resources { return s.n.used }

// Capacity is the simulated node's allocatable resources.
func (s *SimNode) Capacity() Resources { return s.n.Capacity }

// Name is the simulated node's name.
func (s *SimNode) Name() string { return s.n.Name }

// Requests is what p asks the scheduler for: the sum over its containers
// (and the largest init container), counting one pod.
func (p *Pod) Requests() Resources { return p.requests }

// ScaleExplainer is a node autoscaler's account of its decisions, for
// `podsim explain` and the describe views: why a Pending pod did not make
// it add a node, why a node is not removed. A registered part that
// implements it is asked in registration order.
type ScaleExplainer interface {
	// Active reports whether the autoscaler acts in this world (it has
	// node groups, or NodePools).
	Active() bool
	// ExplainPod says why p, Pending and unschedulable, did not trigger a
	// scale-up (for each group or NodePool: which could fit it and why it
	// did not scale), or "" if the autoscaler has nothing to say of it.
	ExplainPod(p *Pod) string
	// ExplainNode says why n is not removed (which pod blocks it and by
	// which rule, or which threshold it is above), or "".
	ExplainNode(n *Node) string
}

// HasScaleExplainer reports whether a registered node autoscaler that
// can explain itself (a ScaleExplainer) acts in this world.
func (w *World) HasScaleExplainer() bool {
	for _, e := range w.parts.explainers {
		if e.Active() {
			return true
		}
	}
	return false
}

// ExplainPod asks the registered node autoscalers why p did not make them
// add a node; "" if none says.
func (w *World) ExplainPod(p *Pod) string {
	for _, e := range w.parts.explainers {
		if s := e.ExplainPod(p); s != "" {
			return s
		}
	}
	return ""
}

// ExplainNode asks the registered node autoscalers why n is not removed;
// "" if none says.
func (w *World) ExplainNode(n *Node) string {
	for _, e := range w.parts.explainers {
		if s := e.ExplainNode(n); s != "" {
			return s
		}
	}
	return ""
}
