package scenarios

import (
	"math"
	"slices"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/sim"
)

// defaultSurge is the default of maxSurge and maxUnavailable (apps/v1
// SetDefaults_Deployment).
var defaultSurge = model.IntOrPercent{Value: 25, Percent: true}

// deploymentStrategy converts a Deployment's strategy and progress
// deadline with Kubernetes' defaults: RollingUpdate, 25% and 25%, 600 s
// (math.MaxInt32 means no deadline).
func deploymentStrategy(sp *WorkloadSpec, out *model.WorkloadSpec) {
	out.MaxSurge, out.MaxUnavailable = defaultSurge, defaultSurge
	if st := sp.Strategy; st != nil {
		if st.Type == "Recreate" {
			out.Strategy = model.Recreate
		}
		if ru := st.RollingUpdate; ru != nil {
			if ru.MaxSurge != nil {
				out.MaxSurge = *ru.MaxSurge.model()
			}
			if ru.MaxUnavailable != nil {
				out.MaxUnavailable = *ru.MaxUnavailable.model()
			}
		}
	}
	deadline := int64(600)
	if d := sp.ProgressDeadlineSeconds; d != nil {
		deadline = int64(*d)
	}
	if deadline != math.MaxInt32 {
		d := sim.Seconds(deadline)
		out.ProgressDeadline = &d
	}
}

// withImage returns a copy of template t whose container ro.Container (the
// only container if not named) runs ro.Image, with that image's behaviour.
// Its imagePullPolicy stays as the API server defaulted it for the first
// image.
func withImage(t *model.PodSpec, ro *RolloutFault, behaviors map[behaviorKey]*model.Behavior) *model.PodSpec {
	name := ro.Container
	if name == "" {
		name = t.Containers[0].Name // validation: the template has one container
	}
	out := *t
	out.InitContainers = slices.Clone(t.InitContainers)
	out.Containers = slices.Clone(t.Containers)
	for j, list := range [][]model.ContainerSpec{out.InitContainers, out.Containers} {
		for i := range list {
			if c := &list[i]; c.Name == name {
				c.Image = ro.Image
				c.Behavior = behaviorOf(behaviors, name, ro.Image)
				if j == 0 {
					c.Behavior = initBehavior(c)
				}
			}
		}
	}
	return &out
}
