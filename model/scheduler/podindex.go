package scheduler

import (
	"slices"
	"strings"

	"github.com/podsim/podsim/model"
)

// The scheduler's index of the pods in its cache: what PodTopologySpread and
// InterPodAffinity count, kept up to date as pods come and go, so that a
// scheduling attempt reads counts instead of scanning every pod of every
// node (upstream's PreFilter and PreScore do scan them).
//
// The pods in the cache are those bound to a node and not in a terminal
// phase: kube-scheduler's pod informer drops Succeeded and Failed pods
// (newPodInformer in pkg/scheduler/scheduler.go), and a pod leaves the cache
// when it leaves the API. They are exactly the pods that hold resources on
// their node (Node.hold and Node.release), and the index hears of them at
// the same two places, and when one starts terminating.
//
// Counts by topology domain cover the nodes that exist: a deleted node's
// pods stay in the cache until they go, but no plugin sees them (its
// NodeInfo is gone from the snapshot).

// podTerm selects pods: by labels, in a set of namespaces.
type podTerm struct {
	sel        *model.LabelSelector
	namespaces []string             // the namespaces selected ...
	nsSel      *model.LabelSelector // ... and those whose labels this matches
}

// matches reports whether the term selects p (upstream's
// AffinityTerm.Matches).
func (t *podTerm) matches(p *model.Pod) bool {
	ns := p.Namespace
	if !slices.Contains(t.namespaces, ns) && !(t.nsSel != nil && t.nsSel.Matches(model.NamespaceLabels(ns))) {
		return false
	}
	return t.sel.Matches(p.Labels)
}

// writeKey appends a canonical form of the term to b.
func (t *podTerm) writeKey(b *strings.Builder) {
	t.sel.WriteKey(b)
	b.WriteByte('|')
	ns := slices.Clone(t.namespaces)
	slices.Sort(ns)
	b.WriteString(strings.Join(ns, ","))
	b.WriteByte('|')
	if t.nsSel != nil {
		t.nsSel.WriteKey(b)
	}
	b.WriteByte('&')
}

// podCounter counts the pods in the cache that every one of its terms
// selects: per node, and per topology domain for the topology keys a
// plugin asked for.
type podCounter struct {
	terms []podTerm
	// skipTerminating leaves out pods with a deletionTimestamp, as
	// PodTopologySpread does (countPodsMatchSelector); InterPodAffinity
	// counts them.
	skipTerminating bool

	perNode []int32         // by Node.id; a deleted node's entry is stale
	domains []*domainCounts // by topology key, in the order asked for
}

// selects reports whether p is one of the pods the counter counts, its
// deletionTimestamp aside.
func (c *podCounter) selects(p *model.Pod) bool {
	for i := range c.terms {
		if !c.terms[i].matches(p) {
			return false
		}
	}
	return true
}

// onNode is the number of counted pods on n.
func (c *podCounter) onNode(n *model.Node) int32 {
	if n.ID() < len(c.perNode) {
		return c.perNode[n.ID()]
	}
	return 0
}

// inc adds d counted pods on n.
func (c *podCounter) inc(n *model.Node, d int32) {
	if n.ID() >= len(c.perNode) {
		c.perNode = model.Extend(c.perNode, n.ID()+1)
	}
	c.perNode[n.ID()] += d
	if n.Gone() {
		return
	}
	for _, dc := range c.domains {
		dc.add(dc.topo.domainOf(n), d)
	}
}

// domain returns the counts per domain of the topology key, kept from now on.
func (c *podCounter) domain(x *podIndex, key string) *domainCounts {
	for _, dc := range c.domains {
		if dc.topo.key == key {
			return dc
		}
	}
	dc := &domainCounts{topo: x.topology(key)}
	for _, n := range x.w.Nodes() {
		dc.add(dc.topo.domainOf(n), c.onNode(n))
	}
	c.domains = append(c.domains, dc)
	return dc
}

// domainCounts is a counter's pods per domain of one topology key, over
// the nodes that exist.
type domainCounts struct {
	topo   *topology
	counts []int32 // by domain id
	total  int32   // over every domain
	sum    domainSummary
}

// add adds d pods to domain id (none if id < 0).
func (dc *domainCounts) add(id int32, d int32) {
	if id < 0 || d == 0 {
		return
	}
	if int(id) >= len(dc.counts) {
		dc.counts = append(dc.counts, make([]int32, int(id)+1-len(dc.counts))...)
	}
	dc.counts[id] += d
	dc.total += d
	dc.moved(id, dc.counts[id]-d, dc.counts[id])
}

// at returns the pods counted in domain id.
func (dc *domainCounts) at(id int32) int32 { return countAt(dc.counts, id) }

// countAt returns counts[id], 0 past the end.
func countAt(counts []int32, id int32) int32 {
	if int(id) < len(counts) {
		return counts[id]
	}
	return 0
}

// onNode returns the pods counted in node n's domain, and false if n has
// no value for the key.
func (dc *domainCounts) onNode(n *model.Node) (int32, bool) {
	id := dc.topo.domainOf(n)
	if id < 0 {
		return 0, false
	}
	return dc.at(id), true
}

// min returns the fewest counted pods in a domain of the key (a domain is a
// value some node has) and the number of domains; min is 0 with no domain.
func (dc *domainCounts) min() (least int32, domains int) {
	s := dc.summary()
	return s.least, s.domains
}

// topology is the domains of one topology key: the values its nodes have,
// each given a small id in order of appearance.
type topology struct {
	key    string
	ids    map[string]int32 // domain id by value
	nodes  []int32          // nodes that exist, by domain id
	ofNode []int32          // domain id by Node.id; -1: no value
	gen    uint32           // counts the changes of nodes (from 1)
}

// labelled reports whether a node that exists has the key.
func (t *topology) labelled() bool {
	for _, k := range t.nodes {
		if k > 0 {
			return true
		}
	}
	return false
}

// domainOf returns the id of node n's domain, or -1 if n has no value.
func (t *topology) domainOf(n *model.Node) int32 { return t.domainOfID(int32(n.ID())) }

// domainOfID is domainOf the node with ID id.
func (t *topology) domainOfID(id int32) int32 {
	if int(id) < len(t.ofNode) {
		return t.ofNode[id]
	}
	return -1
}

// addNode counts node n in its domain.
func (t *topology) addNode(n *model.Node) {
	for len(t.ofNode) <= n.ID() {
		t.ofNode = append(t.ofNode, -1)
	}
	v, ok := n.Labels[t.key]
	if !ok {
		return
	}
	id, ok := t.ids[v]
	if !ok {
		id = int32(len(t.nodes))
		t.ids[v] = id
		t.nodes = append(t.nodes, 0)
	}
	t.ofNode[n.ID()] = id
	t.nodes[id]++
	t.gen++
}

// termGroup counts the pods in the cache that carry one pod (anti-)affinity
// term: the pods of a template share its terms. The scheduler matches the
// incoming pod against each group's term once per attempt, instead of
// against every such pod (upstream's PodsWithAffinity and
// PodsWithRequiredAntiAffinity).
type termGroup struct {
	term   *model.PodAffinityTerm
	kind   termKind
	weight int32
	ns     string     // the namespace of the pods that carry it
	match  podTerm    // the term resolved for that namespace
	pods   podCounter // terms unused: every pod added carries the term
}

// termKind says where a term sits in a pod's affinity.
type termKind uint8

const (
	requiredAffinity termKind = iota
	requiredAntiAffinity
	preferredAffinity
	preferredAntiAffinity
)

type groupKey struct {
	term *model.PodAffinityTerm
	ns   string
}

type labelPair struct{ key, value string }

// podIndex is the scheduler's index of the pods in its cache.
type podIndex struct {
	w        *model.World
	counters map[string]*podCounter
	// byLabel files each counter with matchLabels under its first pair, in
	// key order; a pod can only be counted by the counters filed under one
	// of its labels, or by the rest (general).
	byLabel map[labelPair][]*podCounter
	general []*podCounter
	all     []*podCounter // every counter, in creation order
	topos   map[string]*topology
	topoL   []*topology // every topology, in creation order
	groups  map[groupKey]*termGroup
	groupL  []*termGroup // every group, in creation order
	key     strings.Builder
	changes *changeLog // where the nodes whose counts change are logged, if not nil
}

func (x *podIndex) init(w *model.World) {
	x.w = w
	x.counters = map[string]*podCounter{}
	x.byLabel = map[labelPair][]*podCounter{}
	x.topos = map[string]*topology{}
	x.groups = map[groupKey]*termGroup{}
}

// counter returns the counter of the pods every term selects, created and
// filled from the cache the first time.
func (x *podIndex) counter(terms []podTerm, skipTerminating bool) *podCounter {
	b := &x.key
	b.Reset()
	for i := range terms {
		terms[i].writeKey(b)
	}
	if skipTerminating {
		b.WriteString("live")
	}
	key := b.String()
	if c := x.counters[key]; c != nil {
		return c
	}
	c := &podCounter{terms: terms, skipTerminating: skipTerminating}
	x.counters[key] = c
	x.all = append(x.all, c)
	x.file(c)
	for _, n := range x.w.Nodes() {
		for _, p := range n.Pods() {
			if inCache(p) && c.selects(p) && !(skipTerminating && p.Terminating()) {
				c.inc(n, 1)
			}
		}
	}
	return c
}

// file puts c under the first matchLabels pair of its first term with one,
// or among the general counters; a counter whose terms select nothing
// (a nil selector) is filed nowhere.
func (x *podIndex) file(c *podCounter) {
	for i := range c.terms {
		if c.terms[i].sel == nil {
			return
		}
	}
	for i := range c.terms {
		sel := c.terms[i].sel
		if len(sel.MatchLabels) == 0 {
			continue
		}
		keys := make([]string, 0, len(sel.MatchLabels))
		for k := range sel.MatchLabels {
			keys = append(keys, k)
		}
		first := slices.Min(keys)
		lp := labelPair{first, sel.MatchLabels[first]}
		x.byLabel[lp] = append(x.byLabel[lp], c)
		return
	}
	x.general = append(x.general, c)
}

// inCache reports whether p, bound to a node, is in the scheduler's cache.
func inCache(p *model.Pod) bool { return !p.Deleted() && !p.Phase().Terminal() }

// topology returns the domains of key, kept from now on.
func (x *podIndex) topology(key string) *topology {
	if t := x.topos[key]; t != nil {
		return t
	}
	t := &topology{key: key, ids: map[string]int32{}, gen: 1}
	for _, n := range x.w.Nodes() {
		t.addNode(n)
	}
	x.topos[key] = t
	x.topoL = append(x.topoL, t)
	return t
}

// add counts p, which just entered the cache on n.
func (x *podIndex) add(p *model.Pod, n *model.Node) { x.update(p, n, 1, nil) }

// remove uncounts p, which just left the cache on n.
func (x *podIndex) remove(p *model.Pod, n *model.Node) { x.update(p, n, -1, nil) }

// update counts d more of p on n; pl is p's plan, or nil if it has none.
func (x *podIndex) update(p *model.Pod, n *model.Node, d int32, pl *schedPlan) {
	x.logChange(n)
	count := func(c *podCounter) {
		if !(c.skipTerminating && p.Terminating()) {
			c.inc(n, d)
		}
	}
	if pl != nil && pl.shared {
		for _, c := range x.countersOf(pl, p) {
			count(c)
		}
	} else {
		x.eachCounter(p, count)
	}
	x.eachTerm(p, func(t *model.PodAffinityTerm, kind termKind, weight int32) {
		x.group(t, kind, weight, p.Namespace).pods.inc(n, d)
	})
}

// terminating uncounts p, in the cache on n, from the counters that leave
// out terminating pods: it just got its deletionTimestamp.
func (x *podIndex) terminating(p *model.Pod, n *model.Node) {
	x.logChange(n)
	x.eachCounter(p, func(c *podCounter) {
		if c.skipTerminating {
			c.inc(n, -1)
		}
	})
}

// logChange logs that the counts of the pods on n may change.
func (x *podIndex) logChange(n *model.Node) {
	if x.changes != nil {
		x.changes.add(n.ID())
	}
}

// planCounters are the counters that select the pods of a shared plan,
// found when the index had at counters, for a pod of namespace ns.
type planCounters struct {
	counters []*podCounter
	at       int
	ns       string
}

// countersOf returns the counters that select p, whose plan pl is shared
// by the pods of a template: found by eachCounter for the plan's first pod
// held, and again once counters were added or for a pod of another
// namespace. What a counter selects depends only on a pod's namespace and
// labels, and the pods of a plan have the same labels. (A plan of one pod,
// a bare pod's or a StatefulSet pod's, keeps nothing: eachCounter.)
func (x *podIndex) countersOf(pl *schedPlan, p *model.Pod) []*podCounter {
	h := pl.held
	if h == nil {
		h = &planCounters{at: -1}
		pl.held = h
	}
	if h.at != len(x.all) || h.ns != p.Namespace {
		h.counters = h.counters[:0]
		x.eachCounter(p, func(c *podCounter) { h.counters = append(h.counters, c) })
		h.at, h.ns = len(x.all), p.Namespace
	}
	return h.counters
}

// eachCounter calls fn for every counter that selects p.
func (x *podIndex) eachCounter(p *model.Pod, fn func(*podCounter)) {
	if len(x.all) == 0 {
		return
	}
	for k, v := range p.Labels { // order is moot: each counter is filed once, counts add up
		for _, c := range x.byLabel[labelPair{k, v}] {
			if c.selects(p) {
				fn(c)
			}
		}
	}
	for _, c := range x.general {
		if c.selects(p) {
			fn(c)
		}
	}
}

// eachTerm calls fn for every pod (anti-)affinity term of p.
func (x *podIndex) eachTerm(p *model.Pod, fn func(*model.PodAffinityTerm, termKind, int32)) {
	a := p.Spec.Affinity
	if a == nil {
		return
	}
	for _, pa := range []struct {
		a         *model.PodAffinity
		req, pref termKind
	}{{a.PodAffinity, requiredAffinity, preferredAffinity}, {a.PodAntiAffinity, requiredAntiAffinity, preferredAntiAffinity}} {
		if pa.a == nil {
			continue
		}
		for i := range pa.a.Required {
			fn(&pa.a.Required[i], pa.req, 0)
		}
		for i := range pa.a.Preferred {
			fn(&pa.a.Preferred[i].Term, pa.pref, pa.a.Preferred[i].Weight)
		}
	}
}

// group returns the group of the pods of namespace ns that carry t.
func (x *podIndex) group(t *model.PodAffinityTerm, kind termKind, weight int32, ns string) *termGroup {
	k := groupKey{t, ns}
	if g := x.groups[k]; g != nil {
		return g
	}
	g := &termGroup{term: t, kind: kind, weight: weight, ns: ns, match: podTermOf(t, ns)}
	x.groups[k] = g
	x.groupL = append(x.groupL, g)
	g.pods.domain(x, t.TopologyKey)
	return g
}

// nodeAdded counts the domains of a new node.
func (x *podIndex) nodeAdded(n *model.Node) {
	for _, t := range x.topoL {
		t.addNode(n)
	}
}

// nodeGone takes a deleted node's pods and domains out of the counts.
func (x *podIndex) nodeGone(n *model.Node) {
	sub := func(c *podCounter) {
		k := c.onNode(n)
		if k == 0 {
			return
		}
		for _, dc := range c.domains {
			dc.add(dc.topo.domainOf(n), -k)
		}
	}
	for _, c := range x.all {
		sub(c)
	}
	for _, g := range x.groupL {
		sub(&g.pods)
	}
	for _, t := range x.topoL {
		if id := t.domainOf(n); id >= 0 {
			t.nodes[id]--
			t.gen++
		}
	}
}
