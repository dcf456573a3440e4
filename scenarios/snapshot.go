package scenarios

import (
	"slices"
	"strconv"
	"time"

	"github.com/podsim/podsim/internal/yamlstrict"
	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/sim"
)

// Building a run from a snapshot of a cluster (schema_snapshot.go): its
// Nodes as they were, and its pods where they were, adopted by their
// controllers. Virtual time 0 is the snapshot's instant: spec.startTime,
// or else the latest time the included objects hold.

// addNodes adds the nodes of entry n: its capacity (the scheduler counts
// allocatable, if given), taints, cordon and Ready state.
func (s *Scenario) addNodes(w *model.World, n *Node) {
	count := 1
	if n.Count != nil {
		count = *n.Count
	}
	capacity := resources(n.Capacity, defaultCapacity)
	var total model.Resources
	if n.Allocatable != nil {
		capacity, total = resources(n.Allocatable, capacity), capacity
	}
	var taints []model.Taint
	for _, t := range n.Taints {
		taints = append(taints, model.Taint{Key: t.Key, Value: t.Value, Effect: t.Effect})
	}
	for _, name := range ExpandNodeNames(n.Name, count) {
		node := w.AddNode(model.NodeSpec{Name: name, Labels: n.Labels, Capacity: capacity, Taints: taints, Total: total,
			Shutdown: effectiveShutdown(&n.NodeShutdown, &s.File.Spec.Settings.NodeShutdown), PricePerHour: n.price()})
		node.CreatedAt = s.since(n.CreationTimestamp)
		if n.Unschedulable {
			node.Cordon()
		}
		if n.NotReady {
			node.StartNotReady()
		}
	}
}

// resources reads cpu, memory and pods of a capacity over def.
func resources(in map[string]Quantity, def model.Resources) model.Resources {
	out := def
	if q, ok := in["cpu"]; ok {
		out.MilliCPU = q.MilliValue()
	}
	if q, ok := in["memory"]; ok {
		out.Memory = q.Value()
	}
	if q, ok := in["pods"]; ok {
		out.Pods = q.Value()
	}
	return out
}

// ownership is which workload of the scenario adopts each pod of a
// snapshot, by its controller's ownerReference.
type ownership struct {
	owner  map[*Pod]*Workload      // the workload that adopts the pod
	rs     map[*Pod]*Workload      // a Deployment's pod: the ReplicaSet it came from
	folded map[*Workload]*Workload // a ReplicaSet of a Deployment of the scenario: that Deployment
	orphan map[*Pod]*OwnerReference
}

// controllerRef is the ownerReference of m that is its controller, or nil.
func controllerRef(m *ObjectMeta) *OwnerReference {
	for i := range m.OwnerReferences {
		if r := &m.OwnerReferences[i]; r.Controller != nil && *r.Controller {
			return r
		}
	}
	return nil
}

// owners works out the ownership of the scenario's pods and ReplicaSets.
func (s *Scenario) owners() *ownership {
	o := &ownership{owner: map[*Pod]*Workload{}, rs: map[*Pod]*Workload{}, folded: map[*Workload]*Workload{}, orphan: map[*Pod]*OwnerReference{}}
	byName := map[[3]string]*Workload{}
	for _, wl := range s.workloads {
		byName[[3]string{wl.Kind, wl.Metadata.Namespace, wl.Metadata.Name}] = wl
	}
	find := func(ns string, r *OwnerReference) *Workload {
		kind := r.Kind
		if kind == "ReplicationController" {
			kind = model.KindReplicaSet // as package manifests converts it
		}
		return byName[[3]string{kind, ns, r.Name}]
	}
	for _, wl := range s.workloads {
		if r := controllerRef(&wl.Metadata); wl.Kind == model.KindReplicaSet && r != nil && r.Kind == model.KindDeployment {
			if d := find(wl.Metadata.Namespace, r); d != nil {
				o.folded[wl] = d
			}
		}
	}
	for _, p := range s.pods {
		r := controllerRef(&p.Metadata)
		if r == nil {
			continue
		}
		wl := find(p.Metadata.Namespace, r)
		switch {
		case wl == nil || !slices.Contains(controllerKinds, wl.Kind):
			o.orphan[p] = r
		case o.folded[wl] != nil:
			o.owner[p], o.rs[p] = o.folded[wl], wl
		default:
			o.owner[p] = wl
		}
	}
	return o
}

// controllerKinds are the kinds that adopt pods.
var controllerKinds = []string{model.KindReplicaSet, model.KindDeployment, model.KindStatefulSet, model.KindDaemonSet, model.KindJob}

// since is ts (RFC 3339) as virtual time: before the snapshot's instant,
// negative; 0 if it is not set or later.
func (s *Scenario) since(ts string) time.Duration {
	t, err := time.Parse(time.RFC3339, ts)
	if ts == "" || err != nil {
		return 0
	}
	return min(t.Sub(s.startTime()), 0)
}

// deletionSince is a deletionTimestamp as virtual time: the end of a
// grace period, which may be after the snapshot's instant.
func (s *Scenario) deletionSince(ts string) time.Duration {
	t, err := time.Parse(time.RFC3339, ts)
	if err != nil {
		return 0
	}
	return t.Sub(s.startTime())
}

// podSnapshot is p as its status has it, with spec and options as built.
func (s *Scenario) podSnapshot(p *Pod, spec *model.PodSpec, o model.PodOptions) model.PodSnapshot {
	st := p.Status
	out := model.PodSnapshot{Name: p.Metadata.Name, Spec: spec, Options: o, Phase: model.Phase(st.Phase),
		CreatedAt: s.since(p.Metadata.CreationTimestamp)}
	if out.Phase == "" {
		out.Phase = model.Pending
	}
	if st.StartTime != "" {
		d := s.since(st.StartTime)
		out.StartTime = &d
	}
	if m := &p.Metadata; m.DeletionTimestamp != "" {
		d := s.deletionSince(m.DeletionTimestamp)
		out.DeleteAt = &d
		if g := m.DeletionGracePeriodSeconds; g != nil {
			out.DeletionGrace = sim.Seconds(*g)
		}
	}
	for _, c := range st.Conditions {
		switch {
		case c.Type != model.Ready:
		case c.Status == string(model.True):
			out.ReadySince = s.since(c.LastTransitionTime)
		default:
			out.NotReady = true
		}
	}
	for _, list := range [][]ContainerStatus{st.InitContainerStatuses, st.ContainerStatuses} {
		for i := range list {
			cs := &list[i]
			c := model.ContainerSnapshot{Name: cs.Name, RestartCount: cs.RestartCount, Ready: cs.Ready,
				State: s.containerState(&cs.State), LastState: s.containerState(&cs.LastState)}
			c.Started = c.State.Kind == model.StateRunning
			if cs.Started != nil {
				c.Started = *cs.Started
			}
			out.Containers = append(out.Containers, c)
		}
	}
	return out
}

func (s *Scenario) containerState(c *ContainerState) model.ContainerState {
	switch {
	case c.Running != nil:
		return model.ContainerState{Kind: model.StateRunning, StartedAt: s.since(c.Running.StartedAt)}
	case c.Terminated != nil:
		t := c.Terminated
		return model.ContainerState{Kind: model.StateTerminated, ExitCode: t.ExitCode, Reason: t.Reason,
			StartedAt: s.since(t.StartedAt), FinishedAt: s.since(t.FinishedAt)}
	case c.Waiting != nil:
		return model.ContainerState{Kind: model.StateWaiting, Reason: c.Waiting.Reason, Message: c.Waiting.Message}
	}
	return model.ContainerState{}
}

// addPod adds a bare pod: as its snapshot has it, if it has a status.
func (s *Scenario) addPod(w *model.World, p *Pod, behaviors map[behaviorKey]*model.Behavior) {
	spec := podSpec(&p.Spec, behaviors)
	o := podOptions(&p.Metadata, &p.Spec)
	if p.Status == nil {
		w.AddPod(p.Metadata.Name, spec, o)
		return
	}
	snap := s.podSnapshot(p, spec, o)
	w.RestorePod(&snap)
}

// workloadSnapshot is what wl adopts of the snapshot: its pods (made
// from its template, on their nodes), and a Deployment's ReplicaSets; nil
// if it adopts nothing and has no creationTimestamp.
func (s *Scenario) workloadSnapshot(wl *Workload, spec *model.WorkloadSpec, own *ownership, behaviors map[behaviorKey]*model.Behavior) *model.WorkloadSnapshot {
	out := &model.WorkloadSnapshot{Created: s.since(wl.Metadata.CreationTimestamp)}
	for _, rs := range s.workloads {
		if own.folded[rs] != wl {
			continue
		}
		replicas := 1
		if rs.Spec.Replicas != nil {
			replicas = int(*rs.Spec.Replicas)
		}
		rev, _ := strconv.Atoi(rs.Metadata.Annotations["deployment.kubernetes.io/revision"])
		out.ReplicaSets = append(out.ReplicaSets, model.ReplicaSetSnapshot{Name: rs.Metadata.Name,
			Template: podSpec(&rs.Spec.Template.Spec, behaviors), Replicas: replicas, Revision: rev,
			Created: s.since(rs.Metadata.CreationTimestamp)})
	}
	for _, p := range s.pods {
		if own.owner[p] != wl {
			continue
		}
		t := *spec.Template
		t.NodeName = p.Spec.NodeName
		o := spec.Options
		o.Labels = p.Metadata.Labels
		var snap model.PodSnapshot
		if p.Status != nil {
			snap = s.podSnapshot(p, &t, o)
		} else {
			snap = model.PodSnapshot{Name: p.Metadata.Name, Spec: &t, Options: o, Phase: model.Pending}
		}
		if rs := own.rs[p]; rs != nil {
			snap.ReplicaSet = rs.Metadata.Name
		}
		out.Pods = append(out.Pods, snap)
	}
	if len(out.Pods) == 0 && len(out.ReplicaSets) == 0 && wl.Metadata.CreationTimestamp == "" {
		return nil
	}
	return out
}

// snapshotChecks checks the status of the snapshot's pods and warns of
// those whose controller is not in it (they run as bare pods).
func (v *validator) snapshotChecks() {
	own := v.s.owners()
	for _, p := range v.s.pods {
		if r := own.orphan[p]; r != nil {
			file, at := v.s.locate(&p.Metadata, false)
			v.s.Warnings.Add(file, at, "warning: pod %s: its controller %s %s is not among the objects: it runs as a bare pod, and nothing replaces it", p.Metadata.Name, r.Kind, r.Name)
		}
		v.times(&p.Metadata.CreationTimestamp, &p.Metadata.DeletionTimestamp)
		st := p.Status
		if st == nil {
			continue
		}
		if phases := []string{"Pending", "Running", "Succeeded", "Failed", "Unknown"}; st.Phase != "" && !slices.Contains(phases, st.Phase) {
			v.at(&st.Phase, "phase %q: want Pending, Running, Succeeded, Failed or Unknown%s", st.Phase, didYouMean(st.Phase, phases))
		}
		v.times(&st.StartTime)
		for i := range st.Conditions {
			v.times(&st.Conditions[i].LastTransitionTime)
		}
		for _, list := range [][]ContainerStatus{st.InitContainerStatuses, st.ContainerStatuses} {
			for i := range list {
				cs := &list[i]
				if cs.RestartCount < 0 {
					v.at(&cs.RestartCount, "restartCount must not be negative")
				}
				for _, c := range []*ContainerState{&cs.State, &cs.LastState} {
					if r := c.Running; r != nil {
						v.times(&r.StartedAt)
					}
					if t := c.Terminated; t != nil {
						v.times(&t.StartedAt, &t.FinishedAt)
					}
				}
			}
		}
	}
	for _, wl := range v.s.workloads {
		v.times(&wl.Metadata.CreationTimestamp)
	}
	for _, n := range v.s.nodes {
		v.times(&n.CreationTimestamp)
	}
}

// times checks that each time is RFC 3339 (or left out).
func (v *validator) times(ts ...*string) {
	for _, t := range ts {
		if _, err := time.Parse(time.RFC3339, *t); *t != "" && err != nil {
			v.at(t, "%s: want an RFC 3339 time such as 2024-01-01T00:00:00Z", yamlstrict.QuoteValue(*t))
		}
	}
}

// adoptedKeys are the keys (model.Key) of the pods a workload of the
// scenario adopts, and of the Jobs a CronJob of it made: their names are
// their controller's, which the checks of names between bare pods and
// controllers must not hold against them.
func (s *Scenario) adoptedKeys() map[string]bool {
	out := map[string]bool{}
	for p := range s.owners().owner {
		out[model.Key(p.Metadata.Namespace, p.Metadata.Name)] = true
	}
	for _, wl := range s.workloads {
		if r := controllerRef(&wl.Metadata); r != nil && r.Kind == kindCronJob {
			out[model.Key(wl.Metadata.Namespace, wl.Metadata.Name)] = true
		}
	}
	return out
}
