package model

import (
	"time"

	"github.com/podsim/podsim/sim"
)

// gcCheckPeriod is how often the pod garbage collector runs.
const gcCheckPeriod = 20 * time.Second

// podGC is the pod garbage collector (pkg/controller/podgc). Every
// gcCheckPeriod it deletes the oldest finished pods past
// TerminatedPodGCThreshold (gcTerminated), force-deletes terminating pods on
// out-of-service nodes (gcTerminating) and the pods of deleted nodes
// (gcOrphaned, nodedelete.go). Its passes run only while one of them may
// have work.
type podGC struct {
	w     *World
	timer sim.Timer

	orphanNodes []orphanNode // deleted nodes that may still have pods
}

// orphanNode is a deleted node that may still have pods.
type orphanNode struct {
	n      *Node
	seen   bool          // a pass found pods bound to it ...
	seenAt time.Duration // ... at this time
}

func (g *podGC) init(w *World) {
	g.w = w
	g.timer.Init(g.run)
}

// kick arms the next pass when there may be too many finished pods.
func (g *podGC) kick() {
	if g.w.settings.TerminatedPodGCThreshold > 0 {
		g.arm()
	}
}

// arm schedules the next periodic pass, if none is.
func (g *podGC) arm() {
	if g.timer.Pending() {
		return
	}
	now := g.w.Now()
	g.w.eng.Schedule(&g.timer, sim.AddSat(now/gcCheckPeriod*gcCheckPeriod, gcCheckPeriod), sim.Normal)
}

func (g *podGC) run() {
	if g.w.settings.TerminatedPodGCThreshold > 0 {
		g.gcTerminated()
	}
	again := g.gcTerminating()
	if g.gcOrphaned() || again {
		g.arm()
	}
}

func (g *podGC) gcTerminated() {
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

// PodChanged arms a pass when a pod finished.
func (g *podGC) PodChanged(p *Pod) {
	if p.phase.Terminal() {
		g.kick()
	}
}

// NodeTainted arms a pass for an out-of-service node's terminating pods.
func (g *podGC) NodeTainted(_ *Node, t Taint) {
	if t.Key == TaintOutOfService {
		g.arm()
	}
}

// NodeDeleted watches the node's pods, orphaned now.
func (g *podGC) NodeDeleted(n *Node) {
	g.orphanNodes = append(g.orphanNodes, orphanNode{n: n})
	g.arm()
}
