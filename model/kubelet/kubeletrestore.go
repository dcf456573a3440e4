package kubelet

import (
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/sim"
)

// The kubelet's side of a pod restored from a snapshot: its containers'
// state, probe results, crash backoff and the end of the running process.

func (k *kubeletCore) RestoreContainers(pod *model.Pod, s *model.PodSnapshot) {
	p := k.pod(pod)
	for _, c := range p.all() {
		c.restore(s)
	}
}

func (k *kubeletCore) Restored(pod *model.Pod, s *model.PodSnapshot) {
	p := k.pod(pod)
	if p.Phase().Terminal() {
		p.terminated = true
		p.updateConditions() // Ready False, PodCompleted or PodFailed
		return
	}
	for _, c := range p.all() {
		c.updateReady()
	}
	p.updateStatus()
	if !p.Node.Reachable() { // its last status, as the API holds it
		p.updateConditions()
	}
	if s.NotReady {
		p.MarkNotReady()
	}
	p.requestSync()
}

// restore sets the container's status from the pod's snapshot, starts
// its probe workers with the results the snapshot shows, and plans the
// end of a running process by its behaviour's run.
func (c *container) restore(s *model.PodSnapshot) {
	p := c.pod
	var cs *model.ContainerSnapshot
	for i := range s.Containers {
		if s.Containers[i].Name == c.Spec.Name {
			cs = &s.Containers[i]
		}
	}
	if cs == nil { // no status: an init container of a started pod has finished
		cs = &model.ContainerSnapshot{State: model.ContainerState{Kind: model.StateWaiting, Reason: model.ReasonContainerCreating}}
		if c.isInit() && !c.Spec.Sidecar && s.Phase != model.Pending {
			cs.State = model.ContainerState{Kind: model.StateTerminated, Reason: model.ReasonCompleted, StartedAt: *s.StartTime, FinishedAt: *s.StartTime}
		}
	}
	c.startProbers()
	p.SetContainerRestarts(int(c.idx), cs.RestartCount)
	c.setLastState(cs.LastState)
	if cs.State.Kind != model.StateWaiting || cs.RestartCount > 0 || cs.LastState.Kind == model.StateTerminated {
		c.Run.Starts = cs.RestartCount + 1
	}
	c.setState(cs.State)
	c.restoreBackoff(cs)
	for _, t := range []time.Duration{cs.State.StartedAt, cs.State.FinishedAt, cs.LastState.StartedAt, cs.LastState.FinishedAt} {
		p.World().NotePast(t)
	}
	if cs.State.Kind != model.StateRunning {
		return
	}
	p.k.node(p.Node).addImage(c.Spec.Image)
	c.startedAt = cs.State.StartedAt
	c.Probes.Restore(c.Run.Starts, cs.Started, cs.Ready)
	c.Probes.Wake()
	if after, exits := c.planRun(c.Spec.Behavior.NthRun(c.Run.Starts - 1)); exits {
		p.World().Engine().Schedule(&c.procState().exitTimer, max(sim.AddSat(c.startedAt, after), p.World().Now()), sim.Normal)
	}
}

// restoreBackoff sets the crash backoff of a container that restarted as
// the kubelet left it: the delay doubled at each restart from Initial (up
// to Max), moved on when its latest run started.
func (c *container) restoreBackoff(cs *model.ContainerSnapshot) {
	if cs.RestartCount < 1 {
		return
	}
	cfg := c.pod.World().CrashLoopBackOff()
	delay := cfg.Initial
	for i := int32(1); i < cs.RestartCount && delay < cfg.Max; i++ {
		delay = sim.MulSat(delay, 2)
	}
	last := cs.State.StartedAt
	if cs.State.Kind != model.StateRunning {
		last = cs.LastState.StartedAt
	}
	c.procState().crash = backoff{set: true, delay: min(delay, cfg.Max), lastUpdate: last}
}
