// Package model holds Kubernetes semantics as event handlers on the sim
// engine: the core (pods, nodes, workloads, the world and its streams) and
// the part it still holds (the kubelet). Parts in packages of their
// own (model/controller/...) hear the core through World.Register;
// model/cluster assembles a whole cluster. It knows nothing of YAML, files
// or output formats: a World is built by calls, run, and read back.
package model

import (
	"slices"
	"time"

	"github.com/podsim/podsim/sim"
)

// World is a simulated cluster: nodes, pods, the kubelets and control plane
// that act on them, and the record of what happened.
type World struct {
	eng      *sim.Engine
	settings Settings
	// interrupted is RunChecked's, while it runs: long loops inside one
	// event ask it too (Interrupting).
	interrupted func() bool
	budget      uint64 // RunChecked's, while it runs (0: none): long loops stop once it is spent (Interrupting)
	// chargedFrom is changeCount when ChargeChanges was called, plus one
	// (0: changes are not charged).
	chargedFrom int
	partReads   uint64 // reads of nodes charged by parts (Pass.Read)
	cutShort    bool   // a part was told to stop in this RunChecked (Spent, Interrupting)

	nodes      []*Node
	nodeSlab   []Node // where the next nodes go (AddNode)
	nodesAdded int    // Node.id of the next node
	nodeEdits  uint64 // NodeChanges
	nodeIdx    map[string]*Node
	pods       []*Pod
	podIdx     podIndex   // by key (podindex.go)
	mem        worldSlabs // where pods, their statuses and events go (slab.go)

	reserved    bool // ReservePods made room for the workloads' pods
	otherEvents map[objectKey]*eventLog
	origins     eventOrigins // the events' sources, types and reasons, each kept once (events.go)

	sinks         []Sink
	objectSinks   []ObjectSink
	useSinks      []UseSink     // hear a pod's use of resources change (usesinks.go)
	trafficSinks  []TrafficSink // hear a Service's request rates change
	useQueue      []*Pod        // pods whose use changed this instant, for the use sinks
	trafficQueue  []*Service
	sinkFlush     sim.Timer    // tells the use and traffic sinks at the end of the instant
	currentObject ObjectChange // the object change being handed to the object sinks
	lastEvent     *Event       // the API event of the last event change
	apiEvents     int          // events that reached the API
	current       Change       // the change being handed to the sinks
	changePod     *Pod         // the pod of current, if it is a pod's own change (ChangePod)
	changeNames   *Pod         // the pod current names, if any (ChangeNamesPod)
	changeCount   int

	parts      parts      // what hears of changes (parts.go)
	schedParts schedParts // ... and the scheduler's own (schedparts.go)

	controllers workloadControllers

	workloads       []*Workload
	workloadIdx     map[string]*Workload
	kindControllers map[string]WorkloadController // by workload kind (kinds.go)

	budgets budgetIndex // PodDisruptionBudgets (pdb.go)

	priorityClasses []PriorityClass // the user's (priority.go)

	services   []*Service // in the order added (service.go)
	serviceIdx map[string]*Service
	slices     EndpointSliceReader // the EndpointSlice controller, if registered
	proxy      ServiceProxy        // kube-proxy, if registered
	memory     MemoryWatcher       // the kernel's OOM killers, if registered (memoryaccess.go)
	usageOn    bool                // EnableUsage was called
	metrics    MetricsReader       // metrics-server, if registered (metrics.go)
	shutdown   NodeShutdownManager // the kubelets' graceful node shutdown managers, if registered (nodeshutdown.go)
	kubelet    Kubelet             // the kubelets, as the core calls them (kubeletapi.go)

	autoscalers []*Autoscaler // HorizontalPodAutoscalers (autoscaler.go)
	nodePools   []*NodePool   // Karpenter's NodePools and the instance types they launch (nodepool.go)
	instTypes   []InstanceType
	past        time.Duration // the earliest time a restored object names (restore.go); 0 if none

	bootFailing map[string]bool // node groups whose new nodes never boot (World.FailNodeBoot)
}

// objectKey names an object that has no list of events of its own.
type objectKey struct{ kind, object string }

// NewCore returns an empty world whose random streams derive from seed,
// with no part registered (its Kubelet does nothing: no container runs
// until a kubelet is registered): cluster.New assembles a whole cluster.
func NewCore(seed uint64, s Settings) *World {
	w := &World{
		eng:         sim.New(seed),
		settings:    s,
		nodeIdx:     map[string]*Node{},
		otherEvents: map[objectKey]*eventLog{},

		workloadIdx: map[string]*Workload{},
	}
	w.controllers.w = w
	w.kubelet = noKubelet{}
	w.mem.condTexts.init()
	return w
}

// RegisterCoreParts registers what asks a pod's owner to sync when the
// pod changes or its owner is scaled (the informers' handlers of every
// workload controller).
func (w *World) RegisterCoreParts() { w.Register(&w.controllers) }

// Now is the current virtual time.
func (w *World) Now() time.Duration { return w.eng.Now() }

// Settings returns the world's settings.
func (w *World) Settings() Settings { return w.settings }

// Engine exposes the event engine (for statistics).
func (w *World) Engine() *sim.Engine { return w.eng }

// Run simulates until the virtual time until (inclusive).
func (w *World) Run(until time.Duration) {
	w.ReservePods()
	w.eng.Run(until)
}

// reserveMax bounds the pods ReservePods makes room for.
const reserveMax = 1 << 20

// ReservePods makes room, once, for the pods the world's ReplicaSets,
// Deployments and StatefulSets will make; the world's first run calls it
// if nothing did before. The list of pods and the index by key are sized
// for their replicas rather than grown a pod at a time (a slice grown by a
// quarter and a table that doubles leave as much again behind as garbage,
// and a batch command's collector takes little back before the run's
// peak); and the objects of each such pod (up to podObjectsReserved: the
// Pod, its status, its first events, and the kubelet's state of it and of
// its probes, Kubelet.PodsComing) come from one array each, allocated
// now: so the heap they fill is mapped before the run, where a caller may
// fault it in at once (scenarios does, internal/heapstart). Call it once
// the world is populated: its workloads say how many pods will come.
func (w *World) ReservePods() {
	if w.reserved {
		return
	}
	w.reserved = true
	n, probes := len(w.pods), 0
	for _, wl := range w.workloads {
		switch wl.Spec.Kind {
		case KindReplicaSet, KindDeployment, KindStatefulSet:
			r := max(wl.Spec.Replicas-len(wl.pods), 0) // a snapshot's are made already
			n += r
			if t := wl.Spec.Template; t != nil {
				probes += r * probesOf(t)
			}
		}
	}
	n = min(n, reserveMax)
	if n <= len(w.pods)+len(w.pods)/4 {
		return // few to come: growing costs little
	}
	m := n - len(w.pods)
	w.pods = slices.Grow(w.pods, m)
	w.podIdx.reserve(w.pods, n)
	if m > podObjectsReserved {
		probes = int(int64(probes) * podObjectsReserved / int64(m))
		m = podObjectsReserved
	}
	w.mem.pods.reserve(m)
	w.mem.statuses.reserve(m)
	w.mem.eventLists.reserve(eventLogRoom * (m + len(w.workloads)))
	w.mem.events.reserve(eventsReserved * m)
	w.kubelet.PodsComing(m, probes)
}

// probesOf counts the probes of t's containers (each a probe worker).
func probesOf(t *PodSpec) int {
	n := 0
	for _, cs := range [...][]ContainerSpec{t.InitContainers, t.Containers} {
		for _, c := range cs {
			for _, p := range [...]*ProbeSpec{c.Liveness, c.Readiness, c.Startup} {
				if p != nil {
					n++
				}
			}
		}
	}
	return n
}

// podObjectsReserved bounds the pods whose objects ReservePods allocates
// at once (about 1.5 KB a pod): a larger world's heap is readied as a
// whole (internal/hugeheap), and tens of megabytes allocated before its
// run would bring its collections forward (the envelope's: one more, of
// its whole heap, and 11 MB more at its peak).
const podObjectsReserved = 8192

// eventsReserved are the events ReservePods makes room for per pod: a
// running pod's first (its controller's SuccessfulCreate, Scheduled, then
// its container's Pulled, Created and Started); eventLogRoom is the room of
// each log's list, the pod's and its controller's (events.go takes four).
const (
	eventsReserved = 5
	eventLogRoom   = 4
)

// Observe runs fn at time t after every change at or before t.
func (w *World) Observe(t time.Duration, fn func()) { w.eng.At(t, sim.Late, fn) }

// Schedule runs fn at time t, among the world's ordinary events (faults).
func (w *World) Schedule(t time.Duration, fn func()) { w.eng.At(t, sim.Normal, fn) }

// Nodes returns every node in the order added.
func (w *World) Nodes() []*Node { return w.nodes }

// Node returns the node called name, or nil.
func (w *World) Node(name string) *Node { return w.nodeIdx[name] }

// Pods returns every pod ever created, deleted ones included, in creation order.
func (w *World) Pods() []*Pod { return w.pods }

// Pod returns the pod with this key (possibly deleted), or nil: its name
// in the default namespace, namespace/name in another (see Key).
func (w *World) Pod(key string) *Pod { return w.podIdx.get(w.pods, key) }
