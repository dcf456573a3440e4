package model

import "fmt"

// Preemption policies of a PriorityClass or pod.
const (
	PreemptLowerPriority = "PreemptLowerPriority"
	PreemptNever         = "Never"
)

// PriorityClass is a scheduling.k8s.io/v1 PriorityClass.
type PriorityClass struct {
	Name             string
	Value            int32
	GlobalDefault    bool
	PreemptionPolicy string // "": PreemptLowerPriority
	Description      string
}

// HighestUserDefinablePriority is the highest value of a PriorityClass a
// user may create; the system classes sit above it
// (pkg/apis/scheduling/types.go).
const HighestUserDefinablePriority = 1000000000

// SystemPriorityClasses are the classes the API server creates
// (pkg/apis/scheduling/types.go, SystemPriorityClasses).
var SystemPriorityClasses = []PriorityClass{
	{Name: "system-node-critical", Value: 2000001000},
	{Name: "system-cluster-critical", Value: 2000000000},
}

// ResolvePriority is the Priority admission plugin at pod creation
// (plugin/pkg/admission/priority/admission.go): the pod's priority and
// preemption policy from its priorityClassName, or from the global default
// class (the lowest value if several), or 0 and PreemptLowerPriority. A
// priority or preemption policy written in the pod spec must equal the
// computed one. classes are the user's; the system classes are added.
func ResolvePriority(classes []PriorityClass, className string, priority *int32, policy string) (int32, string, error) {
	var value int32
	computed := ""
	if className == "" {
		var def *PriorityClass
		for i := range classes {
			if c := &classes[i]; c.GlobalDefault && (def == nil || c.Value < def.Value) {
				def = c
			}
		}
		if def != nil {
			value, computed = def.Value, def.policy()
		}
	} else {
		c, ok := findPriorityClass(classes, className)
		if !ok {
			return 0, "", fmt.Errorf("no PriorityClass with name %s was found", className)
		}
		value, computed = c.Value, c.policy()
	}
	if priority != nil && *priority != value {
		return 0, "", fmt.Errorf("the integer value of priority (%d) must not be provided in pod spec; priority admission controller computed %d from the given PriorityClass name", *priority, value)
	}
	if computed != "" && policy != "" && policy != computed {
		return 0, "", fmt.Errorf("the string value of PreemptionPolicy (%s) must not be provided in pod spec; priority admission controller computed %s from the given PriorityClass name", policy, computed)
	}
	if computed == "" {
		computed = policy
	}
	if computed == "" {
		computed = PreemptLowerPriority
	}
	return value, computed, nil
}

func findPriorityClass(classes []PriorityClass, name string) (PriorityClass, bool) {
	for _, list := range [][]PriorityClass{classes, SystemPriorityClasses} {
		for _, c := range list {
			if c.Name == name {
				return c, true
			}
		}
	}
	return PriorityClass{}, false
}

// policy is the class's preemption policy with the API's default.
func (c *PriorityClass) policy() string {
	if c.PreemptionPolicy == "" {
		return PreemptLowerPriority
	}
	return c.PreemptionPolicy
}

// AddPriorityClass creates a PriorityClass; pods created afterwards may
// name it (ResolvePriority's checks are the caller's).
func (w *World) AddPriorityClass(c PriorityClass) {
	w.priorityClasses = append(w.priorityClasses, c)
	w.object(ObjectChange{Kind: ObjectPriorityClass, Op: ObjectAdded, Class: &w.priorityClasses[len(w.priorityClasses)-1]})
}

// admitPriority sets p's priority and preemption policy at creation; a pod
// admission would refuse gets priority 0 (a scenario is validated first).
func (w *World) admitPriority(p *Pod) {
	s := p.Spec
	prio, policy, err := ResolvePriority(w.priorityClasses, s.PriorityClassName, s.Priority, s.PreemptionPolicy)
	if err != nil {
		prio, policy = 0, PreemptLowerPriority
	}
	p.priority, p.preemptNever = prio, policy == PreemptNever
}

// Priority is the pod's spec.priority, as admission computed it.
func (p *Pod) Priority() int32 { return p.priority }

// PreemptionPolicy is the pod's spec.preemptionPolicy, as admission
// computed it.
func (p *Pod) PreemptionPolicy() string {
	if p.preemptNever {
		return PreemptNever
	}
	return PreemptLowerPriority
}

// PriorityClasses returns the PriorityClasses created in the world (not
// the system ones), in order.
func (w *World) PriorityClasses() []PriorityClass { return w.priorityClasses }

// NominatedNodeName is the pod's status.nominatedNodeName: the node
// preemption made room on, while it waits for the victims to go.
func (p *Pod) NominatedNodeName() string {
	if n := p.w.nominatedNode(p); n != nil {
		return n.Name
	}
	return ""
}
