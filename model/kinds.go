package model

// WorkloadController is the controller of one workload kind, as
// kube-controller-manager runs one controller per kind. The core calls
// Sync for a workload of that kind when a requested sync comes due (at
// most once per instant, among the world's ordinary events): after its
// creation, when one of its pods or Jobs changes, when it is scaled. A
// workload whose kind has no controller never syncs. A controller keeps
// its state of a workload in its own types, by Workload.ID.
type WorkloadController interface {
	// Sync brings wl toward its spec.
	Sync(wl *Workload)
}

// PodAdoptedHandler is a WorkloadController that hears of each pod of a
// snapshot of a cluster that a new workload of its kind adopts, before
// the pod's status is restored and before WorkloadAdded.
type PodAdoptedHandler interface{ PodAdopted(wl *Workload, p *Pod) }

// WorkloadAddedHandler is a WorkloadController that hears of each new
// workload of its kind, after its Added object change and before its
// first sync is requested.
type WorkloadAddedHandler interface{ WorkloadAdded(wl *Workload) }

// RegisterWorkloadController makes c the controller of the workloads of
// kind, in place of any before it, and registers it as a part
// (World.Register) for the notifications it hears. Register before a
// workload of kind is added: a workload keeps the controller it was added
// with.
func (w *World) RegisterWorkloadController(kind string, c WorkloadController) {
	if w.kindControllers == nil {
		w.kindControllers = map[string]WorkloadController{}
	}
	w.kindControllers[kind] = c
	w.Register(c)
}

// ScaleHandler is a WorkloadController that acts at once when its
// workload's spec.replicas changes (Workload.Scale), before the parts
// hear WorkloadScaled: a Deployment's scales its ReplicaSets.
type ScaleHandler interface{ Scale(wl *Workload) }

// RolloutHandler is the controller of Deployments: it hears a new pod
// template given to one (Workload.Rollout) and sets it, if its
// containers' images differ from the current template's.
type RolloutHandler interface {
	Rollout(wl *Workload, t *PodSpec)
}

// SnapshotAdopter is a WorkloadController whose workloads' pods in a
// snapshot of a cluster are made from templates it keeps (a ReplicaSet's):
// AdoptSnapshot hears of the workload's snapshot (Spec.Snapshot) before
// any of its pods is made; AdoptTemplate names the template each pod is
// made from (nil: the snapshot's own spec), then PodAdopted files the pod
// (PodAdoptedHandler).
type SnapshotAdopter interface {
	AdoptSnapshot(wl *Workload)
	AdoptTemplate(wl *Workload, ps *PodSnapshot) *PodSpec
}
