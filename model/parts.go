package model

// Parts hear what happened in the core as kube-controller-manager's
// controllers hear their informers: a part is registered once
// (World.Register) and implements the handler interfaces below for the
// notifications it wants. The world sorts it into one list per
// notification at registration, and announces each notification to its
// list in registration order, synchronously, at the point of the change
// the handler's comment names, without allocating. A handler may change
// the world (arm a timer, record a change, delete a pod); announcements
// it causes are delivered at once, nested.
//
// Registration order is part of the model's behaviour: handlers that arm
// timers for the same instant decide the order in which those fire.
// cluster.New registers the parts in this order: taint eviction, the
// scheduler, the disruption controller, the workload controllers, the
// DaemonSet controller, the node lifecycle controller, PodGC, the CronJob
// controller, the HorizontalPodAutoscaler controller, Karpenter, the
// EndpointSlice controller, kube-proxy, metrics-server, the kubelet, the
// kernel's OOM killers, the eviction manager, the node shutdown manager.
//
// The kubelet is in none of these lists: the core calls it directly, at
// the point of a change it must act on, through the one Kubelet of the
// world (kubeletapi.go): NewCore's does nothing (kubeletnone.go), and
// registering a part that implements Kubelet replaces it (cluster.New
// registers model/kubelet's, before any pod is made).

// PodAddedHandler hears of a new pod: in the API (World.Pod finds it), its
// phase not yet set, not yet bound.
type PodAddedHandler interface{ PodAdded(p *Pod) }

// PodUnschedulableHandler hears that the scheduler found no node for p
// and parked it: its PodScheduled condition is False, reason
// Unschedulable, as node autoscalers watch for (every try, whether or not
// the message changed).
type PodUnschedulableHandler interface{ PodUnschedulable(p *Pod) }

// PodUnboundHandler hears of a new pod that names no node it can be bound
// to, after its first phase (Pending) is recorded: it waits for the
// scheduler.
type PodUnboundHandler interface{ PodUnbound(p *Pod) }

// PodBoundHandler hears that p was bound to p.Node, after its PodScheduled
// condition is set and before its kubelet hears of it.
type PodBoundHandler interface{ PodBound(p *Pod) }

// PodHeldHandler hears that p, bound to n, started holding its requests
// there (Node.Allocated counts them): it was bound not in a terminal phase.
type PodHeldHandler interface{ PodHeld(p *Pod, n *Node) }

// PodReleasedHandler hears that p stopped holding its requests on n: it
// reached a terminal phase or left the API. Node.Allocated no longer
// counts them.
type PodReleasedHandler interface{ PodReleased(p *Pod, n *Node) }

// PodConditionAddedHandler hears that p got a condition of type t for the
// first time (its later changes come as PodChanged if t is Ready).
type PodConditionAddedHandler interface {
	PodConditionAdded(p *Pod, t string)
}

// PodStatusUpdatedHandler hears that the kubelet wrote p's status (phase
// and conditions) to the API, after every change of it is recorded and
// before PodChanged for a phase change.
type PodStatusUpdatedHandler interface{ PodStatusUpdated(p *Pod) }

// PodChangedHandler hears that p's phase or readiness changed, that it got
// a deletion timestamp, or that it left the API: what the workload
// controllers, the disruption controller and PodGC watch. It comes after
// the change is recorded.
type PodChangedHandler interface{ PodChanged(p *Pod) }

// PodAdmitHandler is a part of the kubelet's admission (its
// PodAdmitHandlers): AdmitPod is asked, after the resources fit, for each
// pod not being deleted that the kubelet is about to start on its node;
// one that refuses has rejected the pod (Pod.Reject), and the handlers
// after it are not asked.
type PodAdmitHandler interface{ AdmitPod(p *Pod) bool }

// PodStoppedHandler hears that the phase of p, which the kubelet stops
// for good (Pod.KubeletStopReason), changed (Failed once none of its
// containers runs), after PodStatusUpdated and before PodChanged.
type PodStoppedHandler interface{ PodStopped(p *Pod) }

// PodTerminatingHandler hears that p got a deletion timestamp
// (Pod.Terminating), before the change is recorded.
type PodTerminatingHandler interface{ PodTerminating(p *Pod) }

// PodDeletedHandler hears that p left the API (Pod.Deleted), after a bound
// pod left its node's pods and before the change is recorded.
type PodDeletedHandler interface{ PodDeleted(p *Pod) }

// NodeAddedHandler hears of a new node, after its Ready condition is
// recorded: Ready, or NotReady while a provisioned node boots
// (World.ProvisionNode).
type NodeAddedHandler interface{ NodeAdded(n *Node) }

// NodeTaintedHandler hears that taint t is on n now: added by a user
// (Node.AddTaint) or, with effect NoExecute, set again by the node
// lifecycle controller (not-ready, unreachable) with TimeAdded now.
type NodeTaintedHandler interface{ NodeTainted(n *Node, t Taint) }

// NodeUnreachableHandler hears that n's kubelet stopped reaching the
// control plane now (powered off or cut off): its heartbeats stop.
type NodeUnreachableHandler interface{ NodeUnreachable(n *Node) }

// NodeReachableHandler hears that n's kubelet reaches the control plane
// again (powered on, healed), before it sets its Ready condition.
type NodeReachableHandler interface{ NodeReachable(n *Node) }

// NodeUntaintedHandler hears that the node lifecycle controller lifted
// n's taints with key (not-ready or unreachable, every effect): had says
// whether n had any.
type NodeUntaintedHandler interface {
	NodeUntainted(n *Node, key string, had bool)
}

// NodeReadyPostedHandler hears that n's kubelet posted a change of its
// Ready condition, after it is recorded: False (it cannot run containers)
// or True (Ready again after an outage, before NodeReady).
type NodeReadyPostedHandler interface{ NodeReadyPosted(n *Node) }

// NodeReadyHandler hears that n is Ready again after an outage, after its
// not-ready and unreachable taints were lifted (NodeUntainted).
type NodeReadyHandler interface{ NodeReady(n *Node) }

// NodeUncordonedHandler hears that n's spec.unschedulable was cleared and
// its unschedulable taint removed.
type NodeUncordonedHandler interface{ NodeUncordoned(n *Node) }

// NodeDiskFailedHandler hears that n's disk failed: its pods failed, and
// it is NotReady if reachable.
type NodeDiskFailedHandler interface{ NodeDiskFailed(n *Node) }

// NodeDeletedHandler hears that n's Node object was deleted (Node.Gone):
// it left World.Nodes; its pods are still bound to it.
type NodeDeletedHandler interface{ NodeDeleted(n *Node) }

// WorkloadScaledHandler hears that wl's replicas were set (Workload.Scale),
// after a Deployment scaled its ReplicaSets.
type WorkloadScaledHandler interface{ WorkloadScaled(wl *Workload) }

// ServiceAddedHandler hears of a new Service, after its Added object
// change.
type ServiceAddedHandler interface{ ServiceAdded(s *Service) }

// UsageEnabledHandler hears, once, that the world's use of resources was
// enabled (World.EnableUsage).
type UsageEnabledHandler interface{ UsageEnabled() }

// PodListenerChangedHandler hears that p's listener may have opened or
// closed: a process started, got SIGTERM or exited, or its node lost its
// power; after the use sinks and metrics-server heard that its use may
// have changed.
type PodListenerChangedHandler interface{ PodListenerChanged(p *Pod) }

// PodUseChangedHandler hears that p's use of CPU or memory may have
// changed now (a container started or stopped, or the rate p serves
// changed), after its node's memory check is armed and the use sinks are
// told: what metrics-server integrates CPU from.
type PodUseChangedHandler interface{ PodUseChanged(p *Pod) }

// PodUsesMemoryHandler hears that p, just bound to n (or restored there)
// and not finished, uses memory by its behaviour: n's memory in use is
// kept from now on (model/kubelet/oom), and the eviction manager watches n's
// memory.available.
type PodUsesMemoryHandler interface{ PodUsesMemory(p *Pod, n *Node) }

// parts holds the registered parts, by notification, in registration order.
type parts struct {
	podAdded          []PodAddedHandler
	podUnbound        []PodUnboundHandler
	podUnschedulable  []PodUnschedulableHandler
	explainers        []ScaleExplainer
	podBound          []PodBoundHandler
	podHeld           []PodHeldHandler
	podReleased       []PodReleasedHandler
	podConditionAdded []PodConditionAddedHandler
	podStatusUpdated  []PodStatusUpdatedHandler
	podChanged        []PodChangedHandler
	podTerminating    []PodTerminatingHandler
	podDeleted        []PodDeletedHandler
	nodeAdded         []NodeAddedHandler
	nodeTainted       []NodeTaintedHandler
	nodeUnreachable   []NodeUnreachableHandler
	nodeReachable     []NodeReachableHandler
	nodeUntainted     []NodeUntaintedHandler
	nodeReadyPosted   []NodeReadyPostedHandler
	nodeReady         []NodeReadyHandler
	nodeUncordoned    []NodeUncordonedHandler
	nodeDiskFailed    []NodeDiskFailedHandler
	nodeDeleted       []NodeDeletedHandler
	workloadScaled    []WorkloadScaledHandler
	autoscalerAdded   []AutoscalerAddedHandler
	budgetAdded       []BudgetAddedHandler
	workloadDeleted   []WorkloadDeletedHandler

	serviceAdded       []ServiceAddedHandler
	usageEnabled       []UsageEnabledHandler
	podListenerChanged []PodListenerChangedHandler
	podUseChanged      []PodUseChangedHandler
	podUsesMemory      []PodUsesMemoryHandler

	podAdmit   []PodAdmitHandler
	podStopped []PodStoppedHandler
}

// Register adds part to the parts that hear the notifications whose
// handler interfaces it implements, after the parts registered before it.
// Register before the world runs.
func (w *World) Register(part any) {
	ps := &w.parts
	listen(&ps.podAdded, part)
	listen(&ps.podUnschedulable, part)
	listen(&ps.explainers, part)
	listen(&ps.podUnbound, part)
	listen(&ps.podBound, part)
	listen(&ps.podHeld, part)
	listen(&ps.podReleased, part)
	listen(&ps.podConditionAdded, part)
	listen(&ps.podStatusUpdated, part)
	listen(&ps.podChanged, part)
	listen(&ps.podTerminating, part)
	listen(&ps.podDeleted, part)
	listen(&ps.nodeAdded, part)
	listen(&ps.nodeTainted, part)
	listen(&ps.nodeUnreachable, part)
	listen(&ps.nodeReachable, part)
	listen(&ps.nodeUntainted, part)
	listen(&ps.nodeReadyPosted, part)
	listen(&ps.nodeReady, part)
	listen(&ps.nodeUncordoned, part)
	listen(&ps.nodeDiskFailed, part)
	listen(&ps.nodeDeleted, part)
	listen(&ps.workloadScaled, part)
	listen(&ps.autoscalerAdded, part)
	listen(&ps.workloadDeleted, part)
	listen(&ps.budgetAdded, part)
	listen(&ps.serviceAdded, part)
	listen(&ps.usageEnabled, part)
	listen(&ps.podListenerChanged, part)
	listen(&ps.podUseChanged, part)
	listen(&ps.podUsesMemory, part)
	listen(&ps.podAdmit, part)
	listen(&ps.podStopped, part)
	set(&w.shutdown, part)
	set(&w.kubelet, part)
	set(&w.metrics, part)
	set(&w.slices, part)
	set(&w.proxy, part)
	set(&w.memory, part)
	w.registerSchedParts(part)
}

// listen appends part to list if it is a handler of list's kind.
func listen[T any](list *[]T, part any) {
	if h, ok := part.(T); ok {
		*list = append(*list, h)
	}
}

// set makes part the reader *dst if it is one of its kind.
func set[T any](dst *T, part any) {
	if r, ok := part.(T); ok {
		*dst = r
	}
}

func (w *World) podAdded(p *Pod) {
	for _, h := range w.parts.podAdded {
		h.PodAdded(p)
	}
}

func (w *World) podUnbound(p *Pod) {
	for _, h := range w.parts.podUnbound {
		h.PodUnbound(p)
	}
}

func (w *World) podBound(p *Pod) {
	for _, h := range w.parts.podBound {
		h.PodBound(p)
	}
}

func (w *World) podHeld(p *Pod, n *Node) {
	for _, h := range w.parts.podHeld {
		h.PodHeld(p, n)
	}
}

func (w *World) podReleased(p *Pod, n *Node) {
	for _, h := range w.parts.podReleased {
		h.PodReleased(p, n)
	}
}

func (w *World) podConditionAdded(p *Pod, t string) {
	for _, h := range w.parts.podConditionAdded {
		h.PodConditionAdded(p, t)
	}
}

func (w *World) podStatusUpdated(p *Pod) {
	for _, h := range w.parts.podStatusUpdated {
		h.PodStatusUpdated(p)
	}
}

// admitPod asks the admission handlers, in order, whether p may start.
func (w *World) admitPod(p *Pod) bool {
	for _, h := range w.parts.podAdmit {
		if !h.AdmitPod(p) {
			return false
		}
	}
	return true
}

func (w *World) podStopped(p *Pod) {
	for _, h := range w.parts.podStopped {
		h.PodStopped(p)
	}
}

func (w *World) podChanged(p *Pod) {
	for _, h := range w.parts.podChanged {
		h.PodChanged(p)
	}
}

func (w *World) podTerminating(p *Pod) {
	for _, h := range w.parts.podTerminating {
		h.PodTerminating(p)
	}
}

func (w *World) podDeleted(p *Pod) {
	for _, h := range w.parts.podDeleted {
		h.PodDeleted(p)
	}
}

func (w *World) podUnschedulable(p *Pod) {
	for _, h := range w.parts.podUnschedulable {
		h.PodUnschedulable(p)
	}
}

func (w *World) nodeAdded(n *Node) {
	for _, h := range w.parts.nodeAdded {
		h.NodeAdded(n)
	}
}

func (w *World) nodeTainted(n *Node, t Taint) {
	for _, h := range w.parts.nodeTainted {
		h.NodeTainted(n, t)
	}
}

func (w *World) nodeUnreachable(n *Node) {
	for _, h := range w.parts.nodeUnreachable {
		h.NodeUnreachable(n)
	}
}

func (w *World) nodeReachable(n *Node) {
	for _, h := range w.parts.nodeReachable {
		h.NodeReachable(n)
	}
}

func (w *World) nodeUntainted(n *Node, key string, had bool) {
	for _, h := range w.parts.nodeUntainted {
		h.NodeUntainted(n, key, had)
	}
}

func (w *World) nodeReadyPosted(n *Node) {
	for _, h := range w.parts.nodeReadyPosted {
		h.NodeReadyPosted(n)
	}
}

func (w *World) nodeReady(n *Node) {
	for _, h := range w.parts.nodeReady {
		h.NodeReady(n)
	}
}

func (w *World) nodeUncordoned(n *Node) {
	for _, h := range w.parts.nodeUncordoned {
		h.NodeUncordoned(n)
	}
}

func (w *World) nodeDiskFailed(n *Node) {
	for _, h := range w.parts.nodeDiskFailed {
		h.NodeDiskFailed(n)
	}
}

func (w *World) nodeDeleted(n *Node) {
	for _, h := range w.parts.nodeDeleted {
		h.NodeDeleted(n)
	}
}

func (w *World) workloadScaled(wl *Workload) {
	for _, h := range w.parts.workloadScaled {
		h.WorkloadScaled(wl)
	}
}
