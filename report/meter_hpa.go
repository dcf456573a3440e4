package report

import (
	"time"

	"github.com/podsim/podsim/model"
)

// hpaTrack follows one HorizontalPodAutoscaler through the object stream:
// its rescales, the replicas of its target, and how long its target takes
// to reach the ready pods of its first scale-up (until the first
// scale-down).
type hpaTrack struct {
	a         *model.Autoscaler
	scaled    bool          // a rescale was heard
	lastScale time.Duration // the last one heard
	rescales  int
	most      int     // most replicas of the target
	replicas  int     // the target's replicas after the last instant
	replicaS  float64 // replica-seconds of the target

	// The first scale-up: when it began, whether a scale-down ended it,
	// and when the target last reached as many ready pods as replicas
	// (a further scale-up starts the wait again).
	upAt, reachedAt     time.Duration
	up, closed, reached bool
}

// addAutoscaler learns an autoscaler added.
func (m *Meter) addAutoscaler(a *model.Autoscaler) {
	t := hpaTrack{a: a}
	if wl := a.Target(); wl != nil {
		t.replicas, t.most = wl.Spec.Replicas, wl.Spec.Replicas
	}
	m.hpas = append(m.hpas, t)
}

// autoscalerUpdated counts a rescale: a new last scale time.
func (m *Meter) autoscalerUpdated(a *model.Autoscaler, now time.Duration) {
	for i := range m.hpas {
		t := &m.hpas[i]
		st := &a.Status
		if t.a != a || !st.Scaled || (t.scaled && st.LastScaleTime == t.lastScale) {
			continue
		}
		t.scaled, t.lastScale = true, st.LastScaleTime
		t.rescales++
		switch {
		case t.closed:
		case st.DesiredReplicas > st.CurrentReplicas:
			if !t.up {
				t.up, t.upAt = true, now
			}
			t.reached = false
		case t.up:
			t.closed = true
		}
	}
}

// afterHPAs reads each target's replicas once an instant is complete,
// and closes a first scale-up whose target has as many ready pods.
func (m *Meter) afterHPAs(now time.Duration) {
	for i := range m.hpas {
		t := &m.hpas[i]
		wl := t.a.Target()
		if wl == nil {
			continue
		}
		t.replicas = wl.Spec.Replicas
		t.most = max(t.most, t.replicas)
		if w := m.workloadIndex(wl); t.up && !t.closed && !t.reached && w >= 0 && m.wlReady[w] >= t.replicas {
			t.reached, t.reachedAt = true, now
		}
	}
}

// advanceHPAs counts the targets' replica-seconds from prev to now.
func (m *Meter) advanceHPAs(prev, now time.Duration) {
	for i := range m.hpas {
		m.hpas[i].replicaS += float64(m.hpas[i].replicas) * (now - prev).Seconds()
	}
}

// finishHPAs adds the hpa.* metrics of each autoscaler.
func (m *Meter) finishHPAs(add func(string, float64)) {
	for i := range m.hpas {
		t := &m.hpas[i]
		add("hpa.rescales", float64(t.rescales))
		add("hpa.maxReplicas", float64(t.most))
		add("hpa.replicaHours", t.replicaS/3600)
		if t.reached {
			add("hpa.timeToCapacity", (t.reachedAt - t.upAt).Seconds())
		}
	}
}
