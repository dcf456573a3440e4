package serve

import (
	"slices"
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/report"
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

// podSnap is a Pod. Its UID is not kept (meta.uid is ""): a cluster
// holds hundreds of thousands of pods, and it is a hash of the pod's key,
// made when shown (podUID).
type podSnap struct {
	meta
	view     report.PodView
	priority int32 // spec.priority and preemptionPolicy, as admission computed them
	policy   string
	owner    *owner
	deleting bool
	deadline time.Duration // deletionTimestamp, while deleting
	grace    time.Duration
	index    string // an Indexed Job's pod's completion index; "" none
}

type nodeSnap struct {
	meta
	unschedulable bool // cordoned
	capacity      model.Resources
	total         model.Resources // status.capacity; zero: capacity
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

// eventSnap is an Event. Its UID and its involved object's are not kept
// (meta.uid and involved.uid are ""): a cluster holds hundreds of
// thousands of events, and both are hashes of names, made when shown
// (eventUID, involvedUID).
type eventSnap struct {
	meta
	involved       eventRef // the object it is about
	involvedNS     string   // "" for a node
	host           string   // the node of a kubelet's event
	reason, source string
	message        string
	first, last    time.Duration
	count          int
	typ            model.EventType
}

// eventRef is the object an event is about: its apiVersion follows from
// its kind (apiRef), its UID is made when shown (involvedUID). A cluster
// holds hundreds of thousands of events: each keeps what it must.
type eventRef struct{ kind, name string }

// apiVersion is the object's apiVersion.
func (r eventRef) apiVersion() string { return apiRef(r.kind, r.name).apiVersion }

// podUID is the pod's metadata.uid.
func (p *podSnap) podUID() string { return uid("Pod", p.key()) }

// eventUID is the event's metadata.uid.
func (e *eventSnap) eventUID() string { return uid("Event", e.name) }

// involvedUID is the UID of the object the event is about (Store.ref's).
func (e *eventSnap) involvedUID() string {
	return uid(e.involved.kind, model.Key(e.involvedNS, e.involved.name))
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
	active, succeeded, failed  int // a Job's pods (its controller's counts)
	terminating                int
	completedIndexes           string // an Indexed Job's
	failedIndexes              string
	hasFailedIndexes           bool // backoffLimitPerIndex: failedIndexes is set
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

// key is where the store keeps an object: model.Key of its namespace and
// name, so that the world's objects and the store's share their keys
// (a cluster-scoped object's is its name).
func (m *meta) key() string { return model.Key(m.namespace, m.name) }
