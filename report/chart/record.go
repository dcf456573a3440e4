// Package chart draws a run as a picture: a lane per pod (a bar per
// container, coloured by state and reason; the pod's phase and Ready
// condition; its events as markers), grouped by node and by workload,
// with a lane per node (Ready, taints, power, partition), per workload
// (ready pods over time) and, in the page, per Service with traffic
// (requests served and failed per second). Recorder is the sink that keeps what the picture
// needs while the run goes; WriteHTML writes one self-contained page
// (zoom, pan, tooltips, groups that open on a click), WriteSVG a static
// picture of the same chart.
package chart

import (
	"slices"
	"time"

	"github.com/podsim/podsim/model"
)

// Recorder is a sink (model.Sink and model.ObjectSink) that keeps, for
// every container, the intervals of its states; for every pod its phases,
// Ready condition and events; for every node its Ready condition, taints,
// faults and events; for every workload its ready pods over time. It keeps
// intervals and steps, not changes: a container's state that lasts the
// whole run is one interval however many changes the run makes.
//
// What the timeline does not say it reads from the objects the object
// stream hands it: a pod's owner and container kinds when it first
// appears, the node it was bound to when it is scheduled, its containers'
// flags, a node's faults and taints.
type Recorder struct {
	end time.Duration // the last time seen

	added   map[string]*model.Pod  // the pods added, the last of each key
	kinds   map[string]string      // the workloads added, by key: their kind
	flagsOf map[*model.Pod][]uint8 // each pod's containers' flags as last heard (flagStarted, flagReady)

	strs   []string
	strIdx map[string]int32
	hpas   []*hpaRec // by Autoscaler.ID (hpa.go)

	nodes   []*nodeRec
	nodeIdx map[string]*nodeRec
	pods    []*podRec
	podIdx  map[string]*podRec
	wls     []*wlRec
	wlIdx   map[string]*wlRec
	bare    wlRec     // the pods without a controller, as one group
	svcs    []*svcRec // Services with traffic (requests.go)
	svcIdx  map[*model.Service]*svcRec

	// The bound on what it keeps (bound.go); quantum 0: none.
	quantum     time.Duration
	detail      int
	items       int
	nextCoarsen int
	merged      bool
}

// NewRecorder returns a recorder of a run. Subscribe it before the world
// is populated.
func NewRecorder() *Recorder {
	r := &Recorder{added: map[string]*model.Pod{}, kinds: map[string]string{}, flagsOf: map[*model.Pod][]uint8{},
		strIdx: map[string]int32{}, nodeIdx: map[string]*nodeRec{}, podIdx: map[string]*podRec{}, wlIdx: map[string]*wlRec{},
		svcIdx: map[*model.Service]*svcRec{}}
	r.str("") // index 0 is the empty string
	return r
}

// Container kinds, in the order a pod's lane draws them.
const (
	kindInit    = 0
	kindSidecar = 1
	kindMain    = 2
)

// seg is one interval of a container's state.
type seg struct {
	start, end time.Duration
	style      uint8 // index into styles
	reason     int32 // string index
	exit       int32 // this state's exit code, or the last termination's
	hasExit    bool
	lastReason int32 // the last termination's reason while Waiting or Running after one
	restarts   int32
}

type contRec struct {
	name    string
	kind    uint8
	segs    []seg
	open    bool // the last seg has not ended
	split   bool // the last seg began where the flags flipped, not at a state change
	started bool // the flags, as last heard
	ready   bool
	// the last termination, shown with the states that follow it
	lastReason int32
	lastExit   int32
	hasLast    bool
}

// step is a value that holds from t until the next step.
type step struct {
	t      time.Duration
	v      int32 // an index into a value list (phase, status) or a count
	reason int32 // string index
}

type mark struct {
	t       time.Duration
	warning bool
	reason  int32
	message int32
}

// span is an interval of a node fault or taint.
type span struct {
	start, end time.Duration
	open       bool
	what       int32 // fault kind, or the taint's string index
}

type podRec struct {
	name        string
	node        *nodeRec
	wl          *wlRec
	created     time.Duration
	gone        time.Duration // deleted from the API
	hasGone     bool
	terminating time.Duration
	hasTerm     bool
	phases      []step
	ready       []step
	readyNow    bool
	marks       []mark
	conts       []*contRec
}

type nodeRec struct {
	name   string
	ready  []step
	faults []span
	taints []span
	marks  []mark
	index  int
}

type wlRec struct {
	name, kind string
	ready      []step // count of ready pods
	readyNow   int32
	pods       int
	marks      []mark
	index      int
}

// Phase and condition status values, in the order the page lists them.
var (
	phaseNames  = []string{string(model.Pending), string(model.Running), string(model.Succeeded), string(model.Failed), string(model.Unknown)}
	statusNames = []string{string(model.False), string(model.True), string(model.StatusUnknown)}
	faultNames  = []string{"power off", "partition", "disk failure"}
)

func indexOf(list []string, s string) int32 {
	for i, v := range list {
		if v == s {
			return int32(i)
		}
	}
	return int32(len(list) - 1)
}

// str interns s and returns its index.
func (r *Recorder) str(s string) int32 {
	if i, ok := r.strIdx[s]; ok {
		return i
	}
	i := int32(len(r.strs))
	r.strs = append(r.strs, s)
	r.strIdx[s] = i
	return i
}

// Change records c.
func (r *Recorder) Change(c *model.Change) {
	r.end = c.T
	switch c.Kind {
	case model.ChangePhase:
		p := r.pod(model.Key(c.Namespace, c.Pod), c.T)
		p.phases = r.step(p.phases, step{t: c.T, v: indexOf(phaseNames, string(c.To))})
	case model.ChangeContainer:
		r.container(c)
	case model.ChangeCondition:
		p := r.pod(model.Key(c.Namespace, c.Pod), c.T)
		switch c.Type {
		case model.PodScheduled:
			if c.Status == string(model.True) && p.node == nil {
				if mp := r.added[model.Key(c.Namespace, c.Pod)]; mp != nil && mp.Node != nil {
					p.node = r.node(mp.Node.Name)
				}
			}
		case model.Ready:
			p.ready = r.step(p.ready, step{t: c.T, v: indexOf(statusNames, c.Status), reason: r.str(c.Reason)})
			r.setPodReady(p, c.T, c.Status == string(model.True))
		}
	case model.ChangeEvent:
		m := mark{t: c.T, warning: c.Type == model.EventWarning.String(), reason: r.str(c.Reason), message: r.str(c.Message)}
		switch {
		case c.Pod != "":
			p := r.pod(model.Key(c.Namespace, c.Pod), c.T)
			p.marks = r.mark(p.marks, m)
		case c.Node != "":
			n := r.node(c.Node)
			n.marks = r.mark(n.marks, m)
		case c.Object == model.KindHorizontalPodAutoscaler && r.hpaMark(c, m):
		case c.Owner != "": // a Deployment's ReplicaSet's: on the Deployment's lane
			wl := r.workload(model.Key(c.Namespace, c.Owner), model.KindDeployment)
			wl.marks = r.mark(wl.marks, m)
		case c.Workload != "":
			wl := r.workload(model.Key(c.Namespace, c.Workload), c.Object)
			wl.marks = r.mark(wl.marks, m)
		}
	case model.ChangeNode:
		n := r.node(c.Node)
		if c.Type == model.Ready {
			n.ready = r.step(n.ready, step{t: c.T, v: indexOf(statusNames, c.Status), reason: r.str(c.Reason)})
		}
	case model.ChangeWorkload:
		// The workload's conditions (Complete, Failed) are events too:
		// a marker with the condition as its reason.
		wl := r.workload(model.Key(c.Namespace, c.Workload), c.Object) // Object: a PodDisruptionBudget's kind
		wl.marks = r.mark(wl.marks, mark{t: c.T, warning: c.Type == "Failed", reason: r.str(c.Type + "=" + c.Status), message: r.str(c.Reason)})
	case model.ChangePod:
		p := r.pod(model.Key(c.Namespace, c.Pod), c.T)
		switch c.Reason {
		case "Deleted":
			p.gone, p.hasGone = c.T, true
			r.setPodReady(p, c.T, false)
			for _, ct := range p.conts {
				ct.close(c.T)
			}
			delete(r.podIdx, model.Key(c.Namespace, c.Pod)) // a StatefulSet's replacement takes the name: a lane of its own

		case "Terminating":
			p.terminating, p.hasTerm = c.T, true
		}
	}
}

// Object records the pods and workloads added, a container's flags, a
// node's faults and taints.
func (r *Recorder) Object(o *model.ObjectChange) {
	switch {
	case o.Kind == model.ObjectPod && o.Op == model.ObjectAdded:
		r.added[o.Pod.Key()] = o.Pod
	case o.Kind == model.ObjectPod && o.Op == model.ObjectUpdated:
		r.flags(o.Pod, o.T)
	case o.Kind == model.ObjectWorkload && o.Op == model.ObjectAdded:
		r.kinds[o.Workload.Key()] = o.Workload.Spec.Kind
	case o.Kind == model.ObjectNode && o.Op != model.ObjectDeleted:
		r.faults(o.Node, o.T)
		r.taints(o.Node, o.T)
	case o.Kind == model.ObjectAutoscaler:
		r.autoscaler(o.Autoscaler, o.T)
	}
}

// The flags of a container as last heard.
const (
	flagStarted = 1 << iota
	flagReady
)

// flags records the flips of a pod's containers' started and ready flags
// since they were last heard.
func (r *Recorder) flags(mp *model.Pod, t time.Duration) {
	heard := r.flagsOf[mp]
	if heard == nil {
		heard = make([]uint8, len(mp.Spec.InitContainers)+len(mp.Spec.Containers))
		r.flagsOf[mp] = heard
	}
	for i := range heard {
		var name string
		if i < len(mp.Spec.InitContainers) {
			name = mp.Spec.InitContainers[i].Name
		} else {
			name = mp.Spec.Containers[i-len(mp.Spec.InitContainers)].Name
		}
		started, ready := mp.ContainerFlags(name)
		var now uint8
		if started {
			now |= flagStarted
		}
		if ready {
			now |= flagReady
		}
		if now != heard[i] {
			heard[i] = now
			r.flip(mp.Key(), name, started, ready, t)
		}
	}
}

// flip records a container's flags flipped at t.
func (r *Recorder) flip(pod, container string, started, ready bool, t time.Duration) {
	r.end = t
	p := r.pod(pod, t)
	ct := p.container(container)
	if ct == nil {
		return
	}
	ct.started, ct.ready = started, ready
	n := len(ct.segs)
	if !ct.open || n == 0 || ct.segs[n-1].style < styleRunning || ct.segs[n-1].style > styleReady {
		return
	}
	if last := &ct.segs[n-1]; last.start == t || r.merges(n, last.start, t) {
		last.style = runningStyle(ct.started, ct.ready) // flags set as it started: one interval
		return
	}
	s := ct.segs[n-1]
	ct.close(t)
	s.start, s.style = t, runningStyle(ct.started, ct.ready)
	ct.segs = append(ct.segs, s)
	r.kept()
	ct.open, ct.split = true, true
}

// faults records a node's power, partition and disk failure that began or
// ended since they were last heard (their open spans).
func (r *Recorder) faults(mn *model.Node, t time.Duration) {
	on := [...]bool{mn.PoweredOff(), mn.Partitioned(), !mn.Schedulable()} // in faultNames' order
	for kind, now := range on {
		if n := r.nodeIdx[mn.Name]; now == (n != nil && hasOpen(n.faults, int32(kind))) {
			continue
		}
		r.end = t
		n := r.node(mn.Name)
		if now {
			n.faults = append(n.faults, span{start: t, open: true, what: int32(kind)})
		} else {
			closeSpan(n.faults, int32(kind), t)
		}
	}
}

// taints records the taints put on a node or lifted since they were last
// heard (their open spans).
func (r *Recorder) taints(mn *model.Node, t time.Duration) {
	n := r.nodeIdx[mn.Name]
	if n != nil {
		for i := range n.taints {
			if sp := &n.taints[i]; sp.open && !slices.ContainsFunc(mn.Taints, func(x model.Taint) bool { return r.isTaint(sp.what, x) }) {
				r.end = t
				sp.end, sp.open = t, false
			}
		}
	}
	for _, x := range mn.Taints {
		if n != nil && slices.ContainsFunc(n.taints, func(sp span) bool { return sp.open && r.isTaint(sp.what, x) }) {
			continue
		}
		r.end = t
		n = r.node(mn.Name)
		n.taints = append(n.taints, span{start: t, open: true, what: r.str(x.Key + ":" + x.Effect)})
	}
}

// isTaint reports whether the string what is x's key:effect.
func (r *Recorder) isTaint(what int32, x model.Taint) bool {
	s := r.strs[what]
	k := len(x.Key)
	return len(s) == k+1+len(x.Effect) && s[:k] == x.Key && s[k] == ':' && s[k+1:] == x.Effect
}

// hasOpen reports whether spans has an open span of what.
func hasOpen(spans []span, what int32) bool {
	for i := len(spans) - 1; i >= 0; i-- {
		if spans[i].open && spans[i].what == what {
			return true
		}
	}
	return false
}

// closeSpan ends the open span of what, if any.
func closeSpan(spans []span, what int32, t time.Duration) {
	for i := len(spans) - 1; i >= 0; i-- {
		if spans[i].open && spans[i].what == what {
			spans[i].end, spans[i].open = t, false
			return
		}
	}
}

// container records a container's new state.
func (r *Recorder) container(c *model.Change) {
	p := r.pod(model.Key(c.Namespace, c.Pod), c.T)
	ct := p.container(c.Container)
	if ct == nil {
		return
	}
	if n := len(ct.segs); ct.open && ct.split && ct.segs[n-1].start == c.T {
		// The kubelet clears the flags just before it reports the
		// termination: not an interval of its own.
		ct.segs, ct.open = ct.segs[:n-1], false
	} else {
		ct.close(c.T)
	}
	ct.split = false
	s := seg{start: c.T, reason: r.str(c.Reason), restarts: c.RestartCount}
	switch c.State {
	case model.StateWaiting:
		s.style = waitingStyle(c.Reason)
		ct.started, ct.ready = false, false
	case model.StateRunning:
		s.style = runningStyle(ct.started, ct.ready)
	case model.StateTerminated:
		s.style = terminatedStyle(c.Reason)
		s.exit, s.hasExit = c.ExitCode, true
		ct.started, ct.ready = false, false
	default:
		return
	}
	if c.State != model.StateTerminated && ct.hasLast {
		s.exit, s.hasExit, s.lastReason = ct.lastExit, true, ct.lastReason
	}
	if c.State == model.StateTerminated {
		ct.lastExit, ct.lastReason, ct.hasLast = c.ExitCode, s.reason, true
	}
	ct.segs = r.seg(ct.segs, s)
	ct.open = true
}

// close ends the container's open interval at t.
func (ct *contRec) close(t time.Duration) {
	if ct.open {
		ct.segs[len(ct.segs)-1].end = t
		ct.open = false
	}
}

// addSeg appends s; a zero-length interval that is followed at the same
// instant by the same style again is merged into it (nothing to see).
func addSeg(segs []seg, s seg) []seg {
	if n := len(segs); n > 0 {
		last := &segs[n-1]
		if last.start == s.start && last.end == s.start && last.style == s.style && last.reason == s.reason {
			*last = s
			return segs
		}
	}
	return append(segs, s)
}

// addStep appends s, replacing a step at the same instant (only the last
// value of an instant is seen) and leaving out a step that changes nothing.
func addStep(steps []step, s step) []step {
	if n := len(steps); n > 0 && steps[n-1].t == s.t {
		steps = steps[:n-1]
	}
	if n := len(steps); n > 0 && steps[n-1].v == s.v && steps[n-1].reason == s.reason {
		return steps // no change
	}
	return append(steps, s)
}

// setPodReady moves the pod's workload's count of ready pods.
func (r *Recorder) setPodReady(p *podRec, t time.Duration, ready bool) {
	if p.readyNow == ready {
		return
	}
	p.readyNow = ready
	wl := p.wl
	if wl == nil {
		wl = &r.bare
	}
	if ready {
		wl.readyNow++
	} else {
		wl.readyNow--
	}
	wl.ready = r.step(wl.ready, step{t: t, v: wl.readyNow})
}

// pod returns the record of the pod called name, made at its first change.
func (r *Recorder) pod(name string, t time.Duration) *podRec {
	if p := r.podIdx[name]; p != nil {
		return p
	}
	p := &podRec{name: name, created: t}
	if mp := r.added[name]; mp != nil {
		if o := mp.Owner(); o != nil {
			p.wl = r.workload(o.Key(), o.Spec.Kind)
		}
		for i := range mp.Spec.InitContainers {
			cs := &mp.Spec.InitContainers[i]
			k := uint8(kindInit)
			if cs.Sidecar {
				k = kindSidecar
			}
			p.conts = append(p.conts, &contRec{name: cs.Name, kind: k})
		}
		for i := range mp.Spec.Containers {
			p.conts = append(p.conts, &contRec{name: mp.Spec.Containers[i].Name, kind: kindMain})
		}
		if mp.Node != nil {
			p.node = r.node(mp.Node.Name)
		}
	}
	if p.wl != nil {
		p.wl.pods++
	} else {
		r.bare.pods++
	}
	r.pods = append(r.pods, p)
	r.podIdx[name] = p
	return p
}

// container returns the pod's container called name, or nil.
func (p *podRec) container(name string) *contRec {
	for _, c := range p.conts {
		if c.name == name {
			return c
		}
	}
	return nil
}

func (r *Recorder) node(name string) *nodeRec {
	if n := r.nodeIdx[name]; n != nil {
		return n
	}
	n := &nodeRec{name: name, index: len(r.nodes)}
	r.nodes = append(r.nodes, n)
	r.nodeIdx[name] = n
	return n
}

func (r *Recorder) workload(name, kind string) *wlRec {
	if wl := r.wlIdx[name]; wl != nil {
		if wl.kind == "" {
			wl.kind = kind
		}
		return wl
	}
	if kind == "" {
		kind = r.kinds[name]
	}
	wl := &wlRec{name: name, kind: kind, index: len(r.wls)}
	r.wls = append(r.wls, wl)
	r.wlIdx[name] = wl
	return wl
}
