package report

import (
	"io"
	"slices"
	"strconv"
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/sim"
)

// Trace is a sink that writes a run as Chrome trace-event JSON (the object
// form, {"traceEvents": [...]}), which Perfetto and chrome://tracing open.
//
// The layout, with virtual time as trace time (microseconds from 0):
//   - process 1, "cluster": pods while no node holds them, and events about
//     objects that are neither a pod, a node nor a workload;
//   - a process per node, in the world's node order as they are first
//     seen: a thread per node condition type (its values as complete "X"
//     events), a thread "events" (the node's events as instant "i"
//     events), and counters "allocated cpu" (millicores) and "allocated
//     memory" (bytes): the requests of the pods bound to it that are not in
//     a terminal phase, as the scheduler counts them;
//   - a process per workload: a thread "events" (its events and
//     conditions) and, for ReplicaSets, Deployments, StatefulSets and the
//     like, a counter "ready pods";
//   - a thread per pod (its phases as "X" events; its events, conditions,
//     Terminating and Deleted as "i" events) and per container (its states
//     as "X" events), in the process of the pod's node once it is bound;
//   - counters of the use of resources per pod and per node, and a process
//     per Service with traffic with its requests served and failed per
//     second (trace_use.go);
//   - a process per HorizontalPodAutoscaler with its events and counters
//     of its replicas and metrics (trace_hpa.go).
//
// Every process and thread is named by a metadata ("M") event before it is
// used. A complete event is written when its state ends (or at Close), so
// the file is not in time order; trace viewers sort it. Counters are
// written once per instant, with the values after all of its changes.
//
// It keeps the states open now, one per live container, pod, node
// condition, and the counters: not the timeline. Output is deterministic:
// the same run gives the same bytes. The first write error stops it; Err
// returns it.
type Trace struct {
	out   io.Writer
	world *model.World
	buf   []byte
	err   error
	first bool

	nextPid, nextTid int
	cluster          *traceProc
	nodes            map[string]*traceNode
	wls              map[string]*traceWorkload
	pods             map[string]*tracePod
	podSeq           int         // pods seen, for Close's order
	hpas             []*traceHPA // by Autoscaler.ID (trace_hpa.go)
	dirtyHPAs        []*traceHPA

	instant     time.Duration
	dirtyNodes  []*traceNode
	dirtyWls    []*traceWorkload
	clusterEvts traceThread

	services  map[*model.Service]*traceService // trace_use.go
	dirtyUse  []*tracePod
	dirtySvcs []*traceService

	strs                   stringCache // escaped names, reasons and messages
	threadLanes, procLanes []traceLane // by tid, by pid (trace_bound.go)
	written, dropped       int
	droppedFrom            time.Duration
}

// traceProc is a process: its pid and whether its name is written.
type traceProc struct {
	pid   int
	name  string
	named bool
}

// traceThread is a thread, named in each process it appears in (a pod's
// thread is in the cluster before it is bound, in its node's process
// after).
type traceThread struct {
	tid   int
	name  string
	named []int // pids where its thread_name is written
}

// traceSpan is a state open since its change: the change is kept by value
// (its strings are the model's own).
type traceSpan struct {
	open bool
	c    model.Change
}

type traceNode struct {
	proc       traceProc
	events     traceThread
	conds      []*traceCond
	cpu, mem   int64
	lastCPU    int64
	lastMem    int64
	dirty      bool
	everCounts bool

	useCPU, useMem         int64 // what its pods use (trace_use.go)
	lastUseCPU, lastUseMem int64
	useWritten             bool
}

type traceCond struct {
	typ    string
	thread traceThread
	span   traceSpan
}

type traceWorkload struct {
	proc       traceProc
	events     traceThread
	counts     bool // it keeps a number of replicas: ReplicaSet, Deployment, ...
	ready      int
	last       int
	dirty      bool
	everCounts bool
}

type tracePod struct {
	seq        int
	p          *model.Pod
	thread     traceThread
	phase      traceSpan
	containers []*traceContainer
	requests   model.Resources
	held       *traceNode     // the node whose allocation counts this pod
	wl         *traceWorkload // its owner, if it counts ready pods
	ready      bool           // its Ready condition is True
	counted    bool           // it is among its workload's ready pods
	deleted    bool
	terminal   bool
	use        traceUse // trace_use.go
}

type traceContainer struct {
	name   string
	thread traceThread
	span   traceSpan
}

// NewTrace writes the head of the trace document to out and returns the
// sink. scenario, seed and duration go in its otherData. Subscribe it
// before the world is populated; call Close when the run ends.
func NewTrace(out io.Writer, world *model.World, scenario string, seed uint64, duration time.Duration) *Trace {
	t := &Trace{out: out, world: world, buf: make([]byte, 0, 512), first: true, nextPid: 1, nextTid: 1,
		nodes: map[string]*traceNode{}, wls: map[string]*traceWorkload{}, pods: map[string]*tracePod{},
		services: map[*model.Service]*traceService{}}
	t.cluster = t.newProc("cluster")
	t.clusterEvts = t.newThread("events")
	b := append(t.buf[:0], `{"displayTimeUnit":"ms","otherData":{"scenario":`...)
	b = appendString(b, scenario)
	b = append(b, `,"seed":`...)
	b = strconv.AppendUint(b, seed, 10)
	b = append(b, `,"duration":`...)
	b = appendString(b, sim.FormatTime(duration))
	b = append(b, "},\"traceEvents\":[\n"...)
	t.write(b)
	return t
}

// Err is the first error writing failed with, if any.
func (t *Trace) Err() error { return t.err }

// Change applies one change (model.Sink).
func (t *Trace) Change(c *model.Change) {
	if c.T != t.instant {
		t.counters()
		t.instant = c.T
	}
	switch {
	case c.Kind == model.ChangeNode:
		t.nodeCondition(c)
	case c.Kind == model.ChangeClient && c.Pod != "" && t.pods[c.Pod] == nil:
		// A client's word about a pod whose thread has ended (kubectl's
		// "pod/P evicted" once it is gone) goes with the cluster's events.
		t.use(t.cluster, &t.clusterEvts)
		t.instantEvent(c, t.cluster.pid, t.clusterEvts.tid)
	case c.Pod != "":
		t.podChange(c)
	case c.Object == model.KindHorizontalPodAutoscaler:
		t.hpaEvent(c)
	case c.Workload != "":
		key := model.Key(c.Namespace, c.Workload)
		if c.Owner != "" { // a Deployment's ReplicaSet's: on the Deployment's thread
			key = model.Key(c.Namespace, c.Owner)
		}
		wl := t.workload(key)
		t.use(&wl.proc, &wl.events)
		t.instantEvent(c, wl.proc.pid, wl.events.tid)
	case c.Node != "":
		n := t.node(c.Node)
		t.use(&n.proc, &n.events)
		t.instantEvent(c, n.proc.pid, n.events.tid)
	default:
		t.use(t.cluster, &t.clusterEvts)
		t.instantEvent(c, t.cluster.pid, t.clusterEvts.tid)
	}
}

func (t *Trace) node(name string) *traceNode {
	if n := t.nodes[name]; n != nil {
		return n
	}
	n := &traceNode{proc: *t.newProc("node " + name), events: t.newThread("events")}
	t.nodes[name] = n
	t.dirtyNode(n) // its allocation starts at 0
	return n
}

func (t *Trace) workload(name string) *traceWorkload {
	if wl := t.wls[name]; wl != nil {
		return wl
	}
	kind := "workload"
	counts := false
	if m := t.world.Workload(name); m != nil {
		kind = m.Spec.Kind
		counts = m.Spec.Kind != model.KindJob && m.Spec.Kind != model.KindDaemonSet && m.Spec.Kind != model.KindCronJob
	}
	wl := &traceWorkload{proc: *t.newProc(kind + " " + name), events: t.newThread("events"), counts: counts}
	t.wls[name] = wl
	if counts {
		t.dirtyWorkload(wl) // its count starts at 0
	}
	return wl
}

// nodeCondition closes the node's span of the condition's type and opens
// the new one.
func (t *Trace) nodeCondition(c *model.Change) {
	n := t.node(c.Node)
	var cond *traceCond
	for _, x := range n.conds {
		if x.typ == c.Type {
			cond = x
		}
	}
	if cond == nil {
		cond = &traceCond{typ: c.Type, thread: t.newThread("condition " + c.Type)}
		n.conds = append(n.conds, cond)
	}
	t.closeSpan(&cond.span, &n.proc, &cond.thread, c.T)
	cond.span = traceSpan{open: true, c: *c}
}

// podChange applies a change about a pod or one of its containers.
func (t *Trace) podChange(c *model.Change) {
	pt := t.pod(model.Key(c.Namespace, c.Pod))
	if pt == nil {
		return
	}
	switch c.Kind {
	case model.ChangePhase:
		t.closeSpan(&pt.phase, t.procOf(pt), &pt.thread, c.T)
		pt.phase = traceSpan{open: true, c: *c}
		pt.terminal = c.To.Terminal()
	case model.ChangeContainer:
		ct := t.container(pt, c.Container)
		t.closeSpan(&ct.span, t.procOf(pt), &ct.thread, c.T)
		ct.span = traceSpan{open: true, c: *c}
	case model.ChangeCondition:
		switch c.Type {
		case model.Ready:
			pt.ready = c.Status == string(model.True)
		case model.PodResizeInProgress: // a resize was allocated: the node counts its requests
			if c.Status == string(model.True) && c.Reason == "" {
				t.reRequest(pt)
			}
		}
		t.podInstant(pt, c)
	case model.ChangePod:
		if c.Reason == "Deleted" {
			pt.deleted = true
		}
		t.podInstant(pt, c)
	default:
		t.podInstant(pt, c)
	}
	t.account(pt)
	if pt.deleted && pt.use.node != nil { // its use leaves its node
		pt.use.nowCPU, pt.use.nowMem, pt.use.nowNode = 0, 0, nil
		t.dirtyPodUse(pt)
	}
	if pt.deleted {
		t.endPod(pt, c.T)
		delete(t.pods, model.Key(c.Namespace, c.Pod))
	}
}

func (t *Trace) podInstant(pt *tracePod, c *model.Change) {
	p := t.procOf(pt)
	t.use(p, &pt.thread)
	t.instantEvent(c, p.pid, pt.thread.tid)
}

func (t *Trace) pod(name string) *tracePod {
	if pt := t.pods[name]; pt != nil {
		return pt
	}
	p := t.world.Pod(name)
	if p == nil {
		return nil
	}
	pt := &tracePod{seq: t.podSeq, p: p, thread: t.newThread("pod " + name), requests: p.Spec.Requests()}
	t.podSeq++
	if o := p.Owner(); o != nil {
		if wl := t.workload(o.Key()); wl.counts {
			pt.wl = wl
		}
	}
	t.pods[name] = pt
	return pt
}

func (t *Trace) container(pt *tracePod, name string) *traceContainer {
	for _, ct := range pt.containers {
		if ct.name == name {
			return ct
		}
	}
	ct := &traceContainer{name: name, thread: t.newThread(pt.p.Key() + "/" + name)}
	pt.containers = append(pt.containers, ct)
	return ct
}

// procOf is the process a pod's threads are in now: its node's once bound.
func (t *Trace) procOf(pt *tracePod) *traceProc {
	if n := pt.p.Node; n != nil {
		return &t.node(n.Name).proc
	}
	return t.cluster
}

// reRequest takes the pod's requests anew (a resize was allocated) and
// moves its node's allocation by the difference.
func (t *Trace) reRequest(pt *tracePod) {
	r := pt.p.Spec.Requests()
	if n := pt.held; n != nil {
		n.cpu += r.MilliCPU - pt.requests.MilliCPU
		n.mem += r.Memory - pt.requests.Memory
		t.dirtyNode(n)
	}
	pt.requests = r
}

// account moves the pod's requests onto or off its node's allocation, and
// its readiness into its workload's count, as the pod now stands.
func (t *Trace) account(pt *tracePod) {
	var hold *traceNode
	if n := pt.p.Node; n != nil && !pt.deleted && !pt.terminal {
		hold = t.node(n.Name)
	}
	if hold != pt.held {
		if n := pt.held; n != nil {
			n.cpu -= pt.requests.MilliCPU
			n.mem -= pt.requests.Memory
			t.dirtyNode(n)
		}
		if hold != nil {
			hold.cpu += pt.requests.MilliCPU
			hold.mem += pt.requests.Memory
			t.dirtyNode(hold)
		}
		pt.held = hold
	}
	if wl := pt.wl; wl != nil {
		if ready := pt.ready && !pt.deleted; ready != pt.counted {
			pt.counted = ready
			if ready {
				wl.ready++
			} else {
				wl.ready--
			}
			t.dirtyWorkload(wl)
		}
	}
}

func (t *Trace) dirtyWorkload(wl *traceWorkload) {
	if !wl.dirty {
		wl.dirty = true
		t.dirtyWls = append(t.dirtyWls, wl)
	}
}

func (t *Trace) dirtyNode(n *traceNode) {
	if !n.dirty {
		n.dirty = true
		t.dirtyNodes = append(t.dirtyNodes, n)
	}
}

// counters writes the counters that changed in the instant just ended.
func (t *Trace) counters() {
	t.useCounters()
	for _, n := range t.dirtyNodes {
		n.dirty = false
		t.nodeUseCounters(n)
		if n.everCounts && n.cpu == n.lastCPU && n.mem == n.lastMem {
			continue
		}
		t.use(&n.proc, nil)
		if !n.everCounts || n.cpu != n.lastCPU {
			t.counter(n.proc.pid, "allocated cpu", "millicores", n.cpu)
		}
		if !n.everCounts || n.mem != n.lastMem {
			t.counter(n.proc.pid, "allocated memory", "bytes", n.mem)
		}
		n.everCounts, n.lastCPU, n.lastMem = true, n.cpu, n.mem
	}
	t.dirtyNodes = t.dirtyNodes[:0]
	for _, wl := range t.dirtyWls {
		wl.dirty = false
		if wl.everCounts && wl.ready == wl.last {
			continue
		}
		t.use(&wl.proc, nil)
		t.counter(wl.proc.pid, "ready pods", "pods", int64(wl.ready))
		wl.everCounts, wl.last = true, wl.ready
	}
	t.dirtyWls = t.dirtyWls[:0]
	t.hpaCounters()
}

func (t *Trace) counter(pid int, name, key string, v int64) {
	if !t.admit(pid, 0, t.instant) {
		return
	}
	b := t.head(name, "", 'C', pid, 0)
	b = appendTS(b, t.instant)
	b = append(b, `,"args":{"`...)
	b = append(b, key...)
	b = append(b, `":`...)
	b = strconv.AppendInt(b, v, 10)
	t.write(append(b, "}}"...))
}

// instantEvent writes c as an instant event on a thread.
func (t *Trace) instantEvent(c *model.Change, pid, tid int) {
	if !t.admit(pid, tid, c.T) {
		return
	}
	var b []byte
	switch c.Kind {
	case model.ChangeEvent:
		b = t.head(c.Reason, "event", 'i', pid, tid)
	case model.ChangeCondition, model.ChangeWorkload:
		b = t.headJoined(c.Type, "=", c.Status, "condition", 'i', pid, tid)
	default:
		b = t.head(c.Reason, c.Kind.String(), 'i', pid, tid)
	}
	b = appendTS(b, c.T)
	b = append(b, `,"s":"t"`...)
	t.write(t.args(b, c))
}

// closeSpan writes the open state s as a complete event ending at end.
func (t *Trace) closeSpan(s *traceSpan, p *traceProc, th *traceThread, end time.Duration) {
	if !s.open {
		return
	}
	s.open = false
	c := &s.c
	t.use(p, th)
	if !t.admit(p.pid, th.tid, max(end, c.T)) {
		return
	}
	var b []byte
	switch c.Kind {
	case model.ChangePhase:
		b = t.head(string(c.To), "phase", 'X', p.pid, th.tid)
	case model.ChangeContainer:
		b = t.headJoined(c.State.String(), ": ", c.Reason, "container", 'X', p.pid, th.tid)
	default:
		b = t.headJoined(c.Type, "=", c.Status, "condition", 'X', p.pid, th.tid)
	}
	b = appendTS(b, c.T)
	b = append(b, `,"dur":`...)
	b = appendMicros(b, max(end-c.T, 0))
	t.write(t.args(b, c))
}

// endPod closes the pod's open states at end.
func (t *Trace) endPod(pt *tracePod, end time.Duration) {
	p := t.procOf(pt)
	t.closeSpan(&pt.phase, p, &pt.thread, end)
	for _, ct := range pt.containers {
		t.closeSpan(&ct.span, p, &ct.thread, end)
	}
}

// Close ends the trace at virtual time end (the run's end, or where it
// stopped): it writes the last counters, closes every open state there,
// and closes the document. It returns Err.
func (t *Trace) Close(end time.Duration) error {
	t.counters()
	live := make([]*tracePod, 0, len(t.pods))
	for _, pt := range t.pods {
		live = append(live, pt)
	}
	slices.SortFunc(live, func(a, b *tracePod) int { return a.seq - b.seq })
	for _, pt := range live {
		t.endPod(pt, end)
	}
	names := make([]string, 0, len(t.nodes))
	for name := range t.nodes {
		names = append(names, name)
	}
	slices.SortFunc(names, func(a, b string) int { return t.nodes[a].proc.pid - t.nodes[b].proc.pid })
	for _, name := range names {
		n := t.nodes[name]
		for _, cond := range n.conds {
			t.closeSpan(&cond.span, &n.proc, &cond.thread, end)
		}
	}
	t.notes()
	t.write(append(t.buf[:0], "\n]}\n"...))
	return t.err
}
