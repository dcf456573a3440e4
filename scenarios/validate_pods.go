package scenarios

import (
	"slices"
	"strings"

	"github.com/podsim/podsim/internal/yamlstrict"
)

// DefaultSchedulerName is the scheduler a pod names when it names none: the
// one podsim runs.
const DefaultSchedulerName = "default-scheduler"

// lostSchedulerName is what a pod naming another scheduler loses.
const lostSchedulerName = "every pod goes to the one default scheduler"

func (v *validator) podSpec(ps *PodSpec, parent any, what string) {
	what = yamlstrict.CutValue(strings.TrimSpace(what)) // "pod", not "pod ", for a pod without a name; a huge name cut
	if ps.NodeName != "" && !v.nodes[ps.NodeName] && !(len(v.s.nodes) == 0 && ps.NodeName == DefaultNodeName) {
		v.at(&ps.NodeName, "%s: nodeName %q is not a node of this scenario", what, ps.NodeName)
	}
	if ps.RestartPolicy != "" && !slices.Contains([]string{"Always", "OnFailure", "Never"}, ps.RestartPolicy) {
		v.at(&ps.RestartPolicy, "restartPolicy %q: want Always, OnFailure or Never", ps.RestartPolicy)
	}
	if ps.SchedulerName != "" && ps.SchedulerName != DefaultSchedulerName {
		file, p := v.s.locate(&ps.SchedulerName, true)
		v.s.Warnings.Add(file, p, "%s", yamlstrict.UnmodelledMessage("schedulerName", lostSchedulerName))
	}
	if g := ps.TerminationGracePeriodSeconds; g != nil && *g < 0 {
		v.at(g, "terminationGracePeriodSeconds must not be negative")
	}
	if len(ps.Containers) == 0 {
		v.at(parent, "%s: spec.containers must list at least one container", what)
	}
	v.scheduling(ps)
	v.nodeClaimFields(ps)
	v.sleepActions(ps)
	v.podKubelet(ps)
	names := map[string]bool{}
	for i := range ps.InitContainers {
		c := &ps.InitContainers[i]
		v.container(c, names, true)
	}
	for i := range ps.Containers {
		v.container(&ps.Containers[i], names, false)
	}
	for i := range ps.Tolerations {
		t := &ps.Tolerations[i]
		if t.Operator != "" && t.Operator != "Exists" && t.Operator != "Equal" {
			v.at(&t.Operator, "toleration operator %q: want Exists or Equal", t.Operator)
		}
		if t.Operator == "Exists" && t.Value != "" {
			v.at(&t.Value, "a toleration with operator Exists takes no value")
		}
	}
	for i := range ps.ReadinessGates {
		if ps.ReadinessGates[i].ConditionType == "" {
			v.at(&ps.ReadinessGates[i], "readinessGates: conditionType is required")
		}
	}
	for i := range ps.SchedulingGates {
		if ps.SchedulingGates[i].Name == "" {
			v.at(&ps.SchedulingGates[i], "schedulingGates: name is required")
		}
	}
}

func (v *validator) container(c *Container, names map[string]bool, init bool) {
	v.name(&c.Name, c, "container")
	if names[c.Name] && c.Name != "" {
		v.at(&c.Name, "duplicate container name %q", c.Name)
	}
	names[c.Name] = true
	if c.Image == "" {
		v.at(c, "container %s: image is required", c.Name)
	}
	if c.ImagePullPolicy != "" && !slices.Contains([]string{"Always", "IfNotPresent", "Never"}, c.ImagePullPolicy) {
		v.at(&c.ImagePullPolicy, "imagePullPolicy %q: want Always, IfNotPresent or Never", c.ImagePullPolicy)
	}
	v.containerRestart(c, init)
	sidecar := init && c.RestartPolicy == "Always"
	for _, r := range []map[string]Quantity{c.Resources.Requests, c.Resources.Limits} {
		for k := range r {
			if !slices.Contains(resourceNames, k) && !strings.Contains(k, "/") {
				v.atMapKey(r, k, "unknown resource %q: want cpu, memory or ephemeral-storage", k)
			}
		}
	}
	for k, lim := range c.Resources.Limits {
		if req, ok := c.Resources.Requests[k]; ok && req.MilliValue() > lim.MilliValue() {
			v.at(c, "container %s: %s request %s is more than its limit %s", c.Name, k, req, lim)
		}
	}
	probes := []struct {
		p    *Probe
		kind string
	}{{c.LivenessProbe, "livenessProbe"}, {c.ReadinessProbe, "readinessProbe"}, {c.StartupProbe, "startupProbe"}}
	for _, pr := range probes {
		if pr.p == nil {
			continue
		}
		if init && !sidecar {
			v.at(pr.p, "%s is not allowed on an init container that is not a sidecar", pr.kind)
		}
		v.probe(pr.p, pr.kind)
	}
	if c.Lifecycle != nil {
		if init && !sidecar {
			v.at(c.Lifecycle, "lifecycle hooks are not allowed on an init container that is not a sidecar")
		}
		for _, h := range []*Handler{c.Lifecycle.PostStart, c.Lifecycle.PreStop} {
			if h != nil {
				v.handler(h)
			}
		}
	}
}

func (v *validator) handler(h *Handler) int {
	n := 0
	for _, x := range []any{h.Exec, h.HTTPGet, h.TCPSocket, h.GRPC, h.Sleep} {
		if !isNilPtr(x) && !isNilNode(x) {
			n++
		}
	}
	if n != 1 {
		v.at(h, "want exactly one handler of exec, httpGet, tcpSocket, grpc or sleep; found %d", n)
	}
	return n
}

func (v *validator) probe(p *Probe, kind string) {
	v.handler(&p.Handler)
	positive := func(x *int32, field string, min int32) {
		if x != nil && *x < min {
			v.at(x, "%s.%s must be at least %d", kind, field, min)
		}
	}
	positive(p.InitialDelaySeconds, "initialDelaySeconds", 0)
	positive(p.PeriodSeconds, "periodSeconds", 1)
	positive(p.TimeoutSeconds, "timeoutSeconds", 1)
	positive(p.SuccessThreshold, "successThreshold", 1)
	positive(p.FailureThreshold, "failureThreshold", 1)
	if p.SuccessThreshold != nil && *p.SuccessThreshold != 1 && kind != "readinessProbe" {
		v.at(p.SuccessThreshold, "%s.successThreshold must be 1", kind)
	}
	if g := p.TerminationGracePeriodSeconds; g != nil {
		if kind == "readinessProbe" {
			v.at(g, "readinessProbe.terminationGracePeriodSeconds is not allowed")
		} else if *g < 1 {
			v.at(g, "%s.terminationGracePeriodSeconds must be at least 1", kind)
		}
	}
}

func (v *validator) containerRef(ps *PodSpec, pod string, c *string, parent any) {
	if ps == nil {
		return
	}
	if *c == "" {
		v.at(parent, "container is required")
		return
	}
	for _, list := range [][]Container{ps.InitContainers, ps.Containers} {
		for i := range list {
			if list[i].Name == *c {
				return
			}
		}
	}
	v.at(c, "pod %s has no container %q%s", pod, *c, containerHint(ps, *c))
}

// findContainer returns the (init) container called name, or nil.
func findContainer(ps *PodSpec, name string) *Container {
	if ps == nil {
		return nil
	}
	for _, list := range [][]Container{ps.InitContainers, ps.Containers} {
		for i := range list {
			if list[i].Name == name {
				return &list[i]
			}
		}
	}
	return nil
}
