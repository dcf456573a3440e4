package serve

import (
	"maps"
	"slices"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/report"
)

// putBudget writes a budget's status as a new version.
func (s *Store) putBudget(b *budgetSrc) {
	snap := *b.snap
	snap.status, snap.cond = b.b.Status, b.b.Condition
	b.snap = &snap
	s.put(colPDBs, b.snap, false)
}

// node writes a new version of a node, and of its Lease; or, once the
// Node object is deleted (a deleteNode fault), their deletion.
func (s *Store) node(n *model.Node) {
	if n.Gone() {
		if old, ok := s.objects[colNodes][n.Name].(*nodeSnap); ok {
			last := *old // a deleted object's last word is its last state
			s.put(colNodes, &last, true)
			lease := *s.objects[colLeases][model.Key(nodeLeaseNamespace, n.Name)].(*leaseSnap)
			s.put(colLeases, &lease, true)
		}
		return
	}
	snap := &nodeSnap{meta: meta{name: n.Name, uid: uid("Node", n.Name), labels: n.Labels, created: n.CreatedAt},
		unschedulable: n.Unschedulable(), capacity: n.Capacity, total: n.Total, taints: append([]model.Taint(nil), n.Taints...),
		conditions: append([]model.Condition(nil), n.Conditions...), beats: s.nodeBeats(n)}
	s.put(colNodes, snap, false)
	s.put(colLeases, &leaseSnap{meta: meta{name: n.Name, namespace: nodeLeaseNamespace, uid: uid("Lease", n.Name), created: n.CreatedAt},
		node: snap}, false)
}

// nodeLeaseNamespace holds the nodes' Leases.
const nodeLeaseNamespace = "kube-node-lease"

func (s *Store) nodeBeats(n *model.Node) heartbeats {
	h := heartbeats{report: s.reportEvery}
	h.since, h.until, h.silent = n.Heartbeats()
	return h
}

// nodeSpecChanged writes a new version of a node whose spec.unschedulable,
// taints or heartbeats differ from its snapshot, and reports whether it
// did.
func (s *Store) nodeSpecChanged(n *model.Node) bool {
	old, ok := s.objects[colNodes][n.Name].(*nodeSnap)
	if n.Gone() && !ok || ok && !n.Gone() && old.unschedulable == n.Unschedulable() &&
		slices.Equal(old.taints, n.Taints) && old.beats == s.nodeBeats(n) {
		return false
	}
	s.node(n)
	return true
}

// pod writes a new version of a pod at its change c (nil: none of its
// own), and of its controller's objects. A dark store only marks it
// (ent: p's entry, if the caller has it).
func (s *Store) pod(p *model.Pod, c *model.Change, ent *podEntry) {
	deleted := c != nil && c.Kind == model.ChangePod && c.Reason == "Deleted"
	if s.dark {
		s.darkPut()
		s.markPod(p, deleted, ent)
		return
	}
	if ent == nil {
		ent = s.entryOf(p)
	}
	ent.lit = true
	old, seen := s.storedPod(p.Key())
	snap, src := s.renderPod(p, old)
	if c != nil && c.Kind == model.ChangePhase {
		snap.view.Status.Phase = c.To // the model tells its sinks before it moves
	}
	if seen && deleted {
		cp := *old // a deleted pod's last word is its last state
		snap = &cp
	}
	s.put(colPods, snap, deleted)
	if src != nil {
		s.workloadChanged(src)
		if src.col == colDeployments {
			// Its controllers count the change right after it, and may move
			// one ReplicaSet's status and not the Deployment's totals (no
			// update of the Deployment then): they are looked at again with
			// the next change.
			s.resync(src)
		}
	}
}

// renderPod is a new snapshot of p as it is now, given its last one (old,
// nil if none), and the source of its controller (nil if none or unknown).
func (s *Store) renderPod(p *model.Pod, old *podSnap) (*podSnap, *workloadSrc) {
	snap := &podSnap{}
	src := s.podIdentity(snap, p, old)
	snap.fill(p)
	return snap, src
}

// fill sets the snapshot's state to p's now: all but its identity
// (podIdentity).
func (snap *podSnap) fill(p *model.Pod) {
	snap.view, snap.priority, snap.policy = report.ViewPod(p), p.Priority(), p.PreemptionPolicy()
	snap.deadline, snap.grace, snap.deleting = p.DeletionTimestamp()
}

// podIdentity sets snap's identity, which a pod's snapshots keep from its
// first on (old: its last, nil if none): its metadata, its controller's
// reference and its labels as the API shows them, its completion index.
// It returns the source of p's controller (nil if none or unknown).
func (s *Store) podIdentity(snap *podSnap, p *model.Pod, old *podSnap) *workloadSrc {
	seen := old != nil
	snap.meta = meta{name: p.Name, namespace: p.Namespace, labels: p.Labels, created: p.CreatedAt}
	var src *workloadSrc
	if wl := p.Owner(); wl != nil {
		src = s.workloads[wl.Key()]
	}
	switch {
	case src == nil:
	case src.col == colDeployments && seen:
		snap.owner, snap.labels = old.owner, old.labels // its ReplicaSet's, for good
	case src.col == colDeployments:
		if rs := s.replicaSet(src, src.wl.ReplicaSetOf(p)); rs != nil {
			snap.owner, snap.labels = rs.podOwner, rs.template
		}
	default:
		snap.owner = src.owner
		_, indexed := p.CompletionIndex()
		switch {
		case indexed && seen:
			snap.labels, snap.index = old.labels, old.index
		case indexed:
			// The Job's labels, and its own completion index.
			snap.index = p.Labels[model.LabelCompletionIndex]
			snap.labels = maps.Clone(src.pods)
			snap.labels[model.LabelCompletionIndex] = snap.index
		case src.pods != nil:
			snap.labels = src.pods
		}
	}
	return src
}

// event records an event's first occurrence or its repeat. A dark store
// only notes it (darkEvent).
func (s *Store) event(c *model.Change) {
	// An event is new to the API, and so to the store, which has seen
	// every event from the start, when the model's count of them grew.
	n := s.w.APIEventCount()
	fresh := n != s.apiEvents
	s.apiEvents = n
	kind, object, ns := "Pod", c.Pod, c.Namespace
	switch {
	case c.Object != "":
		kind, object = c.Object, c.Workload
		if ns == "" { // a budget's or an autoscaler's, in the default namespace
			ns = model.DefaultNamespace
		}
	case c.Pod == "" && c.Node != "":
		kind, object, ns = "Node", c.Node, ""
	}
	e := s.w.CurrentEvent()
	if c.Dropped || e == nil {
		return // the spam filter kept it from the API
	}
	if s.dark {
		s.darkPut()
		s.noteDarkEvent(e, fresh, kind, object, ns)
		return
	}
	var old *eventSnap
	if !fresh {
		if old = s.events[e]; old == nil {
			old = s.publishedEvent(e)
		}
	}
	snap := &eventSnap{}
	if old != nil {
		snap.meta, snap.involved, snap.involvedNS, snap.host = old.meta, old.involved, old.involvedNS, old.host
	} else {
		s.newEvent(snap, kind, object, ns, s.eventHost(e, kind, object, ns), "")
		snap.created = e.FirstSeen
	}
	snap.follow(e)
	s.events[e] = snap
	s.put(colEvents, snap, false)
}

// follow sets the event's fields that change with its repeats to e's.
func (snap *eventSnap) follow(e *model.Event) {
	snap.typ, snap.reason, snap.source, snap.message = e.Type(), e.Reason(), e.Source(), e.Message()
	snap.first, snap.last, snap.count = e.FirstSeen, e.LastSeen, int(e.Count)
}

// newEvent names the store's next new event, about the object of kind
// and name object in namespace ns ("" for a node), reported from host.
// Its name is key's part after the namespace if key is given (the two in
// one string), else made.
func (s *Store) newEvent(snap *eventSnap, kind, object, ns, host, key string) {
	s.eventNames++
	snap.involvedNS, snap.host = ns, host
	if ns == "" {
		ns = model.DefaultNamespace // a node's events are in the default namespace
	}
	snap.meta = meta{namespace: ns}
	snap.involved = eventRef{kind: kind, name: object}
	// Named as the API server's clients name them, <object>.<unique
	// hex>; here the hex is the store's count of events.
	if key != "" {
		snap.name = key[len(key)-len(object)-17:]
	} else {
		snap.name = object + "." + hex16(uint64(s.eventNames))
	}
}

// eventHost is the node of a kubelet's event (the source's host), or "".
func (s *Store) eventHost(e *model.Event, kind, object, ns string) string {
	if kind == "Pod" && e.Source() == "kubelet" {
		if n := s.podNode(ns, object); n != nil {
			return n.Name
		}
	} else if kind == "Node" {
		return object
	}
	return ""
}

// podNode is the node of the pod a change names (namespace "" is the
// default), nil if none.
func (s *Store) podNode(ns, name string) *model.Node {
	if ns == "" {
		ns = model.DefaultNamespace
	}
	if ent := s.named(ns, name); ent != nil {
		return ent.p.Node
	}
	return nil
}

// ref is the API reference of an object an event is about (namespace ""
// for a node).
func (s *Store) ref(kind, namespace, name string) owner {
	o := apiRef(kind, name)
	o.uid = uid(kind, model.Key(namespace, name))
	return o
}

// apiRef is ref without the UID.
func apiRef(kind, name string) owner {
	switch kind {
	case "Pod", "Node":
		return owner{apiVersion: "v1", kind: kind, name: name}
	case model.KindJob, model.KindCronJob:
		return owner{apiVersion: "batch/v1", kind: kind, name: name}
	case model.KindPodDisruptionBudget:
		return owner{apiVersion: "policy/v1", kind: kind, name: name}
	case model.KindHorizontalPodAutoscaler:
		return owner{apiVersion: "autoscaling/v2", kind: kind, name: name}
	}
	return owner{apiVersion: "apps/v1", kind: kind, name: name}
}
