// Package serve puts a simulated cluster behind the Kubernetes API over
// HTTP, so that kubectl, k9s and client-go controllers can list and watch
// a podsim run as it plays.
//
// A Store is a sink on the world's stream: every change bumps the
// resourceVersion (the stream's sequence number) and replaces the snapshots
// of the objects it touched. Watchers read a bounded ring of those
// versions, so any number of them cost one simulation. Handlers read only
// the store, under its lock; the world is driven by one goroutine
// (Server.Play) and never touched by a handler.
package serve

import (
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/report"
)

// collection is a kind of stored object. Several API resources can show
// one collection (core and events.k8s.io events).
type collection uint8

const (
	colNamespaces collection = iota
	colNodes
	colPods
	colEvents
	colDeployments
	colReplicaSets
	colDaemonSets
	colJobs
	colStatefulSets
	colCronJobs
	colPDBs
	colPriorityClasses
	colLeases
	numCollections
)

// meta is what every snapshot has: the object's identity and the version
// of the store that made this snapshot.
type meta struct {
	name, namespace string
	uid             string
	labels          map[string]string // never changed once in a snapshot
	created         time.Duration
	rv              uint64
}

func (m *meta) base() *meta { return m }

// snapshot is an object as it was at one resourceVersion. A snapshot never
// changes: a change makes a new one.
type snapshot interface{ base() *meta }

// owner names a pod's controller as the API shows it.
type owner struct {
	apiVersion, kind, name, uid string
}

type podSnap struct {
	meta
	view     report.PodView
	priority int32 // spec.priority and preemptionPolicy, as admission computed them
	policy   string
	owner    *owner
	deleting bool
	deadline time.Duration // deletionTimestamp, while deleting
	grace    time.Duration
}

type nodeSnap struct {
	meta
	unschedulable bool // cordoned
	capacity      model.Resources
	taints        []model.Taint
	conditions    []model.Condition
	beats         heartbeats
}

// heartbeats is when a node's kubelet is heard from: from since, when it
// (re)joined, and if silent only before until (model.Node.Heartbeats); it
// posts its status every report (nodeStatusReportFrequency) and at
// changes.
type heartbeats struct {
	since, until, report time.Duration
	silent               bool
}

// last is the last of the beats every `every` from since at or before now.
func (h *heartbeats) last(now, every time.Duration) time.Duration {
	end := now + 1
	if h.silent {
		end = min(end, h.until) // a beat due at the cut-off is lost
	}
	if end <= h.since || every <= 0 {
		return h.since
	}
	return h.since + (end-h.since-1)/every*every
}

// leaseSnap is a node's Lease in kube-node-lease, which its kubelet renews
// with each heartbeat.
type leaseSnap struct {
	meta
	node *nodeSnap
}

type eventSnap struct {
	meta
	involved            owner  // the object it is about
	involvedNS          string // "" for a node
	host                string // the node of a kubelet's event
	typ, reason, source string
	message             string
	first, last         time.Duration
	count               int
}

// workloadSnap is a Deployment, ReplicaSet, DaemonSet, StatefulSet, Job
// or CronJob. A Deployment's pods belong to its ReplicaSets, one per pod
// template it has had, as the model's deployment controller made them.
type workloadSnap struct {
	meta
	spec       *model.WorkloadSpec // the model's: read only its fields that never change
	tmpl       *model.PodSpec      // the pod template (a Deployment's changes with a rollout)
	generation int64               // metadata.generation: 1, and one more for each change of replicas or template
	replicas   int                 // spec.replicas, which kubectl scale changes
	owner      *owner              // a Deployment's ReplicaSet: the Deployment
	selector   map[string]string   // spec.selector.matchLabels
	template   map[string]string   // the pod template's labels
	status     workloadStatus      // counted from the pods (not for Deployments and ReplicaSets)
	conditions []model.Condition
	cron       *cronStatus // a CronJob's

	// A Deployment's or ReplicaSet's status as the model's controllers
	// last wrote it, and a Deployment's ReplicaSet's annotations (a
	// Deployment's revision is its newest ReplicaSet's).
	rs                         model.ReplicaStatus
	revision, desired, maxRepl int
	progressUpdated            time.Duration // a Deployment's Progressing condition's lastUpdateTime
	podOwner                   *owner        // a Deployment's ReplicaSet: what its pods name as their controller
	history                    []int         // a Deployment's ReplicaSet's revision-history annotation
}

// cronStatus is a CronJob's status as its controller last wrote it.
type cronStatus struct {
	active       []owner // references to its active Jobs
	lastSchedule time.Duration
	scheduled    bool // lastSchedule is set
	lastSuccess  time.Duration
	succeeded    bool // lastSuccess is set
}

func (c *cronStatus) equal(o *cronStatus) bool {
	return slices.Equal(c.active, o.active) && c.lastSchedule == o.lastSchedule && c.scheduled == o.scheduled &&
		c.lastSuccess == o.lastSuccess && c.succeeded == o.succeeded
}

// workloadStatus counts a workload's pods as its controller reports them.
type workloadStatus struct {
	replicas, ready, scheduled int // pods not finished nor being deleted; those Ready; those bound
	active, succeeded, failed  int // a Job's pods
	completed                  bool
	completedAt                time.Duration
}

type namespaceSnap struct{ meta }

// priorityClassSnap is a PriorityClass: one the scenario created, or one
// of the system's (model.SystemPriorityClasses), there from the start.
type priorityClassSnap struct {
	meta
	class model.PriorityClass
}

// pdbSnap is a PodDisruptionBudget: its spec, and its status as the
// disruption controller (or the Eviction API) last wrote it.
type pdbSnap struct {
	meta
	spec   model.PDBSpec
	status model.PDBStatus
	cond   model.Condition // DisruptionAllowed
}

// version is one entry of the watch history: an object's snapshot after a
// change, or its deletion.
type version struct {
	col     collection
	deleted bool
	snap    snapshot
	prev    snapshot // the object's version before, nil if it is new
}

// Store holds the API objects of one world and a bounded history of their
// changes. Change is called by the goroutine that runs the world; every
// other method may be called from any goroutine.
type Store struct {
	mu      sync.RWMutex
	rv      uint64
	now     time.Duration // the world's virtual time as of rv
	objects [numCollections]map[string]snapshot
	ring    []version // the history, oldest first from ringHead
	ringRV  []uint64  // ring[i]'s resourceVersion
	head, n int       // the ring's oldest entry and length
	dropped uint64    // the newest resourceVersion no longer in the ring
	wake    chan struct{}
	waited  atomic.Bool // a reader holds wake (since); set under the read lock

	// The run goroutine's own (no lock needed).
	w           *model.World
	reportEvery time.Duration // the kubelets' nodeStatusReportFrequency
	classSeen   int
	nodesSeen   int
	wlSeen      int
	workloads   map[string]*workloadSrc // by the workload's key (model.Key)
	budgets     []*budgetSrc            // in the order added
	moved       []*budgetSrc            // scratch: the budgets whose status moved
	rsScratch   []model.ReplicaSetState // a Deployment's ReplicaSets, read again at each look
	synced      []*workloadSrc          // the workloads whose controllers wrote their status since the last change
	nodesMoved  []string                // the nodes whose taints or heartbeats changed since the last change
	events      map[*model.Event]*eventSnap
	eventNames  int
}

// budgetSrc ties a model PodDisruptionBudget to its API object.
type budgetSrc struct {
	b    *model.DisruptionBudget
	snap *pdbSnap
}

// workloadSrc ties a model workload to its API objects.
type workloadSrc struct {
	wl    *model.Workload
	obj   *workloadSnap            // the Deployment, ReplicaSet, DaemonSet or Job
	rss   map[string]*workloadSnap // a Deployment's ReplicaSets, by name
	self  owner                    // its own reference
	owner *owner                   // what its pods name as their controller (a Deployment's: nil, their ReplicaSet)
	pods  map[string]string        // its pods' labels (the template's, and the controller's own); nil: each pod's own
	col   collection
	jobs  []*workloadSrc // a CronJob's Jobs in the API
	gone  bool           // a CronJob's Job, deleted
}

// defaultNodeStatusReport is the kubelet's nodeStatusReportFrequency when
// nodeStatusUpdateFrequency is not set: an unchanged node status is posted
// this often.
const defaultNodeStatusReport = 5 * time.Minute

// DefaultHistory is how many versions a store keeps for watchers by
// default: a watch that asks for an older one gets 410 Gone.
const DefaultHistory = 1 << 16

// NewStore returns a store of w's objects keeping history versions for
// watchers. Subscribe it to w before w is populated.
func NewStore(w *model.World, history int) *Store {
	s := &Store{w: w, reportEvery: defaultNodeStatusReport, ring: make([]version, max(history, 1)), ringRV: make([]uint64, max(history, 1)),
		wake: make(chan struct{}), workloads: map[string]*workloadSrc{}, events: map[*model.Event]*eventSnap{}}
	for i := range s.objects {
		s.objects[i] = map[string]snapshot{}
	}
	for _, ns := range []string{model.DefaultNamespace, "kube-system", "kube-public", nodeLeaseNamespace} {
		s.objects[colNamespaces][ns] = &namespaceSnap{meta{name: ns, uid: uid("Namespace", ns)}}
	}
	for _, c := range model.SystemPriorityClasses {
		s.objects[colPriorityClasses][c.Name] = &priorityClassSnap{meta{name: c.Name, uid: uid("PriorityClass", c.Name)}, c}
	}
	return s
}

// key is where the store keeps an object: model.Key of its namespace and
// name, so that the world's objects and the store's share their keys
// (a cluster-scoped object's is its name).
func (m *meta) key() string { return model.Key(m.namespace, m.name) }

// Change applies one change of the world: the objects it touched get new
// snapshots at a new resourceVersion. The budgets whose status the
// disruption controller wrote since the last change (the stream carries
// only their condition) get theirs at the same version.
func (s *Store) Change(c *model.Change) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rv++
	s.now = c.T
	s.discover()
	for _, b := range s.movedBudgets() {
		s.putBudget(b)
	}
	s.flushSynced()
	switch c.Kind {
	case model.ChangePhase, model.ChangeContainer, model.ChangeCondition, model.ChangePod:
		if p := s.w.Pod(model.Key(c.Namespace, c.Pod)); p != nil {
			s.pod(p, c)
		}
	case model.ChangeNode:
		if n := s.w.Node(c.Node); n != nil {
			s.node(n)
		}
	case model.ChangeWorkload:
		// A budget's condition is in its status, which movedBudgets saw.
		if src := s.workloads[model.Key(c.Namespace, c.Workload)]; src != nil && c.Object != model.KindPodDisruptionBudget {
			s.workloadChanged(src)
		}
	case model.ChangeEvent:
		s.event(c)
		// The scheduler nominates a pod to a node (preemption) with an
		// event of the pod's and no change of its own.
		if c.Pod != "" && c.Object == "" {
			if p := s.w.Pod(model.Key(c.Namespace, c.Pod)); p != nil {
				if old, ok := s.objects[colPods][p.Key()].(*podSnap); ok && old.view.Nominated != p.NominatedNodeName() {
					s.pod(p, c)
				}
			}
		}
		if src := s.workloads[model.Key(c.Namespace, c.Workload)]; src != nil && c.Object == model.KindCronJob && src.col == colCronJobs {
			s.cronChanged(src)
		}
		// A Deployment says it scaled a ReplicaSet, or was scaled by
		// kubectl scale (a ReplicaSet's pods change at once).
		if src := s.workloads[model.Key(c.Namespace, c.Workload)]; src != nil && c.Object == src.wl.Spec.Kind &&
			(src.wl.Spec.Replicas != src.obj.replicas || src.col == colDeployments) {
			s.workloadChanged(src)
		}
	case model.ChangeClient:
		// kubectl cordon, uncordon and drain change a node's spec.
		if c.Node != "" && c.Pod == "" {
			if n := s.w.Node(c.Node); n != nil {
				s.nodeSpecChanged(n)
			}
		}
	}
	s.wakeWatchers()
}

// Detail hears what the model's controllers write with no change of the
// timeline: a ReplicaSet's or Deployment's status (their sync after a
// pod's change; a pod becoming available minReadySeconds after it is
// Ready), a node's taints (the node controller's, a cordon's), and a
// kubelet falling silent or back (its lease's renewals stop or start). Like
// a budget's status, it is published with the next change, or by settle.
func (s *Store) Detail(d *model.Detail) {
	switch d.Kind {
	case model.DetailReplicas:
		if src := s.workloads[d.Workload]; src != nil && !slices.Contains(s.synced, src) {
			s.synced = append(s.synced, src)
		}
	case model.DetailTaint, model.DetailPower, model.DetailPartition:
		if !slices.Contains(s.nodesMoved, d.Node) {
			s.nodesMoved = append(s.nodesMoved, d.Node)
		}
	}
}

// flushSynced writes the workloads whose controllers wrote their status,
// and the nodes whose taints changed, since the last change, and reports
// whether any moved.
func (s *Store) flushSynced() bool {
	moved := false
	for _, src := range s.synced {
		moved = s.workloadChanged(src) || moved
	}
	for _, name := range s.nodesMoved {
		if n := s.w.Node(name); n != nil {
			moved = s.nodeSpecChanged(n) || moved
		}
	}
	clear(s.synced)
	s.synced, s.nodesMoved = s.synced[:0], s.nodesMoved[:0]
	return moved
}

func (s *Store) wakeWatchers() {
	if s.waited.Swap(false) { // else nobody holds the channel: keep it
		close(s.wake)
		s.wake = make(chan struct{})
	}
}

// settle publishes what the world changed since its last change without
// a change of its own, once the run goroutine has moved it (a step of a
// paced run, the frozen instant, a write): the budgets' status (the
// disruption controller syncs after the change that moved its counts) and
// the replicas of the workload named (one a write scaled, or ""). If
// anything moved, it takes a resourceVersion of its own.
func (s *Store) settle(workload string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	moved := s.movedBudgets()
	src := s.workloads[workload]
	if src != nil && src.wl.Spec.Replicas != src.obj.replicas && !slices.Contains(s.synced, src) {
		s.synced = append(s.synced, src)
	}
	if len(moved) == 0 && len(s.synced) == 0 && len(s.nodesMoved) == 0 {
		return
	}
	s.rv++
	for _, b := range moved {
		s.putBudget(b)
	}
	if !s.flushSynced() && len(moved) == 0 {
		s.rv-- // nothing moved: the version is not taken
		return
	}
	s.wakeWatchers()
}

// movedBudgets returns the budgets whose status or condition differ from
// their snapshot (in the store's scratch slice).
func (s *Store) movedBudgets() []*budgetSrc {
	s.moved = s.moved[:0]
	for _, b := range s.budgets {
		if b.b.Status != b.snap.status || b.b.Condition != b.snap.cond {
			s.moved = append(s.moved, b)
		}
	}
	return s.moved
}

// putBudget writes a budget's status as a new version.
func (s *Store) putBudget(b *budgetSrc) {
	snap := *b.snap
	snap.status, snap.cond = b.b.Status, b.b.Condition
	b.snap = &snap
	s.put(colPDBs, b.snap, false)
}

// setNow moves the store's virtual time when the clock moved without a
// change (a paced run between events, the end of a run).
func (s *Store) setNow(t time.Duration) {
	s.mu.Lock()
	s.now = max(s.now, t)
	s.mu.Unlock()
}

// put records snap as the object's newest version (or its deletion). An
// object written twice at one version (a change and what the model's
// controllers wrote before it) has one version, the last.
func (s *Store) put(col collection, snap snapshot, deleted bool) {
	m := snap.base()
	m.rv = s.rv
	k := m.key()
	prev := s.objects[col][k]
	if prev != nil && prev.base().rv == s.rv && prev != snap {
		for i := s.n - 1; i >= 0 && s.ringRV[(s.head+i)%len(s.ring)] == s.rv; i-- {
			if v := &s.ring[(s.head+i)%len(s.ring)]; v.col == col && v.snap == prev {
				v.snap, v.deleted = snap, deleted
				if deleted {
					delete(s.objects[col], k)
				} else {
					s.objects[col][k] = snap
				}
				return
			}
		}
	}
	if deleted {
		delete(s.objects[col], k)
	} else {
		s.objects[col][k] = snap
		if m.namespace != "" && s.objects[colNamespaces][m.namespace] == nil {
			// A namespace is served from the first object in it on.
			s.put(colNamespaces, &namespaceSnap{meta{name: m.namespace, uid: uid("Namespace", m.namespace), created: s.now}}, false)
		}
	}
	if s.n == len(s.ring) {
		s.dropped = s.ringRV[s.head]
		s.head = (s.head + 1) % len(s.ring)
		s.n--
	}
	i := (s.head + s.n) % len(s.ring)
	s.ring[i], s.ringRV[i] = version{col: col, deleted: deleted, snap: snap, prev: prev}, s.rv
	s.n++
}

// discover adds the nodes and workloads the world gained since the last
// change (they make no change of their own when they are added).
func (s *Store) discover() {
	classes := s.w.PriorityClasses()
	for ; s.classSeen < len(classes); s.classSeen++ {
		c := classes[s.classSeen]
		s.put(colPriorityClasses, &priorityClassSnap{meta{name: c.Name, uid: uid("PriorityClass", c.Name), created: s.w.Now()}, c}, false)
	}
	nodes := s.w.Nodes()
	for ; s.nodesSeen < len(nodes); s.nodesSeen++ {
		s.node(nodes[s.nodesSeen])
	}
	wls := s.w.Workloads()
	for ; s.wlSeen < len(wls); s.wlSeen++ {
		s.addWorkload(wls[s.wlSeen])
	}
	for bs := s.w.DisruptionBudgets(); len(s.budgets) < len(bs); {
		b := bs[len(s.budgets)]
		src := &budgetSrc{b: b, snap: &pdbSnap{meta: meta{name: b.Spec.Name, namespace: b.Spec.Namespace,
			uid: uid(model.KindPodDisruptionBudget, model.Key(b.Spec.Namespace, b.Spec.Name)), created: s.w.Now()}, spec: b.Spec}}
		s.budgets = append(s.budgets, src)
		s.putBudget(src)
	}
}

// node writes a new version of a node, and of its Lease; or, once the
// Node object is deleted (a deleteNode fault), their deletion.
func (s *Store) node(n *model.Node) {
	if n.Gone() {
		if old, ok := s.objects[colNodes][n.Name].(*nodeSnap); ok {
			last := *old // a deleted object's last word is its last state
			s.put(colNodes, &last, true)
			lease := *s.objects[colLeases][model.Key(nodeLeaseNamespace, n.Name)].(*leaseSnap)
			s.put(colLeases, &lease, true)
		}
		return
	}
	snap := &nodeSnap{meta: meta{name: n.Name, uid: uid("Node", n.Name), labels: n.Labels, created: n.CreatedAt},
		unschedulable: n.Unschedulable(), capacity: n.Capacity, taints: append([]model.Taint(nil), n.Taints...),
		conditions: append([]model.Condition(nil), n.Conditions...), beats: s.nodeBeats(n)}
	s.put(colNodes, snap, false)
	s.put(colLeases, &leaseSnap{meta: meta{name: n.Name, namespace: nodeLeaseNamespace, uid: uid("Lease", n.Name), created: n.CreatedAt},
		node: snap}, false)
}

// nodeLeaseNamespace holds the nodes' Leases.
const nodeLeaseNamespace = "kube-node-lease"

func (s *Store) nodeBeats(n *model.Node) heartbeats {
	h := heartbeats{report: s.reportEvery}
	h.since, h.until, h.silent = n.Heartbeats()
	return h
}

// nodeSpecChanged writes a new version of a node whose spec.unschedulable,
// taints or heartbeats differ from its snapshot, and reports whether it
// did.
func (s *Store) nodeSpecChanged(n *model.Node) bool {
	old, ok := s.objects[colNodes][n.Name].(*nodeSnap)
	if n.Gone() && !ok || ok && !n.Gone() && old.unschedulable == n.Unschedulable() &&
		slices.Equal(old.taints, n.Taints) && old.beats == s.nodeBeats(n) {
		return false
	}
	s.node(n)
	return true
}

func (s *Store) pod(p *model.Pod, c *model.Change) {
	deleted := c.Kind == model.ChangePod && c.Reason == "Deleted"
	old, seen := s.objects[colPods][p.Key()].(*podSnap)
	id := ""
	if seen {
		id = old.uid
	} else {
		id = uid("Pod", p.Key())
	}
	snap := &podSnap{meta: meta{name: p.Name, namespace: p.Namespace, uid: id, labels: p.Labels, created: p.CreatedAt},
		view: report.ViewPod(p), priority: p.Priority(), policy: p.PreemptionPolicy()}
	if c.Kind == model.ChangePhase {
		snap.view.Status.Phase = c.To // the model tells its sinks before it moves
	}
	snap.deadline, snap.grace, snap.deleting = p.DeletionTimestamp()
	var src *workloadSrc
	if wl := p.Owner(); wl != nil {
		src = s.workloads[wl.Key()]
	}
	switch {
	case src == nil:
	case src.col == colDeployments && seen:
		snap.owner, snap.labels = old.owner, old.labels // its ReplicaSet's, for good
	case src.col == colDeployments:
		if rs := s.replicaSet(src, src.wl.ReplicaSetOf(p)); rs != nil {
			snap.owner, snap.labels = rs.podOwner, rs.template
		}
	default:
		snap.owner = src.owner
		if src.pods != nil {
			snap.labels = src.pods
		}
	}
	if seen && deleted {
		cp := *old // a deleted pod's last word is its last state
		snap = &cp
	}
	s.put(colPods, snap, deleted)
	if src != nil {
		s.workloadChanged(src)
		if src.col == colDeployments && !slices.Contains(s.synced, src) {
			// Its controllers count the change right after it, and may move
			// one ReplicaSet's status and not the Deployment's totals (no
			// detail then): they are looked at again with the next change.
			s.synced = append(s.synced, src)
		}
	}
}

// event records an event's first occurrence or its repeat.
func (s *Store) event(c *model.Change) {
	kind, object, ns := "Pod", c.Pod, c.Namespace
	switch {
	case c.Object != "":
		kind, object = c.Object, c.Workload
	case c.Pod == "" && c.Node != "":
		kind, object, ns = "Node", c.Node, ""
	}
	if kind == model.KindDeployment {
		// A ReplicaSet's own pod creations and deletions are recorded on it.
		if src := s.workloads[model.Key(ns, object)]; src != nil {
			if rs := src.wl.ActingReplicaSet(); rs != "" {
				kind, object = model.KindReplicaSet, rs
			}
		}
	}
	e := s.w.CurrentEvent()
	if c.Dropped || e == nil {
		return // the spam filter kept it from the API
	}
	old := s.events[e]
	snap := &eventSnap{typ: string(e.Type), reason: e.Reason, source: e.Source, message: e.Message,
		first: e.FirstSeen, last: e.LastSeen, count: e.Count}
	if old != nil {
		snap.meta, snap.involved, snap.involvedNS, snap.host = old.meta, old.involved, old.involvedNS, old.host
	} else {
		s.eventNames++
		snap.involvedNS = ns
		if ns == "" {
			ns = model.DefaultNamespace // a node's events are in the default namespace
		}
		snap.meta = meta{namespace: ns, created: e.FirstSeen}
		snap.involved = s.ref(kind, snap.involvedNS, object)
		if kind == "Pod" && e.Source == "kubelet" {
			if p := s.w.Pod(model.Key(ns, object)); p != nil && p.Node != nil {
				snap.host = p.Node.Name
			}
		} else if kind == "Node" {
			snap.host = object
		}
		// Named as the API server's clients name them, <object>.<unique
		// hex>; here the hex is the store's count of events.
		snap.name = object + "." + hex16(uint64(s.eventNames))
		snap.uid = uid("Event", snap.name)
	}
	s.events[e] = snap
	s.put(colEvents, snap, false)
}

// ref is the API reference of an object an event is about (namespace ""
// for a node).
func (s *Store) ref(kind, namespace, name string) owner {
	u := uid(kind, model.Key(namespace, name))
	switch kind {
	case "Pod", "Node":
		return owner{apiVersion: "v1", kind: kind, name: name, uid: u}
	case model.KindJob, model.KindCronJob:
		return owner{apiVersion: "batch/v1", kind: kind, name: name, uid: u}
	case model.KindPodDisruptionBudget:
		return owner{apiVersion: "policy/v1", kind: kind, name: name, uid: u}
	}
	return owner{apiVersion: "apps/v1", kind: kind, name: name, uid: u}
}

func (s *Store) addWorkload(wl *model.Workload) {
	sp := &wl.Spec
	src := &workloadSrc{wl: wl}
	ns := wl.Namespace()
	src.self = s.ref(sp.Kind, ns, sp.Name)
	o := src.self
	src.owner = &o
	labels := sp.Options.Labels
	selector := labels
	switch sp.Kind {
	case model.KindDeployment:
		src.col = colDeployments
		src.owner = nil
		src.rss = map[string]*workloadSnap{}
	case model.KindReplicaSet:
		src.col = colReplicaSets
	case model.KindDaemonSet:
		src.col = colDaemonSets
	case model.KindStatefulSet:
		src.col = colStatefulSets
	case model.KindCronJob:
		src.col = colCronJobs
		labels = sp.CronJob.Job.Options.Labels
	case model.KindJob:
		src.col = colJobs
		selector = map[string]string{"batch.kubernetes.io/controller-uid": o.uid}
		labels = jobLabels(labels, sp.Name, o.uid)
	}
	src.obj = &workloadSnap{meta: meta{name: sp.Name, namespace: ns, uid: o.uid, labels: sp.Options.Labels, created: wl.Created()},
		spec: sp, tmpl: wl.Template(), generation: 1, replicas: sp.Replicas, selector: selector, template: labels,
		rs: wl.ReplicaStatus(), revision: wl.Revision(), progressUpdated: wl.ProgressUpdated()}
	src.pods = labels
	switch {
	case sp.Kind == model.KindDeployment:
		src.pods = nil // each pod has its ReplicaSet's
		src.obj.conditions = slices.Clone(wl.Conditions)
	case sp.Kind == model.KindStatefulSet:
		src.pods = nil // each pod has its own name and ordinal labels
	case sp.Kind == model.KindCronJob:
		src.obj.cron = &cronStatus{}
	}
	var parent *workloadSrc
	if p := wl.Parent(); p != nil {
		if parent = s.workloads[p.Key()]; parent != nil {
			src.obj.owner = parent.owner
			parent.jobs = append(parent.jobs, src)
		}
	}
	s.workloads[wl.Key()] = src
	s.put(src.col, src.obj, false)
	s.replicaSetsChanged(src)
	if parent != nil {
		s.cronChanged(parent)
	}
}

// cronChanged writes a new version of a CronJob whose status moved, and
// the deletion of its Jobs that its controller deleted (history limits,
// concurrencyPolicy Replace).
func (s *Store) cronChanged(src *workloadSrc) {
	keep := src.jobs[:0]
	for _, j := range src.jobs {
		if !j.wl.Deleted() {
			keep = append(keep, j)
			continue
		}
		j.gone = true
		snap := *j.obj
		s.put(colJobs, &snap, true)
	}
	clear(src.jobs[len(keep):])
	src.jobs = keep
	wl := src.wl
	st := &cronStatus{}
	for _, j := range wl.ActiveJobList() {
		st.active = append(st.active, s.ref(model.KindJob, j.Namespace(), j.Spec.Name))
	}
	if t := wl.LastScheduleTime(); !t.IsZero() {
		st.lastSchedule, st.scheduled = t.Sub(s.w.WallTime(0)), true
	}
	st.lastSuccess, st.succeeded = wl.LastSuccessfulTime()
	if st.equal(src.obj.cron) {
		return
	}
	obj := *src.obj
	obj.cron = st
	src.obj = &obj
	s.put(colCronJobs, src.obj, false)
}

// workloadChanged writes a new version of a workload's objects whose
// spec or status moved: a Deployment's or ReplicaSet's status as the
// model's controllers last wrote it, the others' counted from the store's
// snapshots of their pods. It reports whether it wrote any.
func (s *Store) workloadChanged(src *workloadSrc) bool {
	if src.gone || src.col == colCronJobs {
		return false // a CronJob's status is its Jobs' (cronChanged)
	}
	if p := src.wl.Parent(); p != nil {
		if parent := s.workloads[p.Key()]; parent != nil {
			defer s.cronChanged(parent)
		}
	}
	wl, old := src.wl, src.obj
	var st workloadStatus
	if src.col != colDeployments && src.col != colReplicaSets {
		st = s.countPods(src)
	}
	conds := wl.Conditions
	if c, ok := wl.Condition("Complete"); ok {
		st.completed, st.completedAt = true, c.LastTransitionTime
	}
	replicas, tmpl, rs := wl.Spec.Replicas, wl.Template(), wl.ReplicaStatus()
	rev, progress := wl.Revision(), wl.ProgressUpdated()
	changed := s.replicaSetsChanged(src)
	if st == old.status && slices.Equal(conds, old.conditions) && replicas == old.replicas && tmpl == old.tmpl &&
		rs == old.rs && rev == old.revision && progress == old.progressUpdated {
		return changed
	}
	obj := *old
	obj.status, obj.conditions, obj.replicas, obj.tmpl, obj.rs = st, slices.Clone(conds), replicas, tmpl, rs
	obj.revision, obj.progressUpdated = rev, progress
	if replicas != old.replicas {
		obj.generation++
	}
	if tmpl != old.tmpl {
		obj.generation++
	}
	src.obj = &obj
	s.put(src.col, src.obj, false)
	return true
}

// countPods counts a workload's pods from the store's snapshots of them.
func (s *Store) countPods(src *workloadSrc) workloadStatus {
	var st workloadStatus
	for _, p := range src.wl.Pods() {
		snap, ok := s.objects[colPods][p.Key()].(*podSnap)
		if !ok {
			continue
		}
		v := &snap.view
		switch v.Status.Phase {
		case model.Succeeded:
			st.succeeded++
			continue
		case model.Failed:
			st.failed++
			continue
		}
		if snap.deleting {
			continue
		}
		st.replicas++
		st.active++
		if v.Node != "" {
			st.scheduled++
		}
		if c, ok := v.Status.Condition(model.Ready); ok && c.Status == model.True {
			st.ready++
		}
	}
	return st
}

// replicaSetsChanged writes a new version of each of a Deployment's
// ReplicaSets whose spec, status or annotations moved, and the first of
// each new one. It reports whether it wrote any.
func (s *Store) replicaSetsChanged(src *workloadSrc) bool {
	if src.col != colDeployments {
		return false
	}
	changed := false
	s.rsScratch = src.wl.ReplicaSets(s.rsScratch)
	for _, st := range s.rsScratch {
		old := src.rss[st.Name]
		if old == nil {
			old = s.newReplicaSet(src, st.Name, st.Created)
		} else if old.rv != 0 && old.replicas == st.Replicas && old.rs == st.Status && old.revision == st.Revision &&
			old.desired == st.Desired && old.maxRepl == st.MaxReplicas {
			continue
		}
		rs := *old
		rs.replicas, rs.rs, rs.revision, rs.desired, rs.maxRepl, rs.tmpl = st.Replicas, st.Status, st.Revision, st.Desired, st.MaxReplicas, st.Template
		rs.history = st.RevisionHistory
		if rs.replicas != old.replicas && old.rv != 0 {
			rs.generation++
		}
		src.rss[st.Name] = &rs
		s.put(colReplicaSets, &rs, false)
		changed = true
	}
	return changed
}

// replicaSet returns a Deployment's ReplicaSet by name, made (not yet
// put) if the store has not seen it; nil for "".
func (s *Store) replicaSet(src *workloadSrc, name string) *workloadSnap {
	if name == "" {
		return nil
	}
	if rs := src.rss[name]; rs != nil {
		return rs
	}
	s.rsScratch = src.wl.ReplicaSets(s.rsScratch)
	for _, st := range s.rsScratch {
		if st.Name == name {
			return s.newReplicaSet(src, name, st.Created)
		}
	}
	return nil
}

// newReplicaSet makes the snapshot of a Deployment's ReplicaSet the store
// has not seen: named <deployment>-<pod-template-hash>, its selector and
// template labels the Deployment's and pod-template-hash. It is put by
// replicaSetsChanged.
func (s *Store) newReplicaSet(src *workloadSrc, name string, created time.Duration) *workloadSnap {
	d := src.obj
	hash := strings.TrimPrefix(name, d.name+"-")
	labels := withLabel(d.template, "pod-template-hash", hash)
	rs := &workloadSnap{meta: meta{name: name, namespace: d.namespace, uid: uid(model.KindReplicaSet, model.Key(d.namespace, name)),
		labels: labels, created: created}, spec: d.spec, generation: 1, owner: &src.self, selector: labels, template: labels}
	rs.podOwner = &owner{apiVersion: "apps/v1", kind: model.KindReplicaSet, name: name, uid: rs.uid}
	src.rss[name] = rs
	return rs
}

// last returns an object's newest version in the history, deleted or not
// (by key: see meta.key).
func (s *Store) last(col collection, key string) (snapshot, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for i := s.n - 1; i >= 0; i-- {
		if v := &s.ring[(s.head+i)%len(s.ring)]; v.col == col && v.snap.base().key() == key {
			return v.snap, true
		}
	}
	return nil, false
}

// oldest is the newest version a watch can no longer start after: older
// versions have left the history.
func (s *Store) oldest() uint64 {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.dropped
}

// view is what a reader sees: the store's resourceVersion and virtual time.
func (s *Store) state() (rv uint64, now time.Duration) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.rv, s.now
}

// list returns the current snapshots of a collection and the version they
// are at.
func (s *Store) list(col collection) ([]snapshot, uint64) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]snapshot, 0, len(s.objects[col]))
	for _, o := range s.objects[col] {
		out = append(out, o)
	}
	return out, s.rv
}

// get returns one object's current snapshot by key (see meta.key).
func (s *Store) get(col collection, key string) (snapshot, uint64, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	o, ok := s.objects[col][key]
	return o, s.rv, ok
}

// since returns the versions after rv, the store's newest version, and a
// channel closed when there are more; expired is true when versions after
// rv have left the ring.
func (s *Store) since(rv uint64, out []version) (vs []version, newest uint64, wake <-chan struct{}, expired bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if rv < s.dropped {
		s.waited.Store(true)
		return out, s.rv, s.wake, true
	}
	at := func(i int) int { return (s.head + i) % len(s.ring) }
	for i := sort.Search(s.n, func(i int) bool { return s.ringRV[at(i)] > rv }); i < s.n; i++ {
		out = append(out, s.ring[at(i)])
	}
	s.waited.Store(true)
	return out, s.rv, s.wake, false
}
