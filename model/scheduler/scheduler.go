package scheduler

import (
	"math/rand/v2"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/sim"
)

// Scheduler binds pending pods to nodes like kube-scheduler with its
// default plugins (pkg/scheduler/apis/config/v1/default_plugins.go). Pods
// wait in a scheduling queue (schedqueue.go); a pass, run at the instant
// something was queued or a cluster event concerns a parked pod, tries
// every pod that is ready, one at a time.
//
// A try (schedulePod) runs the filters (schedfilter.go) on the pod's
// nominated node first, if it has one, then on nodes from a rotating start
// until it has found numFeasibleNodesToFind feasible ones (all nodes in
// clusters under 100); one feasible node is taken as it is, several are
// scored (schedscore.go) and the best total wins, ties broken at random
// from the scheduler's stream. A pod that fits nowhere may preempt
// lower-priority pods (preemption.go); it is marked Unschedulable and
// parked until an event that could make it fit.
type Scheduler struct {
	w     *model.World
	q     schedQueue
	timer sim.Timer // the next pass
	flush sim.Timer // the next look for pods parked too long

	// nextStartNodeIndex is where the next pod's node scan starts: it
	// advances by the nodes each try processed, as upstream's does.
	nextStartNodeIndex int
	// percentageOfNodesToScore is the profile setting; 0 is adaptive.
	percentageOfNodesToScore int

	pods      podStates                     // by Pod.ID (podstate.go)
	index     podIndex                      // what the plugins count (podindex.go)
	nodes     []nodeSched                   // by Node.ID (nodeOf)
	memos     []resourceMemo                // by Node.id (schedscore.go)
	requests  map[podRequest]int32          // the ids of podSched.request ...
	reqByID   []podRequest                  // ... and the requests by id
	nominated map[*model.Pod]*model.Node    // status.nominatedNodeName of the pods that have one
	plans     map[*model.PodSpec]*schedPlan // by template (schedplan.go)
	rand      *rand.Rand                    // ties between the best nodes; preemption's start
	prios     priorityCounts                // the pods in the cache by priority

	cy cycle // the try under way

	// holds and nominations count the pods that entered or left a node's
	// cache (PodHeld, PodReleased) and the changes of nominations; with
	// the core's World.NodeChanges they make gen and specGen. nodeGens
	// counts the changes of each node's pods by Node.ID.
	holds, nominations uint64
	nodeGens           []uint64

	verdicts verdictCache // the first filters' verdicts by node (verdict.go)

	// changes logs the nodes whose pods, counts or views changed, which
	// the windows' scores catch up on (windowpick.go); tries counts the
	// tries pickByResources made, windowHits those it picked from a kept
	// window, windowScans the scans a kept window stood for.
	changes                        changeLog
	windows                        [windowPicks]windowPick
	tries, windowHits, windowScans uint64

	// views is what the filters read of each node, by Node.ID, for a
	// scan (nodeview.go): current if its epoch is viewEpoch, which
	// changes with World.NodeChanges (viewChanges when it last did).
	views       []nodeView
	viewEpoch   uint32
	viewChanges uint64

	// off is what preemption's dry run took off offNode's pods (freedOn).
	off     model.Resources
	offNode *model.Node

	// The work done so far: nodes filtered, nodes the filters read (not
	// the verdict cache), nodes whose pods preemption read for victims,
	// and tries whose node was picked by class (pickByClass). fullScan
	// turns scanCandidates and the kept windows off (tests compare).
	filtered, nodesRead, victimReads, classPicks uint64
	fullScan                                     bool
}

// cycle is the state of one try (upstream's CycleState and Diagnosis).
type cycle struct {
	p            *model.Pod
	plan         *schedPlan
	nodeAffinity bool // the pod has a nodeSelector or required node affinity

	spread   spreadFilter
	interPod interPodFilter

	reasons []rejection // why nodes were filtered out
	// lastReject is the status of the node last filtered out, whose
	// reasons are at lastAt in reasons while it holds lastLen.
	lastReject nodeStatus
	lastAt     [3]int
	lastLen    int
	absent     int           // nodes a PreFilter left out (NodeAffinity's node names)
	potential  []*model.Node // nodes filtered out where preemption might help
	feasible   []*model.Node // empty after scanViews, which lists only feasibleIDs (feasibleNodes)
	// feasibleIDs are the IDs of the feasible nodes, read without reading the nodes
	feasibleIDs []int32
	pinned      [1]*model.Node
	picked      *model.Node // the node scanWords picked by class, if it did
	// byID: the feasible nodes were scanned by ID, from
	// nextStartNodeIndex, wrapping (windowpick.go).
	byID bool

	// preferTaints: some node scanned has a PreferNoSchedule taint.
	preferTaints bool

	// scoring scratch, by feasible node
	total       []int64
	raw         [4][]int64 // TaintToleration, NodeAffinity, PodTopologySpread, InterPodAffinity
	ignored     []bool
	hostK       []int32 // pods the hostname spread constraint counts, by feasible node
	tied        []int32 // the feasible nodes that tie for the best total (pickTop)
	spreadScore spreadScore
	interScore  interPodScore

	fitMsg, postMsg messageCache // the last messages, by reasons
	postStatuses    []rejection  // preemption's reasons (scratch)
	joined          joinCache
}

// requestChanged numbers p's requests again (requestOf).
func (s *Scheduler) requestChanged(p *model.Pod) { s.of(p).request = s.requestOf(p.Requests(), p.Spec) }

// PodRequestsChanged numbers p's requests again after a resize.
func (s *Scheduler) PodRequestsChanged(p *model.Pod) { s.requestChanged(p) }

// PodResized is the cluster event "an assigned pod was updated" (its
// resize applied); it kicks.
func (s *Scheduler) PodResized(*model.Pod) {
	s.q.pending |= eventAssignedPodUpdated
	s.kick()
}

// NodePressureLifted is the cluster event "a node lost taints" (the
// kubelet's pressure taint); it kicks.
func (s *Scheduler) NodePressureLifted(*model.Node) {
	s.q.pending |= eventNodeTaintsRemoved
	s.kick()
}

// NominatedNode returns the node p is nominated to, or nil.
func (s *Scheduler) NominatedNode(p *model.Pod) *model.Node { return s.nominated[p] }

// NodeReads is how many times the scheduler has read a node: for its
// filters (not the verdict cache) and for preemption's victims.
func (s *Scheduler) NodeReads() uint64 { return s.nodesRead + s.victimReads }

// podRequest is what the scheduler reads of a pod's requests, by id.
type podRequest struct {
	requests model.Resources // for NodeResourcesFit's filter and BalancedAllocation
	nonZero  model.Resources // as the scores count them (nonZeroRequests)
}

// nodeSched is the scheduler's state of one node, kept by Node.ID.
type nodeSched struct {
	nonZero   model.Resources // running total of the nonZero requests of the pods that hold resources
	nominated []*model.Pod    // pods nominated to run here
	// prios counts the pods in the cache here by priority: a preemptor
	// finds no victim here unless one is below its own.
	prios priorityCounts
}

// nodeOf returns the scheduler's state of n, growing s.nodes to hold it.
func (s *Scheduler) nodeOf(n *model.Node) *nodeSched {
	for len(s.nodes) <= n.ID() {
		s.nodes = append(s.nodes, nodeSched{})
	}
	return &s.nodes[n.ID()]
}

// nominatedTo returns the pods nominated to the node with ID id.
func (s *Scheduler) nominatedTo(id int) []*model.Pod {
	if id < len(s.nodes) {
		return s.nodes[id].nominated
	}
	return nil
}

// New returns the scheduler of w, for w.Register: it hears the core's
// notifications (model/parts.go and model/schedparts.go) and answers the
// core's reads of its nominations and of its work (model.Nominator,
// model.NodeReader).
func New(w *model.World) *Scheduler {
	s := &Scheduler{}
	s.init(w)
	return s
}

func (s *Scheduler) init(w *model.World) {
	s.w = w
	s.q.init(w, &s.pods)
	s.timer.Init(s.run)
	s.flush.Init(s.flushLeftover)
	s.index.init(w)
	s.index.changes = &s.changes
	s.plans = map[*model.PodSpec]*schedPlan{}
	s.requests = map[podRequest]int32{}
	s.nominated = map[*model.Pod]*model.Node{}
	s.rand = w.Engine().Rand("scheduler")
}

// PodAdded numbers the new pod's requests (requestOf).
func (s *Scheduler) PodAdded(p *model.Pod) { s.requestChanged(p) }

// PodUnbound queues a new pod for scheduling. Its plan is made now, while
// few pods are bound: a new counter starts from the pods in the cache.
func (s *Scheduler) PodUnbound(p *model.Pod) {
	s.planFor(p)
	s.q.add(p, s.w.Now())
	s.kick()
}

// requestOf returns the id of a pod's requests (requests, as Requests
// gives them for spec), numbering a new one; pods that ask the same share
// it, and so their resource scores (resourceMemo).
func (s *Scheduler) requestOf(requests model.Resources, spec *model.PodSpec) int32 {
	k := podRequest{requests, nonZeroRequests(spec)}
	id, ok := s.requests[k]
	if !ok {
		id = int32(len(s.reqByID))
		s.requests[k] = id
		s.reqByID = append(s.reqByID, k)
	}
	return id
}

// nonZero is p's request as the scores count it.
func (s *Scheduler) nonZero(p *model.Pod) model.Resources { return s.reqByID[s.of(p).request].nonZero }

// PodDeleted is the cluster event "a pod bound to a node was deleted"; an
// unscheduled pod leaves the queue. It kicks.
func (s *Scheduler) PodDeleted(p *model.Pod) {
	if p.Node != nil {
		s.q.pending |= eventAssignedPodFreed
	} else {
		s.q.forget(p)
		s.nominate(p, nil)
	}
	s.kick()
}

// PodStatusUpdated kicks for a pod in a terminal phase: its resources are
// free.
func (s *Scheduler) PodStatusUpdated(p *model.Pod) {
	if p.Phase().Terminal() {
		s.kick()
	}
}

// NodeAdded is the cluster event "a node was added"; it kicks.
func (s *Scheduler) NodeAdded(n *model.Node) {
	s.index.nodeAdded(n)
	s.q.pending |= eventNodeAdded
	s.kick()
}

// NodeDeleted is the cluster event "a node was deleted"; it kicks. The
// pods nominated to it lose their nomination.
func (s *Scheduler) NodeDeleted(n *model.Node) {
	s.index.nodeGone(n)
	for ns := s.nodeOf(n); len(ns.nominated) > 0; {
		s.nominate(ns.nominated[0], nil)
	}
	s.q.pending |= eventNodeDeleted
	s.kick()
}

// NodeUntainted is the cluster event "a node lost taints", if it had any.
// NodeReady kicks.
func (s *Scheduler) NodeUntainted(_ *model.Node, _ string, had bool) {
	if had {
		s.q.pending |= eventNodeTaintsRemoved
	}
}

// NodeReady kicks: the node lost its taints (NodeUntainted).
func (s *Scheduler) NodeReady(*model.Node) { s.kick() }

// NodeDiskFailed kicks: the node's pods failed.
func (s *Scheduler) NodeDiskFailed(*model.Node) { s.kick() }

// NodeUncordoned is the cluster event "a node was uncordoned" (its spec
// and its unschedulable taint changed); it kicks.
func (s *Scheduler) NodeUncordoned(*model.Node) {
	s.q.pending |= eventNodeSchedulable
	s.kick()
}

// PodHeld is the cluster event "a pod entered the cache" on n: bound, or
// (never in podsim) back from a terminal phase. It does not kick.
func (s *Scheduler) PodHeld(p *model.Pod, n *model.Node) {
	s.index.update(p, n, 1, s.of(p).plan)
	ns := s.nodeOf(n)
	addRes(&ns.nonZero, s.nonZero(p))
	ns.prios.count(p.Priority(), 1)
	s.prios.count(p.Priority(), 1)
	s.holds++
	s.podsChanged(n)
	s.q.pending |= eventAssignedPodAdded
}

// PodReleased is the cluster event "a pod left the cache" on n: it reached
// a terminal phase or left the API. It does not kick.
func (s *Scheduler) PodReleased(p *model.Pod, n *model.Node) {
	s.index.update(p, n, -1, s.of(p).plan)
	ns := s.nodeOf(n)
	subRes(&ns.nonZero, s.nonZero(p))
	ns.prios.count(p.Priority(), -1)
	s.prios.count(p.Priority(), -1)
	s.holds++
	s.podsChanged(n)
	s.q.pending |= eventAssignedPodFreed
}

// PodTerminating is the cluster event "a pod in the cache got a
// deletionTimestamp"; it kicks.
func (s *Scheduler) PodTerminating(p *model.Pod) {
	if n := p.BoundNode(); n != nil && inCache(p) {
		s.index.terminating(p, n)
		s.q.pending |= eventAssignedPodUpdated
		s.kick()
	}
}

// podsChanged counts a change of the pods that hold resources on n (or of
// their requests) in its entry of nodeGens.
func (s *Scheduler) podsChanged(n *model.Node) {
	for len(s.nodeGens) <= n.ID() {
		s.nodeGens = append(s.nodeGens, 0)
	}
	s.nodeGens[n.ID()]++
	s.forgetNode(n.ID())
	if s.verdicts.setsKey != 0 {
		s.verdicts.touched(n.ID())
	}
}

// gen counts the changes of what the filters read of the nodes (a node's
// spec, taints, conditions, the requests it holds, the pods nominated to
// it, the nodes themselves): a template's failed try is remembered with
// it (failMemo). Each count it sums only grows: it is the same only if
// nothing changed.
func (s *Scheduler) gen() uint64 { return s.specGen() + s.holds }

// specGen counts the changes gen counts but those of the pods a node
// holds, which nodeGens counts by Node.ID.
func (s *Scheduler) specGen() uint64 { return s.w.NodeChanges() + s.nominations }

// nodeGen is n's entry of nodeGens.
func (s *Scheduler) nodeGen(id int) uint64 {
	if id < len(s.nodeGens) {
		return s.nodeGens[id]
	}
	return 0
}

// kick arms a pass now if there is something to do: a pod ready to try,
// or an event since the last pass that concerns a parked pod.
func (s *Scheduler) kick() {
	if s.timer.Pending() || !s.q.waiting() && !s.q.movable() {
		return
	}
	s.w.Engine().Schedule(&s.timer, s.w.Now(), sim.Normal)
}

// interruptEvery is how many tries a pass makes between two looks at an
// interrupt.
const interruptEvery = 64

// run is a pass: move the parked pods the latest events concern, then try
// every pod ready, activeQ first, then backoffQ.
func (s *Scheduler) run() {
	now := s.w.Now()
	s.q.movePending(now)
	for i := 1; ; i++ {
		if (i == 1 && s.w.Spent()) || (i%interruptEvery == 0 && s.w.Interrupting()) {
			break // kick below leaves the rest to a pass at this instant
		}
		p := s.q.pop()
		if p == nil {
			break
		}
		s.scheduleOne(p)
	}
	s.kick() // the pass's own bindings may concern the pods it parked
	if s.q.parked > 0 && !s.flush.Pending() {
		s.w.Engine().Schedule(&s.flush, sim.AddSat(now/unschedulableFlushPeriod*unschedulableFlushPeriod, unschedulableFlushPeriod), sim.Normal)
	}
}

// flushLeftover runs every 30s while pods are parked: those parked for
// longer than podMaxInUnschedulablePodsDuration are tried again.
func (s *Scheduler) flushLeftover() {
	now := s.w.Now()
	if s.q.flushLeftover(now) {
		s.kick()
	}
	if s.q.parked > 0 {
		s.w.Engine().Schedule(&s.flush, sim.AddSat(now, unschedulableFlushPeriod), sim.Normal)
	}
}

// scheduleOne tries to bind p, just popped from the queue. A pod that fits
// nowhere runs the PostFilter (preemption), gets the FitError message with
// the PostFilter's appended, and is parked.
func (s *Scheduler) scheduleOne(p *model.Pod) {
	if len(p.SchedulingGates()) > 0 {
		p.SetPodScheduled(model.False, "SchedulingGated", "Scheduling is blocked due to non-empty scheduling gates")
		s.q.gate(p)
		return
	}
	best := s.schedulePod(p)
	if best != nil {
		s.nominate(p, nil)
		p.Event(model.EventNormal, "Scheduled", "default-scheduler", "Successfully assigned "+p.Namespace+"/"+p.Name+" to "+best.Name)
		p.Bind(best)
		return
	}
	msg, rejectors := s.fitError()
	if len(s.w.Nodes()) > 0 {
		if post := s.preempt(p); post != "" {
			msg = s.cy.joined.join(msg, post)
		}
	}
	c, _ := p.Condition(model.PodScheduled)
	if c.Reason != "Unschedulable" || c.Message != msg {
		p.SetPodScheduled(model.False, "Unschedulable", msg)
		p.Event(model.EventWarning, "FailedScheduling", "default-scheduler", msg)
	}
	s.q.park(p, rejectors, s.w.Now())
	s.w.AnnouncePodUnschedulable(p)
}

// nominate sets p's nominated node (nil: none).
func (s *Scheduler) nominate(p *model.Pod, n *model.Node) {
	old := s.nominated[p]
	if old != nil || n != nil {
		s.nominations++ // a node's nominated pods change
	}
	if old != nil {
		s.staleView(old.ID())
		ns := s.nodeOf(old)
		for i, q := range ns.nominated {
			if q == p {
				ns.nominated = append(ns.nominated[:i], ns.nominated[i+1:]...)
				break
			}
		}
		delete(s.nominated, p)
	}
	if n != nil {
		s.staleView(n.ID())
		s.nominated[p] = n
		ns := s.nodeOf(n)
		ns.nominated = append(ns.nominated, p)
	}
	if old != n {
		s.w.PodUpdated(p)
	}
}

// Upstream's bounds on how many feasible nodes a try looks for
// (pkg/scheduler/schedule_one.go).
const (
	minFeasibleNodesToFind           = 100
	minFeasibleNodesPercentageToFind = 5
)

// numFeasibleNodesToFind is how many feasible nodes a try looks for before
// it stops and scores them, as upstream's: every node in clusters under
// 100; else percentageOfNodesToScore of them, adaptive when 0 (50% less
// one point per 125 nodes, at least 5%), and at least 100.
func numFeasibleNodesToFind(percentage, numAllNodes int) int {
	if numAllNodes < minFeasibleNodesToFind {
		return numAllNodes
	}
	if percentage <= 0 {
		percentage = max(50-numAllNodes/125, minFeasibleNodesPercentageToFind)
	}
	return max(numAllNodes*percentage/100, minFeasibleNodesToFind)
}

// schedulePod is schedulePod and findNodesThatFitPod: it returns the node
// for p, or nil if none passes the filters; then s.cy holds why each node
// was filtered out. The pod's nominated node is tried first and taken if
// it fits. Otherwise nodes are checked from nextStartNodeIndex on,
// wrapping around, until numFeasibleNodesToFind passed, and
// nextStartNodeIndex advances by the nodes processed.
func (s *Scheduler) schedulePod(p *model.Pod) *model.Node {
	cy := &s.cy
	cy.reasons, cy.potential, cy.feasible, cy.feasibleIDs, cy.absent = cy.reasons[:0], cy.potential[:0], cy.feasible[:0], cy.feasibleIDs[:0], 0
	cy.preferTaints, cy.picked = false, nil
	all := s.w.Nodes()
	if len(all) == 0 {
		return nil
	}
	s.preFilter(p)
	if n := s.nominated[p]; n != nil && !n.Gone() {
		if st := s.filter(n); st.fits() {
			return n
		}
	}
	nodes := all
	if p.PinnedNode() != "" {
		// NodeAffinity's PreFilter: the node named by matchFields.
		nodes = nil
		if n := s.w.Node(p.PinnedNode()); n != nil && !n.Gone() {
			cy.pinned[0] = n
			nodes = cy.pinned[:]
		}
		cy.absent = len(all) - len(nodes)
	}
	if len(nodes) == 0 {
		return nil
	}
	memo := s.failMemoOf(p)
	start := s.nextStartNodeIndex
	if memo != nil && memo.holds(p, s.gen(), len(all), start) {
		// Every node would turn p down as it did the template's last pod:
		// a full scan, which leaves nextStartNodeIndex where it is.
		cy.reasons = append(cy.reasons, memo.reasons...)
		cy.potential = append(cy.potential, memo.potential...)
		return nil
	}
	want := numFeasibleNodesToFind(s.percentageOfNodesToScore, len(nodes))
	processed, fast := s.scanCandidates(want)
	if !fast {
		if processed = s.rescanWindow(nodes, want); processed == 0 {
			processed = s.scan(nodes, want)
		}
	}
	// The feasible nodes' IDs are in scan order, from start, wrapping.
	cy.byID = !fast && !s.fullScan && len(nodes) == len(all) && len(all) == s.w.NodesAdded()
	s.nextStartNodeIndex = (s.nextStartNodeIndex + processed) % len(all)
	if cy.picked != nil {
		return cy.picked
	}
	switch len(cy.feasibleIDs) {
	case 0:
		if memo != nil {
			memo.remember(p, s.gen(), len(all), start, cy)
		}
		return nil
	case 1:
		return s.feasibleAt(0)
	}
	return s.selectHost(p)
}

// feasibleNodes returns the feasible nodes of the try. A scan by the
// nodes' views lists only their IDs, which are then their positions in
// World.Nodes: they are looked up here, once, when a caller needs them
// all; the other scans list both.
func (s *Scheduler) feasibleNodes() []*model.Node {
	cy := &s.cy
	if len(cy.feasible) < len(cy.feasibleIDs) {
		all := s.w.Nodes()
		for _, id := range cy.feasibleIDs[len(cy.feasible):] {
			cy.feasible = append(cy.feasible, all[id])
		}
	}
	return cy.feasible
}

// feasibleAt returns the i-th feasible node of the try (feasibleNodes).
func (s *Scheduler) feasibleAt(i int) *model.Node {
	if cy := &s.cy; i >= len(cy.feasible) {
		return s.w.Nodes()[cy.feasibleIDs[i]]
	}
	return s.cy.feasible[i]
}
