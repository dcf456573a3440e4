package scenarios

import (
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/sim"
)

// serviceSpec converts a Service.
func serviceSpec(wl *Workload) model.ServiceSpec {
	out := model.ServiceSpec{Name: wl.Metadata.Name, Namespace: wl.Metadata.Namespace}
	if wl.Spec.Selector != nil {
		out.Selector = wl.Spec.Selector.Labels
	}
	return out
}

// model converts a use of resources; nil uses nothing.
func (u *Usage) model() model.Resources {
	var out model.Resources
	if u != nil && u.CPU != nil {
		out.MilliCPU = u.CPU.MilliValue()
	}
	if u != nil && u.Memory != nil {
		out.Memory = u.Memory.Value()
	}
	return out
}

// limits is a container's CPU and memory limits; 0 for none.
func limits(r *Resources) model.Resources {
	var out model.Resources
	if q, ok := r.Limits["cpu"]; ok {
		out.MilliCPU = q.MilliValue()
	}
	if q, ok := r.Limits["memory"]; ok {
		out.Memory = q.Value()
	}
	return out
}

// startTraffic sends each traffic entry's requests to its Service, its
// rate stepped up to the end of the run.
func (s *Scenario) startTraffic(w *model.World) {
	for i := range s.File.Spec.Behavior {
		if b := &s.File.Spec.Behavior[i]; b.Usage != nil || b.PerRequest != nil || b.Leak != nil {
			w.EnableUsage()
			break
		}
	}
	for i := range s.File.Spec.Traffic {
		t := &s.File.Spec.Traffic[i]
		if svc := w.Service(model.Key(t.Namespace, t.Service)); svc != nil {
			svc.SetTraffic(t.RPS.Steps(s.Duration))
		}
	}
}

// sleepSeconds is a hook's sleep action as a duration; 0 if none.
func sleepSeconds(h *Handler) time.Duration {
	if h != nil && h.Sleep != nil && h.Sleep.Seconds != nil {
		return sim.Seconds(*h.Sleep.Seconds)
	}
	return 0
}
