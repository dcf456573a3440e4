package scenarios

import (
	"slices"

	"github.com/podsim/podsim/model"
)

// fault checks a fault: its time, exactly one action (of faultKinds), and
// that action by its kind's checks.
func (v *validator) fault(f *Fault) {
	if f.At == nil {
		v.at(f, "fault: at is required")
	} else if at, fixed := f.At.FixedValue(); fixed {
		if d := v.s.File.Spec.Duration; d != nil && d.D() > 0 && at > d.D() {
			v.at(f.At, "at %s is after the end of the run (%s)", f.At, d)
		}
	}
	n := 0
	var kind FaultKind
	for _, k := range faultKinds {
		if k.in(f) {
			n++
			kind = k
		}
	}
	if n != 1 {
		v.at(f, "a fault takes exactly one of %s; found %d", faultKindList(), n)
		return
	}
	kind.validate(v, f)
}

func (v *validator) exitFault(e *ExitFault) {
	v.namespace(&e.Namespace)
	ps := v.podTemplate(&e.Pod, e.Namespace, true)
	v.containerRef(ps, e.Pod, &e.Container, e)
	if e.Code < 0 || e.Code > 255 {
		v.at(&e.Code, "code must be 0..255")
	}
}

func (v *validator) oomFault(o *ContainerRef) {
	v.namespace(&o.Namespace)
	ps := v.podTemplate(&o.Pod, o.Namespace, true)
	v.containerRef(ps, o.Pod, &o.Container, o)
}

func (v *validator) deleteFault(d *DeleteFault) {
	if d.Pod == "" {
		v.at(d, "delete: pod is required")
	} else {
		v.namespace(&d.Namespace)
		v.podTemplate(&d.Pod, d.Namespace, true)
	}
	if g := d.GracePeriodSeconds; g != nil && *g < 0 {
		v.at(g, "gracePeriodSeconds must not be negative")
	}
}

func (v *validator) evictFault(e *EvictFault) {
	if e.Pod == "" {
		v.at(e, "evict: pod is required")
	} else {
		v.namespace(&e.Namespace)
		v.podTemplate(&e.Pod, e.Namespace, false)
	}
	if g := e.GracePeriodSeconds; g != nil && *g < 0 {
		v.at(g, "gracePeriodSeconds must not be negative")
	}
}

// createFault checks a create fault's file entry (its manifests are read
// and checked on their own, readCreates) and makes its objects known to
// the expectations and faults after it; a name the scenario has already
// is refused, as the API refuses a create of it.
func (v *validator) createFault(c *CreateFault) {
	switch {
	case c.File == "" && c.objects == nil:
		v.at(c, "create: file is required (a manifest file or folder)")
		return
	case c.objects == nil:
		return
	}
	for _, p := range c.objects.pods {
		key := model.Key(p.Metadata.Namespace, p.Metadata.Name)
		if v.pods[key] != nil {
			v.at(&c.File, "create %s: pod %q%s exists already", c.File, p.Metadata.Name, inNamespace(p.Metadata.Namespace))
		}
		v.pods[key] = &p.Spec
	}
	for _, w := range c.objects.workloads {
		key := model.Key(w.Metadata.Namespace, w.Metadata.Name)
		// A name is unique per kind, as in the API: an autoscaler, a
		// budget or a Service may share its controller's (what kubectl
		// autoscale makes). Each goes where the scenario's own go.
		var exists bool
		switch w.Kind {
		case kindHPA:
			exists = v.hpaNamed(key) != nil
			v.hpas = append(v.hpas, w)
		case kindPDB:
			exists = v.budgets[key] != nil
			v.budgets[key] = w
		case kindService:
			if v.services == nil {
				v.services = map[string]*Workload{}
			}
			exists = v.services[key] != nil
			v.services[key] = w
		default:
			exists = v.workloads[key] != nil
			v.workloads[key] = w
		}
		if exists {
			v.at(&c.File, "create %s: %s %q%s exists already", c.File, w.Kind, w.Metadata.Name, inNamespace(w.Metadata.Namespace))
		}
	}
}

func (v *validator) setConditionFault(sc *SetCondition) {
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
}

// nodeFault checks a partition or a node failure: a node of the scenario,
// and a positive for if fixed.
func (v *validator) nodeFault(nf *NodeFault) { v.nodeFaultOn(nf) }

// nodeFaultOn is nodeFault, reporting whether the node is one of the
// scenario's (a for is checked only then).
func (v *validator) nodeFaultOn(nf *NodeFault) bool {
	if !v.nodeTarget(&nf.NodeRef, nf) {
		return false
	}
	if nf.For != nil {
		if d, fixed := nf.For.FixedValue(); fixed && d <= 0 {
			v.at(nf.For, "for must be positive")
		}
	}
	return true
}

// diskFailureFault checks a disk failure: a node fault without for.
func (v *validator) diskFailureFault(nf *NodeFault) {
	if v.nodeFaultOn(nf) && nf.For != nil {
		v.atKey(nf.For, "a dead disk does not come back: diskFailure takes no for")
	}
}

// nodeAction checks a cordon, uncordon, drain or deleteNode.
func (v *validator) nodeAction(r *NodeRef) { v.nodeTarget(r, r) }

func (v *validator) taintFault(t *TaintFault) {
	v.nodeRef(&t.Node, t)
	if t.Key == "" {
		v.at(t, "taint: key is required")
	} else if p := keyProblem(t.Key); p != "" {
		v.at(&t.Key, "taint key %s: %s", quoteValue(t.Key), p)
	}
	if !slices.Contains([]string{"NoSchedule", "PreferNoSchedule", "NoExecute"}, t.Effect) {
		v.at(t, "taint effect %q: want NoSchedule, PreferNoSchedule or NoExecute", t.Effect)
	}
}

func (v *validator) scaleFault(sc *ScaleFault) {
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
		v.at(&sc.Workload, "no workload called %q%s%s", sc.Workload, inNamespace(sc.Namespace), v.hint(sc.Workload, sc.Namespace, false))
	case w.Kind != "ReplicaSet" && w.Kind != "Deployment" && w.Kind != kindStatefulSet:
		v.at(&sc.Workload, "%q is a %s: only a ReplicaSet, a Deployment or a StatefulSet scales", sc.Workload, w.Kind)
	}
	switch {
	case sc.Replicas == nil:
		v.at(sc, "scale: replicas is required")
	case *sc.Replicas < 0:
		v.at(sc.Replicas, "replicas must not be negative")
	default:
		var t *PodTemplate
		if w != nil {
			t = templateOf(w)
		}
		v.addPods(sc.Replicas, int(*sc.Replicas), t)
	}
}
