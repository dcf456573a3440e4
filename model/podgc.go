package model

import (
	"time"

	"github.com/podsim/podsim/sim"
)

// gcCheckPeriod is how often the pod garbage collector runs.
const gcCheckPeriod = 20 * time.Second

// podGC is the pod garbage collector (pkg/controller/podgc): when more
// finished pods exist than TerminatedPodGCThreshold, it deletes the
// oldest. (Its other duty, deleting pods bound to nodes that no longer
// exist, has nothing to do here: podsim's nodes are never deleted.)
type podGC struct {
	w     *World
	timer sim.Timer
}

func (g *podGC) init(w *World) {
	g.w = w
	g.timer.Init(g.run)
}

// kick arms the next periodic pass when there may be too many finished pods.
func (g *podGC) kick() {
	if g.timer.Pending() || g.w.settings.TerminatedPodGCThreshold <= 0 {
		return
	}
	now := g.w.Now()
	g.w.eng.Schedule(&g.timer, sim.AddSat(now/gcCheckPeriod*gcCheckPeriod, gcCheckPeriod), sim.Normal)
}

func (g *podGC) run() {
	var finished []*Pod
	for _, p := range g.w.pods {
		if !p.deleted && p.phase.Terminal() {
			finished = append(finished, p)
		}
	}
	excess := len(finished) - g.w.settings.TerminatedPodGCThreshold
	for i := 0; i < excess; i++ { // w.pods is in creation order: oldest first
		finished[i].Delete(new(time.Duration))
	}
}
