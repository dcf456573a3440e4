package report

import (
	"slices"
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/scenarios"
)

// Metric is one quantity measured on every run of a study. A run gives a
// metric one sample per object of its scope: per pod, per workload, per node,
// or one for the cluster.
type Metric struct {
	Name  string // scope.name, as a study's metrics list names it
	Unit  string
	Scope string // pod, workload, node or cluster
	Help  string
}

// Metrics is every metric, in the order tables list them.
var Metrics = []Metric{
	{"pod.timeToReady", "s", "pod", "from the pod's creation to its first Ready=True (pods that never got ready are left out)"},
	{"pod.restarts", "count", "pod", "container restarts of the pod by the end of the run, all containers"},
	{"pod.restartsPerHour", "restarts/h", "pod", "the same per hour of the run"},
	{"pod.crashLoopTime", "s", "pod", "time its containers spent waiting in CrashLoopBackOff, summed over containers"},
	{"pod.notReadyTime", "s", "pod", "time without Ready=True from its creation until it ended (terminal phase or deletion) or the run did"},
	{"workload.unavailableReplicaSeconds", "replica-s", "workload", "integral of (replicas - ready pods) while positive, once all replicas had first been ready (else from creation); ReplicaSets, Deployments and StatefulSets"},
	{"workload.minReadyReplicas", "count", "workload", "fewest ready pods once all replicas had first been ready (else 0)"},
	{"workload.notAvailableReplicaSeconds", "replica-s", "workload", "integral of (replicas - available pods) while positive, available as the controller counts them (Ready for minReadySeconds, not terminating), once all replicas had first been available (else from creation); ReplicaSets and Deployments"},
	{"workload.minAvailableReplicas", "count", "workload", "fewest available pods once all replicas had first been available (else 0); ReplicaSets and Deployments"},
	{"workload.maxPods", "count", "workload", "most pods of the workload at once that are in the API and not Succeeded or Failed (terminating ones count): replicas plus a rollout's surge; ReplicaSets and Deployments"},
	{"workload.rolloutTime", "s", "workload", "from a Deployment's first rollout to the first moment after it when every replica is updated and available and no other pod is left (Deployments that never finished a rollout are left out)"},
	{"node.statusWritesPerSecond", "writes/s", "node", "pod and container status changes (phase, container state, condition) of the node's pods, per second of the run"},
	{"node.statusWritesPer10s", "writes/10s", "node", "the same, per 10 seconds (the unit of KEP-4603)"},
	{"node.peakStatusWritesPer10s", "writes/10s", "node", "status changes in the node's busiest 10-second window (windows start at 0s, 10s, ...)"},
	{"node.peakRestartsPer10s", "restarts/10s", "node", "container restarts on the node in its busiest 10-second window (windows end at 0s, 10s, 20s, ...): each is a state transition the kubelet reports, KEP-4603's measure of API load"},
	{"node.statusUpdatesPer10s", "updates/10s", "node", "the same with a pod's changes at one instant coalesced into one write, as the kubelet's status manager sends one per sync"},
	{"node.eventWritesPer10s", "writes/10s", "node", "events about the node's pods that reached the API (a create or a patch each; the spam filter's drops left out), per 10 seconds"},
	{"node.apiWritesPer10s", "writes/10s", "node", "status updates plus event writes of the node's pods, per 10 seconds: what its pods cost the API server"},
	{"node.peakCPU", "%", "node", "highest share of the node's cpu requested by the pods bound to it"},
	{"node.peakMemory", "%", "node", "highest share of the node's memory requested"},
	{"node.peakPods", "%", "node", "highest share of the node's pod capacity in use"},
	{"cluster.schedulingFailures", "count", "cluster", "FailedScheduling events: a pod fitting no node (each new reason counts once)"},
	{"cluster.podsNeverReady", "count", "cluster", "pods that never got Ready=True"},
}

// MetricNames lists the names of Metrics, in order.
func MetricNames() []string {
	out := make([]string, len(Metrics))
	for i, m := range Metrics {
		out[i] = m.Name
	}
	return out
}

// MetricIndex returns the index of the metric called name in Metrics, or -1.
func MetricIndex(name string) int {
	for i, m := range Metrics {
		if m.Name == name {
			return i
		}
	}
	return -1
}

// SeriesPoints is how many points a run's time series has: the state at
// k*duration/(SeriesPoints-1) for k = 0 .. SeriesPoints-1.
const SeriesPoints = 241

// RunMetrics is what one run measured.
type RunMetrics struct {
	// Values holds, by index in Metrics, the run's samples: one per pod,
	// workload or node (in creation order), or one for the cluster.
	Values [][]float64 `json:"values"`
	// Ready, Restarts and Pods are time series over the run (SeriesPoints
	// points): pods with Ready=True, container restarts so far, and pods
	// created so far (the pods pod.* metrics have a sample for).
	Ready    []float64 `json:"ready"`
	Restarts []float64 `json:"restarts"`
	Pods     []float64 `json:"pods"`
}

// SeriesTime is the virtual time of point k of a run's series.
func SeriesTime(duration time.Duration, k int) time.Duration {
	return time.Duration(float64(duration) * float64(k) / float64(SeriesPoints-1))
}

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
	crashSince map[string]time.Duration // containers in CrashLoopBackOff
	crashTotal time.Duration
	restarts   map[string]int32 // the latest restart count of each container
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
	writes              [][]int
	restartsIn          [][]int // by window ending at k*10s: (k*10s-10s, k*10s]
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

// Measure computes every metric of a scenario's run: it builds the world
// with a Meter, runs it for the scenario's duration and finishes.
func Measure(s *scenarios.Scenario) RunMetrics {
	w := s.NewWorld()
	m := NewMeter(w, s.Duration)
	s.Populate(w)
	w.Run(s.Duration)
	return m.Finish()
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
	m.writes = append(m.writes, make([]int, max(m.windows, 1)))
	m.restartsIn = append(m.restartsIn, make([]int, m.windows+1))
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
	if o.Op == model.ObjectAdded {
		switch o.Kind {
		case model.ObjectNode:
			m.addNode(o.Node)
		case model.ObjectWorkload:
			m.addWorkload(o.Workload)
		case model.ObjectPod:
			m.added[model.Key(o.Pod.Namespace, o.Pod.Name)] = o.Pod
		}
		return
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
	r := t.p.Spec.Requests()
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
	ws := m.writes[t.node]
	ws[min(w, len(ws)-1)]++
	if update {
		m.updates[t.node]++
	}
}

// bindTo learns the node of a pod that was just bound and counts the
// writes it made before.
func (m *Meter) bindTo(t *podTrack) {
	if t.node >= 0 || t.p.Node == nil {
		return
	}
	t.node = m.nodeIndex(t.p.Node)
	ws := m.writes[t.node]
	for _, w := range t.unboundWrites {
		ws[min(w, len(ws)-1)]++
	}
	m.updates[t.node] += t.unboundUpdates
	t.unboundWrites, t.unboundUpdates = nil, 0
}

func (m *Meter) apply(c *model.Change) {
	if c.Kind == model.ChangeEvent {
		if c.Reason == "FailedScheduling" {
			m.schedFailures++
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
		}
	case model.ChangeContainer:
		if c.RestartCount > t.restarts[c.Container] {
			d := int(c.RestartCount - t.restarts[c.Container])
			m.restarts += d
			t.restarts[c.Container] = c.RestartCount
			if t.node >= 0 {
				k := int((c.T + 10*time.Second - 1) / (10 * time.Second))
				m.restartsIn[t.node][min(k, len(m.restartsIn[t.node])-1)] += d
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
}

// advance accounts for the time from prev to now, in the state after prev.
func (m *Meter) advance(prev, now time.Duration) {
	if now <= prev {
		return
	}
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

// Finish ends the run at its duration and returns the metrics.
func (m *Meter) Finish() RunMetrics {
	if m.inInstant {
		m.after(m.instant)
		m.prev = m.instant
		m.inInstant = false
	}
	m.advance(m.prev, m.duration)
	for m.k < SeriesPoints {
		m.point()
	}
	duration := m.duration
	out := m.m
	out.Values = make([][]float64, len(Metrics))
	add := func(name string, v float64) {
		i := MetricIndex(name)
		out.Values[i] = append(out.Values[i], v)
	}
	neverReady := 0
	for _, t := range m.tracks { // in creation order, as w.Pods
		stop := duration
		if t.ended {
			stop = t.endedAt
		}
		readyTotal := t.readyTotal
		if t.ready {
			readyTotal += stop - t.readySince
		}
		crash := t.crashTotal
		for _, since := range t.crashSince {
			crash += stop - since
		}
		if t.everReady {
			add("pod.timeToReady", (t.readyAt - t.p.CreatedAt).Seconds())
		} else {
			neverReady++
		}
		n := 0
		for _, r := range t.restarts {
			n += int(r)
		}
		add("pod.restarts", float64(n))
		if duration > 0 {
			add("pod.restartsPerHour", float64(n)/duration.Hours())
		}
		add("pod.crashLoopTime", crash.Seconds())
		add("pod.notReadyTime", max(stop-t.p.CreatedAt-readyTotal, 0).Seconds())
	}
	for i := range m.wls {
		if m.wlFull[i] {
			add("workload.unavailableReplicaSeconds", m.wlUnavail[i])
		} else {
			add("workload.unavailableReplicaSeconds", m.wlUnavailAll[i])
		}
		// A workload starts with no ready pod: one that never had all its
		// replicas ready had 0 at least once.
		add("workload.minReadyReplicas", float64(max(m.wlMin[i], 0)))
		a := &m.wlAvail[i]
		if !a.counted {
			continue
		}
		if a.full {
			add("workload.notAvailableReplicaSeconds", a.gap)
		} else {
			add("workload.notAvailableReplicaSeconds", a.gapAll)
		}
		add("workload.minAvailableReplicas", float64(max(a.min, 0)))
		add("workload.maxPods", float64(a.most))
		if a.rolloutTime >= 0 {
			add("workload.rolloutTime", a.rolloutTime.Seconds())
		}
	}
	secs := duration.Seconds()
	for i := range m.nodes {
		total, top := 0, 0
		for _, n := range m.writes[i] {
			total += n
			top = max(top, n)
		}
		if secs > 0 {
			add("node.statusWritesPerSecond", float64(total)/secs)
			add("node.statusWritesPer10s", float64(total)*10/secs)
		}
		add("node.peakStatusWritesPer10s", float64(top))
		add("node.peakRestartsPer10s", float64(slices.Max(m.restartsIn[i])))
		if secs > 0 {
			add("node.statusUpdatesPer10s", float64(m.updates[i])*10/secs)
			add("node.eventWritesPer10s", float64(m.eventWrites[i])*10/secs)
			add("node.apiWritesPer10s", float64(m.updates[i]+m.eventWrites[i])*10/secs)
		}
		add("node.peakCPU", m.peak[i][0])
		add("node.peakMemory", m.peak[i][1])
		add("node.peakPods", m.peak[i][2])
	}
	add("cluster.schedulingFailures", float64(m.schedFailures))
	add("cluster.podsNeverReady", float64(neverReady))
	return out
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

// share is part/whole in percent (0 for an unknown whole).
func share(part, whole int64) float64 {
	if whole <= 0 {
		return 0
	}
	return 100 * float64(part) / float64(whole)
}
