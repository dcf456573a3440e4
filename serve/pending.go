package serve

import (
	"slices"
	"time"

	"github.com/podsim/podsim/model"
)

// pending is what the model changed since the store's last version with no
// change of the timeline, as its object stream told: published with the
// next change, at its version, or at a pause, at one of its own.
type pending struct {
	classes    []model.PriorityClass     // added
	nodes      []*model.Node             // added
	workloads  []*model.Workload         // added
	budgets    []*model.DisruptionBudget // added
	moved      []*budgetSrc              // whose status was written
	hpas       []*model.Autoscaler       // added
	scaled     []*hpaSrc                 // whose status was written
	synced     []*workloadSrc            // whose replicas, status or rollouts were written
	nodesMoved []*model.Node             // whose taints, power or network changed
	nominated  []*model.Pod              // whose nominated node changed
}

// empty reports whether nothing is pending.
func (p *pending) empty() bool {
	return !p.updated() && len(p.classes) == 0 && len(p.nodes) == 0 && len(p.workloads) == 0 && len(p.budgets) == 0 && len(p.hpas) == 0
}

// updated reports whether an object the store has was updated.
func (p *pending) updated() bool {
	return len(p.moved) > 0 || len(p.scaled) > 0 || len(p.synced) > 0 || len(p.nodesMoved) > 0 || len(p.nominated) > 0
}

// Object hears an object the model changed (model.ObjectSink); it is
// published with the next change or pause.
func (s *Store) Object(o *model.ObjectChange) {
	p := &s.pending
	switch o.Kind {
	case model.ObjectPriorityClass:
		p.classes = append(p.classes, *o.Class)
	case model.ObjectNode:
		switch {
		case o.Op == model.ObjectAdded:
			s.nodes[o.Node.Name] = o.Node
			p.nodes = append(p.nodes, o.Node)
		case o.Op == model.ObjectUpdated && !slices.Contains(p.nodesMoved, o.Node):
			p.nodesMoved = append(p.nodesMoved, o.Node)
		}
	case model.ObjectWorkload:
		if o.Op == model.ObjectAdded {
			p.workloads = append(p.workloads, o.Workload)
		} else if src := s.workloads[o.Workload.Key()]; src != nil {
			s.resync(src)
		}
	case model.ObjectBudget:
		if o.Op == model.ObjectAdded {
			p.budgets = append(p.budgets, o.Budget)
		} else if b := s.budgets[o.Budget]; b != nil && !b.queued {
			b.queued = true
			p.moved = append(p.moved, b)
		}
	case model.ObjectAutoscaler:
		if o.Op == model.ObjectAdded {
			p.hpas = append(p.hpas, o.Autoscaler)
		} else if h := s.autoscalers[o.Autoscaler]; h != nil && !h.queued {
			h.queued = true
			p.scaled = append(p.scaled, h)
		}
	case model.ObjectPod:
		if o.Op == model.ObjectAdded {
			s.addPod(o.Pod)
		}
		// The timeline carries a pod's changes but its nominated node.
		if o.Op == model.ObjectUpdated && s.dark {
			s.markPod(o.Pod, false, nil)
		} else if o.Op == model.ObjectUpdated && s.nominationMoved(o.Pod) && !slices.Contains(p.nominated, o.Pod) {
			p.nominated = append(p.nominated, o.Pod)
		}
	}
}

// resync has src looked at again with the next change or pause.
func (s *Store) resync(src *workloadSrc) {
	if !src.queued {
		src.queued = true
		s.pending.synced = append(s.pending.synced, src)
	}
}

// nominationMoved reports whether p's nominated node differs from its
// snapshot's.
func (s *Store) nominationMoved(p *model.Pod) bool {
	old, ok := s.storedPod(p.Key())
	return ok && old.view.Nominated != p.NominatedNodeName()
}

// flush writes what is pending at the current version (t is the world's
// time): the objects added (unless updates only), then those updated. It
// reports whether it wrote anything.
func (s *Store) flush(t time.Duration, updates bool) bool {
	if s.pending.empty() {
		return false
	}
	writes := s.writes
	if !updates {
		s.flushAdded(t)
	}
	p := &s.pending
	slices.SortFunc(p.moved, func(a, b *budgetSrc) int { return a.order - b.order })
	for _, b := range p.moved {
		b.queued = false
		if b.b.Status != b.snap.status || b.b.Condition != b.snap.cond {
			s.putBudget(b)
		}
	}
	clear(p.moved)
	p.moved = p.moved[:0]
	for _, h := range p.scaled { // in the order of the controller's syncs
		h.queued = false
		if h.moved() {
			s.putAutoscaler(h)
		}
	}
	clear(p.scaled)
	p.scaled = p.scaled[:0]
	synced := p.synced
	p.synced = nil
	for _, src := range synced {
		src.queued = false
		if src.col == colCronJobs {
			s.cronChanged(src)
		} else {
			s.workloadChanged(src)
		}
	}
	for _, n := range p.nodesMoved {
		s.nodeSpecChanged(n)
	}
	clear(p.nodesMoved)
	p.nodesMoved = p.nodesMoved[:0]
	nominated := p.nominated
	p.nominated = nil
	for _, pod := range nominated {
		if s.nominationMoved(pod) {
			s.pod(pod, nil, nil) // may queue its Deployment again
		}
	}
	clear(synced)
	clear(nominated)
	if p.synced == nil {
		p.synced = synced[:0]
	}
	p.nominated = nominated[:0]
	return s.writes != writes
}

// flushAdded writes the objects added (t is the world's time).
func (s *Store) flushAdded(t time.Duration) {
	p := &s.pending
	for _, c := range p.classes {
		s.put(colPriorityClasses, &priorityClassSnap{meta{name: c.Name, uid: uid("PriorityClass", c.Name), created: t}, c}, false)
	}
	for _, n := range p.nodes {
		s.node(n)
	}
	for _, wl := range p.workloads {
		s.addWorkload(wl)
	}
	for _, b := range p.budgets {
		src := &budgetSrc{b: b, order: len(s.budgets), snap: &pdbSnap{meta: meta{name: b.Spec.Name, namespace: b.Spec.Namespace,
			uid: uid(model.KindPodDisruptionBudget, model.Key(b.Spec.Namespace, b.Spec.Name)), created: t}, spec: b.Spec}}
		s.budgets[b] = src
		s.putBudget(src)
	}
	for _, a := range p.hpas {
		s.addAutoscaler(a, t)
	}
	clear(p.hpas)
	p.hpas = p.hpas[:0]
	clear(p.classes)
	clear(p.nodes)
	clear(p.workloads)
	clear(p.budgets)
	p.classes, p.nodes, p.workloads, p.budgets = p.classes[:0], p.nodes[:0], p.workloads[:0], p.budgets[:0]
}

// pause publishes the objects updated since the last change at a version
// of their own, once the run goroutine has stopped moving the world (a
// step of a paced run, the frozen instant, a write), and moves the
// store's virtual time to t, the world's. The objects added wait for the
// next change, as clients have always seen them come. A pause with
// nothing to write takes no version.
func (s *Store) pause(t time.Duration) {
	ms := s.takeMetrics()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.publish()
	if ms != nil {
		s.metrics = ms
	}
	if s.pending.updated() {
		s.rv++
		if s.flush(t, true) {
			s.wakeWatchers()
		} else {
			s.rv-- // nothing moved: the version is not taken
		}
	}
	s.now = max(s.now, t)
}
