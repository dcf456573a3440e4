package model

import (
	"time"

	"github.com/podsim/podsim/sim"
)

// A pod's deletion as the API server does it: the deletion timestamp and
// grace period, and the pod leaving the API. What its kubelet does about
// it is the kubelet's (model/kubelet/termination.go), reached through the Kubelet hook.

// Delete deletes the pod through the API with the given grace period (nil:
// the pod's terminationGracePeriodSeconds). A pod that is not on a node or
// already finished goes at once; otherwise it shows Terminating, its
// containers are stopped (sidecars last, in reverse order), its phase
// becomes Succeeded or Failed, and then it leaves the API. A later delete
// can only shorten the grace period.
func (p *Pod) Delete(grace *time.Duration) {
	if p.deleted {
		return
	}
	g := p.Spec.TerminationGracePeriod
	if grace != nil {
		g = *grace
	}
	now := p.w.Now()
	if p.deleting {
		if m, at := p.more, sim.AddSat(now, g); at < m.deadline {
			m.deadline, m.deletionGrace = at, g
			p.w.kubelet.GraceShortened(p)
		}
		return
	}
	reachable := p.Node != nil && p.Node.Reachable()
	if g == 0 && !p.deleting {
		// A grace period of 0 deletes from the API at once (a force
		// delete): the last status stays what it was; the kubelet kills
		// what still runs, out of the API's sight.
		p.remove()
		return
	}
	if p.Node == nil || reachable && (p.terminal() || !p.sandbox) {
		p.remove()
		return
	}
	m := p.moreState()
	p.deleting, m.deadline, m.deletionGrace = true, sim.AddSat(now, g), g
	p.w.podTerminating(p)
	p.w.kubelet.DeletionSet(p)
	p.record(Change{Kind: ChangePod, Reason: "Terminating", Message: "grace period " + g.String()})
	p.w.podChanged(p)
	if !reachable {
		return // the kubelet hears of it when its node is back
	}
	p.w.kubelet.HeardDelete(p)
}

// remove takes the pod out of the API: its node frees its resources.
func (p *Pod) remove() {
	if p.deleted {
		return
	}
	p.deleted, p.moreState().deletedAt = true, p.w.Now()
	p.w.kubelet.Removed(p)
	if n := p.Node; n != nil {
		for i, q := range n.pods {
			if q == p {
				n.pods = append(n.pods[:i], n.pods[i+1:]...)
				break
			}
		}
		if !p.terminal() {
			n.release(p)
		}
	}
	p.w.object(ObjectChange{Kind: ObjectPod, Op: ObjectDeleted, Pod: p})
	p.w.podDeleted(p)
	p.record(Change{Kind: ChangePod, Reason: "Deleted"})
	p.w.podChanged(p)
}

// DeletionTimestamp is the pod's metadata.deletionTimestamp: when its grace
// period ends (the delete's time plus the grace period), with that grace
// period. ok is false if the pod was never asked to go.
func (p *Pod) DeletionTimestamp() (at, grace time.Duration, ok bool) {
	if p.more == nil {
		return 0, 0, false
	}
	return p.more.deadline, p.more.deletionGrace, p.deleting
}

// DeletedAt is when the pod left the API (valid if Deleted).
func (p *Pod) DeletedAt() time.Duration {
	if p.more == nil {
		return 0
	}
	return p.more.deletedAt
}
