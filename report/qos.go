package report

import "github.com/podsim/podsim/model"

// QOSClass is the pod's quality of service class as the API server and the
// kubelet compute it (pkg/apis/core/v1/helper/qos, ComputePodQOS), over
// its init and regular containers' cpu and memory: BestEffort when none
// asks for or limits either; Guaranteed when every container limits both
// and the pod's summed requests equal its summed limits; else Burstable.
// The model's requests are already defaulted from the limits, as the API
// server defaults them.
func QOSClass(s *model.PodSpec) string {
	var req, lim model.Resources
	guaranteed := true
	for _, cs := range [][]model.ContainerSpec{s.Containers, s.InitContainers} {
		for i := range cs {
			c := &cs[i]
			req.MilliCPU += max(c.Requests.MilliCPU, 0)
			req.Memory += max(c.Requests.Memory, 0)
			lim.MilliCPU += max(c.Limits.MilliCPU, 0)
			lim.Memory += max(c.Limits.Memory, 0)
			if c.Limits.MilliCPU <= 0 || c.Limits.Memory <= 0 {
				guaranteed = false
			}
		}
	}
	switch {
	case req == model.Resources{} && lim == model.Resources{}:
		return "BestEffort"
	case guaranteed && req == lim:
		// every container limits both, so the limits hold cpu and memory:
		// the requests must too, and equal them.
		return "Guaranteed"
	}
	return "Burstable"
}

// ControlledBy is the kind and name of the pod's controller as its
// ownerReferences name it on a cluster: a Deployment's pods are owned by
// their ReplicaSet (<deployment>-<pod-template-hash>), a Job's by the
// Job, and so on; "" for a pod without one.
func ControlledBy(p *model.Pod) (kind, name string) {
	wl := p.Owner()
	if wl == nil {
		return "", ""
	}
	if wl.Spec.Kind == model.KindDeployment {
		if rs := wl.ReplicaSetOf(p); rs != "" {
			return model.KindReplicaSet, rs
		}
		return "", ""
	}
	return wl.Spec.Kind, wl.Spec.Name
}
