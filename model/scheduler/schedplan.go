package scheduler

import (
	"maps"
	"slices"

	"github.com/podsim/podsim/model"
)

// schedPlan is what the scheduler's PodTopologySpread and InterPodAffinity
// plugins need of a pod: its constraints and terms resolved to counters of
// the index. It is built at the pod's first attempt and shared by the pods
// of a template (same spec, owner and labels).
type schedPlan struct {
	spec   *model.PodSpec
	owner  *model.Workload
	labels map[string]string

	hard        []spreadConstraint // DoNotSchedule
	soft        []spreadConstraint // ScheduleAnyway, or the system defaults
	softDefault bool               // soft are the system defaults
	shared      bool               // another pod than the first took the plan (planFor)

	affinity       []keyedCounter // required affinity: the pods matching all terms, by each term's key
	selfAffinity   bool
	anti           []keyedCounter // required anti-affinity, one per term
	preferredTerms []keyedCounter // preferred affinity (+weight) and anti-affinity (-weight)

	fail failMemo // the template's last failed try

	held *planCounters // the counters that select its pods, if shared (podIndex.countersOf)
}

// planFor returns p's plan, building it the first time.
func (s *Scheduler) planFor(p *model.Pod) *schedPlan {
	st := s.of(p)
	if st.plan != nil {
		return st.plan
	}
	if pl := s.plans[p.Spec]; pl != nil && pl.owner == p.Owner() && maps.Equal(pl.labels, p.Labels) {
		st.plan, pl.shared = pl, true
		return pl
	}
	pl := s.buildPlan(p)
	if p.Owner() != nil {
		s.plans[p.Spec] = pl
	}
	s.of(p).plan = pl // buildPlan may have grown s.pods
	return pl
}

func (s *Scheduler) buildPlan(p *model.Pod) *schedPlan {
	x := &s.index
	pl := &schedPlan{spec: p.Spec, owner: p.Owner(), labels: p.Labels}
	ns := p.Namespace
	cons := p.Spec.TopologySpreadConstraints
	if len(cons) == 0 && p.Owner() != nil && defaultSpreadOwner(p.Owner().Spec.Kind) && len(p.Owner().Spec.Options.Labels) > 0 {
		// DefaultSelector: the owner's selector, which podsim takes to be
		// the template's labels (not a StatefulSet pod's own identity
		// labels, which would select the pod alone).
		sel := &model.LabelSelector{MatchLabels: maps.Clone(p.Owner().Spec.Options.Labels)}
		for _, c := range systemDefaultSpread {
			c.LabelSelector = sel
			pl.soft = append(pl.soft, s.spreadConstraint(p, &c, ns))
		}
		pl.softDefault = true
	}
	for i := range cons {
		c := s.spreadConstraint(p, &cons[i], ns)
		if cons[i].DoNotSchedule {
			pl.hard = append(pl.hard, c)
		} else {
			pl.soft = append(pl.soft, c)
		}
	}
	a := p.Spec.Affinity
	if a == nil {
		return pl
	}
	if pa := a.PodAffinity; pa != nil && len(pa.Required) > 0 {
		terms := make([]podTerm, len(pa.Required))
		pl.selfAffinity = true
		for i := range pa.Required {
			terms[i] = podTermOf(&pa.Required[i], ns)
			pl.selfAffinity = pl.selfAffinity && terms[i].matches(p)
		}
		c := x.counter(terms, false)
		for i := range pa.Required {
			pl.affinity = append(pl.affinity, keyedCounter{c: c, dc: c.domain(x, pa.Required[i].TopologyKey)})
		}
	}
	if pa := a.PodAntiAffinity; pa != nil {
		for i := range pa.Required {
			c := x.counter([]podTerm{podTermOf(&pa.Required[i], ns)}, false)
			pl.anti = append(pl.anti, keyedCounter{c: c, dc: c.domain(x, pa.Required[i].TopologyKey)})
		}
	}
	for _, pref := range []struct {
		a    *model.PodAffinity
		sign int64
	}{{a.PodAffinity, 1}, {a.PodAntiAffinity, -1}} {
		if pref.a == nil {
			continue
		}
		for i := range pref.a.Preferred {
			t := &pref.a.Preferred[i]
			c := x.counter([]podTerm{podTermOf(&t.Term, ns)}, false)
			pl.preferredTerms = append(pl.preferredTerms, keyedCounter{c: c, dc: c.domain(x, t.Term.TopologyKey), weight: pref.sign * int64(t.Weight)})
		}
	}
	return pl
}

// defaultSpreadOwner reports whether the pods of a controller of this kind
// get the system default spreading (DefaultSelector reads Services,
// ReplicationControllers, ReplicaSets and StatefulSets; a Deployment's
// pods belong to a ReplicaSet).
func defaultSpreadOwner(kind string) bool {
	switch kind {
	case model.KindReplicaSet, model.KindDeployment, model.KindStatefulSet:
		return true
	}
	return false
}

// spreadConstraint resolves constraint c of pod p (in namespace ns): its
// selector, with matchLabelKeys' values, as a counter of the index.
func (s *Scheduler) spreadConstraint(p *model.Pod, c *model.TopologySpreadConstraint, ns string) spreadConstraint {
	sel := c.LabelSelector
	if len(c.MatchLabelKeys) > 0 && sel != nil {
		add := &model.LabelSelector{MatchLabels: map[string]string{}}
		for _, k := range c.MatchLabelKeys {
			if v, ok := p.Labels[k]; ok {
				add.MatchLabels[k] = v
			}
		}
		sel = sel.And(add)
	}
	counter := s.index.counter([]podTerm{{sel: sel, namespaces: []string{ns}}}, true)
	out := spreadConstraint{c: counter, key: c.TopologyKey, maxSkew: c.MaxSkew, minDomains: c.MinDomains,
		selfMatch: sel.Matches(p.Labels), honorAffin: !c.IgnoreNodeAffinity, honorTaints: c.HonorNodeTaints}
	if c.TopologyKey != model.LabelHostname || c.DoNotSchedule {
		out.dc = counter.domain(&s.index, c.TopologyKey)
	}
	return out
}

// failMemo is a template's last try that found no node: the reasons every
// node gave and the nodes where preemption might help. While the
// scheduler's gen has not moved, nothing a filter reads of the nodes has
// changed, so another pod of the template with the same requests,
// priority and tolerations would be turned down by every node for the
// same reasons: its try takes them from here instead of filtering every
// node again (a failed try scans them all, as upstream's does).
type failMemo struct {
	gen         uint64 // 0: nothing remembered
	nodes       int
	start       int // nextStartNodeIndex: the order the nodes were scanned in
	requests    model.Resources
	priority    int32
	tolerations []model.Toleration
	reasons     []rejection
	potential   []*model.Node
}

// failMemoOf returns the memo of p's template if p's try depends only on
// the nodes (no topology spread it must satisfy, no inter-pod affinity
// either way, no node named for it, no nominated node), else nil.
func (s *Scheduler) failMemoOf(p *model.Pod) *failMemo {
	cy := &s.cy
	if s.fullScan || cy.plan == nil || cy.plan.owner == nil || len(cy.plan.hard) > 0 || cy.interPod.active() ||
		p.PinnedNode() != "" || s.nominated[p] != nil {
		return nil
	}
	return &cy.plan.fail
}

// holds reports whether the memo is of a try like p's, at gen, with
// this many nodes scanned from start.
func (m *failMemo) holds(p *model.Pod, gen uint64, nodes, start int) bool {
	return m.gen == gen && m.gen != 0 && m.nodes == nodes && m.start == start && m.requests == p.Requests() &&
		m.priority == p.Priority() && slices.EqualFunc(m.tolerations, p.Tolerations(), sameToleration)
}

// sameToleration compares two tolerations by value, their seconds too.
func sameToleration(a, b model.Toleration) bool {
	if a.Key != b.Key || a.Operator != b.Operator || a.Value != b.Value || a.Effect != b.Effect {
		return false
	}
	if a.Seconds == nil || b.Seconds == nil {
		return a.Seconds == b.Seconds
	}
	return *a.Seconds == *b.Seconds
}

// remember keeps the outcome of p's failed try cy at gen, which scanned
// nodes from start.
func (m *failMemo) remember(p *model.Pod, gen uint64, nodes, start int, cy *cycle) {
	if gen == 0 {
		return
	}
	m.gen, m.nodes, m.start, m.requests, m.priority = gen, nodes, start, p.Requests(), p.Priority()
	m.tolerations = append(m.tolerations[:0], p.Tolerations()...)
	m.reasons = append(m.reasons[:0], cy.reasons...)
	m.potential = append(m.potential[:0], cy.potential...)
}
