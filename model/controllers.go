package model

import (
	"fmt"
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

// Job failed-pod backoff (pkg/controller/job): 10s doubling per failure,
// capped at 10 minutes.
const (
	jobBackoffInitial = 10 * time.Second
	jobBackoffMax     = 10 * time.Minute
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

	Completions, Parallelism, BackoffLimit int            // Job
	ActiveDeadline                         *time.Duration // Job

	PodManagement PodManagementPolicy // StatefulSet (statefulset.go)
	CronJob       *CronJobSpec        // CronJob (cronjob.go)
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
	waitTimer sim.Timer // a Job's failed-pod backoff or active deadline

	rc replicaControl // ReplicaSet, Deployment (replicaset.go)

	failed     int           // Job: pods that failed (counted once each)
	counted    map[*Pod]bool // Job: pods whose failure or success is counted
	succeeded  int
	lastFailed time.Duration
	finished   bool

	ordinals []*Pod         // StatefulSet: the latest pod of each ordinal (statefulset.go)
	sts      *statefulState // StatefulSet: its ordinals by state (statefulset.go)
	cron     *CronJobStatus // CronJob: its status (cronjob.go)
	parent   *Workload      // a CronJob's Job: the CronJob
	gone     bool           // a CronJob's Job: deleted
	podBase  int            // a CronJob's Job named as a deleted one was: its pods are numbered on from that one's
}

// AddWorkload creates a controller now; it creates its pods at once.
func (w *World) AddWorkload(s WorkloadSpec) *Workload {
	if s.Kind == KindDaemonSet {
		s.Options.Tolerations = append(append([]Toleration(nil), s.Options.Tolerations...), daemonTolerations...)
	}
	wl := &Workload{w: w, Spec: s, key: Key(s.Options.Namespace, s.Name), created: w.Now(), counted: map[*Pod]bool{},
		id: len(w.workloads), ctl: w.kindControllers[s.Kind]}
	wl.syncTimer.Init(wl.sync)
	wl.waitTimer.Init(wl.sync)
	w.workloads = append(w.workloads, wl)
	w.workloadIdx[wl.key] = wl
	w.object(ObjectChange{Kind: ObjectWorkload, Op: ObjectAdded, Workload: wl})
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
func active(p *Pod) bool { return !p.deleted && !p.deleting && !p.phase.Terminal() }

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
	name := fmt.Sprintf("%s-%d", wl.Spec.Name, wl.podBase+len(wl.pods))
	src := map[string]string{KindReplicaSet: "replicaset-controller", KindDeployment: "replicaset-controller",
		KindJob: "job-controller", KindDaemonSet: "daemonset-controller"}[wl.Spec.Kind]
	wl.w.event(wl.Spec.Kind, wl.key, EventNormal, "SuccessfulCreate", src, "Created pod: %s", name)
	o := wl.Spec.Options
	o.affinityNode = node // the scheduler binds it there, if it fits
	p := wl.w.addPod(name, t, o, wl)
	wl.pods = append(wl.pods, p)
	return p
}

// syncJob runs pods until Completions succeeded, Parallelism at a time;
// failures past BackoffLimit, or running past ActiveDeadline, fail the Job.
func (wl *Workload) syncJob() {
	if wl.finished {
		return
	}
	now := wl.w.Now()
	nActive, restarts := 0, 0
	for _, p := range wl.pods {
		switch {
		case p.phase == Succeeded && !wl.counted[p]:
			wl.counted[p] = true
			wl.succeeded++
		case p.phase == Failed && !wl.counted[p]:
			wl.counted[p] = true
			wl.failed++
			wl.lastFailed = now
		case active(p):
			nActive++
			for _, c := range p.all() {
				restarts += int(c.status.RestartCount)
			}
		}
	}
	s := &wl.Spec
	switch {
	case wl.succeeded >= s.Completions:
		wl.finish("Complete", "CompletionsReached", "Reached expected number of succeeded pods", EventNormal, "Completed", "Job completed")
		return
	case wl.failed > s.BackoffLimit || wl.pastBackoffLimitOnFailure(restarts):
		wl.finish("Failed", "BackoffLimitExceeded", "Job has reached the specified backoff limit", EventWarning, "BackoffLimitExceeded", "Job has reached the specified backoff limit")
		return
	case s.ActiveDeadline != nil && now >= sim.AddSat(wl.created, *s.ActiveDeadline):
		wl.finish("Failed", "DeadlineExceeded", "Job was active longer than specified deadline", EventWarning, "DeadlineExceeded", "Job was active longer than specified deadline")
		return
	}
	if s.ActiveDeadline != nil && !wl.waitTimer.Pending() {
		wl.w.eng.Schedule(&wl.waitTimer, sim.AddSat(wl.created, *s.ActiveDeadline), sim.Normal)
	}
	want := min(s.Parallelism, s.Completions-wl.succeeded) - nActive
	if want <= 0 {
		return
	}
	if wl.failed > 0 {
		delay := jobBackoffInitial << min(wl.failed-1, 16)
		if at := sim.AddSat(wl.lastFailed, min(delay, jobBackoffMax)); at > now {
			if !wl.waitTimer.Pending() || wl.waitTimer.When() > at {
				wl.w.eng.Schedule(&wl.waitTimer, at, sim.Normal)
			}
			return
		}
	}
	for range want {
		wl.createPod(s.Template, "")
	}
}

// pastBackoffLimitOnFailure is the job controller's check for pods that
// restart in place (restartPolicy OnFailure): their containers' restarts
// reach backoffLimit (any restart, if the limit is 0).
func (wl *Workload) pastBackoffLimitOnFailure(restarts int) bool {
	if wl.Spec.Template.RestartPolicy != RestartOnFailure {
		return false
	}
	if wl.Spec.BackoffLimit == 0 {
		return restarts > 0
	}
	return restarts >= wl.Spec.BackoffLimit
}

// finish sets a Job's final condition and deletes its active pods.
func (wl *Workload) finish(cond, reason, msg string, typ EventType, evReason, evMsg string) {
	wl.finished = true
	wl.w.eng.Stop(&wl.waitTimer)
	wl.Conditions = append(wl.Conditions, Condition{Type: cond, Status: True, Reason: reason, Message: msg, LastTransitionTime: wl.w.Now()})
	wl.w.record(Change{Kind: ChangeWorkload, Workload: wl.Spec.Name, Namespace: wl.Namespace(), Type: cond, Status: string(True), Reason: reason})
	wl.w.event(KindJob, wl.key, typ, evReason, "job-controller", "%s", evMsg)
	for _, p := range wl.pods {
		if active(p) {
			p.Delete(nil)
		}
	}
	if wl.parent != nil {
		wl.parent.requestSync() // the CronJob controller watches its Jobs
	}
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
