// Package podgc is the pod garbage collector (pkg/controller/podgc). Every
// gcCheckPeriod it deletes the oldest finished pods past
// Settings.TerminatedPodGCThreshold, force-deletes the terminating pods of
// out-of-service nodes that are not Ready, and the pods of deleted nodes
// after a quarantine. Its passes run only while one of them may have work.
package podgc

import (
	"container/heap"
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/sim"
)

// gcCheckPeriod is how often the pod garbage collector runs.
const gcCheckPeriod = 20 * time.Second

// orphanQuarantine is how long PodGC waits after it first finds pods bound
// to a node it does not know before it deletes them (quarantineTime in
// pkg/controller/podgc/gc_controller.go).
const orphanQuarantine = 40 * time.Second

// Controller is PodGC; register it with World.Register.
type Controller struct {
	w         *model.World
	timer     sim.Timer
	threshold int // Settings.TerminatedPodGCThreshold, fixed for a run: read per pod change

	orphanNodes []orphanNode // deleted nodes that may still have pods
	finished    finishedPods // finished pods not yet deleted, oldest first
}

// finishedPods is a min-heap of finished pods by Pod.ID (creation order),
// with the IDs of those still in the API: a pod deleted by someone else
// stays in the heap until it reaches the top or the heap is compacted, so
// a pass never looks at the pods deleted long ago.
type finishedPods struct {
	heap podHeap
	live map[int]bool // by Pod.ID: finished, in the heap, not deleted
}

// podHeap orders pods by Pod.ID.
type podHeap []*model.Pod

func (h podHeap) Len() int           { return len(h) }
func (h podHeap) Less(i, j int) bool { return h[i].ID() < h[j].ID() }
func (h podHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *podHeap) Push(x any)        { *h = append(*h, x.(*model.Pod)) }
func (h *podHeap) Pop() any {
	old := *h
	p := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	return p
}

// track notes that p changed: a finished pod joins the heap once; a
// deleted one leaves the live set. A heap more than twice the live pods
// (and 64) is compacted.
func (f *finishedPods) track(p *model.Pod) {
	switch {
	case p.Deleted():
		delete(f.live, p.ID())
	case p.Phase().Terminal() && !f.live[p.ID()]:
		if f.live == nil {
			f.live = map[int]bool{}
		}
		f.live[p.ID()] = true
		heap.Push(&f.heap, p)
	}
	if len(f.heap) > 2*len(f.live)+64 {
		keep := f.heap[:0]
		for _, q := range f.heap {
			if !q.Deleted() {
				keep = append(keep, q)
			}
		}
		clear(f.heap[len(keep):])
		f.heap = keep
		heap.Init(&f.heap)
	}
}

// oldest removes and returns the oldest finished pod still in the API, or
// nil.
func (f *finishedPods) oldest() *model.Pod {
	for len(f.heap) > 0 {
		if p := heap.Pop(&f.heap).(*model.Pod); !p.Deleted() {
			delete(f.live, p.ID())
			return p
		}
	}
	return nil
}

// orphanNode is a deleted node that may still have pods.
type orphanNode struct {
	n      *model.Node
	seen   bool          // a pass found pods bound to it ...
	seenAt time.Duration // ... at this time
}

// New returns PodGC for w.
func New(w *model.World) *Controller {
	g := &Controller{w: w, threshold: w.Settings().TerminatedPodGCThreshold}
	g.timer.Init(g.run)
	return g
}

// PodChanged keeps the finished pods and arms a pass when a pod finished.
func (g *Controller) PodChanged(p *model.Pod) {
	if g.threshold <= 0 {
		return
	}
	g.finished.track(p)
	if p.Phase().Terminal() {
		g.arm()
	}
}

// NodeTainted arms a pass for an out-of-service node's terminating pods.
func (g *Controller) NodeTainted(_ *model.Node, t model.Taint) {
	if t.Key == model.TaintOutOfService {
		g.arm()
	}
}

// NodeDeleted watches the node's pods, orphaned now.
func (g *Controller) NodeDeleted(n *model.Node) {
	g.orphanNodes = append(g.orphanNodes, orphanNode{n: n})
	g.arm()
}

// arm schedules the next periodic pass, if none is.
func (g *Controller) arm() {
	if g.timer.Pending() {
		return
	}
	eng := g.w.Engine()
	now := eng.Now()
	eng.Schedule(&g.timer, sim.AddSat(now/gcCheckPeriod*gcCheckPeriod, gcCheckPeriod), sim.Normal)
}

func (g *Controller) run() {
	if g.w.Settings().TerminatedPodGCThreshold > 0 {
		g.gcTerminated()
	}
	again := g.gcTerminating()
	if g.gcOrphaned() || again {
		g.arm()
	}
}

// gcTerminated deletes the oldest finished pods past the threshold, in
// creation order. It looks only at the finished pods still in the API.
func (g *Controller) gcTerminated() {
	for excess := len(g.finished.live) - g.w.Settings().TerminatedPodGCThreshold; excess > 0; excess-- {
		p := g.finished.oldest()
		if p == nil {
			return
		}
		p.Delete(new(time.Duration))
	}
}

// gcTerminating is the pass over terminating pods on nodes that are not
// Ready and carry the out-of-service taint: each is marked Failed and
// force-deleted. It reports whether an out-of-service node still has pods
// (whose time may come: the node may not be Ready yet, the pods not yet
// evicted).
func (g *Controller) gcTerminating() bool {
	watch := false
	for _, n := range g.w.Nodes() {
		if !hasTaintKey(n, model.TaintOutOfService) {
			continue
		}
		if !n.Ready() {
			for _, p := range append([]*model.Pod(nil), n.Pods()...) {
				if p.Terminating() {
					markFailedAndForceDelete(p, "", "")
				}
			}
		}
		watch = watch || len(n.Pods()) > 0
	}
	return watch
}

// gcOrphaned is the pass over pods bound to deleted nodes: a deleted
// node's pods are quarantined at the first pass that finds them, and
// deleted at the first pass at least orphanQuarantine later (marked Failed
// with DisruptionTarget DeletionByPodGC, then force-deleted). It reports
// whether some deleted node still has pods.
func (g *Controller) gcOrphaned() bool {
	now := g.w.Now()
	keep := g.orphanNodes[:0]
	for _, o := range g.orphanNodes {
		if len(o.n.Pods()) == 0 {
			continue
		}
		if !o.seen {
			o.seen, o.seenAt = true, now
		}
		if now >= sim.AddSat(o.seenAt, orphanQuarantine) {
			for _, p := range append([]*model.Pod(nil), o.n.Pods()...) {
				markFailedAndForceDelete(p, "DeletionByPodGC", "PodGC: node no longer exists")
			}
			continue
		}
		keep = append(keep, o)
	}
	g.orphanNodes = keep
	return len(keep) > 0
}

// markFailedAndForceDelete is markFailedAndDeletePodWithCondition: a pod
// not yet in a terminal phase is patched to Failed (with the
// DisruptionTarget condition of the given reason, if any), then deleted
// with a grace period of 0.
func markFailedAndForceDelete(p *model.Pod, reason, msg string) {
	if p.Deleted() {
		return
	}
	p.MarkFailed(reason, msg)
	p.ForceDelete() // a delete with grace period 0 goes at once, terminating or not
}

// hasTaintKey reports whether the node has a taint with key, any effect.
func hasTaintKey(n *model.Node, key string) bool {
	for _, t := range n.Taints {
		if t.Key == key {
			return true
		}
	}
	return false
}
