package scenarios

import (
	"fmt"
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/sim"
)

// faultKinds is every kind of fault, keyed by its YAML name, in the order
// of Fault's fields: the order the "exactly one of" message names them in.
// A new kind is a field of Fault and a line here.
var faultKinds = []FaultKind{
	&faultKind[ExitFault]{name: "exit", field: func(f *Fault) **ExitFault { return &f.Exit },
		check: (*validator).exitFault, act: exitAction, random: randomExit},
	&faultKind[ContainerRef]{name: "oom", field: func(f *Fault) **ContainerRef { return &f.OOM },
		check: (*validator).oomFault, act: oomAction, random: randomOOM},
	&faultKind[DeleteFault]{name: "delete", field: func(f *Fault) **DeleteFault { return &f.Delete },
		check: (*validator).deleteFault, act: deleteAction, random: randomDelete},
	&faultKind[NodeFault]{name: "diskFailure", field: func(f *Fault) **NodeFault { return &f.DiskFailure },
		check: (*validator).diskFailureFault, act: diskFailureAction, random: randomNodeFault(false)},
	&faultKind[NodeFault]{name: "partition", field: func(f *Fault) **NodeFault { return &f.Partition },
		check: (*validator).nodeFault, act: partitionAction, random: randomNodeFault(true)},
	&faultKind[NodeFault]{name: "nodeFailure", field: func(f *Fault) **NodeFault { return &f.NodeFailure },
		check: (*validator).nodeFault, act: nodeFailureAction, random: randomNodeFault(true)},
	&faultKind[NodeFault]{name: "shutdown", field: func(f *Fault) **NodeFault { return &f.Shutdown },
		check: (*validator).nodeFault, act: shutdownAction, random: randomNodeFault(true)},
	&faultKind[SetCondition]{name: "setCondition", field: func(f *Fault) **SetCondition { return &f.SetCondition },
		check: (*validator).setConditionFault, act: setConditionAction},
	&faultKind[NodeRef]{name: "cordon", field: func(f *Fault) **NodeRef { return &f.Cordon },
		check: (*validator).nodeAction, act: kubectlAction(model.Kubectl.Cordon)},
	&faultKind[NodeRef]{name: "uncordon", field: func(f *Fault) **NodeRef { return &f.Uncordon },
		check: (*validator).nodeAction, act: kubectlAction(model.Kubectl.Uncordon)},
	&faultKind[NodeRef]{name: "drain", field: func(f *Fault) **NodeRef { return &f.Drain },
		check: (*validator).nodeAction, act: drainAction},
	&faultKind[NodeRef]{name: "deleteNode", field: func(f *Fault) **NodeRef { return &f.DeleteNode },
		check: (*validator).nodeAction, act: deleteNodeAction},
	&faultKind[TaintFault]{name: "taint", field: func(f *Fault) **TaintFault { return &f.Taint },
		check: (*validator).taintFault, act: taintAction},
	&faultKind[ScaleFault]{name: "scale", field: func(f *Fault) **ScaleFault { return &f.Scale },
		check: (*validator).scaleFault, act: scaleAction},
	&faultKind[RolloutFault]{name: "rollout", field: func(f *Fault) **RolloutFault { return &f.Rollout },
		check: (*validator).rollout, act: rolloutAction, random: randomRollout},
	&faultKind[ResizeFault]{name: "resize", field: func(f *Fault) **ResizeFault { return &f.Resize },
		check: (*validator).resizeFault, act: resizeAction},
	&faultKind[EvictFault]{name: "evict", field: func(f *Fault) **EvictFault { return &f.Evict },
		check: (*validator).evictFault, act: evictAction, random: randomEvict},
	&faultKind[NodeGroupFault]{name: "nodeGroupBootFailure", field: func(f *Fault) **NodeGroupFault { return &f.NodeGroupBootFailure },
		check: (*validator).nodeGroupFault, act: nodeGroupBootFailureAction},
	&faultKind[NodePoolUpdateFault]{name: "nodePoolUpdate", field: func(f *Fault) **NodePoolUpdateFault { return &f.NodePoolUpdate },
		check: (*validator).nodePoolUpdateFault, act: nodePoolUpdateAction},
	&faultKind[CreateFault]{name: "create", field: func(f *Fault) **CreateFault { return &f.Create },
		check: (*validator).createFault, act: createAction},
}

// createAction adds the fault's objects, as a scenario's are added at 0
// (Scenario.AddObjects).
func createAction(c *faultWorld, cf *CreateFault) func() {
	return func() {
		if cf.objects != nil {
			cf.objects.AddObjects(c.w)
		}
	}
}

func exitAction(c *faultWorld, e *ExitFault) func() {
	return func() {
		for _, p := range podsNamed(c.w, model.Key(e.Namespace, e.Pod)) {
			p.ExitContainer(e.Container, e.Code)
		}
	}
}

func randomExit(d *FaultDraw) string {
	code := d.Code
	if code == "" {
		code = d.pick("0", "1")
	}
	return fmt.Sprintf("{pod: %s, container: %s, code: %s}", d.Pod, d.Container, code)
}

func oomAction(c *faultWorld, o *ContainerRef) func() {
	return func() {
		for _, p := range podsNamed(c.w, model.Key(o.Namespace, o.Pod)) {
			p.OOMKill(o.Container)
		}
	}
}

func randomOOM(d *FaultDraw) string {
	return fmt.Sprintf("{pod: %s, container: %s}", d.Pod, d.Container)
}

func deleteAction(c *faultWorld, d *DeleteFault) func() {
	var grace *time.Duration
	if d.GracePeriodSeconds != nil {
		g := sim.Seconds(*d.GracePeriodSeconds)
		grace = &g
	}
	return func() {
		for _, p := range podsNamed(c.w, model.Key(d.Namespace, d.Pod)) {
			p.Delete(grace)
		}
	}
}

func randomDelete(d *FaultDraw) string {
	pod := d.Pods[d.R.IntN(len(d.Pods))]
	return fmt.Sprintf("{pod: %s, gracePeriodSeconds: %s}", pod, d.pick("0", "1", "10", "30"))
}

func evictAction(c *faultWorld, e *EvictFault) func() {
	var grace *time.Duration
	if e.GracePeriodSeconds != nil {
		g := sim.Seconds(*e.GracePeriodSeconds)
		grace = &g
	}
	key := model.Key(e.Namespace, e.Pod)
	return func() {
		res := model.EvictionResult{Code: model.EvictionNotFound, Message: fmt.Sprintf("pods %q not found", e.Pod)}
		if p := c.w.Pod(key); p != nil {
			res = p.EvictWithGrace(grace)
		}
		if res.Code != model.EvictionCreated {
			c.refused = &EvictionRefused{Pod: e.Pod, Result: res}
		}
	}
}

func randomEvict(d *FaultDraw) string {
	return fmt.Sprintf("{pod: %s}", d.Pods[d.R.IntN(len(d.Pods))])
}

func setConditionAction(c *faultWorld, sc *SetCondition) func() {
	return func() {
		for _, p := range podsNamed(c.w, model.Key(sc.Namespace, sc.Pod)) {
			p.SetCondition(sc.Type, model.ConditionStatus(sc.Status))
		}
	}
}

func diskFailureAction(c *faultWorld, nf *NodeFault) func() {
	return eachNode(c, &nf.NodeRef, (*model.Node).DiskFailure)
}

func partitionAction(c *faultWorld, nf *NodeFault) func() {
	d := c.draw(nf.For)
	return eachNode(c, &nf.NodeRef, func(n *model.Node) { n.Partition(d) })
}

func nodeFailureAction(c *faultWorld, nf *NodeFault) func() {
	d := c.draw(nf.For)
	return eachNode(c, &nf.NodeRef, func(n *model.Node) { n.PowerOff(d) })
}

func shutdownAction(c *faultWorld, nf *NodeFault) func() {
	d := c.draw(nf.For)
	return func() { c.w.Node(nf.Node).Shutdown(d) }
}

// randomNodeFault draws a node fault on one of the nodes, lasting for
// d.For if the kind takes a for (timed) and d gives one.
func randomNodeFault(timed bool) func(d *FaultDraw) string {
	return func(d *FaultDraw) string {
		node := d.pick(d.Nodes...)
		if !timed || d.For == nil {
			return fmt.Sprintf("{node: %s}", node)
		}
		return fmt.Sprintf("{node: %s, for: %s}", node, d.For())
	}
}

// kubectlAction is a node action that kubectl does (cordon, uncordon),
// on each node in turn.
func kubectlAction(do func(k model.Kubectl, n *model.Node)) func(c *faultWorld, r *NodeRef) func() {
	return func(c *faultWorld, r *NodeRef) func() {
		return eachNode(c, r, func(n *model.Node) { do(c.w.Kubectl(), n) })
	}
}

// drainAction is kubectl drain of a node, or of the nodes a selector
// picks: cordoned all first, then drained one at a time.
func drainAction(c *faultWorld, r *NodeRef) func() {
	if len(r.Selector) == 0 {
		return kubectlAction(model.Kubectl.Drain)(c, r)
	}
	return func() { c.w.Kubectl().DrainAll(nodesOf(c.w, r)) }
}

func deleteNodeAction(c *faultWorld, r *NodeRef) func() {
	return eachNode(c, r, (*model.Node).Delete)
}

func taintAction(c *faultWorld, t *TaintFault) func() {
	return func() { c.w.Node(t.Node).AddTaint(model.Taint{Key: t.Key, Value: t.Value, Effect: t.Effect}) }
}

func scaleAction(c *faultWorld, sc *ScaleFault) func() {
	return func() { c.w.Workload(model.Key(sc.Namespace, sc.Workload)).Scale(int(*sc.Replicas)) }
}

func rolloutAction(c *faultWorld, ro *RolloutFault) func() {
	key := model.Key(ro.Namespace, ro.Workload)
	return func() {
		wl := c.w.Workload(key)
		wl.Rollout(withImage(wl.Template(), ro, c.behaviors[key]))
	}
}

func randomRollout(d *FaultDraw) string {
	if d.Deployment == "" {
		return ""
	}
	return fmt.Sprintf("{workload: %s, image: example/other:%d}", d.Deployment, d.R.IntN(3))
}

// podsNamed returns the live pod with this key (model.Key), or the live
// pods of the workload with this key.
func podsNamed(w *model.World, key string) []*model.Pod {
	if p := w.Pod(key); p != nil {
		if p.Deleted() {
			return nil
		}
		return []*model.Pod{p}
	}
	var out []*model.Pod
	if wl := w.Workload(key); wl != nil {
		for _, p := range wl.Pods() {
			if !p.Deleted() {
				out = append(out, p)
			}
		}
	}
	return out
}

// resizeAction resizes the container of each pod the fault names: the
// requests and limits it gives over the container's own at that moment.
func resizeAction(c *faultWorld, r *ResizeFault) func() {
	return func() {
		for _, p := range podsNamed(c.w, model.Key(r.Namespace, r.Pod)) {
			req, lim, ok := p.ContainerResources(r.Container)
			if !ok {
				continue
			}
			over := func(out *model.Resources, m map[string]Quantity) {
				if q, ok := m["cpu"]; ok {
					out.MilliCPU = q.MilliValue()
				}
				if q, ok := m["memory"]; ok {
					out.Memory = q.Value()
				}
			}
			over(&req, r.Requests)
			over(&lim, r.Limits)
			p.Resize(r.Container, req, lim)
		}
	}
}
