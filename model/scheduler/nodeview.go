package scheduler

import (
	"math"

	"github.com/podsim/podsim/model"
)

// nodeView is what nodeFilters reads of one node in the common case,
// kept by Node.ID in Scheduler.views, side by side: a scan over hundreds
// of nodes per try reads 24 bytes a node instead of chasing each Node
// (and its entry of Scheduler.nodes for the pods nominated there).
//
// It is the room left on the node (Capacity less the requests of its
// pods that hold resources) in cpu, memory and pods. A node where the
// filters must read more than that (cordoned, a failed disk, any taint,
// pods nominated to it) has no room for pods in its view: the scan then
// runs nodeFilters on the node itself, which gives the same verdict with
// its reasons, as it does for a node the pod does not fit.
type nodeView struct {
	cpu, mem int64  // Capacity less used
	pods     int32  // Capacity.Pods less used.Pods (clamped; no limit: MaxInt32); < 1: read the node
	epoch    uint32 // Scheduler.viewEpoch when filled; 0: never, or stale
}

// fits reports whether a pod asking req passes NodeResourcesFit (and so
// every filter nodeFilters runs) on the node of v.
func (v *nodeView) fits(req *model.Resources) bool {
	return v.pods >= 1 && (req.MilliCPU <= 0 || req.MilliCPU <= v.cpu) && (req.Memory <= 0 || req.Memory <= v.mem)
}

// The views hold while the node's pods, the pods nominated to it and what
// World.NodeChanges counts (spec, taints, conditions, capacity) are as
// they were: podsChanged and nominate mark the node's view stale, and a
// change of NodeChanges all of them, by a new epoch (syncViews).

// syncViews starts a new epoch of the views if the nodes changed since
// the last.
func (s *Scheduler) syncViews() {
	if c := s.w.NodeChanges(); c != s.viewChanges || s.viewEpoch == 0 {
		s.viewChanges = c
		if s.viewEpoch == math.MaxUint32 {
			clear(s.views)
			s.viewEpoch = 0
		}
		s.viewEpoch++
	}
}

// staleView marks the view of the node with ID id stale.
func (s *Scheduler) staleView(id int) {
	s.changes.add(id)
	if id < len(s.views) {
		s.views[id].epoch = 0
	}
}

// forgetNode forgets what the scheduler keeps of the node with ID id
// that its pods change: its view and its resource scores (resourceMemo).
func (s *Scheduler) forgetNode(id int) {
	s.staleView(id)
	if id < len(s.memos) {
		s.memos[id].request = 0
	}
}

// viewOf returns the view of node n, whose ID is id, filled from n if it
// is stale (syncViews first).
func (s *Scheduler) viewOf(id int, n *model.Node) *nodeView {
	if id >= len(s.views) {
		s.views = model.Extend(s.views, id+1)
	}
	v := &s.views[id]
	if v.epoch == s.viewEpoch {
		return v
	}
	capacity, used := n.Capacity, n.Allocated()
	*v = nodeView{cpu: capacity.MilliCPU - used.MilliCPU, mem: capacity.Memory - used.Memory, epoch: s.viewEpoch}
	switch {
	case n.Unschedulable() || !n.Schedulable() || len(n.Taints) > 0 || len(s.nominatedTo(id)) > 0:
		v.pods = 0
	case capacity.Pods <= 0:
		v.pods = math.MaxInt32
	default:
		v.pods = int32(min(max(capacity.Pods-used.Pods, 0), math.MaxInt32))
	}
	return v
}

// viewable reports whether the try may filter by the views: the pod has
// no required node affinity (which reads the node's labels), no
// preemption's dry run has taken pods off a node (freedOn), and fullScan
// (which tests compare with) is off.
func (s *Scheduler) viewable() bool { return !s.cy.nodeAffinity && s.offNode == nil && !s.fullScan }

// scan filters nodes from nextStartNodeIndex on, wrapping around, until
// want passed, and returns how many it processed. When the try may filter
// by the nodes' views and nodes is every node, by ID, scanViews does.
func (s *Scheduler) scan(nodes []*model.Node, want int) int {
	if s.viewable() && len(nodes) == s.w.NodesAdded() && len(nodes) == len(s.w.Nodes()) {
		return s.scanViews(nodes, want)
	}
	cy := &s.cy
	processed := 0
	j := s.nextStartNodeIndex % len(nodes)
	for range nodes {
		n := nodes[j]
		if j++; j == len(nodes) {
			j = 0
		}
		processed++
		st := s.filter(n)
		if !st.fits() {
			s.reject(n, st)
			continue
		}
		cy.feasibleIDs = append(cy.feasibleIDs, int32(n.ID()))
		if cy.feasible = append(cy.feasible, n); len(cy.feasible) == want {
			break
		}
	}
	return processed
}

// scanViews is scan over every node, nodes, by ID, for a try that may
// filter by the views: a node whose view is current and shows the pod
// fits is not read unless a filter that counts pods runs (podFilters);
// any other node goes through filter. The nodes it passes by their views
// count as filtered and read, as filter counts them: the event budget
// charges the filters' work. It lists the feasible nodes by ID only
// (cy.feasibleIDs; feasibleNodes looks them up).
func (s *Scheduler) scanViews(nodes []*model.Node, want int) int {
	cy := &s.cy
	s.syncViews()
	if len(s.views) < len(nodes) {
		s.views = model.Extend(s.views, len(nodes))
	}
	views, epoch := s.views[:len(nodes)], s.viewEpoch
	req := cy.p.Requests()
	podFilters := cy.spread.cons != nil || cy.interPod.active()
	ids := cy.feasibleIDs // in a register: cy is written back at the end; the nodes are looked up if needed (feasibleNodes)
	processed, viewed := 0, 0
	j := s.nextStartNodeIndex % len(nodes)
	for processed < len(nodes) && len(ids) < want {
		if !podFilters {
			// The run of nodes whose views show the pod fits, read without
			// a call.
			for processed < len(nodes) && len(ids) < want {
				if v := &views[j]; v.epoch != epoch || !v.fits(&req) {
					break
				}
				ids = append(ids, int32(j))
				processed++
				viewed++
				if j++; j == len(nodes) {
					j = 0
				}
			}
			if processed == len(nodes) || len(ids) == want {
				break
			}
		}
		id := j
		if j++; j == len(nodes) {
			j = 0
		}
		processed++
		if st := s.filterViewed(id, nodes[id], &req, podFilters); !st.fits() {
			s.reject(nodes[id], st)
			continue
		}
		ids = append(ids, int32(id))
	}
	cy.feasibleIDs = ids
	s.filtered += uint64(viewed)
	s.nodesRead += uint64(viewed)
	return processed
}

// filterViewed is filter for the try's pod on node n, whose ID is id: the
// node's view is filled if stale, and the node is read only if the view
// does not show the pod fits; podFilters says whether the filters that
// count pods run.
func (s *Scheduler) filterViewed(id int, n *model.Node, req *model.Resources, podFilters bool) nodeStatus {
	if !s.viewOf(id, n).fits(req) {
		return s.filter(n)
	}
	s.filtered++
	s.nodesRead++
	if podFilters {
		return s.podFilters(n)
	}
	return nodeStatus{}
}
