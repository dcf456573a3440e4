// Package chart draws a run as a picture: a lane per pod (a bar per
// container, coloured by state and reason; the pod's phase and Ready
// condition; its events as markers), grouped by node and by workload,
// with a lane per node (Ready, taints, power, partition) and per workload
// (ready pods over time). Recorder is the sink that keeps what the picture
// needs while the run goes; WriteHTML writes one self-contained page
// (zoom, pan, tooltips, groups that open on a click), WriteSVG a static
// picture of the same chart.
package chart

import (
	"time"

	"github.com/podsim/podsim/model"
)

// Recorder is a sink (model.Sink and model.DetailSink) that keeps, for
// every container, the intervals of its states; for every pod its phases,
// Ready condition and events; for every node its Ready condition, taints,
// faults and events; for every workload its ready pods over time. It keeps
// intervals and steps, not changes: a container's state that lasts the
// whole run is one interval however many changes the run makes.
//
// It reads from the world only what the stream does not say and does not
// change: a pod's owner and container kinds when it first appears, and the
// node it was bound to when it is scheduled.
type Recorder struct {
	w   *model.World
	end time.Duration // the last time seen

	strs   []string
	strIdx map[string]int32

	nodes   []*nodeRec
	nodeIdx map[string]*nodeRec
	pods    []*podRec
	podIdx  map[string]*podRec
	wls     []*wlRec
	wlIdx   map[string]*wlRec
	bare    wlRec // the pods without a controller, as one group
}

// NewRecorder returns a recorder of w's run. Subscribe it before the
// world is populated.
func NewRecorder(w *model.World) *Recorder {
	r := &Recorder{w: w, strIdx: map[string]int32{}, nodeIdx: map[string]*nodeRec{},
		podIdx: map[string]*podRec{}, wlIdx: map[string]*wlRec{}}
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
	started bool // the flags, as the last detail said
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
		p.phases = addStep(p.phases, step{t: c.T, v: indexOf(phaseNames, string(c.To))})
	case model.ChangeContainer:
		r.container(c)
	case model.ChangeCondition:
		p := r.pod(model.Key(c.Namespace, c.Pod), c.T)
		switch c.Type {
		case model.PodScheduled:
			if c.Status == string(model.True) && p.node == nil {
				if mp := r.w.Pod(model.Key(c.Namespace, c.Pod)); mp != nil && mp.Node != nil {
					p.node = r.node(mp.Node.Name)
				}
			}
		case model.Ready:
			p.ready = addStep(p.ready, step{t: c.T, v: indexOf(statusNames, c.Status), reason: r.str(c.Reason)})
			r.setPodReady(p, c.T, c.Status == string(model.True))
		}
	case model.ChangeEvent:
		m := mark{t: c.T, warning: c.Type == string(model.EventWarning), reason: r.str(c.Reason), message: r.str(c.Message)}
		switch {
		case c.Pod != "":
			p := r.pod(model.Key(c.Namespace, c.Pod), c.T)
			p.marks = append(p.marks, m)
		case c.Node != "":
			n := r.node(c.Node)
			n.marks = append(n.marks, m)
		case c.Workload != "":
			wl := r.workload(model.Key(c.Namespace, c.Workload), c.Object)
			wl.marks = append(wl.marks, m)
		}
	case model.ChangeNode:
		n := r.node(c.Node)
		if c.Type == model.Ready {
			n.ready = addStep(n.ready, step{t: c.T, v: indexOf(statusNames, c.Status), reason: r.str(c.Reason)})
		}
	case model.ChangeWorkload:
		// The workload's conditions (Complete, Failed) are events too:
		// a marker with the condition as its reason.
		wl := r.workload(model.Key(c.Namespace, c.Workload), c.Object) // Object: a PodDisruptionBudget's kind
		wl.marks = append(wl.marks, mark{t: c.T, warning: c.Type == "Failed", reason: r.str(c.Type + "=" + c.Status), message: r.str(c.Reason)})
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

// Detail records a container's flags, a node's faults and taints.
func (r *Recorder) Detail(d *model.Detail) {
	r.end = d.T
	switch d.Kind {
	case model.DetailContainerFlags:
		p := r.pod(d.Pod, d.T)
		ct := p.container(d.Container)
		if ct == nil {
			return
		}
		ct.started, ct.ready = d.Started, d.Ready
		n := len(ct.segs)
		if !ct.open || n == 0 || ct.segs[n-1].style < styleRunning || ct.segs[n-1].style > styleReady {
			return
		}
		if last := &ct.segs[n-1]; last.start == d.T {
			last.style = runningStyle(ct.started, ct.ready) // flags set as it started: one interval
			return
		}
		s := ct.segs[n-1]
		ct.close(d.T)
		s.start, s.style = d.T, runningStyle(ct.started, ct.ready)
		ct.segs = append(ct.segs, s)
		ct.open, ct.split = true, true
	case model.DetailPower, model.DetailPartition, model.DetailDiskFailure:
		n := r.node(d.Node)
		kind := int32(d.Kind - model.DetailPower)
		if d.On {
			n.faults = append(n.faults, span{start: d.T, open: true, what: kind})
		} else {
			closeSpan(n.faults, kind, d.T)
		}
	case model.DetailTaint:
		n := r.node(d.Node)
		what := r.str(d.Key + ":" + d.Effect)
		if d.On {
			n.taints = append(n.taints, span{start: d.T, open: true, what: what})
		} else {
			closeSpan(n.taints, what, d.T)
		}
	}
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
	ct.segs = addSeg(ct.segs, s)
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
	wl.ready = addStep(wl.ready, step{t: t, v: wl.readyNow})
}

// pod returns the record of the pod called name, made at its first change.
func (r *Recorder) pod(name string, t time.Duration) *podRec {
	if p := r.podIdx[name]; p != nil {
		return p
	}
	p := &podRec{name: name, created: t}
	if mp := r.w.Pod(name); mp != nil {
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
		if mw := r.w.Workload(name); mw != nil {
			kind = mw.Spec.Kind
		}
	}
	wl := &wlRec{name: name, kind: kind, index: len(r.wls)}
	r.wls = append(r.wls, wl)
	r.wlIdx[name] = wl
	return wl
}
