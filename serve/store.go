// Package serve puts a simulated cluster behind the Kubernetes API over
// HTTP, so that kubectl, k9s and client-go controllers can list and watch
// a podsim run as it plays.
//
// A Store is a sink on the world's stream and its object stream: every
// change bumps the resourceVersion (the stream's sequence number) and
// replaces the snapshots of the objects it touched and of those the model
// changed since the last change. Watchers read a bounded ring of those
// versions, so any number of them cost one simulation. A frozen server's
// store renders nothing per change once its run-up overflows the history
// (dark.go), and its pods only when read (lazy.go). Handlers read only
// the store, under its lock; the world is driven by one goroutine
// (Server.Play) and touched by a handler only to render a lazy pod of a
// still world.
package serve

import (
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/podsim/podsim/model"
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
	colHPAs
	numCollections
)

// Store holds the API objects of one world and a bounded history of their
// changes. Change, Object and pause are called by the goroutine that runs
// the world; every other method may be called from any goroutine.
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
	waited  atomic.Bool  // a reader holds wake (since); set under the read lock
	metrics *metricsSnap // metrics-server's last scrape (metrics.go); nil before it

	// The run goroutine's own (no lock needed), but that while the store
	// holds lazy pods handlers read w's index of pods and entries too, to
	// find one by key (lazyPodOf): nothing writes them from the frozen
	// instant until thaw, which takes the write lock first.
	w             *model.World
	reportEvery   time.Duration     // the kubelets' nodeStatusReportFrequency
	entries       chunked[podEntry] // the pods' entries, a slot for each Pod.ID (podindex.go)
	podRoom       int               // the pods objects[colPods] was made for (reservePods)
	lastNamed     lastNamed
	nodes         map[string]*model.Node  // the nodes added, by name
	workloads     map[string]*workloadSrc // by the workload's key (model.Key)
	budgets       map[*model.DisruptionBudget]*budgetSrc
	autoscalers   map[*model.Autoscaler]*hpaSrc
	rsScratch     []model.ReplicaSetState // a Deployment's ReplicaSets, read again at each look
	pending       pending
	writes        uint64                      // calls of put so far
	events        map[*model.Event]*eventSnap // but those first seen while dark
	eventNames    int
	servedNS      string        // the namespace last found served (serveNamespace)
	apiEvents     int           // the world's count of API events as of the last event
	metricsAt     time.Duration // the scrape in metrics
	metricsTaken  bool
	held          bool               // only the run goroutine touches it, until published (dark.go)
	dark          bool               // nothing rendered per change (dark.go)
	early         bool               // dark before its history overflowed (goDarkEarly)
	keptEarly     int                // the versions in the history when it went dark early
	darkPuts      int                // versions that wrote a pod or an event while dark early
	lastPutRV     uint64             // the last of them
	darkList      chunked[*podEntry] // the keys marked while dark, in the order first marked
	darkWls       []*workloadSrc
	darkEvents    darkEventLog
	darkRepeats   []darkRepeat
	eventClasses  map[eventClass]*eventClass // (darkevents.go)
	recentClasses [1024]*eventClass
	nodeClasses   []nodeClass // by Node.ID: the class of its pods' kubelet events (darkClass)
	// The events first seen while dark, published unrendered, until a
	// write renders them (darkevents.go).
	lazyEvents darkEventLog
	// The events first seen while dark, in their order, their snapshots
	// as published, and an index of them made when first needed.
	published      []*model.Event
	publishedSnaps []eventSnap
	publishedIdx   map[*model.Event]int32

	sortedMu sync.Mutex // the readers' own: list's cache
	sorted   [numCollections]sortedList
	// The pods a frozen store published unrendered, in the order first
	// marked, until a write renders them (lazy.go); found by key through
	// their entries (podEntry.lazy), not in objects.
	lazyPods []lazyPod
	renderMu sync.Mutex // held to render a lazy pod
}

// budgetSrc ties a model PodDisruptionBudget to its API object.
type budgetSrc struct {
	b      *model.DisruptionBudget
	snap   *pdbSnap
	order  int  // the budgets' order of creation
	queued bool // in pending.moved
}

// workloadSrc ties a model workload to its API objects.
type workloadSrc struct {
	wl     *model.Workload
	obj    *workloadSnap            // the Deployment, ReplicaSet, DaemonSet or Job
	rss    map[string]*workloadSnap // a Deployment's ReplicaSets, by name
	self   owner                    // its own reference
	owner  *owner                   // what its pods name as their controller (a Deployment's: nil, their ReplicaSet)
	pods   map[string]string        // its pods' labels (the template's, and the controller's own); nil: each pod's own
	col    collection
	jobs   []*workloadSrc // a CronJob's Jobs in the API
	gone   bool           // a CronJob's Job, deleted
	queued bool           // in pending.synced
	dirty  bool           // in Store.darkWls
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
		wake: make(chan struct{}), nodes: map[string]*model.Node{}, workloads: map[string]*workloadSrc{}, budgets: map[*model.DisruptionBudget]*budgetSrc{},
		autoscalers: map[*model.Autoscaler]*hpaSrc{},
		events:      map[*model.Event]*eventSnap{}}
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

// Change applies one change of the world: the objects it touched get new
// snapshots at a new resourceVersion, and so do the objects the model
// changed since the last change with no change of the timeline (Object).
func (s *Store) Change(c *model.Change) {
	if s.held { // nobody else touches a held store (holdReads)
		s.change(c)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.change(c)
	s.wakeWatchers()
}

// change is Change with the lock held, or the store held.
func (s *Store) change(c *model.Change) {
	s.goDarkIfFull()
	s.rv++
	s.now = c.T
	if !s.pending.empty() {
		s.flush(c.T, false)
	}
	switch c.Kind {
	case model.ChangePhase, model.ChangeContainer, model.ChangeCondition, model.ChangePod:
		if ent := s.changedPod(c); ent != nil {
			s.pod(ent.p, c, ent)
		}
	case model.ChangeNode:
		if n := s.nodes[c.Node]; n != nil {
			s.node(n)
		}
	case model.ChangeWorkload:
		// A budget's condition is in its status, which flush wrote.
		if src := s.workloads[model.Key(c.Namespace, c.Workload)]; src != nil && c.Object != model.KindPodDisruptionBudget {
			s.workloadChanged(src)
		}
	case model.ChangeEvent:
		s.event(c)
		// A Deployment's controller that acted (scaled a ReplicaSet, made
		// or deleted a pod) may have written its ReplicaSets' replicas and
		// annotations and its own status: they are looked at again here.
		if c.Owner != "" { // a pod made or deleted by one of its ReplicaSets
			if src := s.workloads[model.Key(c.Namespace, c.Owner)]; src != nil {
				s.workloadChanged(src)
			}
		} else if c.Object == model.KindDeployment {
			if src := s.workloads[model.Key(c.Namespace, c.Workload)]; src != nil {
				s.workloadChanged(src)
			}
		}
	case model.ChangeClient:
		// kubectl cordon, uncordon and drain change a node's spec.
		if c.Node != "" && c.Pod == "" {
			if n := s.nodes[c.Node]; n != nil {
				s.nodeSpecChanged(n)
			}
		}
	}
}

func (s *Store) wakeWatchers() {
	if s.waited.Swap(false) { // else nobody holds the channel: keep it
		close(s.wake)
		s.wake = make(chan struct{})
	}
}

// put records snap as the object's newest version (or its deletion). An
// object written twice at one version (a change and what the model's
// controllers wrote before it) has one version, the last.
func (s *Store) put(col collection, snap snapshot, deleted bool) {
	m := snap.base()
	m.rv = s.rv
	s.writes++
	k := m.key()
	var prev snapshot // a dark store keeps no history: no look-up
	if !s.dark {
		prev = s.objects[col][k]
	}
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
		if m.namespace != "" {
			s.serveNamespace(m.namespace, s.now)
		}
	}
	if s.dark {
		return // no history yet
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

// serveNamespace puts namespace ns, made at t, unless it is served: a
// namespace is served from the first object in it on, and for good.
func (s *Store) serveNamespace(ns string, t time.Duration) {
	if ns == s.servedNS {
		return // the last one found served
	}
	if s.objects[colNamespaces][ns] == nil {
		s.put(colNamespaces, &namespaceSnap{meta{name: ns, uid: uid("Namespace", ns), created: t}}, false)
	}
	s.servedNS = ns
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

// list returns the current snapshots of a collection, sorted by namespace
// and name as the API server lists them, and the version they are at. The
// slice may be shared by other readers: do not modify it. It may hold lazy
// pods and events: read each with resolveItem. keep is for a paged read,
// whose next pages list again: the sorted list is kept for them until the
// store changes or release (sorted once, a frozen store's pages cost what
// they hold). Else a list kept is used, and one sorted anew is not kept:
// a read of a whole collection leaves none of it behind (a frozen dark
// store's list of events holds a lazy item for each, 140 B).
func (s *Store) list(col collection, keep bool) ([]snapshot, uint64) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	s.sortedMu.Lock()
	defer s.sortedMu.Unlock()
	c := &s.sorted[col]
	if c.snaps != nil && c.rv == s.rv && c.writes == s.writes {
		return c.snaps, s.rv
	}
	n := len(s.objects[col])
	switch col {
	case colEvents:
		n += s.lazyEvents.n
	case colPods:
		n += len(s.lazyPods)
	}
	out := make([]snapshot, 0, n)
	for _, o := range s.objects[col] {
		out = append(out, o)
	}
	if col == colEvents && s.lazyEvents.n > 0 {
		lazy := s.lazyList()
		for i := range lazy {
			out = append(out, &lazy[i])
		}
	}
	if col == colPods {
		for i := range s.lazyPods {
			out = append(out, &s.lazyPods[i])
		}
	}
	slices.SortFunc(out, func(a, b snapshot) int {
		x, y := a.base(), b.base()
		if c := strings.Compare(x.namespace, y.namespace); c != 0 {
			return c
		}
		return strings.Compare(x.name, y.name)
	})
	if keep {
		*c = sortedList{rv: s.rv, writes: s.writes, snaps: out}
	}
	return out, s.rv
}

// release lets go of the sorted list of col that list kept, once a paged
// read has read its last page.
func (s *Store) release(col collection) {
	s.sortedMu.Lock()
	defer s.sortedMu.Unlock()
	s.sorted[col] = sortedList{}
}

// sortedList is a collection's snapshots in list order as of the store's
// version rv and its writes.
type sortedList struct {
	rv, writes uint64
	snaps      []snapshot
}

// get returns one object's current snapshot by key (see meta.key).
func (s *Store) get(col collection, key string) (snapshot, uint64, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	o, ok := s.objects[col][key]
	switch {
	case ok:
	case col == colPods:
		if l := s.lazyPodOf(key); l != nil {
			o, ok = l, true
		}
	case col == colEvents:
		o, ok = s.lazyEventByKey(key)
	}
	if ok {
		o = s.resolve(o)
	}
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
