// Package clusterautoscaler is the Cluster Autoscaler
// (kubernetes/autoscaler cluster-autoscaler): every scan interval it adds
// nodes to the node groups (model.Settings.NodeGroups) for the pods the
// scheduler could not place (scaleup.go), and removes the nodes its
// pods do not need (scaledown.go). It says why it did not act
// (model.ScaleExplainer, explain.go).
package clusterautoscaler

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/sim"
)

// Constants of upstream's that are not flags podsim exposes.
const (
	maxNodesPerScaleUp  = 1000             // --max-nodes-per-scaleup
	maxPodEvictionTime  = 2 * time.Minute  // --max-pod-eviction-time
	evictionRetryTime   = 10 * time.Second // core/scaledown/actuation/drain.go
	podEvictionHeadroom = 30 * time.Second // core/scaledown/actuation/drain.go
	deleteDelayAfter    = 5 * time.Second  // --node-delete-delay-after-taint
)

// Taint and annotation the Cluster Autoscaler reads and writes
// (utils/taints/taints.go, utils/drain/drain.go).
const (
	taintToBeDeleted  = "ToBeDeletedByClusterAutoscaler"
	safeToEvict       = "cluster-autoscaler.kubernetes.io/safe-to-evict"
	source            = "cluster-autoscaler"
	kubeSystem        = "kube-system"
	never             = time.Duration(-1 << 62)
	reasonMaxSize     = "max node group size reached"
	reasonBackoff     = "in backoff after failed scale-up"
	reasonMaxTotal    = "max total nodes in cluster reached"
	reasonUnderMinMsg = "node group min size reached"
)

// Controller is the Cluster Autoscaler; register it with World.Register.
// A world without its settings gets one that does nothing.
type Controller struct {
	w      *model.World
	on     bool // the world has a Cluster Autoscaler
	s      model.ClusterAutoscalerSettings
	groups []*group
	rand   *rand.Rand

	pending []*model.Pod // pods the scheduler found unschedulable, in order of first report
	queued  map[int]bool // by Pod.ID: in pending

	lastScaleUp, lastDelete, lastFailure time.Duration
	unneededSince                        map[int]time.Duration // by Node.ID
	deleting                             map[int]bool          // by Node.ID: tainted and being drained or deleted
	draining                             int                   // non-empty nodes being drained
	why                                  map[int]string        // by Node.ID: why the last pass did not find it unneeded

	pass model.Pass // runOnce's, counting the nodes it reads
}

// group is a node group and its live nodes.
type group struct {
	spec  model.NodeGroup
	nodes []*model.Node // not deleted, in creation order
	next  int           // the number of its next node's name
	// deleting counts its nodes the autoscaler is deleting (Controller.deleting).
	deleting int
	boot     *rand.Rand

	backoffUntil, backoff, lastFail time.Duration
}

// New returns the Cluster Autoscaler of w's settings
// (Settings.ClusterAutoscaler; nil: it does nothing).
func New(w *model.World) *Controller {
	st := w.Settings()
	if st.ClusterAutoscaler == nil {
		return &Controller{w: w}
	}
	c := &Controller{w: w, on: true, s: *st.ClusterAutoscaler, rand: w.Engine().Rand("cluster-autoscaler"), queued: map[int]bool{},
		lastScaleUp: never, lastDelete: never, lastFailure: never, unneededSince: map[int]time.Duration{}, deleting: map[int]bool{}, why: map[int]string{}}
	for _, g := range st.NodeGroups {
		c.groups = append(c.groups, &group{spec: g, boot: w.Engine().Rand("cluster-autoscaler/boot/" + g.Name), lastFail: never})
	}
	w.Engine().At(c.s.ScanInterval, sim.Normal, c.loop)
	return c
}

// groupOf returns the node group named name, or nil.
func (c *Controller) groupOf(name string) *group {
	for _, g := range c.groups {
		if g.spec.Name == name {
			return g
		}
	}
	return nil
}

// NodeAdded tracks a node of one of the groups (its min nodes, the nodes
// it provisions).
func (c *Controller) NodeAdded(n *model.Node) {
	g := c.groupOf(n.Group)
	if g == nil {
		return
	}
	g.nodes = append(g.nodes, n)
	if i := strings.LastIndexByte(n.Name, '-'); i >= 0 {
		if k, err := strconv.Atoi(n.Name[i+1:]); err == nil && k >= g.next {
			g.next = k + 1
		}
	}
}

// NodeDeleted forgets a deleted node of a group.
func (c *Controller) NodeDeleted(n *model.Node) {
	delete(c.unneededSince, n.ID())
	delete(c.why, n.ID())
	g := c.groupOf(n.Group)
	if g == nil {
		return
	}
	if c.deleting[n.ID()] {
		delete(c.deleting, n.ID())
		g.deleting--
	}
	for i, m := range g.nodes {
		if m == n {
			g.nodes = append(g.nodes[:i], g.nodes[i+1:]...)
			return
		}
	}
}

// PodUnschedulable queues a pod the scheduler could not place.
func (c *Controller) PodUnschedulable(p *model.Pod) {
	if c.on && !c.queued[p.ID()] {
		c.queued[p.ID()] = true
		c.pending = append(c.pending, p)
	}
}

// loop is RunOnce (core/static_autoscaler.go): a scale-up for the
// unschedulable pods; if there was none, scale-down.
func (c *Controller) loop() {
	c.w.Engine().At(sim.AddSat(c.w.Now(), c.s.ScanInterval), sim.Normal, c.loop)
	c.runOnce()
}

// runOnce is one pass of loop. A pass cut short (model.Pass.Stopping)
// has made no decision (it may have noted why nodes are needed, and said
// why pods did not trigger a scale-up) and is left to an event at this
// instant, which the ended run never fires.
func (c *Controller) runOnce() {
	c.pass = c.w.StartPass()
	if c.pass.Stopping() { // the run ends after this event: no O(nodes) work for nothing
		c.w.Engine().At(c.w.Now(), sim.Normal, c.runOnce)
		return
	}
	up := c.scaleUp()
	if !c.pass.Cut() && up {
		c.lastScaleUp = c.w.Now()
		return
	}
	if !c.pass.Cut() && c.s.ScaleDownEnabled {
		c.scaleDown()
	}
	if c.pass.Cut() {
		c.w.Engine().At(c.w.Now(), sim.Normal, c.runOnce)
	}
}

// unschedulable drops from the queue the pods that are no longer
// waiting (bound, deleted, finished) and returns the rest.
func (c *Controller) unschedulable() []*model.Pod {
	keep := c.pending[:0]
	for _, p := range c.pending {
		if p.Node != nil || p.Deleted() || p.Terminating() || p.Phase().Terminal() {
			delete(c.queued, p.ID())
			continue
		}
		keep = append(keep, p)
	}
	clear(c.pending[len(keep):])
	c.pending = keep
	return keep
}

// booting reports whether n is a node still coming up: provisioned, not
// yet Ready.
func booting(n *model.Node) bool { return n.Booting() && !n.Gone() }

// size is a group's target size: its nodes, booting or not.
func (g *group) size() int { return len(g.nodes) }

// totalNodes is the nodes of every group.
func (c *Controller) totalNodes() int {
	t := 0
	for _, n := range c.w.Nodes() {
		if !n.Gone() {
			t++
		}
	}
	return t
}
