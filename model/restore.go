package model

import "time"

// A run that starts from a snapshot of a cluster: virtual time 0 is the
// snapshot's instant, and what the snapshot holds was there before it. A
// pod of the snapshot is created as it was (on its node, in its phase,
// its containers running since their start with their restart counts),
// not through the scheduler and the kubelet's first sync; a workload
// adopts its pods (and a Deployment its ReplicaSets) instead of creating
// them. Times before the snapshot are negative.

// ContainerSnapshot is one container's status in a snapshot: its state
// (Running since StartedAt, Waiting, or Terminated), its last
// termination, its restart count and its Started and Ready flags.
type ContainerSnapshot struct {
	Name           string
	State          ContainerState
	LastState      ContainerState
	RestartCount   int32
	Started, Ready bool
}

// PodSnapshot is a pod as a snapshot holds it.
type PodSnapshot struct {
	Name    string
	Spec    *PodSpec // Spec.NodeName is the node it is bound to ("" unscheduled)
	Options PodOptions
	Phase   Phase
	// CreatedAt is metadata.creationTimestamp; StartTime status.startTime,
	// nil if the kubelet had not set the pod up; ReadySince the Ready
	// condition's lastTransitionTime.
	CreatedAt  time.Duration
	StartTime  *time.Duration
	ReadySince time.Duration
	// NotReady says its Ready condition was not True although its
	// containers were ready: the node controller marked it (its node
	// NotReady).
	NotReady bool
	// DeleteAt is metadata.deletionTimestamp (nil: not being deleted),
	// DeletionGrace its deletionGracePeriodSeconds.
	DeleteAt      *time.Duration
	DeletionGrace time.Duration
	Containers    []ContainerSnapshot // init and regular, by name
	ReplicaSet    string              // a Deployment's pod: the ReplicaSet that owns it
}

// ReplicaSetSnapshot is one of a Deployment's ReplicaSets in a snapshot.
type ReplicaSetSnapshot struct {
	Name     string
	Template *PodSpec
	Replicas int
	Revision int // deployment.kubernetes.io/revision; 0: by its order
	Created  time.Duration
}

// WorkloadSnapshot is what a workload had in a snapshot: its pods, and a
// Deployment's ReplicaSets.
type WorkloadSnapshot struct {
	Created     time.Duration
	ReplicaSets []ReplicaSetSnapshot
	Pods        []PodSnapshot
}

// RestorePod creates a bare pod as the snapshot s holds it (see
// PodSnapshot): on its node, in its phase, with its containers' states.
// A pod bound to a node the world does not have goes to the scheduler.
func (w *World) RestorePod(s *PodSnapshot) *Pod {
	p := w.newPod(s.Name, s.Spec, s.Options, nil)
	p.restore(s)
	return p
}

// restorePods creates the pods of the workload's snapshot, owned by it.
// A kind's controller that keeps the templates (SnapshotAdopter: a
// ReplicaSet's, a Deployment's from the snapshot's ReplicaSets) names
// the template of each; PodAdopted files it. It runs when the workload
// is added, before its controller hears of it.
func (wl *Workload) restorePods() {
	snap := wl.Spec.Snapshot
	wl.created = snap.Created
	wl.w.past = min(wl.w.past, snap.Created)
	if wl.Spec.Kind == KindDeployment {
		for i := range snap.ReplicaSets {
			wl.w.past = min(wl.w.past, snap.ReplicaSets[i].Created)
		}
	}
	ad, _ := wl.ctl.(SnapshotAdopter)
	if ad != nil {
		ad.AdoptSnapshot(wl)
	}
	for i := range snap.Pods {
		ps := &snap.Pods[i]
		if ad != nil {
			if t := ad.AdoptTemplate(wl, ps); t != nil {
				ps.Spec = withNode(t, ps.Spec.NodeName)
			}
		}
		if wl.Spec.Kind == KindDaemonSet {
			ps.Options.affinityNode = ps.Spec.NodeName
		}
		p := wl.w.newPod(ps.Name, ps.Spec, ps.Options, wl)
		wl.pods = append(wl.pods, p)
		if h, ok := wl.ctl.(PodAdoptedHandler); ok {
			h.PodAdopted(wl, p) // a ReplicaSet's, a StatefulSet's ordinal
		}
		p.restore(ps) // its owner counts it from its first change
	}
}

// withNode is t with NodeName set to node (t itself if it names it).
func withNode(t *PodSpec, node string) *PodSpec {
	if t.NodeName == node {
		return t
	}
	c := *t
	c.NodeName = node
	return &c
}

// restore puts p, just created, where its snapshot s has it.
func (p *Pod) restore(s *PodSnapshot) {
	w := p.w
	p.CreatedAt = s.CreatedAt
	w.past = min(w.past, s.CreatedAt)
	n := w.nodeIdx[s.Spec.NodeName]
	switch {
	case n == nil:
		p.setPhase(Pending)
		w.podUnbound(p)
		return
	case s.StartTime == nil:
		p.setPhase(Pending)
		p.bind(n)
		return
	}
	p.setPhase(s.Phase)
	p.Node = n
	n.pods = append(n.pods, p)
	if !p.terminal() {
		n.hold(p)
		n.watchMemory(p)
	}
	p.setCondition(PodScheduled, True, "", "")
	p.sandbox = true
	p.AssignIP()
	p.startTime, p.started = *s.StartTime, true
	w.past = min(w.past, *s.StartTime)
	p.setCondition(PodReadyToStartContainers, True, "", "")
	w.kubelet.RestoreContainers(p, s)
	w.podBound(p)
	w.kubelet.Restored(p, s)
	p.backdate(s)
	p.restoreDeletion(s)
}

// restoreDeletion deletes a pod that was being deleted, with what is
// left of its grace period (its kubelet, if it hears, kills what still
// runs within a second once it is past), and shows the snapshot's
// deletionTimestamp. A pod on a node cut off stays Terminating.
func (p *Pod) restoreDeletion(s *PodSnapshot) {
	if s.DeleteAt == nil || p.terminal() {
		return
	}
	g := *s.DeleteAt - p.w.Now()
	if g <= 0 {
		g = time.Second
	}
	p.Delete(&g)
	if p.deleting {
		p.more.deadline, p.more.deletionGrace = *s.DeleteAt, max(s.DeletionGrace, 0)
		p.w.past = min(p.w.past, *s.DeleteAt)
	}
}

// backdate moves the times of the pod's conditions to the snapshot's:
// scheduled when created, Ready since ReadySince.
func (p *Pod) backdate(s *PodSnapshot) {
	for i := range p.conds {
		c := p.cond(&p.conds[i])
		at := &p.conds[i].at
		switch {
		case c.Type == PodScheduled:
			*at = s.CreatedAt
		case c.Type == PodReadyToStartContainers || c.Type == Initialized:
			*at = *s.StartTime
		case c.Status == True && (c.Type == Ready || c.Type == ContainersReady):
			*at = min(s.ReadySince, 0)
		}
	}
	p.w.past = min(p.w.past, s.ReadySince)
}

// StartNotReady makes a node of a snapshot whose Ready condition was not
// True start that way: its kubelet cut off from the control plane (its
// containers run on, unseen), Ready Unknown from now and the unreachable
// taints on, as the node lifecycle controller leaves a silent node.
func (n *Node) StartNotReady() {
	n.Partition(nil)
	n.setCondition(Ready, StatusUnknown, "NodeStatusUnknown", "Kubelet stopped posting node status.")
	n.Taint(TaintUnreachable)
}
