package model

// Scale sets the replicas of a ReplicaSet, Deployment or StatefulSet now,
// as `kubectl scale` does. The kind's controller hears it at once
// (ScaleHandler: a Deployment's scales its ReplicaSets, event
// ScalingReplicaSet, "Scaled up replica set <rs> from 2 to 4", in
// proportion when a rollout is under way), then the parts
// (WorkloadScaledHandler); pods are created or deleted at the next sync.
// It reports whether the workload has replicas to scale.
func (wl *Workload) Scale(replicas int) bool {
	if _, ok := wl.scale(); !ok {
		return false
	}
	if wl.Spec.Replicas == replicas {
		return true
	}
	wl.Spec.Replicas = replicas
	wl.w.object(ObjectChange{Kind: ObjectWorkload, Op: ObjectUpdated, Workload: wl})
	if h, ok := wl.ctl.(ScaleHandler); ok {
		h.Scale(wl)
	}
	wl.w.workloadScaled(wl)
	return true
}
