package model

import (
	"math"
	"time"
)

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
// What most pods never have sits behind two pointers (podOpts, podMore),
// and its small fields sit together at the end, so that it has no padding.
type Pod struct {
	w         *World
	Name      string
	Namespace string
	Labels    map[string]string
	Spec      *PodSpec
	Node      *Node
	CreatedAt time.Duration
	// Annotations are metadata.annotations: only node autoscalers read
	// them (karpenter.sh/do-not-disrupt, cluster-autoscaler's safe-to-evict).
	Annotations map[string]string

	owner    *Workload
	opts     *podOpts // its options and key, nil if it has none and is in the default namespace
	more     *podMore // the rarely set fields, nil until one is (moreState)
	requests Resources

	statuses  []ContainerStatus // status.initContainerStatuses then status.containerStatuses (newStatus)
	startTime time.Duration     // status.startTime, if started
	phase     Phase             // status.phase
	phaseLog  uint64            // the phases taken, in order, while more.phases is nil: 4 bits each (logPhase)
	conds     []podCond         // status.conditions (podconds.go)

	events eventLog // about the pod, in order of first occurrence

	id           int32  // see ID
	priority     int32  // spec.priority, from admission (priority.go)
	condGen      uint32 // the count of condition changes (ConditionGen)
	ninit        uint16 // the init containers' statuses at the head of statuses
	ip           uint16 // status.podIP as its number in the world's addresses (podip.go), 0 for none
	sandbox      bool   // the kubelet has set the pod up
	deleting     bool   // deletionTimestamp is set
	deleted      bool   // gone from the API
	superseded   bool   // a later pod took its key: events about it go to that pod's log (Pod.eventLog)
	useQueued    bool   // in World.useQueue (usesinks.go)
	preemptNever bool   // spec.preemptionPolicy Never, from admission
	started      bool   // startTime is set
	readyTrue    bool   // its Ready condition is True (ready): read without its conditions, which at 100,000 pods are seldom in the cache
}

// podOpts are the parts of a pod's PodOptions that most pods have none
// of, and its key if it is not its name.
type podOpts struct {
	key             string // Key(Namespace, Name)
	tolerations     []Toleration
	schedulingGates []string
	affinityNode    string // see PodOptions
}

// podMore are the fields of a pod that few pods ever set: its deletion,
// status.reason and message, a long list of phases, its String.
type podMore struct {
	deletedAt     time.Duration
	deadline      time.Duration // while deleting: when the grace period ends (deletionTimestamp)
	deletionGrace time.Duration // while deleting: deletionGracePeriodSeconds
	reason        string        // status.reason, e.g. Evicted
	message       string        // status.message
	phases        []Phase       // the phases taken, once phaseLog cannot hold them
	fullName      string        // String(), built once
	supersedes    *Pod          // the pod whose key it took (Pod.Supersedes)
}

// noOpts are the options of a pod that has none, in the default namespace.
var noOpts podOpts

// options returns p's podOpts (noOpts if it has none): read them only.
func (p *Pod) options() *podOpts {
	if p.opts == nil {
		return &noOpts
	}
	return p.opts
}

// Supersedes is the pod whose key p took, made before it with the same
// namespace and name (nil if none): the key's pod until p was made.
func (p *Pod) Supersedes() *Pod {
	if p.more == nil {
		return nil
	}
	return p.more.supersedes
}

// moreState returns p.more, made if p has none yet.
func (p *Pod) moreState() *podMore {
	if p.more == nil {
		p.more = new(podMore)
	}
	return p.more
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
	*p = Pod{w: w, Name: name, Namespace: ns, Labels: o.Labels, Annotations: o.Annotations, Spec: spec, CreatedAt: w.Now(), owner: owner,
		requests: spec.Requests()}
	if key := Key(ns, name); key != name || len(o.Tolerations)+len(o.SchedulingGates) != 0 || o.affinityNode != "" {
		p.opts = &podOpts{key: key, tolerations: o.Tolerations, schedulingGates: o.SchedulingGates, affinityNode: o.affinityNode}
	}
	if len(w.pods) >= math.MaxInt32 {
		panic("model: more than 2^31-1 pods")
	}
	p.id = int32(len(w.pods))
	p.newStatus()
	w.kubelet.PodCreated(p)
	w.admitPriority(p)
	w.pods = append(w.pods, p)
	if old := w.podIdx.put(w.pods, p); old != nil {
		old.superseded = true
		p.moreState().supersedes = old
	}
	w.object(ObjectChange{Kind: ObjectPod, Op: ObjectAdded, Pod: p})
	w.matchBudgets(p)
	w.podAdded(p)
	return p
}

// bind places the pod on n; its kubelet takes over.
func (p *Pod) bind(n *Node) {
	p.Node = n
	n.pods = append(n.pods, p)
	if !p.terminal() {
		n.hold(p)
		n.watchMemory(p)
	}
	p.setCondition(PodScheduled, True, "", "")
	p.w.podBound(p)
	p.w.kubelet.Bound(p)
}

// ID numbers the pods in the order created, from 0, deleted ones
// included: parts keep their state of a pod in slices indexed by it.
func (p *Pod) ID() int { return int(p.id) }

// Phase is the pod's current phase.
func (p *Pod) Phase() Phase { return p.phase }

// terminal is p.Phase().Terminal().
func (p *Pod) terminal() bool { return p.phase.Terminal() }

// Phases lists every distinct phase the pod took, in order: a new slice
// but for a pod of many phases.
func (p *Pod) Phases() []Phase {
	if p.more != nil && p.more.phases != nil {
		m := p.more.phases
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
// and ph is one of phaseCodes, else to more.phases.
func (p *Pod) logPhase(ph Phase) {
	if p.more == nil || p.more.phases == nil {
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
		p.moreState().phases = more
	}
	p.more.phases = append(p.more.phases, ph)
}

// Tolerations returns the pod's own tolerations (not the defaults the
// node controller grants, see tolerationFor); shared, never changed.
func (p *Pod) Tolerations() []Toleration { return p.options().tolerations }

// Terminating reports whether the pod has a deletion timestamp.
func (p *Pod) Terminating() bool { return p.deleting }

// Deleted reports whether the pod is gone from the API.
func (p *Pod) Deleted() bool { return p.deleted }

// Status returns a copy of the pod's status now.
func (p *Pod) Status() PodStatus {
	var s PodStatus
	p.StatusInto(&s)
	return s
}

// StatusInto sets *s to a copy of the pod's status now, as Status returns
// it, in s's own slices where they have room: a caller that reads many
// pods' statuses one after the other allocates once.
func (p *Pod) StatusInto(s *PodStatus) {
	*s = PodStatus{Phase: p.Phase(), Conditions: p.appendConditions(s.Conditions[:0]),
		InitContainerStatuses: append(s.InitContainerStatuses[:0], p.initStatuses()...),
		ContainerStatuses:     append(s.ContainerStatuses[:0], p.regularStatuses()...),
		StartTime:             p.startTime, Started: p.started, PodIP: p.IP()}
	if p.more != nil {
		s.Reason, s.Message = p.more.reason, p.more.message
	}
}

func (p *Pod) tolerates(t Taint) bool {
	tols := p.options().tolerations
	for i := range tols {
		if tols[i].Matches(t) {
			return true
		}
	}
	return false
}

// PinnedNode is the node a DaemonSet's pod is pinned to by node affinity,
// "" if none.
func (p *Pod) PinnedNode() string { return p.options().affinityNode }

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
	from := p.Phase()
	if from == ph {
		return
	}
	ch := p.begin(ChangePhase)
	ch.From, ch.To = from, ph
	p.w.emit()
	if n := p.boundNode(); n != nil && from.Terminal() != ph.Terminal() {
		if ph.Terminal() {
			n.release(p)
		} else {
			n.hold(p)
		}
	}
	p.phase = ph
	p.logPhase(ph)
	p.w.kubelet.PhaseSet(p)
}

// String is the pod as the kubelet names it in messages: name_namespace.
// Key is the pod's key: its name in the default namespace, namespace/name
// in another (see World.Pod).
func (p *Pod) Key() string {
	if p.opts == nil {
		return p.Name
	}
	return p.opts.key
}

func (p *Pod) String() string {
	m := p.moreState()
	if m.fullName == "" {
		m.fullName = p.Name + "_" + p.Namespace
	}
	return m.fullName
}
