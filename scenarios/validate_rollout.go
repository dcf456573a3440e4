package scenarios

import (
	"math"

	"github.com/podsim/podsim/internal/yamlstrict"
	"github.com/podsim/podsim/model"
)

// rollingFields checks minReadySeconds (not on a Job or CronJob; simulated
// on a ReplicaSet or Deployment, accepted with a warning on a DaemonSet or
// StatefulSet), and a Deployment's strategy and progressDeadlineSeconds as
// the API server validates them (pkg/apis/apps/validation:
// ValidateDeploymentSpec, ValidateRollingUpdateDeployment), after its
// defaults.
func (v *validator) rollingFields(w *Workload) {
	sp := &w.Spec
	if m := sp.MinReadySeconds; m != nil {
		switch {
		case w.Kind == "Job" || w.Kind == kindCronJob:
			v.atKey(m, "a %s has no minReadySeconds", w.Kind)
		case *m < 0:
			v.at(m, "minReadySeconds must not be negative")
		case w.Kind == "DaemonSet" || w.Kind == kindStatefulSet:
			file, p := v.s.locate(&sp.MinReadySeconds, true)
			v.s.Warnings.Add(file, p, "%s", yamlstrict.UnmodelledMessage("minReadySeconds",
				"a "+w.Kind+"'s pod counts as available as soon as it is Ready"))
		}
	}
	if w.Kind != "Deployment" {
		for _, f := range []any{sp.Strategy, sp.ProgressDeadlineSeconds} {
			if !isNilPtr(f) {
				v.atKey(f, "only a Deployment has strategy and progressDeadlineSeconds")
			}
		}
		return
	}
	deadline, at := int32(600), any(sp.ProgressDeadlineSeconds)
	if d := sp.ProgressDeadlineSeconds; d != nil {
		deadline = *d
	}
	if m := sp.MinReadySeconds; deadline < 0 {
		v.at(at, "progressDeadlineSeconds must not be negative")
	} else if m != nil && *m >= 0 && deadline <= *m {
		if sp.ProgressDeadlineSeconds == nil {
			at = m
		}
		v.at(at, "progressDeadlineSeconds (%d, the default if not given) must be greater than minReadySeconds (%d)", deadline, *m)
	}
	st := sp.Strategy
	if st == nil {
		return
	}
	switch st.Type {
	case "", "RollingUpdate":
	case "Recreate":
		if st.RollingUpdate != nil {
			v.atKey(&st.RollingUpdate, "rollingUpdate may not be given when the strategy type is Recreate")
		}
		return
	default:
		v.at(&st.Type, "strategy type %q: want RollingUpdate or Recreate", st.Type)
		return
	}
	ru := st.RollingUpdate
	if ru == nil {
		return
	}
	surge, unavailable := IntOrPercent{Value: 25, Percent: true}, IntOrPercent{Value: 25, Percent: true}
	for _, f := range []struct {
		x    *IntOrPercent
		out  *IntOrPercent
		name string
	}{{ru.MaxSurge, &surge, "maxSurge"}, {ru.MaxUnavailable, &unavailable, "maxUnavailable"}} {
		switch x := f.x; {
		case x == nil:
		case x.Value < 0:
			v.at(x, "%s %s must not be negative", f.name, x)
		case x.Value > math.MaxInt32:
			v.at(x, "%s %s is out of range (at most %d)", f.name, x, math.MaxInt32)
		case x.Percent && x.Value > 100 && x == ru.MaxUnavailable:
			v.at(x, "maxUnavailable %s must not be greater than 100%%", x)
		default:
			*f.out = *x
		}
	}
	// An undecodable value is zero: its own error says enough.
	undecoded := func(x *IntOrPercent) bool { return x != nil && v.s.undecoded[v.s.pos.Of(x)] }
	if surge.Value == 0 && unavailable.Value == 0 && !undecoded(ru.MaxSurge) && !undecoded(ru.MaxUnavailable) {
		v.at(ru, "maxUnavailable may not be 0 when maxSurge is 0: the rollout could never move")
	}
}

// behaviorImage checks a behaviour for one image: some container of the
// pod runs that image, from the start or after a rollout fault.
func (v *validator) behaviorImage(b *Behavior, faults []Fault) {
	if b.Image == "" || b.Pod == "" {
		return
	}
	c := findContainer(v.podTemplate(&b.Pod, b.Namespace, true), b.Container)
	if c == nil || c.Image == b.Image {
		return
	}
	for i := range faults {
		if ro := faults[i].Rollout; ro != nil && ro.Workload == b.Pod && namespaceOf(ro.Namespace) == namespaceOf(b.Namespace) &&
			ro.Image == b.Image && v.rolloutContainer(ro) == b.Container {
			return
		}
	}
	v.at(&b.Image, "container %s of %s never runs image %q: it has %q, and no rollout fault gives it %q", b.Container, b.Pod, b.Image, c.Image, b.Image)
}

// rolloutContainer names the container a rollout fault changes: the one it
// names, else the template's only container ("" if it has several).
func (v *validator) rolloutContainer(ro *RolloutFault) string {
	if ro.Container != "" {
		return ro.Container
	}
	if w := v.workloads[model.Key(ro.Namespace, ro.Workload)]; w != nil && len(w.Spec.Template.Spec.Containers) == 1 {
		return w.Spec.Template.Spec.Containers[0].Name
	}
	return ""
}

// rollout checks a rollout fault: a Deployment, an image, and a container
// of its template (which may go unnamed when the template has only one).
// The new pods count towards the scenario's pods.
func (v *validator) rollout(ro *RolloutFault) {
	v.namespace(&ro.Namespace)
	w := v.workloads[model.Key(ro.Namespace, ro.Workload)]
	switch {
	case ro.Workload == "":
		v.at(ro, "rollout: workload is required")
	case w == nil:
		v.at(&ro.Workload, "no workload called %q%s%s", ro.Workload, inNamespace(ro.Namespace), v.hint(ro.Workload, ro.Namespace, false))
	case w.Kind != "Deployment":
		v.at(&ro.Workload, "%q is a %s: only a Deployment rolls out a new template", ro.Workload, w.Kind)
	}
	if ro.Image == "" {
		v.at(ro, "rollout: image is required")
	}
	if w == nil || w.Kind != "Deployment" {
		return
	}
	ps := &w.Spec.Template.Spec
	switch {
	case ro.Container != "":
		v.containerRef(ps, ro.Workload, &ro.Container, ro)
	case len(ps.Containers) != 1:
		v.at(ro, "rollout: workload %s has %d containers: name one (container: ...)", ro.Workload, len(ps.Containers))
	}
	replicas := 1
	if w.Spec.Replicas != nil {
		replicas = int(max(*w.Spec.Replicas, 0))
	}
	v.addPods(ro, replicas, &w.Spec.Template)
}
