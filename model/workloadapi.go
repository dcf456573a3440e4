package model

// What the workload controllers in packages of their own need of the core
// beyond the objects' own accessors: small hooks, each with its contract.

// WorkloadDeletedHandler hears that wl was deleted (Workload.Delete), after
// its requested sync was stopped: a controller stops its own timers of wl.
type WorkloadDeletedHandler interface{ WorkloadDeleted(wl *Workload) }

// IsActive is IsPodActive: p counts toward the desired pods, not finished
// and not being deleted.
func (p *Pod) IsActive() bool { return active(p) }

// Restarts is the sum of the restart counts of p's containers, init and
// regular.
func (p *Pod) Restarts() int {
	n := 0
	for i := range p.statuses {
		n += int(p.statuses[i].RestartCount)
	}
	return n
}

// Containers is the number of p's containers, regular and init:
// ContainerStatusAt takes an index below it.
func (p *Pod) Containers() int {
	return len(p.statuses)
}

// ContainerStatusAt is the status of p's i-th container, counting its
// regular containers first, then its init ones (the order the Job
// controller's pod failure policy reads them in). Read it, do not keep it.
func (p *Pod) ContainerStatusAt(i int) *ContainerStatus {
	ni := int(p.ninit)
	if nr := len(p.statuses) - ni; i >= nr {
		return &p.statuses[i-nr]
	}
	return &p.statuses[ni+i]
}

// CreatePodNamed creates the workload's next pod, called name, from
// template t with options o now, with the event SuccessfulCreate from the
// kind's controller.
func (wl *Workload) CreatePodNamed(t *PodSpec, name string, o PodOptions) *Pod {
	return wl.createNamedPod(t, name, o)
}

// AddPodNamed adds the workload's next pod, called name, from template t
// with options o now, with no event: its controller records its own.
func (wl *Workload) AddPodNamed(t *PodSpec, name string, o PodOptions) *Pod {
	p := wl.w.addPod(name, t, o, wl)
	if wl.pods == nil {
		wl.pods = make([]*Pod, 0, wl.expectedPods())
	}
	wl.pods = Grow(wl.pods, p)
	return p
}

// expectedPods is the room a workload's list of pods starts with: its
// replicas for a ReplicaSet, Deployment or StatefulSet (a fleet's 3,000
// in one array rather than doubled up to 4,096 through 8 arrays), else none.
func (wl *Workload) expectedPods() int {
	switch wl.Spec.Kind {
	case KindReplicaSet, KindDeployment, KindStatefulSet:
		return min(max(wl.Spec.Replicas, 0), reserveMax)
	}
	return 0
}

// PodSerial is the number the workload's next pod's name carries
// (<name>-<n>): its pods so far, and for a CronJob's Job named as a
// deleted one was, that one's.
func (wl *Workload) PodSerial() int { return wl.podBase + len(wl.pods) }

// AppendCondition appends c to the workload's conditions and records it
// (a Job's: they are never replaced).
func (wl *Workload) AppendCondition(c Condition) {
	wl.Conditions = append(wl.Conditions, c)
	wl.w.record(Change{Kind: ChangeWorkload, Workload: wl.Spec.Name, Namespace: wl.Namespace(), Object: wl.Spec.Kind, Type: c.Type, Status: string(c.Status), Reason: c.Reason})
}

// JobCounts is the part of a Job's status its controller counts: the
// object keeps it, the controller writes it (Workload.JobCounts).
type JobCounts struct {
	Succeeded        int    // status.succeeded: succeeded pods, or an Indexed Job's completed indexes
	Failed           int    // status.failed
	CompletedIndexes string // Indexed, formatted
	FailedIndexes    string // with backoffLimitPerIndex, formatted
}

// JobCounts returns the counts of a Job's status for its controller to
// write; nil if wl is not a Job.
func (wl *Workload) JobCounts() *JobCounts { return wl.job }

// RecordCondition records c, a condition the workload's controller has
// just set in Conditions (a Deployment's Available or Progressing).
func (wl *Workload) RecordCondition(c Condition) {
	wl.w.record(Change{Kind: ChangeWorkload, Workload: wl.Spec.Name, Namespace: wl.Namespace(), Object: wl.Spec.Kind, Type: c.Type, Status: string(c.Status),
		Reason: c.Reason, Message: c.Message})
}
