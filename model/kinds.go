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

// The controllers of the kinds the core still holds.
type (
	replicasController struct{} // ReplicaSet, Deployment (replicaset.go)
)

func (replicasController) Sync(wl *Workload)          { wl.syncReplicas() }
func (replicasController) WorkloadAdded(wl *Workload) { wl.initReplicas() }

// registerCoreKinds registers the controllers of the kinds the core holds.
func (w *World) registerCoreKinds() {
	w.RegisterWorkloadController(KindReplicaSet, replicasController{})
	w.RegisterWorkloadController(KindDeployment, replicasController{})
}
