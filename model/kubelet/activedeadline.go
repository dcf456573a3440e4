package kubelet

import (
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/sim"
)

// The kubelet's activeDeadlineHandler (pkg/kubelet/active_deadline.go):
// once a pod has been active for spec.activeDeadlineSeconds since its
// status.startTime, every sync's generateAPIPodStatus fails it with reason
// DeadlineExceeded (ShouldEvict, which records a Normal event of that
// reason), and the pod worker kills its containers with the pod's grace
// period. The status manager's mergePodStatus holds the phase Failed back
// until no container runs. The sync loop (ShouldSync) syncs such a pod at
// its first tick past the deadline.

// Upstream's message (active_deadline.go).
const msgDeadlineExceeded = "Pod was active on the node longer than the specified deadline"

// armActiveDeadline asks for a sync when the pod's active deadline
// passes: at once in exact mode, at the sync loop's next tick in realistic.
func (p *podState) armActiveDeadline() {
	d := p.Spec.ActiveDeadline
	if d == nil || p.stop.reason != "" {
		return
	}
	start, _ := p.StartTime()
	at := sim.AddSat(start, *d)
	if p.realistic() && at%syncLoopTick != 0 {
		at = sim.AddSat(at-at%syncLoopTick, syncLoopTick)
	}
	// A sync that finds the pod gone or stopped does nothing: no timer
	// to keep (and none allocated for the pods without a deadline).
	p.World().Engine().At(max(at, p.World().Now()), sim.Normal, p.requestSync)
}

// pastActiveDeadline is pastActiveDeadline: the pod has a start time and has
// been active for its whole activeDeadlineSeconds.
func (p *podState) pastActiveDeadline() bool {
	d := p.Spec.ActiveDeadline
	if d == nil {
		return false
	}
	start, ok := p.StartTime()
	return ok && p.World().Now() >= sim.AddSat(start, *d)
}

func (k *kubeletCore) StopForKubelet(p *model.Pod, reason, msg string, grace time.Duration) {
	k.pod(p).stopForKubelet(reason, msg, grace)
}

func (k *kubeletCore) StopReason(p *model.Pod) string { return k.pod(p).stop.reason }

// stopForKubelet is the kubelet deciding the pod must stop for good
// (reason and msg become the pod's once it is Failed): every running
// container is killed within grace, nothing restarts, and the pod goes
// Failed when none runs (updateStatus).
func (p *podState) stopForKubelet(reason, msg string, grace time.Duration) {
	if p.stop.reason != "" || p.Phase().Terminal() {
		return
	}
	s := p.stopping()
	s.reason, s.message, s.grace = reason, msg, grace
	for _, c := range p.all() {
		c.stopRestart()
	}
}

// syncStopping is the pod worker's sync of a pod the kubelet stops
// (stopForKubelet): kill what runs, then publish the status.
func (p *podState) syncStopping() {
	p.killAll(p.stop.grace)
	p.updateStatus()
}

// stoppedPhase is the phase of a pod the kubelet stops: Failed once no
// container runs, with the stop's reason and message; until then as it was.
func (p *podState) stoppedPhase() {
	if p.processRuns() {
		return
	}
	p.SetStatusReason(p.stop.reason, p.stop.message)
	p.SetPhase(model.Failed)
}
