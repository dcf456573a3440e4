package scenarios

import (
	"slices"

	"github.com/podsim/podsim/model"
)

func (v *validator) fault(f *Fault) {
	if f.At == nil {
		v.at(f, "fault: at is required")
	} else if at, fixed := f.At.FixedValue(); fixed {
		if d := v.s.File.Spec.Duration; d != nil && d.D() > 0 && at > d.D() {
			v.at(f.At, "at %s is after the end of the run (%s)", f.At, d)
		}
	}
	n := 0
	for _, a := range []any{f.Exit, f.OOM, f.Delete, f.DiskFailure, f.Partition, f.NodeFailure, f.SetCondition,
		f.Cordon, f.Uncordon, f.Drain, f.DeleteNode, f.Taint, f.Scale, f.Rollout} {
		if !isNilPtr(a) {
			n++
		}
	}
	if n != 1 {
		v.at(f, "a fault takes exactly one of exit, oom, delete, diskFailure, partition, nodeFailure, setCondition, cordon, uncordon, drain, deleteNode, taint, scale, rollout; found %d", n)
		return
	}
	switch {
	case f.Cordon != nil:
		v.nodeRef(&f.Cordon.Node, f.Cordon)
	case f.Uncordon != nil:
		v.nodeRef(&f.Uncordon.Node, f.Uncordon)
	case f.Drain != nil:
		v.nodeRef(&f.Drain.Node, f.Drain)
	case f.DeleteNode != nil:
		v.nodeRef(&f.DeleteNode.Node, f.DeleteNode)
	case f.Taint != nil:
		t := f.Taint
		v.nodeRef(&t.Node, t)
		if t.Key == "" {
			v.at(t, "taint: key is required")
		}
		if !slices.Contains([]string{"NoSchedule", "PreferNoSchedule", "NoExecute"}, t.Effect) {
			v.at(t, "taint effect %q: want NoSchedule, PreferNoSchedule or NoExecute", t.Effect)
		}
	case f.Scale != nil:
		sc := f.Scale
		v.namespace(&sc.Namespace)
		k := model.Key(sc.Namespace, sc.Workload)
		w := v.workloads[k]
		if w == nil {
			w = v.budgets[k] // named to say it does not scale
		}
		switch {
		case sc.Workload == "":
			v.at(sc, "scale: workload is required")
		case w == nil:
			v.at(&sc.Workload, "no workload called %q%s%s", sc.Workload, inNamespace(sc.Namespace), v.elsewhere(sc.Workload, sc.Namespace))
		case w.Kind != "ReplicaSet" && w.Kind != "Deployment" && w.Kind != kindStatefulSet:
			v.at(&sc.Workload, "%q is a %s: only a ReplicaSet, a Deployment or a StatefulSet scales", sc.Workload, w.Kind)
		}
		switch {
		case sc.Replicas == nil:
			v.at(sc, "scale: replicas is required")
		case *sc.Replicas < 0:
			v.at(sc.Replicas, "replicas must not be negative")
		default:
			v.addPods(sc.Replicas, int(*sc.Replicas))
		}
	case f.Rollout != nil:
		v.rollout(f.Rollout)
	case f.Exit != nil:
		v.namespace(&f.Exit.Namespace)
		ps := v.podTemplate(&f.Exit.Pod, f.Exit.Namespace, true)
		v.containerRef(ps, f.Exit.Pod, &f.Exit.Container, f.Exit)
		if f.Exit.Code < 0 || f.Exit.Code > 255 {
			v.at(&f.Exit.Code, "code must be 0..255")
		}
	case f.OOM != nil:
		v.namespace(&f.OOM.Namespace)
		ps := v.podTemplate(&f.OOM.Pod, f.OOM.Namespace, true)
		v.containerRef(ps, f.OOM.Pod, &f.OOM.Container, f.OOM)
	case f.Delete != nil:
		if f.Delete.Pod == "" {
			v.at(f.Delete, "delete: pod is required")
		} else {
			v.namespace(&f.Delete.Namespace)
			v.podTemplate(&f.Delete.Pod, f.Delete.Namespace, true)
		}
		if g := f.Delete.GracePeriodSeconds; g != nil && *g < 0 {
			v.at(g, "gracePeriodSeconds must not be negative")
		}
	case f.SetCondition != nil:
		sc := f.SetCondition
		if sc.Pod == "" {
			v.at(sc, "setCondition: pod is required")
		} else {
			v.namespace(&sc.Namespace)
			v.podTemplate(&sc.Pod, sc.Namespace, true)
		}
		if sc.Type == "" {
			v.at(sc, "setCondition: type is required")
		}
		if !slices.Contains([]string{"True", "False", "Unknown"}, sc.Status) {
			v.at(sc, "setCondition: status must be \"True\", \"False\" or \"Unknown\"")
		}
	default:
		for _, nf := range []*NodeFault{f.DiskFailure, f.Partition, f.NodeFailure} {
			if nf == nil {
				continue
			}
			if !v.nodeRef(&nf.Node, nf) {
				continue
			}
			if nf.For != nil {
				if d, fixed := nf.For.FixedValue(); fixed && d <= 0 {
					v.at(nf.For, "for must be positive")
				}
			}
			if nf == f.DiskFailure && nf.For != nil {
				v.atKey(nf.For, "a dead disk does not come back: diskFailure takes no for")
			}
		}
	}
}
