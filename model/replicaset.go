package model

import (
	"slices"
	"time"
)

// ReplicaSets and Deployments as the API holds them. Their controllers
// (model/controller/replicaset, model/controller/deployment) write them;
// readers take copies (Workload.ReplicaSets, Workload.ReplicaStatus).

// ReplicaSet is one ReplicaSet: a ReplicaSet workload's own, or one of a
// Deployment's, one for each pod template it has had. Its controllers
// write it; no one else does.
type ReplicaSet struct {
	Name     string
	Template *PodSpec      // its pod template: the pointer its pods share, never changed
	Replicas int           // spec.replicas
	Created  time.Duration // creationTimestamp
	Pods     []*Pod        // the pods it created or adopted that may still run, in order (its controller drops the finished and the gone)
	Status   ReplicaCounts // as the ReplicaSet controller last counted it

	// The deployment.kubernetes.io/desired-replicas and max-replicas
	// annotations: the Deployment's replicas, and replicas + maxSurge,
	// when the deployment controller last scaled it.
	Desired, MaxReplicas int
	Revision             int   // deployment.kubernetes.io/revision; 0 for a ReplicaSet workload's own
	History              []int // its earlier revisions, when a rollout took its template back
}

// ReplicaCounts is a ReplicaSet's status: its active pods (not finished,
// not being deleted), those Ready, and those available.
type ReplicaCounts struct{ Replicas, Ready, Available int }

// ReplicaControl is what the API keeps of a ReplicaSet or Deployment
// beyond its spec, written by its controllers (Workload.ReplicaControl).
type ReplicaControl struct {
	Sets     []*ReplicaSet // its ReplicaSets, in creation order: a ReplicaSet workload's one
	Status   ReplicaStatus // as its controller last wrote it
	Rollouts int           // templates applied after the first (Workload.Rollouts)
	Revision int           // a Deployment's revision annotation (Workload.Revision)
	// ProgressUpdate is the lastUpdateTime of a Deployment's Progressing
	// condition: when progress was last seen.
	ProgressUpdate time.Duration

	noted replicaNote // as the object sinks last heard it (ReplicasWritten)
}

// replicaNote is what the object sinks last heard of a ReplicaSet or
// Deployment.
type replicaNote struct {
	desired  int // spec.replicas
	status   ReplicaStatus
	rollouts int
}

// ReplicaControl returns what the API keeps of a ReplicaSet or
// Deployment for its controllers to write (unused for other kinds).
func (wl *Workload) ReplicaControl() *ReplicaControl { return &wl.rc }

// ReplicasWritten tells the object sinks of a change of replicas, status
// or rollouts since they last heard. A controller calls it at the end of
// each sync: every change of them is followed by a sync at the same
// instant.
func (wl *Workload) ReplicasWritten() {
	d := replicaNote{desired: wl.Spec.Replicas, status: wl.rc.Status, rollouts: wl.rc.Rollouts}
	if d != wl.rc.noted {
		wl.rc.noted = d
		wl.w.object(ObjectChange{Kind: ObjectWorkload, Op: ObjectUpdated, Workload: wl})
	}
}

// ReplicaSetState is one ReplicaSet as its controllers last left it: a
// ReplicaSet workload's own, or one of a Deployment's.
type ReplicaSetState struct {
	Name     string
	Template *PodSpec // its pod template: must not be changed
	Replicas int      // spec.replicas
	Created  time.Duration
	// Status counts its pods: Replicas, ReadyReplicas, AvailableReplicas.
	Status ReplicaStatus
	// A Deployment's ReplicaSet's annotations: deployment.kubernetes.io/
	// revision, desired-replicas and max-replicas (0 for a ReplicaSet
	// workload's own).
	Revision, Desired, MaxReplicas int
	// RevisionHistory is deployment.kubernetes.io/revision-history: the
	// revisions it had before rollouts took its template back, oldest
	// first (nil if none did).
	RevisionHistory []int
}

// ReplicaSets appends a ReplicaSet's or Deployment's ReplicaSets, in the
// order they were made, to out[:0] (none for other kinds).
func (wl *Workload) ReplicaSets(out []ReplicaSetState) []ReplicaSetState {
	out = out[:0]
	for _, rs := range wl.rc.Sets {
		out = append(out, ReplicaSetState{Name: rs.Name, Template: rs.Template, Replicas: rs.Replicas, Created: rs.Created,
			Status:   ReplicaStatus{Replicas: rs.Status.Replicas, ReadyReplicas: rs.Status.Ready, AvailableReplicas: rs.Status.Available},
			Revision: rs.Revision, Desired: rs.Desired, MaxReplicas: rs.MaxReplicas, RevisionHistory: slices.Clone(rs.History)})
	}
	return out
}

// ReplicaSetOf returns the name of the ReplicaSet of wl that created p,
// or "" if none did. It is known from p's first change on: a ReplicaSet's
// pods share its template, and no two ReplicaSets share one.
func (wl *Workload) ReplicaSetOf(p *Pod) string {
	if p.owner != wl {
		return ""
	}
	for _, rs := range wl.rc.Sets {
		if rs.Template == p.Spec {
			return rs.Name
		}
	}
	return ""
}

// Revision is a Deployment's deployment.kubernetes.io/revision: its new
// ReplicaSet's when the controller last found or made it (a Recreate
// rollout makes it only once the old pods are gone); 0 for other kinds.
func (wl *Workload) Revision() int { return wl.rc.Revision }

// ProgressUpdated is the lastUpdateTime of a Deployment's Progressing
// condition: when progress was last seen.
func (wl *Workload) ProgressUpdated() time.Duration { return wl.rc.ProgressUpdate }

// ReplicaStatus is a ReplicaSet's or Deployment's status as its controller
// last wrote it.
type ReplicaStatus struct {
	Replicas          int // active pods: not Succeeded or Failed, not being deleted
	UpdatedReplicas   int // a Deployment's active pods of its current template
	ReadyReplicas     int // active pods that are Ready
	AvailableReplicas int // active pods Ready for more than minReadySeconds
	// UnavailableReplicas is a Deployment's ReplicaSets' replicas less its
	// available pods, at least 0.
	UnavailableReplicas int
}

// ReplicaStatus returns the status of a ReplicaSet or Deployment as its
// controller last wrote it (zero for other kinds).
func (wl *Workload) ReplicaStatus() ReplicaStatus { return wl.rc.Status }

// Rollouts is how many new pod templates a Deployment has been given
// (Rollout) since its creation.
func (wl *Workload) Rollouts() int { return wl.rc.Rollouts }

// Template returns the workload's current pod template. It must not be
// changed: Rollout takes a new one.
func (wl *Workload) Template() *PodSpec { return wl.Spec.Template }

// Rollout gives a Deployment a new pod template, as `kubectl set image`
// does: its controller (RolloutHandler) makes a ReplicaSet for it (or
// takes back the one made for an earlier template alike) and moves the
// pods to it by its strategy. It reports whether wl is a Deployment.
func (wl *Workload) Rollout(t *PodSpec) bool {
	if wl.Spec.Kind != KindDeployment {
		return false
	}
	if h, ok := wl.ctl.(RolloutHandler); ok {
		h.Rollout(wl, t)
	}
	return true
}

// ReplicaSetEvent records an event about the workload's ReplicaSet rs
// from source: a ReplicaSet's own event, or, for one of a Deployment's,
// an event the API shows on that ReplicaSet (owned by the Deployment)
// and the Deployment's log keeps for the correlator
// (pkg/controller/replicaset/replica_set.go records its pod creations and
// deletions on the ReplicaSet).
func (wl *Workload) ReplicaSetEvent(rs string, typ EventType, reason, source, msg string) {
	if wl.Spec.Kind != KindDeployment {
		wl.w.eventMsg(wl.Spec.Kind, wl.key, typ, reason, source, msg)
		return
	}
	c := wl.w.begin(ChangeEvent)
	c.Workload, c.Object, c.Owner, c.Namespace = rs, KindReplicaSet, wl.Spec.Name, wl.Namespace()
	wl.w.recordEvent(wl.w.eventLog(KindDeployment, wl.key), typ, reason, source, msg, c)
}
