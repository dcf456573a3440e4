package scheduler

import (
	"slices"
	"sort"
	"time"

	"github.com/podsim/podsim/model"
)

// DefaultPreemption, the scheduler's PostFilter
// (pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go,
// pkg/scheduler/framework/preemption/preemption.go): a pod that fits
// nowhere may make room by deleting pods of lower priority from one node.

// Candidate counts of the dry run (DefaultPreemptionArgs' defaults).
const (
	minCandidateNodesPercentage = 10
	minCandidateNodesAbsolute   = 100
)

// reasonPreemptionByScheduler is the DisruptionTarget reason of a victim.
const reasonPreemptionByScheduler = "PreemptionByScheduler"

// candidate is a node where deleting victims makes the pod fit.
type candidate struct {
	node       *model.Node
	victims    []*model.Pod // most important first
	violations int          // victims whose budget the deletion would break
}

// preempt runs DefaultPreemption for p, which the last try found no node
// for, and returns the PostFilter's message for the FitError ("" when it
// nominated a node):
//
//  1. A pod with preemptionPolicy Never, or whose nominated node still has
//     a lower-priority pod terminating for an earlier preemption, is not
//     eligible.
//  2. The candidates are the nodes the filters turned down for reasons
//     deleting pods may cure (Unschedulable, not UnschedulableAndUnresolvable),
//     tried from a random one in node order, until enough are found
//     (max(10%, 100) of them) with at least one that breaks no budget.
//  3. On each, every pod of lower priority is taken off; if the pod then
//     fits, the victims are reprieved one by one, most important first
//     (budget-breaking ones before the others), as long as it still fits.
//  4. The best candidate has the fewest budget violations, then the lowest
//     highest victim priority, the lowest sum of priorities, the fewest
//     victims, the latest start among its highest-priority victims; then
//     the first found.
//  5. Its victims get the DisruptionTarget condition (PreemptionByScheduler),
//     are deleted gracefully and get a Preempted event; lower-priority pods
//     nominated to the node lose the nomination; the pod is nominated to
//     it (status.nominatedNodeName) and waits for the room.
func (s *Scheduler) preempt(p *model.Pod) string {
	if p.PreemptNever() {
		return "preemption: not eligible due to preemptionPolicy=Never."
	}
	if n := s.nominated[p]; n != nil && !n.Gone() {
		if st := s.filter(n); st.code != unresolvable {
			for _, q := range n.Pods() {
				if inCache(q) && q.Priority() < p.Priority() && terminatingByPreemption(q) {
					return "preemption: not eligible due to a terminating pod on the nominated node."
				}
			}
		}
	}
	cy := &s.cy
	statuses := cy.postStatuses[:0]
	checked := 0
	var good, bad []candidate
	switch {
	case len(cy.potential) == 0:
	case !s.prios.below(p.Priority()):
		// No pod in the cache has a lower priority: every candidate is
		// turned down for want of victims, as the dry run would find.
		s.rand.IntN(len(cy.potential)) // the dry run's random start
		checked = len(cy.potential)
		statuses = countReasons(statuses, rejected(unresolvable, rejectNoVictims), checked)
	default:
		potential := slices.Clone(cy.potential)
		slices.SortFunc(potential, func(a, b *model.Node) int { return a.ID() - b.ID() }) // node order
		offset := s.rand.IntN(len(potential))
		want := min(max(len(potential)*minCandidateNodesPercentage/100, minCandidateNodesAbsolute), len(potential))
		for i := range potential {
			n := potential[(offset+i)%len(potential)]
			victims, violations, st := s.selectVictims(p, n)
			if st.fits() {
				c := candidate{node: n, victims: victims, violations: violations}
				if violations == 0 {
					good = append(good, c)
				} else {
					bad = append(bad, c)
				}
				if len(good) > 0 && len(good)+len(bad) >= want {
					break
				}
				continue
			}
			statuses = countReasons(statuses, st, 1)
			checked++
		}
	}
	all := append(good, bad...)
	if len(all) == 0 {
		s.nominate(p, nil)
		if rest := len(s.w.Nodes()) - checked; rest > 0 {
			statuses = countReasons(statuses, rejected(unresolvable, rejectNotHelpful), rest)
		}
		cy.postStatuses = statuses
		return cy.postMsg.message("preemption: ", len(s.w.Nodes()), statuses)
	}
	now := s.w.Now()
	best := pickCandidate(all, (*model.Pod).Priority, func(v *model.Pod) time.Duration { return startTime(v, now) })
	s.evictVictims(p, best)
	for _, q := range slices.Clone(s.nominatedTo(best.node.ID())) {
		if q.Priority() < p.Priority() {
			s.nominate(q, nil)
			s.q.activate(q, s.w.Now())
		}
	}
	s.nominate(p, best.node)
	return ""
}

// terminatingByPreemption reports whether q is being deleted by an earlier
// preemption (podTerminatingByPreemption).
func terminatingByPreemption(q *model.Pod) bool {
	if !q.Terminating() {
		return false
	}
	c, ok := q.Condition(model.DisruptionTarget)
	return ok && c.Status == model.True && c.Reason == reasonPreemptionByScheduler
}

// selectVictims is SelectVictimsOnNode: the fewest pods of lower priority
// to delete from n for p to fit there, and how many of them break their
// disruption budget; st is the node's status if no such set exists. It
// takes pods off the scheduler's view of the node and puts them back: the
// view is unchanged when it returns.
func (s *Scheduler) selectVictims(p *model.Pod, n *model.Node) (victims []*model.Pod, violations int, st nodeStatus) {
	if !s.nodeOf(n).prios.below(p.Priority()) {
		return nil, 0, rejected(unresolvable, rejectNoVictims)
	}
	var potential []*model.Pod
	s.victimReads++
	for _, q := range n.Pods() {
		if inCache(q) && q.Priority() < p.Priority() {
			potential = append(potential, q)
		}
	}
	if len(potential) == 0 {
		return nil, 0, rejected(unresolvable, rejectNoVictims)
	}
	for _, q := range potential {
		s.takeOff(q, n)
	}
	defer func() {
		for _, q := range victims {
			s.putBack(q, n)
		}
		s.offNode = nil
		s.refilter(p)
	}()
	s.refilter(p)
	if st = s.filter(n); !st.fits() {
		victims = potential // all of them go back
		return victims, 0, st
	}
	sort.SliceStable(potential, func(i, j int) bool { return moreImportant(potential[i], potential[j], s.w.Now()) })
	breaking, others := splitByBudget(s.w, potential)
	reprieve := func(q *model.Pod) bool {
		s.putBack(q, n)
		s.refilter(p)
		if s.filter(n).fits() {
			return true
		}
		s.takeOff(q, n)
		s.refilter(p)
		victims = append(victims, q)
		return false
	}
	for _, q := range breaking {
		if !reprieve(q) {
			violations++
		}
	}
	for _, q := range others {
		reprieve(q)
	}
	if len(breaking) > 0 && len(others) > 0 {
		sort.SliceStable(victims, func(i, j int) bool { return moreImportant(victims[i], victims[j], s.w.Now()) })
	}
	return victims, violations, nodeStatus{}
}

// takeOff and putBack remove a pod from, and return it to, the scheduler's
// view of node n: its running totals and the index.
func (s *Scheduler) takeOff(q *model.Pod, n *model.Node) {
	s.offNode = n
	addRes(&s.off, q.Requests())
	s.podsChanged(n)
	s.index.remove(q, n)
}

func (s *Scheduler) putBack(q *model.Pod, n *model.Node) {
	subRes(&s.off, q.Requests())
	s.podsChanged(n)
	s.index.add(q, n)
}

// freedOn is what preemption's dry run took off n's pods, or nil.
func (s *Scheduler) freedOn(n *model.Node) *model.Resources {
	if n == s.offNode {
		return &s.off
	}
	return nil
}

// refilter prepares the filters again after the view changed (upstream's
// AddPod and RemovePod PreFilter extensions).
func (s *Scheduler) refilter(p *model.Pod) {
	if len(s.cy.plan.hard) > 0 {
		s.cy.spread.prepare(s.w, p, s.cy.plan.hard)
	}
	s.cy.interPod.prepare(&s.index, p, s.cy.plan)
}

// splitByBudget is filterPodsWithPDBViolation: pods, in order, whose
// deletion would take a budget below zero disruptions allowed (counting
// the pods before them), and the others.
func splitByBudget(w *model.World, pods []*model.Pod) (breaking, others []*model.Pod) {
	allowed := map[*model.DisruptionBudget]int{}
	for _, q := range pods {
		broke := false
		for _, b := range w.BudgetsOf(q) {
			if _, ok := allowed[b]; !ok {
				allowed[b] = b.Status.DisruptionsAllowed
			}
			if allowed[b]--; allowed[b] < 0 {
				broke = true
			}
		}
		if broke {
			breaking = append(breaking, q)
		} else {
			others = append(others, q)
		}
	}
	return breaking, others
}

// pickCandidate is pickOneNodeForPreemption with the default criteria, in
// turn while more than one candidate is best (prio and start read a
// victim's priority and start time): fewest budget violations,
// lowest highest-priority victim, lowest sum of priorities, fewest
// victims, latest earliest start among the highest-priority victims; then
// the first.
func pickCandidate(cs []candidate, prio func(*model.Pod) int32, start func(*model.Pod) time.Duration) candidate {
	criteria := []func(c *candidate) int64{
		func(c *candidate) int64 { return -int64(c.violations) },
		func(c *candidate) int64 { return -int64(prio(c.victims[0])) },
		func(c *candidate) int64 {
			var sum int64
			for _, v := range c.victims {
				sum += int64(prio(v)) + 1<<31 // all above 0
			}
			return -sum
		},
		func(c *candidate) int64 { return -int64(len(c.victims)) },
		func(c *candidate) int64 {
			top := prio(c.victims[0])
			earliest := start(c.victims[0])
			for _, v := range c.victims {
				if prio(v) == top {
					earliest = min(earliest, start(v))
				}
			}
			return int64(earliest)
		},
	}
	for _, f := range criteria {
		var best []candidate
		var bestScore int64
		for i := range cs {
			score := f(&cs[i])
			switch {
			case len(best) == 0 || score > bestScore:
				best, bestScore = append(best[:0], cs[i]), score
			case score == bestScore:
				best = append(best, cs[i])
			}
		}
		if len(best) == 1 {
			return best[0]
		}
		cs = best
	}
	return cs[0]
}

// evictVictims is prepareCandidate: each victim not already being deleted
// gets the DisruptionTarget condition, is deleted with its grace period,
// and gets the Preempted event.
func (s *Scheduler) evictVictims(p *model.Pod, c candidate) {
	for _, v := range c.victims {
		if v.Terminating() {
			continue
		}
		v.SetDisruptionTarget(reasonPreemptionByScheduler, "default-scheduler: preempting to accommodate a higher priority pod")
		v.Delete(nil)
		v.Event(model.EventNormal, "Preempted", "default-scheduler",
			"Preempted by pod "+p.Namespace+"/"+p.Name+" on node "+c.node.Name)
	}
}

// startTime is the pod's status.startTime, or now for a pod not started
// (GetPodStartTime in pkg/scheduler/util/utils.go).
func startTime(p *model.Pod, now time.Duration) time.Duration {
	if t, ok := p.StartTime(); ok {
		return t
	}
	return now
}

// moreImportant reports whether a is more important than b as a victim
// (MoreImportantPod): higher priority, then the earlier start.
func moreImportant(a, b *model.Pod, now time.Duration) bool {
	if a.Priority() != b.Priority() {
		return a.Priority() > b.Priority()
	}
	return startTime(a, now) < startTime(b, now)
}

// addRes and subRes add o to and take it off r.
func addRes(r *model.Resources, o model.Resources) {
	r.MilliCPU += o.MilliCPU
	r.Memory += o.Memory
	r.Pods += o.Pods
}

func subRes(r *model.Resources, o model.Resources) {
	r.MilliCPU -= o.MilliCPU
	r.Memory -= o.Memory
	r.Pods -= o.Pods
}

// priorityCounts counts pods by priority, lowest first.
type priorityCounts []priorityCount

// priorityCount is how many pods of one priority there are.
type priorityCount struct{ priority, pods int32 }

// count adds d pods of priority prio.
func (pc *priorityCounts) count(prio int32, d int32) {
	c := *pc
	i := 0
	for i < len(c) && c[i].priority < prio {
		i++
	}
	if i == len(c) || c[i].priority != prio {
		c = slices.Insert(c, i, priorityCount{priority: prio})
	}
	if c[i].pods += d; c[i].pods == 0 {
		c = slices.Delete(c, i, i+1)
	}
	*pc = c
}

// below reports whether some pod counted has a priority below prio.
func (pc priorityCounts) below(prio int32) bool { return len(pc) > 0 && pc[0].priority < prio }
