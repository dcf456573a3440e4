// Package karpenter is Karpenter (kubernetes-sigs/karpenter) as a part:
// it batches the pods the scheduler marks unschedulable
// (pkg/controllers/provisioning/batcher.go), packs them onto the nodes in
// flight and onto new NodeClaims of the cheapest instance type their
// NodePool allows (provisioning/scheduling), launches them as nodes that
// boot (model.World.ProvisionNode), and disrupts its nodes: expired ones
// (nodeclaim/expiration), then empty, drifted and underutilized ones
// (pkg/controllers/disruption), within the NodePools' disruption budgets,
// the pods' PodDisruptionBudgets and karpenter.sh/do-not-disrupt, by
// tainting, draining through the Eviction API and deleting them
// (node/termination). It says why a pod got no node and why a node stays
// (model.ScaleExplainer).
package karpenter

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/sim"
)

// Karpenter's options and constants (pkg/operator/options/options.go,
// pkg/controllers/disruption/controller.go and consolidation.go,
// pkg/controllers/state/statenode.go, pkg/events/recorder.go).
const (
	batchIdle        = time.Second      // BATCH_IDLE_DURATION
	batchMax         = 10 * time.Second // BATCH_MAX_DURATION
	pollingPeriod    = 10 * time.Second // the disruption controller's loop
	validationDelay  = 15 * time.Second // commandValidationDelay
	nominationWindow = 20 * time.Second // max(2*BATCH_MAX_DURATION, 10s)
	dedupeTimeout    = 2 * time.Minute  // the event recorder's default
	evictRetry       = 10 * time.Second // the eviction queue's longest backoff
	source           = "karpenter"
)

// Karpenter's labels, taint and annotation (pkg/apis/v1/labels.go, taints.go).
const (
	LabelNodePool          = "karpenter.sh/nodepool"
	LabelCapacityType      = "karpenter.sh/capacity-type"
	LabelInstanceType      = "node.kubernetes.io/instance-type"
	LabelZone              = "topology.kubernetes.io/zone"
	labelRegistered        = "karpenter.sh/registered"
	TaintDisrupted         = "karpenter.sh/disrupted"
	AnnotationDoNotDisrupt = "karpenter.sh/do-not-disrupt"
	capacityOnDemand       = "on-demand"
)

// Controller is Karpenter; register it with World.Register. It does
// nothing in a world without NodePools.
type Controller struct {
	w          *model.World
	names      *rand.Rand // NodeClaim name suffixes
	boot       *rand.Rand // boot time draws
	pending    map[int]*model.Pod
	batchOpen  bool
	batchStart time.Duration
	batchLast  time.Duration
	batchTimer sim.Timer

	claims []*claim                 // launched and not yet gone, in launch order
	byNode map[int]*claim           // by Node.ID
	why    map[int]string           // by Pod.ID: why the last provisioning left it pending, or the node in flight it was nominated to
	said   map[sayKey]time.Duration // when each event was last published, for the recorder's dedupe
	poll   sim.Timer
	cmd    *command               // a disruption waiting for its validation delay
	pass   model.Pass             // provision's or disrupt's, counting the nodes they read
	sims   map[int]*model.SimNode // by Node.ID: the nodes simulated in this disruption pass
}

// sayKey is what the recorder dedupes an event by: its reason and its
// object (a pod's or node's ID, or a NodePool's name and the reason's
// disruption reason).
type sayKey struct {
	reason, name string
	id           int
}

// claim is a NodeClaim and the node it launched (named alike).
type claim struct {
	node       *model.Node
	pool       *model.NodePool
	it         *model.InstanceType
	hash       string        // the NodePool's template hash at launch
	launched   time.Duration // creation
	lastPod    time.Duration // the last pod bound to or gone from it (status.lastPodEventTime)
	nominated  time.Duration // nominated for pending pods until then
	disrupting string        // the disruption reason once it is being disrupted
	deleting   bool          // its NodeClaim is being deleted (disrupted or expired)
	draining   bool
	drainTimer sim.Timer
	expiry     sim.Timer
	replaces   []*claim // the nodes it replaces, terminated once it is Ready
	awaiting   int      // replacements of it not yet Ready
}

// marked reports whether the node is being disrupted or deleted.
func (cl *claim) marked() bool { return cl.deleting || cl.disrupting != "" }

// New returns Karpenter for w.
func New(w *model.World) *Controller {
	c := &Controller{w: w, names: w.Engine().Rand("karpenter-names"), boot: w.Engine().Rand("karpenter-boot"),
		pending: map[int]*model.Pod{}, byNode: map[int]*claim{}, sims: map[int]*model.SimNode{}, why: map[int]string{}, said: map[sayKey]time.Duration{}}
	c.batchTimer.Init(c.provision)
	c.poll.Init(c.disrupt)
	return c
}

// PodUnschedulable adds a provisionable pod to the batch: the window
// closes 1s after the last pod that joins it, 10s after it opened at most.
func (c *Controller) PodUnschedulable(p *model.Pod) {
	if len(c.w.NodePools()) == 0 || !provisionable(p) {
		return
	}
	c.pending[p.ID()] = p
	now := c.w.Now()
	if !c.batchOpen {
		c.batchOpen, c.batchStart = true, now
	}
	c.batchLast = now
	at := min(c.batchLast+batchIdle, c.batchStart+batchMax)
	if !c.batchTimer.Pending() || c.batchTimer.When() != at {
		c.w.Engine().Schedule(&c.batchTimer, at, sim.Normal)
	}
}

// provisionable is pod.IsProvisionable: pending, unbound, not being
// deleted, not a DaemonSet's.
func provisionable(p *model.Pod) bool {
	return p.Node == nil && !p.Deleted() && !p.Terminating() && p.Phase() == model.Pending && !daemon(p)
}

func daemon(p *model.Pod) bool {
	return p.Owner() != nil && p.Owner().Spec.Kind == model.KindDaemonSet
}

// PodBound forgets a pod that found its node and stamps that node's last
// pod event.
func (c *Controller) PodBound(p *model.Pod) {
	if len(c.claims) == 0 && len(c.pending) == 0 {
		return
	}
	delete(c.pending, p.ID())
	delete(c.why, p.ID())
	if cl := c.byNode[p.Node.ID()]; cl != nil {
		cl.lastPod = c.w.Now()
	}
}

// PodReleased stamps the node's last pod event: a pod finished or left.
func (c *Controller) PodReleased(p *model.Pod, n *model.Node) {
	if len(c.claims) == 0 {
		return
	}
	if cl := c.byNode[n.ID()]; cl != nil {
		cl.lastPod = c.w.Now()
		if cl.draining {
			c.drain(cl)
		}
	}
}

// PodDeleted forgets a pod that left the API, and goes on draining its
// node.
func (c *Controller) PodDeleted(p *model.Pod) {
	if len(c.said) == 0 && len(c.pending) == 0 {
		return
	}
	delete(c.pending, p.ID())
	delete(c.why, p.ID())
	for _, r := range []string{"Nominated", "FailedScheduling"} {
		delete(c.said, sayKey{reason: r, id: p.ID()})
	}
	if p.Node == nil {
		return
	}
	if cl := c.byNode[p.Node.ID()]; cl != nil && cl.draining {
		c.drain(cl)
	}
}

// NodeDeleted forgets a node's NodeClaim.
func (c *Controller) NodeDeleted(n *model.Node) {
	cl := c.byNode[n.ID()]
	if cl == nil {
		return
	}
	delete(c.said, sayKey{reason: "DisruptionBlocked", id: n.ID()})
	delete(c.byNode, n.ID())
	c.claims = slices.DeleteFunc(c.claims, func(x *claim) bool { return x == cl })
	c.w.Engine().Stop(&cl.drainTimer)
	c.w.Engine().Stop(&cl.expiry)
}

// publish records an event unless the recorder's dedupe drops it: the
// same key published within timeout.
func (c *Controller) publish(key sayKey, timeout time.Duration, emit func()) {
	now := c.w.Now()
	if at, ok := c.said[key]; ok && now-at < timeout {
		return
	}
	c.said[key] = now
	emit()
}

// Active reports whether Karpenter has a NodePool to act for.
func (c *Controller) Active() bool { return len(c.w.NodePools()) > 0 }

// ExplainPod says why a pending pod got no node from Karpenter, or which
// node in flight it waits for.
func (c *Controller) ExplainPod(p *model.Pod) string {
	if p.Node != nil {
		return ""
	}
	if why := c.why[p.ID()]; why != "" {
		return "Karpenter: " + why
	}
	if _, ok := c.pending[p.ID()]; ok {
		return "Karpenter: waiting for the provisioning batch to close (1s idle, 10s at most)"
	}
	return ""
}

// ExplainNode says why Karpenter does not remove a node of its own.
func (c *Controller) ExplainNode(n *model.Node) string {
	cl := c.byNode[n.ID()]
	if cl == nil {
		return ""
	}
	if cl.marked() {
		return fmt.Sprintf("Karpenter: being disrupted (%s)", cmp.Or(cl.disrupting, "Expired"))
	}
	if why := c.blocked(cl); why != "" {
		return "Karpenter: " + why
	}
	if why := c.notConsolidatable(cl); why != "" {
		return "Karpenter: " + why
	}
	return "Karpenter: its pods fit nowhere cheaper (no consolidation saves money)"
}
