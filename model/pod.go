package model

import "time"

// Toleration is a pod toleration.
type Toleration struct {
	Key, Operator, Value, Effect string
	Seconds                      *int64
}

// DefaultNamespace is the namespace of an object that names none.
const DefaultNamespace = "default"

// Key names a pod or a workload uniquely in a world: its name in the
// default namespace ("" is the default), namespace/name in any other.
// World.Pod and World.Workload look objects up by key.
func Key(namespace, name string) string {
	if namespace == "" || namespace == DefaultNamespace {
		return name
	}
	return namespace + "/" + name
}

// PodOptions are the parts of a pod object beside its spec.
type PodOptions struct {
	Namespace       string // "" is DefaultNamespace
	Labels          map[string]string
	Annotations     map[string]string // metadata.annotations (what node autoscalers read of them)
	Tolerations     []Toleration
	SchedulingGates []string

	// affinityNode is the node a required node affinity on metadata.name
	// pins the pod to, as the DaemonSet controller writes it: the scheduler
	// places the pod there or nowhere.
	affinityNode string
}

// Pod is a pod object; the kubelet keeps its own state of it (its podState, in model/kubelet).
// Its flags sit together, so that it has no padding between fields.
type Pod struct {
	w         *World
	Name      string
	Namespace string
	key       string // Key(Namespace, Name)
	Labels    map[string]string
	Spec      *PodSpec
	Node      *Node
	CreatedAt time.Duration
	// Annotations are metadata.annotations: only node autoscalers read
	// them (karpenter.sh/do-not-disrupt, cluster-autoscaler's safe-to-evict).
	Annotations map[string]string

	id              int // see ID
	owner           *Workload
	tolerations     []Toleration
	schedulingGates []string
	affinityNode    string // see PodOptions
	requests        Resources
	priority        int32  // spec.priority, from admission (priority.go)
	condGen         uint32 // the count of condition changes (ConditionGen)

	status       PodStatus // the API status (newStatus); the kubelet writes it through the writers of podstatus.go
	phaseLog     uint64    // the phases taken, in order, while phaseMore is nil: 4 bits each (logPhase)
	phaseMore    *[]Phase  // the phases taken, once phaseLog cannot hold them
	conds        []podCond // status.conditions (podconds.go); status.Conditions is nil
	sandbox      bool      // the kubelet has set the pod up
	deleting     bool      // deletionTimestamp is set
	deleted      bool      // gone from the API
	superseded   bool      // a later pod took its key: events about it go to that pod's log (Pod.eventLog)
	useQueued    bool      // in World.useQueue (usesinks.go)
	preemptNever bool      // spec.preemptionPolicy Never, from admission
	deletedAt    time.Duration

	deadline      time.Duration // while deleting: when the grace period ends (deletionTimestamp)
	deletionGrace time.Duration // while deleting: deletionGracePeriodSeconds

	fullName string // String(), built once

	events eventLog // about the pod, in order of first occurrence
}

// AddPod creates a pod now. A pod whose spec names a node is bound to it at
// once; any other pod goes to the scheduler.
func (w *World) AddPod(name string, spec *PodSpec, o PodOptions) *Pod {
	return w.addPod(name, spec, o, nil)
}

// addPod creates a pod owned by owner (nil for a bare pod): the owner is
// known from the pod's first change on.
func (w *World) addPod(name string, spec *PodSpec, o PodOptions, owner *Workload) *Pod {
	p := w.newPod(name, spec, o, owner)
	p.setPhase(Pending)
	if spec.NodeName != "" {
		if n := w.nodeIdx[spec.NodeName]; n != nil {
			p.bind(n)
			return p
		}
	}
	w.podUnbound(p)
	return p
}

// newPod creates the pod object and announces it, with no phase yet.
func (w *World) newPod(name string, spec *PodSpec, o PodOptions, owner *Workload) *Pod {
	ns := o.Namespace
	if ns == "" {
		ns = DefaultNamespace
	}
	p := w.mem.pods.new()
	*p = Pod{w: w, Name: name, Namespace: ns, key: Key(ns, name), Labels: o.Labels, Annotations: o.Annotations, Spec: spec, CreatedAt: w.Now(), owner: owner,
		tolerations: o.Tolerations, schedulingGates: o.SchedulingGates, affinityNode: o.affinityNode, requests: spec.Requests()}
	p.id = len(w.pods)
	p.newStatus()
	w.kubelet.PodCreated(p)
	w.admitPriority(p)
	w.pods = append(w.pods, p)
	if old := w.podIdx[p.key]; old != nil {
		old.superseded = true
	}
	w.podIdx[p.key] = p
	w.object(ObjectChange{Kind: ObjectPod, Op: ObjectAdded, Pod: p})
	w.matchBudgets(p)
	w.podAdded(p)
	return p
}

// bind places the pod on n; its kubelet takes over.
func (p *Pod) bind(n *Node) {
	p.Node = n
	n.pods = append(n.pods, p)
	if !p.status.Phase.Terminal() {
		n.hold(p)
		n.watchMemory(p)
	}
	p.setCondition(PodScheduled, True, "", "")
	p.w.podBound(p)
	p.w.kubelet.Bound(p)
}

// ID numbers the pods in the order created, from 0, deleted ones
// included: parts keep their state of a pod in slices indexed by it.
func (p *Pod) ID() int { return p.id }

// Phase is the pod's current phase.
func (p *Pod) Phase() Phase { return p.status.Phase }

// Phases lists every distinct phase the pod took, in order: a new slice
// but for a pod of many phases.
func (p *Pod) Phases() []Phase {
	if p.phaseMore != nil {
		m := *p.phaseMore
		return m[:len(m):len(m)]
	}
	var out []Phase
	for l := p.phaseLog; l != 0; l >>= 4 {
		out = append(out, phaseCodes[l&15-1])
	}
	return out
}

// phaseCodes are the phases phaseLog holds, each as its index plus one.
var phaseCodes = [...]Phase{Pending, Running, Succeeded, Failed, Unknown}

// logPhase appends ph to the pod's phases: to phaseLog while it has room
// and ph is one of phaseCodes, else to phaseMore.
func (p *Pod) logPhase(ph Phase) {
	if p.phaseMore == nil {
		for code, known := range phaseCodes {
			if ph != known {
				continue
			}
			for i := 0; i < 64; i += 4 {
				if p.phaseLog>>i&15 == 0 {
					p.phaseLog |= uint64(code+1) << i
					return
				}
			}
		}
		more := p.Phases()
		p.phaseMore = &more
	}
	*p.phaseMore = append(*p.phaseMore, ph)
}

// Tolerations returns the pod's own tolerations (not the defaults the
// node controller grants, see tolerationFor); shared, never changed.
func (p *Pod) Tolerations() []Toleration { return p.tolerations }

// Terminating reports whether the pod has a deletion timestamp.
func (p *Pod) Terminating() bool { return p.deleting }

// Deleted reports whether the pod is gone from the API.
func (p *Pod) Deleted() bool { return p.deleted }

// Status returns a copy of the pod's status now.
func (p *Pod) Status() PodStatus {
	s := p.status
	s.Conditions = p.appendConditions(nil)
	s.InitContainerStatuses = cloneStatuses(p.status.InitContainerStatuses)
	s.ContainerStatuses = cloneStatuses(p.status.ContainerStatuses)
	return s
}

func cloneStatuses(cs []ContainerStatus) []ContainerStatus {
	if len(cs) == 0 {
		return nil
	}
	return append([]ContainerStatus(nil), cs...)
}

func (p *Pod) tolerates(t Taint) bool {
	for i := range p.tolerations {
		if p.tolerations[i].Matches(t) {
			return true
		}
	}
	return false
}

// PinnedNode is the node a DaemonSet's pod is pinned to by node affinity,
// "" if none.
func (p *Pod) PinnedNode() string { return p.affinityNode }

// Matches reports whether the toleration tolerates taint t.
func (tol *Toleration) Matches(t Taint) bool {
	if tol.Effect != "" && tol.Effect != t.Effect {
		return false
	}
	if tol.Operator == "Exists" {
		return tol.Key == "" || tol.Key == t.Key
	}
	return tol.Key == t.Key && tol.Value == t.Value
}

func (p *Pod) setPhase(ph Phase) {
	if p.status.Phase == ph {
		return
	}
	ch := p.begin(ChangePhase)
	ch.From, ch.To = p.status.Phase, ph
	p.w.emit()
	if n := p.boundNode(); n != nil && p.status.Phase.Terminal() != ph.Terminal() {
		if ph.Terminal() {
			n.release(p)
		} else {
			n.hold(p)
		}
	}
	p.status.Phase = ph
	p.logPhase(ph)
	p.w.kubelet.PhaseSet(p)
}

// String is the pod as the kubelet names it in messages: name_namespace.
// Key is the pod's key: its name in the default namespace, namespace/name
// in another (see World.Pod).
func (p *Pod) Key() string { return p.key }

func (p *Pod) String() string {
	if p.fullName == "" {
		p.fullName = p.Name + "_" + p.Namespace
	}
	return p.fullName
}
