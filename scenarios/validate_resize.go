package scenarios

import (
	"github.com/podsim/podsim/model"
)

var (
	resizeResources = []string{"cpu", "memory"}
	resizePolicies  = []string{"NotRequired", "RestartContainer"}
)

// resizePolicies checks each container's resizePolicy as ValidatePodSpec
// does (pkg/apis/core/validation: validateResizePolicy): cpu or memory,
// each once, NotRequired or RestartContainer, only NotRequired in a pod
// whose restartPolicy is Never, and none on an init container that is not
// a sidecar.
func (v *validator) resizePolicies(ps *PodSpec) {
	check := func(c *Container, init bool) {
		if len(c.ResizePolicy) == 0 {
			return
		}
		if init && c.RestartPolicy != "Always" {
			v.atKey(&c.ResizePolicy, "resizePolicy may not be set on an init container that is not a sidecar")
		}
		seen := map[string]bool{}
		for i := range c.ResizePolicy {
			p := &c.ResizePolicy[i]
			switch {
			case p.ResourceName == "":
				v.at(p, "resizePolicy: resourceName is required")
			case p.ResourceName != "cpu" && p.ResourceName != "memory":
				v.at(&p.ResourceName, "resizePolicy resourceName %q: want cpu or memory%s", p.ResourceName, suggestion(p.ResourceName, resizeResources))
			case seen[p.ResourceName]:
				v.at(&p.ResourceName, "resizePolicy: duplicate resourceName %q", p.ResourceName)
			}
			seen[p.ResourceName] = true
			switch {
			case p.RestartPolicy == "":
				v.at(p, "resizePolicy: restartPolicy is required")
			case p.RestartPolicy != "NotRequired" && p.RestartPolicy != "RestartContainer":
				v.at(&p.RestartPolicy, "resizePolicy restartPolicy %q: want NotRequired or RestartContainer%s", p.RestartPolicy, suggestion(p.RestartPolicy, resizePolicies))
			case p.RestartPolicy == "RestartContainer" && ps.RestartPolicy == "Never":
				v.at(&p.RestartPolicy, "resizePolicy restartPolicy must be NotRequired when the pod's restartPolicy is Never")
			}
		}
	}
	for i := range ps.InitContainers {
		check(&ps.InitContainers[i], true)
	}
	for i := range ps.Containers {
		check(&ps.Containers[i], false)
	}
}

// resizeFault checks a resize: a container of the pod (a regular one or a
// sidecar), cpu and memory only, at least one value, and no request above
// its limit among those it gives.
func (v *validator) resizeFault(r *ResizeFault) {
	if r.Pod == "" {
		v.at(r, "resize: pod is required")
		return
	}
	v.namespace(&r.Namespace)
	ps := v.podTemplate(&r.Pod, r.Namespace, true)
	v.containerRef(ps, r.Pod, &r.Container, r)
	if c := findContainer(ps, r.Container); c != nil && c.RestartPolicy != "Always" && isInitContainer(ps, c) {
		v.at(&r.Container, "resize: %s is an init container that is not a sidecar: only containers and sidecars can be resized", r.Container)
	}
	if len(r.Requests)+len(r.Limits) == 0 {
		v.at(r, "resize: give requests or limits (cpu, memory)")
	}
	for _, m := range []map[string]Quantity{r.Requests, r.Limits} {
		for k, q := range m {
			if k != "cpu" && k != "memory" {
				v.atMapKey(m, k, "resize: only cpu and memory can be resized, not %q%s", k, suggestion(k, resizeResources))
			} else if q.MilliValue() < 0 {
				v.atMapKey(m, k, "resize: %s must not be negative", k)
			}
		}
	}
	for k, lim := range r.Limits {
		if req, ok := r.Requests[k]; ok && req.MilliValue() > lim.MilliValue() {
			v.at(r, "resize: %s request %s is more than its limit %s", k, req, lim)
		}
	}
}

// isInitContainer reports whether c is one of ps's init containers.
func isInitContainer(ps *PodSpec, c *Container) bool {
	for i := range ps.InitContainers {
		if &ps.InitContainers[i] == c {
			return true
		}
	}
	return false
}

// resizePolicy is a container's resizePolicy in the model's terms.
func resizePolicy(c *Container) model.ResizePolicy {
	var out model.ResizePolicy
	for _, p := range c.ResizePolicy {
		r := model.ResizeNotRequired
		if p.RestartPolicy == "RestartContainer" {
			r = model.ResizeRestartContainer
		}
		switch p.ResourceName {
		case "cpu":
			out.CPU = r
		case "memory":
			out.Memory = r
		}
	}
	return out
}
