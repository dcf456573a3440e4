package report

import (
	"time"

	"github.com/podsim/podsim/model"
)

// podTrack follows one pod through the timeline.
type podTrack struct {
	p          *model.Pod
	ready      bool // Ready=True after the last instant
	readyNow   bool // Ready=True after the changes seen so far
	touched    bool // readyNow may differ from ready
	lastWrite  time.Duration
	wrote      bool
	everReady  bool
	readyAt    time.Duration
	readySince time.Duration
	readyTotal time.Duration
	ended      bool
	endedAt    time.Duration
	held       model.Resources          // the requests addUse counted on its node (a resize changes them)
	crashSince map[string]time.Duration // containers in CrashLoopBackOff
	crashTotal time.Duration
	restarts   map[string]int32 // the latest restart count of each container
	evictions  int              // its Evicted events (node-pressure eviction)
	bound      bool             // holds resources on its node
	node       int              // index of its node, or -1 until it is bound
	wl         int              // index of its ReplicaSet, Deployment or StatefulSet, or -1

	// Status writes made before the pod was bound, counted for its node
	// once it is: the window of each, and the coalesced updates.
	unboundWrites  []int
	unboundUpdates int
}

// Meter measures every metric of one run online: subscribe it to a world
// before the world is populated (NewMeter, then scenarios' Populate), run
// the world, then call Finish. It keeps a few numbers per pod, workload and
// node, never the timeline.
type Meter struct {
	duration time.Duration
	added    map[string]*model.Pod // the pods added, the last of each key
	services []*model.Service      // the Services added, in order
	hpas     []hpaTrack            // the HorizontalPodAutoscalers added, in order (meter_hpa.go)
	cluster  clusterMeter          // the cluster.* metrics of node autoscaling (metrics_cluster.go)

	tracks []*podTrack // in creation order
	track  map[podRef]*podTrack

	nodes   []*model.Node
	nodeIdx map[*model.Node]int
	wls     []*model.Workload
	wlIdx   map[*model.Workload]int

	// Running state.
	readyPods, restarts int
	wlReady             []int
	wlFull              []bool
	wlMin               []int
	wlUnavail           []float64 // since the rollout
	wlUnavailAll        []float64 // since creation
	wlAvail             []workloadAvailability
	used                []use
	peak                [][3]float64
	dirty               []bool // used changed at this instant
	dirtyNodes          []int
	windows             int
	writes              []windowCounts // by window starting at k*10s
	writesTotal         []int
	restartsIn          []windowCounts // by window ending at k*10s: (k*10s-10s, k*10s]
	updates             []int
	eventWrites         []int
	touched             []*podTrack
	schedFailures       int

	instant, prev time.Duration // the instant being applied, and the one before
	inInstant     bool
	k             int // the next series point
	m             RunMetrics
}

type use struct{ cpu, mem, pods int64 }

// workloadAvailability follows a ReplicaSet's or Deployment's replicas
// and status (as the model last told them: an update of the workload), its
// available pods, its pods and its first rollout. A StatefulSet's
// controller tells none (counted is false): its desired replicas are read
// from its spec, and it has no availability metrics.
type workloadAvailability struct {
	counted      bool
	heard        replicasHeard
	desired      int  // replicas after the last instant
	available    int  // after the last instant
	full         bool // all replicas have been available
	min          int  // fewest available since full; -1 before
	gap, gapAll  float64
	pods, most   int           // pods alive now, and at most after an instant
	rolloutStart time.Duration // -1: no rollout yet
	rolloutTime  time.Duration // -1: not finished
}

// NewMeter returns a meter for a run of w up to duration and subscribes it.
func NewMeter(w *model.World, duration time.Duration) *Meter {
	m := &Meter{duration: duration, added: map[string]*model.Pod{}, track: map[podRef]*podTrack{},
		nodeIdx: map[*model.Node]int{}, wlIdx: map[*model.Workload]int{},
		windows: int((duration + 10*time.Second - 1) / (10 * time.Second))}
	m.m.Ready = make([]float64, 0, SeriesPoints)
	m.m.Restarts = make([]float64, 0, SeriesPoints)
	m.m.Pods = make([]float64, 0, SeriesPoints)
	w.Subscribe(m)
	return m
}

// nodeIndex returns n's index in the order the nodes were added.
func (m *Meter) nodeIndex(n *model.Node) int { return m.nodeIdx[n] }

// addNode learns a node added.
func (m *Meter) addNode(n *model.Node) {
	m.nodeIdx[n] = len(m.nodes)
	m.nodes = append(m.nodes, n)
	m.used = append(m.used, use{})
	m.peak = append(m.peak, [3]float64{})
	m.dirty = append(m.dirty, false)
	m.writes = append(m.writes, windowCounts{})
	m.writesTotal = append(m.writesTotal, 0)
	m.restartsIn = append(m.restartsIn, windowCounts{})
	m.updates = append(m.updates, 0)
	m.eventWrites = append(m.eventWrites, 0)
}

// workloadIndex returns the index of a ReplicaSet, Deployment or StatefulSet,
// or -1.
func (m *Meter) workloadIndex(wl *model.Workload) int {
	if i, ok := m.wlIdx[wl]; ok {
		return i
	}
	return -1
}

// addWorkload learns a workload added: a ReplicaSet, Deployment or
// StatefulSet gets the next index.
func (m *Meter) addWorkload(x *model.Workload) {
	if k := x.Spec.Kind; k == model.KindReplicaSet || k == model.KindDeployment || k == model.KindStatefulSet {
		m.wlIdx[x] = len(m.wls)
		m.wls = append(m.wls, x)
		m.wlReady = append(m.wlReady, 0)
		m.wlFull = append(m.wlFull, false)
		m.wlMin = append(m.wlMin, -1)
		m.wlUnavail = append(m.wlUnavail, 0)
		m.wlUnavailAll = append(m.wlUnavailAll, 0)
		m.wlAvail = append(m.wlAvail, workloadAvailability{counted: k != model.KindStatefulSet,
			min: -1, rolloutStart: -1, rolloutTime: -1})
	}
}

// podTrack returns the track of the pod a change is about, making it on
// the pod's first change.
func (m *Meter) podTrack(c *model.Change) *podTrack {
	ref := podRef{c.Namespace, c.Pod}
	if t := m.track[ref]; t != nil && !(t.ended && t.p.Deleted()) {
		return t
	}
	p := m.added[model.Key(c.Namespace, c.Pod)]
	if t := m.track[ref]; t != nil && t.p == p {
		return t // the pod is gone, and its name not taken again (a StatefulSet's replacement)
	}
	if p == nil {
		return nil
	}
	t := &podTrack{p: p, node: -1, wl: m.workloadIndex(p.Owner()),
		crashSince: map[string]time.Duration{}, restarts: map[string]int32{}}
	if t.wl >= 0 {
		m.wlAvail[t.wl].pods++
	}
	m.track[ref] = t
	m.tracks = append(m.tracks, t)
	return t
}

// Change applies one change (model.Sink). Changes come in time order; an
// instant is complete when a later one starts, or at Finish.
func (m *Meter) Change(c *model.Change) {
	if c.T <= m.duration {
		m.cluster.change(c)
	}
	if m.at(c.T) {
		m.apply(c)
	}
}

// replicasHeard is a ReplicaSet's or Deployment's replicas, status and
// rollouts as the model last told them.
type replicasHeard struct {
	Desired  int
	Status   model.ReplicaStatus
	Rollouts int
}

// Object learns of the nodes, workloads and pods added, and of an instant
// at which a ReplicaSet's or Deployment's counts changed with no change of
// the timeline (model.ObjectSink).
func (m *Meter) Object(o *model.ObjectChange) {
	if o.T <= m.duration {
		m.cluster.object(o)
	}
	if o.Op == model.ObjectAdded {
		switch o.Kind {
		case model.ObjectNode:
			m.addNode(o.Node)
		case model.ObjectWorkload:
			m.addWorkload(o.Workload)
		case model.ObjectPod:
			m.added[model.Key(o.Pod.Namespace, o.Pod.Name)] = o.Pod
		case model.ObjectService:
			m.services = append(m.services, o.Service)
		case model.ObjectAutoscaler:
			m.addAutoscaler(o.Autoscaler)
		}
		return
	}
	if o.Kind == model.ObjectAutoscaler && m.at(o.T) {
		m.autoscalerUpdated(o.Autoscaler, o.T)
	}
	if o.Kind != model.ObjectWorkload || o.Op != model.ObjectUpdated {
		return
	}
	if k := o.Workload.Spec.Kind; k != model.KindReplicaSet && k != model.KindDeployment || !m.at(o.T) {
		return
	}
	if i := m.workloadIndex(o.Workload); i >= 0 {
		wl := o.Workload
		m.wlAvail[i].heard = replicasHeard{Desired: wl.Spec.Replicas, Status: wl.ReplicaStatus(), Rollouts: wl.Rollouts()}
	}
}

// at moves the meter to instant now, completing the one before; it
// reports whether now is within the run.
func (m *Meter) at(now time.Duration) bool {
	if now > m.duration {
		return false
	}
	if !m.inInstant || now != m.instant {
		if m.inInstant {
			m.after(m.instant)
			m.prev = m.instant
		}
		for m.k < SeriesPoints && SeriesTime(m.duration, m.k) < now {
			m.point()
		}
		m.advance(m.prev, now)
		m.instant, m.inInstant = now, true
	}
	return true
}

func (m *Meter) point() {
	m.m.Ready = append(m.m.Ready, float64(m.readyPods))
	m.m.Restarts = append(m.m.Restarts, float64(m.restarts))
	m.m.Pods = append(m.m.Pods, float64(len(m.tracks)))
	m.k++
}

// setReady records the pod's readiness after an instant.
func (m *Meter) setReady(t *podTrack, now time.Duration, ready bool) {
	if ready == t.ready {
		return
	}
	t.ready = ready
	d := 1
	if ready {
		t.readySince = now
		if !t.everReady {
			t.everReady, t.readyAt = true, now
		}
	} else {
		t.readyTotal += now - t.readySince
		d = -1
	}
	m.readyPods += d
	if t.wl >= 0 {
		m.wlReady[t.wl] += d
	}
}

func (m *Meter) addUse(t *podTrack, sign int64) {
	r := t.held
	if sign > 0 {
		r = t.p.Spec.Requests()
		t.held = r
	}
	u := &m.used[t.node]
	u.cpu, u.mem, u.pods = u.cpu+sign*r.MilliCPU, u.mem+sign*r.Memory, u.pods+sign
	if !m.dirty[t.node] {
		m.dirty[t.node] = true
		m.dirtyNodes = append(m.dirtyNodes, t.node)
	}
}

func (m *Meter) release(t *podTrack) {
	if !t.bound {
		return
	}
	t.bound = false
	m.addUse(t, -1)
}

func (m *Meter) markReady(t *podTrack, ready bool) {
	t.readyNow = ready
	if !t.touched {
		t.touched = true
		m.touched = append(m.touched, t)
	}
}

func (m *Meter) end(t *podTrack, now time.Duration) {
	if t.ended {
		return
	}
	m.markReady(t, false)
	for c, since := range t.crashSince {
		t.crashTotal += now - since
		delete(t.crashSince, c)
	}
	t.ended, t.endedAt = true, now
	if t.wl >= 0 {
		m.wlAvail[t.wl].pods--
	}
	m.release(t)
}

// write counts a status write of the pod in the window of now, on its
// node, or held until it is bound.
func (m *Meter) write(t *podTrack, now time.Duration) {
	w := int(now / (10 * time.Second))
	update := !t.wrote || t.lastWrite != now
	if update {
		t.wrote, t.lastWrite = true, now
	}
	if t.node < 0 {
		t.unboundWrites = append(t.unboundWrites, w)
		if update {
			t.unboundUpdates++
		}
		return
	}
	m.countWrites(t.node, w, 1)
	if update {
		m.updates[t.node]++
	}
}

// countWrites counts d status writes of a pod on node in window w. When
// the node keeps many windows, those before the oldest write of a pod not
// yet bound fold away: no write can come in them any more.
func (m *Meter) countWrites(node, w, d int) {
	ws := &m.writes[node]
	ws.add(min(w, max(m.windows, 1)-1), d)
	m.writesTotal[node] += d
	if !ws.full() {
		return
	}
	oldest := w
	for _, t := range m.tracks {
		if t.node < 0 && !t.ended && len(t.unboundWrites) > 0 {
			oldest = min(oldest, t.unboundWrites[0])
		}
	}
	ws.fold(oldest)
}

// bindTo learns the node of a pod that was just bound and counts the
// writes it made before.
func (m *Meter) bindTo(t *podTrack) {
	if t.node >= 0 || t.p.Node == nil {
		return
	}
	t.node = m.nodeIndex(t.p.Node)
	for _, w := range t.unboundWrites {
		m.countWrites(t.node, w, 1)
	}
	m.updates[t.node] += t.unboundUpdates
	t.unboundWrites, t.unboundUpdates = nil, 0
}

func (m *Meter) apply(c *model.Change) {
	if c.Kind == model.ChangeEvent {
		if c.Reason == "FailedScheduling" {
			m.schedFailures++
		}
		if c.Reason == "Evicted" && c.Pod != "" {
			if t := m.podTrack(c); t != nil {
				t.evictions++
			}
		}
		if !c.Dropped && c.Pod != "" {
			if t := m.podTrack(c); t != nil && t.node >= 0 {
				m.eventWrites[t.node]++
			}
		}
		return
	}
	if c.Pod == "" {
		return
	}
	t := m.podTrack(c)
	if t == nil {
		return
	}
	if c.Kind == model.ChangeCondition && c.Type == model.PodScheduled && c.Status == string(model.True) {
		m.bindTo(t)
	}
	switch c.Kind {
	case model.ChangePhase, model.ChangeContainer, model.ChangeCondition:
		m.write(t, c.T)
	}
	switch c.Kind {
	case model.ChangePhase:
		if c.To.Terminal() {
			m.end(t, c.T)
		}
	case model.ChangePod:
		if c.Reason == "Deleted" {
			m.end(t, c.T)
		}
	case model.ChangeCondition:
		switch {
		case c.Type == model.Ready && !t.ended:
			m.markReady(t, c.Status == string(model.True))
		case c.Type == model.PodScheduled && c.Status == string(model.True) && !t.bound && !t.ended && t.node >= 0:
			t.bound = true
			m.addUse(t, 1)
		case c.Type == model.PodResizeInProgress && c.Status == string(model.True) && c.Reason == "" && t.bound:
			m.addUse(t, -1) // a resize was allocated: its node counts the new requests
			m.addUse(t, 1)
		}
	case model.ChangeContainer:
		if c.RestartCount > t.restarts[c.Container] {
			d := int(c.RestartCount - t.restarts[c.Container])
			m.restarts += d
			t.restarts[c.Container] = c.RestartCount
			if t.node >= 0 {
				k := int((c.T + 10*time.Second - 1) / (10 * time.Second))
				rs := &m.restartsIn[t.node]
				rs.add(min(k, m.windows), d)
				if rs.full() {
					rs.fold(k) // restarts come in time order
				}
			}
		}
		since, crashing := t.crashSince[c.Container]
		inCrash := c.State == model.StateWaiting && c.Reason == model.ReasonCrashLoopBackOff
		switch {
		case inCrash && !crashing && !t.ended:
			t.crashSince[c.Container] = c.T
		case !inCrash && crashing:
			t.crashTotal += c.T - since
			delete(t.crashSince, c.Container)
		}
	}
}

// after sees the state once every change of an instant is applied.
func (m *Meter) after(now time.Duration) {
	for _, t := range m.touched {
		m.setReady(t, now, t.readyNow)
		t.touched = false
	}
	m.touched = m.touched[:0]
	for i, wl := range m.wls {
		a := &m.wlAvail[i]
		if a.counted {
			a.after(now)
		} else {
			a.desired = wl.Spec.Replicas
		}
		if m.wlReady[i] >= a.desired {
			m.wlFull[i] = true
		}
		if m.wlFull[i] && (m.wlMin[i] < 0 || m.wlReady[i] < m.wlMin[i]) {
			m.wlMin[i] = m.wlReady[i]
		}
	}
	for _, i := range m.dirtyNodes {
		n, u, pk := m.nodes[i], m.used[i], &m.peak[i]
		pk[0] = max(pk[0], share(u.cpu, n.Capacity.MilliCPU))
		pk[1] = max(pk[1], share(u.mem, n.Capacity.Memory))
		pk[2] = max(pk[2], share(u.pods, n.Capacity.Pods))
		m.dirty[i] = false
	}
	m.dirtyNodes = m.dirtyNodes[:0]
	m.afterHPAs(now)
}

// advance accounts for the time from prev to now, in the state after prev.
func (m *Meter) advance(prev, now time.Duration) {
	if now <= prev {
		return
	}
	m.advanceHPAs(prev, now)
	for i := range m.wls {
		a := &m.wlAvail[i]
		if gap := a.desired - m.wlReady[i]; gap > 0 {
			d := float64(gap) * (now - prev).Seconds()
			m.wlUnavailAll[i] += d
			if m.wlFull[i] {
				m.wlUnavail[i] += d
			}
		}
		if a.counted && a.desired > a.available {
			d := float64(a.desired-a.available) * (now - prev).Seconds()
			a.gapAll += d
			if a.full {
				a.gap += d
			}
		}
	}
}

// after takes the workload's replicas and status as last heard, once
// every change of instant now is made.
func (a *workloadAvailability) after(now time.Duration) {
	st, replicas := a.heard.Status, a.heard.Desired
	a.desired, a.available = replicas, st.AvailableReplicas
	a.most = max(a.most, a.pods)
	if a.available >= replicas {
		a.full = true
	}
	if a.full && (a.min < 0 || a.available < a.min) {
		a.min = a.available
	}
	if a.heard.Rollouts > 0 && a.rolloutStart < 0 {
		a.rolloutStart = now
	}
	if a.rolloutStart >= 0 && a.rolloutTime < 0 && st.UpdatedReplicas == replicas && st.Replicas == replicas &&
		st.AvailableReplicas == replicas && a.pods == replicas {
		a.rolloutTime = now - a.rolloutStart
	}
}
