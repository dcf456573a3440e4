package report

import (
	"time"

	"github.com/podsim/podsim/model"
)

// The cluster.* metrics of node autoscaling: how long pods waited for a
// node, what the nodes cost, how the cluster grew and what was drained.
// The Meter hands every change of both streams to its clusterMeter
// (Change, Object) and asks it for the samples at Finish.

// reasonEvictionAPI is the reason of the DisruptionTarget condition the
// Eviction API sets on a pod it evicts (pkg/registry/core/pod/storage/
// eviction.go, addConditionAndDeletePod): kubectl drain and the node
// autoscalers' drains go through it.
const reasonEvictionAPI = "EvictionByEvictionAPI"

// clusterMeter measures the cluster.* metrics of node autoscaling
// online. Its zero value is ready; it keeps a few numbers per pod and
// node.
type clusterMeter struct {
	pods    []clusterPod   // in creation order
	podIdx  map[podRef]int // index in pods of the last pod of each name
	pending int            // pods Pending and not yet bound, now
	since   time.Duration  // when pending last changed
	waited  float64        // pod-seconds of pending before since

	nodes     []clusterNode // in the order added
	alive     int           // nodes not deleted, now
	peak      int           // most alive at once
	evictions int           // pods the Eviction API evicted
}

// clusterPod is what the meter keeps of a pod: when it was added and
// bound, if it was, and whether it is counted as pending.
type clusterPod struct {
	p              *model.Pod
	pending, bound bool
	added, boundAt time.Duration
}

// clusterNode is a node's lifetime within the run: from added to deleted
// (or the end of the run).
type clusterNode struct {
	n              *model.Node
	added, deleted time.Duration
	gone           bool
}

// object learns of pods and nodes added and deleted.
func (c *clusterMeter) object(o *model.ObjectChange) {
	switch {
	case o.Kind == model.ObjectPod && o.Op == model.ObjectAdded:
		if c.podIdx == nil {
			c.podIdx = map[podRef]int{}
		}
		c.podIdx[podRef{o.Pod.Namespace, o.Pod.Name}] = len(c.pods)
		cp := clusterPod{p: o.Pod, added: o.T}
		if o.Pod.Node == nil && !o.Pod.Phase().Terminal() && !o.Pod.Terminating() {
			cp.pending = true
			c.setPending(o.T, +1)
		}
		c.pods = append(c.pods, cp)
	case o.Kind == model.ObjectPod && o.Op == model.ObjectDeleted:
		if cp := c.pod(o.Pod.Namespace, o.Pod.Name); cp != nil && cp.p == o.Pod {
			c.unpend(cp, o.T)
		}
	case o.Kind == model.ObjectNode && o.Op == model.ObjectAdded:
		c.nodes = append(c.nodes, clusterNode{n: o.Node, added: o.T})
		c.alive++
		c.peak = max(c.peak, c.alive)
	case o.Kind == model.ObjectNode && o.Op == model.ObjectDeleted:
		for i := len(c.nodes) - 1; i >= 0; i-- {
			if cn := &c.nodes[i]; cn.n == o.Node && !cn.gone {
				cn.gone, cn.deleted = true, o.T
				c.alive--
				break
			}
		}
	}
}

// change learns of pods bound, finished or being deleted, and of
// evictions, from the timeline.
func (c *clusterMeter) change(ch *model.Change) {
	if ch.Pod == "" {
		return
	}
	switch {
	case ch.Kind == model.ChangeCondition && ch.Type == model.PodScheduled && ch.Status == string(model.True):
		if cp := c.pod(ch.Namespace, ch.Pod); cp != nil && !cp.bound {
			cp.bound, cp.boundAt = true, ch.T
			c.unpend(cp, ch.T)
		}
	case ch.Kind == model.ChangeCondition && ch.Type == model.DisruptionTarget && ch.Status == string(model.True) && ch.Reason == reasonEvictionAPI:
		c.evictions++
	case ch.Kind == model.ChangePhase && ch.To.Terminal(), ch.Kind == model.ChangePod && ch.Reason == "Terminating":
		if cp := c.pod(ch.Namespace, ch.Pod); cp != nil {
			c.unpend(cp, ch.T)
		}
	}
}

// pod returns the last pod added of that name, or nil.
func (c *clusterMeter) pod(ns, name string) *clusterPod {
	if i, ok := c.podIdx[podRef{ns, name}]; ok {
		return &c.pods[i]
	}
	return nil
}

// unpend stops counting cp as pending at now.
func (c *clusterMeter) unpend(cp *clusterPod, now time.Duration) {
	if cp.pending {
		cp.pending = false
		c.setPending(now, -1)
	}
}

// setPending adds d to the pending pods at now, integrating until then.
func (c *clusterMeter) setPending(now time.Duration, d int) {
	c.waited += float64(c.pending) * (now - c.since).Seconds()
	c.pending += d
	c.since = now
}

// finish adds the cluster.* samples of a run that ended at duration.
func (c *clusterMeter) finish(add func(string, float64), duration time.Duration) {
	waited := c.waited
	if duration > c.since {
		waited += float64(c.pending) * (duration - c.since).Seconds()
	}
	add("cluster.pendingPodSeconds", waited)
	for i := range c.pods {
		// A pod of a snapshot bound before the run (created before it,
		// bound as it is added) did not wait in the run.
		if cp := &c.pods[i]; cp.bound && !(cp.boundAt == cp.added && cp.p.CreatedAt < cp.added) {
			add("cluster.timeToSchedule", (cp.boundAt - cp.p.CreatedAt).Seconds())
		}
	}
	hours, cost, ups := 0.0, 0.0, 0
	for i := range c.nodes {
		cn := &c.nodes[i]
		end := duration
		if cn.gone {
			end = min(cn.deleted, duration)
		}
		h := max(end-cn.added, 0).Hours()
		hours += h
		cost += h * cn.n.PricePerHour
		if cn.n.Provisioned() {
			ups++
		}
	}
	add("cluster.nodeHours", hours)
	add("cluster.cost", cost)
	add("cluster.peakNodes", float64(c.peak))
	add("cluster.scaleUps", float64(ups))
	add("cluster.evictions", float64(c.evictions))
}
