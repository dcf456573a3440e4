package manifests

import (
	"regexp"
	"sync"
	"time"

	"github.com/podsim/podsim/internal/yamlstrict"
	"github.com/podsim/podsim/scenarios"
	"go.yaml.in/yaml/v3"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// nodeObject is the shape of a v1 Node as podsim reads it, for the
// checker's warnings: a Node becomes a scenario's node entry
// (scenarios.Node), whose fields are flat.
type nodeObject struct {
	APIVersion string               `yaml:"apiVersion"`
	Kind       string               `yaml:"kind"`
	Metadata   scenarios.ObjectMeta `yaml:"metadata"`
	Spec       nodeSpec             `yaml:"spec"`
	Status     nodeStatus           `yaml:"status"`
}

type nodeSpec struct {
	Unschedulable bool              `yaml:"unschedulable"`
	Taints        []scenarios.Taint `yaml:"taints"`
}

type nodeStatus struct {
	Capacity    map[string]scenarios.Quantity `yaml:"capacity"`
	Allocatable map[string]scenarios.Quantity `yaml:"allocatable"`
	Conditions  []nodeCondition               `yaml:"conditions"`
}

type nodeCondition struct {
	Type   string `yaml:"type"`
	Status string `yaml:"status"`
}

// The fields of a Node that change nothing podsim simulates.
func init() { yamlstrict.Declare(nodeFields) }

func nodeFields() {
	yamlstrict.Ignore[nodeSpec]("podCIDR", "podCIDRs", "providerID", "externalID", "configSource",
		"podPreemptionPolicy") // alpha in 1.37 (InPlacePodVerticalScalingSchedulerPreemption): no in-place resizes
	yamlstrict.Ignore[nodeStatus]("nodeInfo", "addresses", "daemonEndpoints", "images", "volumesInUse",
		"volumesAttached", "config", "phase", "runtimeHandlers", "features", "declaredFeatures")
	yamlstrict.Ignore[nodeCondition]("reason", "message", "lastHeartbeatTime", "lastTransitionTime")
}

// node converts a Node: its name, labels, taints, spec.unschedulable,
// status.capacity and allocatable (the scheduler counts allocatable),
// and whether it was Ready. Its conditions' heartbeats date the snapshot.
func (c *converter) node(o *corev1.Node) *scenarios.Node {
	out := &scenarios.Node{Name: o.Name, Labels: o.Labels}
	out.CreationTimestamp = c.stamp(&o.CreationTimestamp)
	for _, t := range o.Spec.Taints {
		out.Taints = append(out.Taints, scenarios.Taint{Key: t.Key, Value: t.Value, Effect: string(t.Effect)})
	}
	out.Unschedulable = o.Spec.Unschedulable
	out.Capacity = c.resources(o.Status.Capacity, out)
	out.Allocatable = c.resources(o.Status.Allocatable, out)
	ready := false
	for _, cd := range o.Status.Conditions {
		c.saw(cd.LastHeartbeatTime)
		c.saw(cd.LastTransitionTime)
		if cd.Type == corev1.NodeReady {
			ready = cd.Status == corev1.ConditionTrue
		}
	}
	out.NotReady = !ready && len(o.Status.Conditions) > 0
	return out
}

// resources converts a node's capacity or allocatable: the resources
// podsim counts (cpu, memory, pods); others (ephemeral-storage,
// hugepages, devices) are left out.
func (c *converter) resources(in corev1.ResourceList, at any) map[string]scenarios.Quantity {
	var out map[string]scenarios.Quantity
	for _, name := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory, corev1.ResourcePods} {
		q, ok := in[name]
		if !ok {
			continue
		}
		v, err := scenarios.ParseQuantity(q.String())
		if err != nil {
			c.errs = append(c.errs, convError{at, string(name) + " " + q.String() + ": " + err.Error()})
			continue
		}
		if out == nil {
			out = map[string]scenarios.Quantity{}
		}
		out[string(name)] = v
	}
	return out
}

// saw notes a time the snapshot holds: the latest one dates it.
func (c *converter) saw(t metav1.Time) {
	if !t.IsZero() && t.After(c.latest) {
		c.latest = t.UTC()
	}
}

// stamp is a time as RFC 3339 ("" for none), noted by saw.
func (c *converter) stamp(t *metav1.Time) string {
	if t == nil || t.IsZero() {
		return ""
	}
	c.saw(*t)
	return t.UTC().Format(time.RFC3339)
}

// takenLine is the comment podsim snapshot starts its file with: where
// and when (the API server's Date) the snapshot was taken.
var takenLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^# podsim snapshot of \S+ at (\S+)$`) })

// takenAt dates objs by the comment podsim snapshot writes before a
// document, if it has one: the instant the server answered, later than
// any time its objects hold.
func takenAt(doc *yaml.Node, objs *scenarios.Objects) {
	comment := doc.HeadComment // or, as yaml.v3 reads it, its first key's
	if root := doc.Content[0]; len(root.Content) > 0 {
		comment += "\n" + root.HeadComment + "\n" + root.Content[0].HeadComment
	}
	m := takenLine().FindStringSubmatch(comment)
	if m == nil {
		return
	}
	if t, err := time.Parse(time.RFC3339, m[1]); err == nil && t.After(objs.Instant) {
		objs.Instant = t.UTC()
	}
}
