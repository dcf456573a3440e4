// Package daemonset is the DaemonSet controller (pkg/controller/daemon):
// it keeps one pod of each DaemonSet on every node it may run on, pinned
// to the node by node affinity (since Kubernetes 1.12 the default
// scheduler binds daemon pods), and makes a failed pod anew.
package daemonset

import "github.com/podsim/podsim/model"

// Controller is the DaemonSet controller; register it with
// World.RegisterWorkloadController for model.KindDaemonSet. It hears of
// the nodes as a part.
type Controller struct {
	w    *model.World
	sets []*model.Workload // the DaemonSets, in the order added
}

// New returns the DaemonSet controller of w.
func New(w *model.World) *Controller { return &Controller{w: w} }

// WorkloadAdded keeps a new DaemonSet.
func (c *Controller) WorkloadAdded(wl *model.Workload) { c.sets = append(c.sets, wl) }

// NodeAdded asks the DaemonSets to sync.
func (c *Controller) NodeAdded(*model.Node) { c.nodesChanged() }

// NodeTainted asks the DaemonSets to sync.
func (c *Controller) NodeTainted(*model.Node, model.Taint) { c.nodesChanged() }

// NodeReady asks the DaemonSets to sync.
func (c *Controller) NodeReady(*model.Node) { c.nodesChanged() }

// nodesChanged asks every DaemonSet to sync: the nodes they may run on may
// have changed.
func (c *Controller) nodesChanged() {
	for _, wl := range c.sets {
		wl.RequestSync()
	}
}

// Sync keeps one pod for every eligible node; a failed pod is deleted and
// made anew.
func (c *Controller) Sync(wl *model.Workload) {
	for _, n := range c.w.Nodes() {
		if !eligible(wl, n) {
			continue
		}
		has := false
		for _, p := range wl.Pods() {
			if p.PinnedNode() != n.Name || p.Deleted() || p.Terminating() {
				continue
			}
			if p.Phase() == model.Failed {
				p.Delete(nil)
				continue
			}
			has = true
		}
		if !has {
			wl.CreatePod(wl.Spec.Template, n.Name)
		}
	}
}

// eligible is nodeShouldRunDaemonPod: the template's node affinity admits
// n and its tolerations tolerate n's NoSchedule taints.
func eligible(wl *model.Workload, n *model.Node) bool {
	if !wl.Spec.Template.MatchesNodeAffinity(n) {
		return false
	}
	for _, t := range n.Taints {
		if t.Effect == "NoSchedule" && !tolerates(wl.Spec.Options.Tolerations, t) {
			return false
		}
	}
	return true
}

func tolerates(tols []model.Toleration, t model.Taint) bool {
	for i := range tols {
		if tols[i].Matches(t) {
			return true
		}
	}
	return false
}
