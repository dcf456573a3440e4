package model

import (
	"strconv"
	"time"

	"github.com/podsim/podsim/sim"
)

// Workload kinds.
const (
	KindReplicaSet = "ReplicaSet"
	KindDeployment = "Deployment"
	KindJob        = "Job"
	KindDaemonSet  = "DaemonSet"
)

// WorkloadSpec describes a controller object.
type WorkloadSpec struct {
	Kind     string
	Name     string // its pods are in its namespace, Options.Namespace
	Template *PodSpec
	Options  PodOptions // labels, tolerations of the template

	Replicas        int // ReplicaSet, Deployment
	MinReadySeconds int // ReplicaSet, Deployment: how long a pod is Ready before it counts available

	// Deployment: how a new template replaces the pods (deployutil.go),
	// and the progress deadline (nil: none).
	Strategy                 StrategyType
	MaxSurge, MaxUnavailable IntOrPercent // RollingUpdate
	ProgressDeadline         *time.Duration

	Completions, Parallelism, BackoffLimit int            // Job (job.go)
	ActiveDeadline                         *time.Duration // Job
	// Job: completionMode Indexed, backoffLimitPerIndex and
	// maxFailedIndexes (nil: none), the pod failure policy (nil: none),
	// the success policy's rules, podReplacementPolicy Failed
	// (jobpolicy.go).
	Indexed                                bool
	BackoffLimitPerIndex, MaxFailedIndexes *int
	PodFailurePolicy                       *PodFailurePolicy
	SuccessPolicy                          []SuccessPolicyRule
	PodReplacementFailed                   bool

	PodManagement PodManagementPolicy // StatefulSet (statefulset.go)
	CronJob       *CronJobSpec        // CronJob (cronjob.go)

	Snapshot *WorkloadSnapshot // its pods in a snapshot of a cluster, adopted when it is added (restore.go)
}

// Workload is a controller and the pods it made. Its pods are named
// <name>-<n>, n counting from 0 in creation order.
type Workload struct {
	w          *World
	Spec       WorkloadSpec
	key        string // Key(namespace, name)
	Conditions []Condition
	pods       []*Pod   // every pod it created, in order
	events     eventLog // about the workload, in order of first occurrence
	created    time.Duration

	id        int                // see ID
	ctl       WorkloadController // its kind's (RegisterWorkloadController); nil: none
	syncTimer sim.Timer

	rc ReplicaControl // ReplicaSet, Deployment (replicaset.go)

	job *JobCounts // Job: the counts of its status, as its controller writes them (workloadapi.go)

	cron    *CronJobStatus // CronJob: its status (cronjob.go)
	parent  *Workload      // a CronJob's Job: the CronJob
	gone    bool           // a CronJob's Job: deleted
	podBase int            // a CronJob's Job named as a deleted one was: its pods are numbered on from that one's
}

// AddWorkload creates a controller now; it creates its pods at once.
func (w *World) AddWorkload(s WorkloadSpec) *Workload {
	if s.Kind == KindDaemonSet {
		s.Options.Tolerations = append(append([]Toleration(nil), s.Options.Tolerations...), daemonTolerations...)
	}
	wl := &Workload{w: w, Spec: s, key: Key(s.Options.Namespace, s.Name), created: w.Now(),
		id: len(w.workloads), ctl: w.kindControllers[s.Kind]}
	wl.syncTimer.Init(wl.sync)
	if s.Kind == KindJob {
		wl.job = &JobCounts{}
	}
	w.workloads = append(w.workloads, wl)
	w.workloadIdx[wl.key] = wl
	w.object(ObjectChange{Kind: ObjectWorkload, Op: ObjectAdded, Workload: wl})
	if s.Snapshot != nil {
		wl.restorePods()
	}
	if h, ok := wl.ctl.(WorkloadAddedHandler); ok {
		h.WorkloadAdded(wl)
	}
	wl.requestSync()
	return wl
}

// Workloads returns every workload in the order added.
func (w *World) Workloads() []*Workload { return w.workloads }

// Workload returns the workload with this key (see Key), or nil.
func (w *World) Workload(key string) *Workload { return w.workloadIdx[key] }

// Namespace is the workload's namespace.
func (wl *Workload) Namespace() string {
	if ns := wl.Spec.Options.Namespace; ns != "" {
		return ns
	}
	return DefaultNamespace
}

// ID numbers the workloads in the order added, from 0: controllers keep
// their state of a workload in slices indexed by it.
func (wl *Workload) ID() int { return wl.id }

// Key is the workload's key (see Key).
func (wl *Workload) Key() string { return wl.key }

// Pods returns every pod the workload created, deleted ones included; for
// a CronJob, the pods of every Job it created.
func (wl *Workload) Pods() []*Pod {
	if wl.cron != nil {
		return wl.cronPods()
	}
	return wl.pods
}

// Condition returns the workload's condition of type t (a Job's Complete or
// Failed), if set.
func (wl *Workload) Condition(t string) (Condition, bool) {
	for _, c := range wl.Conditions {
		if c.Type == t {
			return c, true
		}
	}
	return Condition{}, false
}

// Created is when the workload was added.
func (wl *Workload) Created() time.Duration { return wl.created }

// Owner returns the workload that created the pod, or nil.
func (p *Pod) Owner() *Workload { return p.owner }

// RequestSync asks the kind's controller to sync wl now, after the
// events already due now, once however often it is asked.
func (wl *Workload) RequestSync() { wl.requestSync() }

func (wl *Workload) requestSync() {
	if !wl.syncTimer.Pending() {
		wl.w.eng.Schedule(&wl.syncTimer, wl.w.Now(), sim.Normal)
	}
}

// active reports whether p counts toward the desired pods: not finished
// and not being deleted.
func active(p *Pod) bool { return !p.deleted && !p.deleting && !p.terminal() }

// sync is a requested sync coming due: the kind's controller syncs wl.
func (wl *Workload) sync() {
	if wl.gone || wl.ctl == nil {
		return
	}
	wl.ctl.Sync(wl)
}

// CreatePod creates the workload's next pod from template t now, pinned to
// node by node affinity if given (the scheduler binds it there, if it
// fits), with the event SuccessfulCreate from the kind's controller.
func (wl *Workload) CreatePod(t *PodSpec, node string) *Pod { return wl.createPod(t, node) }

// createPod is CreatePod.
func (wl *Workload) createPod(t *PodSpec, node string) *Pod {
	name := wl.NextPodName()
	o := wl.Spec.Options
	o.affinityNode = node // the scheduler binds it there, if it fits
	return wl.createNamedPod(t, name, o)
}

// NextPodName is the name of the workload's next pod, <name>-<n>: n counts
// its pods so far, on past the names of a snapshot's pods it adopted.
func (wl *Workload) NextPodName() string {
	name := wl.podName(wl.podBase + len(wl.pods))
	if wl.Spec.Snapshot == nil {
		return name
	}
	for p := wl.w.Pod(Key(wl.Spec.Options.Namespace, name)); p != nil && !p.deleted; p = wl.w.Pod(Key(wl.Spec.Options.Namespace, name)) {
		wl.podBase++ // an adopted pod has the name
		name = wl.podName(wl.podBase + len(wl.pods))
	}
	return name
}

// podName is <name>-<n>.
func (wl *Workload) podName(n int) string {
	b := make([]byte, 0, len(wl.Spec.Name)+1+20)
	b = append(append(b, wl.Spec.Name...), '-')
	return string(strconv.AppendInt(b, int64(n), 10))
}

// createNamedPod creates the workload's next pod, called name, from
// template t with options o now, with the event SuccessfulCreate from the
// kind's controller.
func (wl *Workload) createNamedPod(t *PodSpec, name string, o PodOptions) *Pod {
	src := ""
	switch wl.Spec.Kind {
	case KindJob:
		src = "job-controller"
	case KindDaemonSet:
		src = "daemonset-controller"
	}
	wl.w.eventMsg(wl.Spec.Kind, wl.key, EventNormal, "SuccessfulCreate", src, "Created pod: "+name)
	return wl.AddPodNamed(t, name, o)
}

// daemonTolerations are the tolerations the DaemonSet controller adds to
// its pods: they stay on nodes that are not ready or unreachable.
var daemonTolerations = []Toleration{
	{Key: TaintNotReady, Operator: "Exists", Effect: "NoExecute"},
	{Key: TaintUnreachable, Operator: "Exists", Effect: "NoExecute"},
	{Key: "node.kubernetes.io/disk-pressure", Operator: "Exists", Effect: "NoSchedule"},
	{Key: "node.kubernetes.io/memory-pressure", Operator: "Exists", Effect: "NoSchedule"},
	{Key: "node.kubernetes.io/pid-pressure", Operator: "Exists", Effect: "NoSchedule"},
	{Key: "node.kubernetes.io/unschedulable", Operator: "Exists", Effect: "NoSchedule"},
}

// workloadControllers is how the workload controllers hear of changes: a
// pod's owner syncs when the pod changes or is scaled.
type workloadControllers struct{ w *World }

// PodChanged asks p's owner to sync.
func (c *workloadControllers) PodChanged(p *Pod) {
	if p.owner != nil {
		p.owner.requestSync()
	}
}

// WorkloadScaled asks wl to sync.
func (c *workloadControllers) WorkloadScaled(wl *Workload) { wl.requestSync() }
