package report

import (
	"slices"
	"time"

	"github.com/podsim/podsim/model"
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
	{"pod.crashLoopTime", "s", "pod", "time its containers spent waiting in CrashLoopBackOff, summed over containers"},
	{"pod.notReadyTime", "s", "pod", "time without Ready=True from its creation until it ended (terminal phase or deletion) or the run did"},
	{"workload.unavailableReplicaSeconds", "replica-s", "workload", "integral of (replicas - ready pods) while positive, once all replicas had first been ready (else from creation); ReplicaSets and Deployments"},
	{"workload.minReadyReplicas", "count", "workload", "fewest ready pods once all replicas had first been ready (else 0)"},
	{"node.statusWritesPerSecond", "writes/s", "node", "pod and container status changes (phase, container state, condition) of the node's pods, per second of the run"},
	{"node.statusWritesPer10s", "writes/10s", "node", "the same, per 10 seconds (the unit of KEP-4603)"},
	{"node.peakStatusWritesPer10s", "writes/10s", "node", "status changes in the node's busiest 10-second window (windows start at 0s, 10s, ...)"},
	{"node.peakRestartsPer10s", "restarts/10s", "node", "container restarts on the node in its busiest 10-second window (windows end at 0s, 10s, 20s, ...): each is a state transition the kubelet reports, KEP-4603's measure of API load"},
	{"node.statusUpdatesPer10s", "updates/10s", "node", "the same with a pod's changes at one instant coalesced into one write, as the kubelet's status manager sends one per sync"},
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
	// Ready and Restarts are time series over the run (SeriesPoints points):
	// pods with Ready=True, and container restarts so far.
	Ready    []float64 `json:"ready"`
	Restarts []float64 `json:"restarts"`
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
	node       int              // index of its node, or -1
	wl         int              // index of its ReplicaSet or Deployment, or -1
}

// Measure computes every metric of a world that ran for duration.
func Measure(w *model.World, duration time.Duration) RunMetrics {
	nodes := w.Nodes()
	nodeIdx := map[*model.Node]int{}
	for i, n := range nodes {
		nodeIdx[n] = i
	}
	var wls []*model.Workload
	wlIdx := map[*model.Workload]int{}
	for _, wl := range w.Workloads() {
		if k := wl.Spec.Kind; k == model.KindReplicaSet || k == model.KindDeployment {
			wlIdx[wl] = len(wls)
			wls = append(wls, wl)
		}
	}
	pods := w.Pods()
	track := make(map[string]*podTrack, len(pods))
	tracks := make([]*podTrack, len(pods))
	for i, p := range pods {
		t := &podTrack{p: p, node: -1, wl: -1, crashSince: map[string]time.Duration{}, restarts: map[string]int32{}}
		if p.Node != nil {
			t.node = nodeIdx[p.Node]
		}
		if i, ok := wlIdx[p.Owner()]; ok && p.Owner() != nil {
			t.wl = i
		}
		track[p.Name] = t
		tracks[i] = t
	}

	// Running state.
	readyPods, restarts := 0, 0
	wlReady := make([]int, len(wls))
	wlFull := make([]bool, len(wls))
	wlMin := make([]int, len(wls))
	wlUnavail := make([]float64, len(wls))    // since the rollout
	wlUnavailAll := make([]float64, len(wls)) // since creation
	for i := range wls {
		wlMin[i] = -1
	}
	type use struct{ cpu, mem, pods int64 }
	used := make([]use, len(nodes))
	peak := make([][3]float64, len(nodes))
	windows := int((duration + 10*time.Second - 1) / (10 * time.Second))
	writes := make([][]int, len(nodes))
	restartsIn := make([][]int, len(nodes)) // by window ending at k*10s: (k*10s-10s, k*10s]
	for i := range writes {
		writes[i] = make([]int, max(windows, 1))
		restartsIn[i] = make([]int, windows+1)
	}
	updates := make([]int, len(nodes))
	var touched []*podTrack
	schedFailures := 0
	var m RunMetrics
	m.Ready = make([]float64, 0, SeriesPoints)
	m.Restarts = make([]float64, 0, SeriesPoints)

	// setReady records the pod's readiness after an instant.
	setReady := func(t *podTrack, now time.Duration, ready bool) {
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
		readyPods += d
		if t.wl >= 0 {
			wlReady[t.wl] += d
		}
	}
	release := func(t *podTrack) {
		if !t.bound {
			return
		}
		t.bound = false
		r := t.p.Spec.Requests()
		u := &used[t.node]
		u.cpu, u.mem, u.pods = u.cpu-r.MilliCPU, u.mem-r.Memory, u.pods-1
	}
	markReady := func(t *podTrack, ready bool) {
		t.readyNow = ready
		if !t.touched {
			t.touched = true
			touched = append(touched, t)
		}
	}
	end := func(t *podTrack, now time.Duration) {
		if t.ended {
			return
		}
		markReady(t, false)
		for c, since := range t.crashSince {
			t.crashTotal += now - since
			delete(t.crashSince, c)
		}
		t.ended, t.endedAt = true, now
		release(t)
	}
	apply := func(c *model.Change) {
		if c.Kind == "event" {
			if c.Reason == "FailedScheduling" {
				schedFailures++
			}
			return
		}
		t := track[c.Pod]
		if t == nil {
			return
		}
		switch c.Kind {
		case "phase", "container", "condition":
			if t.node >= 0 {
				writes[t.node][min(int(c.T/(10*time.Second)), len(writes[t.node])-1)]++
				if !t.wrote || t.lastWrite != c.T {
					updates[t.node]++
					t.wrote, t.lastWrite = true, c.T
				}
			}
		}
		switch c.Kind {
		case "phase":
			if model.Phase(c.To).Terminal() {
				end(t, c.T)
			}
		case "pod":
			if c.Reason == "Deleted" {
				end(t, c.T)
			}
		case "condition":
			switch {
			case c.Type == model.Ready && !t.ended:
				markReady(t, c.Status == string(model.True))
			case c.Type == model.PodScheduled && c.Status == string(model.True) && !t.bound && !t.ended && t.node >= 0:
				t.bound = true
				r := t.p.Spec.Requests()
				u := &used[t.node]
				u.cpu, u.mem, u.pods = u.cpu+r.MilliCPU, u.mem+r.Memory, u.pods+1
			}
		case "container":
			if c.RestartCount > t.restarts[c.Container] {
				d := int(c.RestartCount - t.restarts[c.Container])
				restarts += d
				t.restarts[c.Container] = c.RestartCount
				if t.node >= 0 {
					k := int((c.T + 10*time.Second - 1) / (10 * time.Second))
					restartsIn[t.node][min(k, len(restartsIn[t.node])-1)] += d
				}
			}
			since, crashing := t.crashSince[c.Container]
			inCrash := c.State == "Waiting" && c.Reason == model.ReasonCrashLoopBackOff
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
	after := func(now time.Duration) {
		for _, t := range touched {
			setReady(t, now, t.readyNow)
			t.touched = false
		}
		touched = touched[:0]
		for i, wl := range wls {
			want := wl.Spec.Replicas
			if wlReady[i] >= want {
				wlFull[i] = true
			}
			if wlFull[i] && (wlMin[i] < 0 || wlReady[i] < wlMin[i]) {
				wlMin[i] = wlReady[i]
			}
		}
		for i, n := range nodes {
			u, pk := used[i], &peak[i]
			pk[0] = max(pk[0], share(u.cpu, n.Capacity.MilliCPU))
			pk[1] = max(pk[1], share(u.mem, n.Capacity.Memory))
			pk[2] = max(pk[2], share(u.pods, n.Capacity.Pods))
		}
	}
	// advance accounts for the time from prev to now, in the state after prev.
	advance := func(prev, now time.Duration) {
		if now <= prev {
			return
		}
		for i, wl := range wls {
			if gap := wl.Spec.Replicas - wlReady[i]; gap > 0 {
				d := float64(gap) * (now - prev).Seconds()
				wlUnavailAll[i] += d
				if wlFull[i] {
					wlUnavail[i] += d
				}
			}
		}
	}
	changes := w.Changes()
	prev := time.Duration(0)
	k := 0
	for i := 0; i < len(changes); {
		now := changes[i].T
		if now > duration {
			break
		}
		for k < SeriesPoints && SeriesTime(duration, k) < now {
			m.Ready = append(m.Ready, float64(readyPods))
			m.Restarts = append(m.Restarts, float64(restarts))
			k++
		}
		advance(prev, now)
		for ; i < len(changes) && changes[i].T == now; i++ {
			apply(&changes[i])
		}
		after(now)
		prev = now
	}
	advance(prev, duration)
	for ; k < SeriesPoints; k++ {
		m.Ready = append(m.Ready, float64(readyPods))
		m.Restarts = append(m.Restarts, float64(restarts))
	}

	m.Values = make([][]float64, len(Metrics))
	add := func(name string, v float64) {
		i := MetricIndex(name)
		m.Values[i] = append(m.Values[i], v)
	}
	neverReady := 0
	for _, t := range tracks {
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
		add("pod.crashLoopTime", crash.Seconds())
		add("pod.notReadyTime", max(stop-t.p.CreatedAt-readyTotal, 0).Seconds())
	}
	for i := range wls {
		if wlFull[i] {
			add("workload.unavailableReplicaSeconds", wlUnavail[i])
		} else {
			add("workload.unavailableReplicaSeconds", wlUnavailAll[i])
		}
		// A workload starts with no ready pod: one that never had all its
		// replicas ready had 0 at least once.
		add("workload.minReadyReplicas", float64(max(wlMin[i], 0)))
	}
	secs := duration.Seconds()
	for i := range nodes {
		total, top := 0, 0
		for _, n := range writes[i] {
			total += n
			top = max(top, n)
		}
		if secs > 0 {
			add("node.statusWritesPerSecond", float64(total)/secs)
			add("node.statusWritesPer10s", float64(total)*10/secs)
		}
		add("node.peakStatusWritesPer10s", float64(top))
		add("node.peakRestartsPer10s", float64(slices.Max(restartsIn[i])))
		if secs > 0 {
			add("node.statusUpdatesPer10s", float64(updates[i])*10/secs)
		}
		add("node.peakCPU", peak[i][0])
		add("node.peakMemory", peak[i][1])
		add("node.peakPods", peak[i][2])
	}
	add("cluster.schedulingFailures", float64(schedFailures))
	add("cluster.podsNeverReady", float64(neverReady))
	return m
}

// share is part/whole in percent (0 for an unknown whole).
func share(part, whole int64) float64 {
	if whole <= 0 {
		return 0
	}
	return 100 * float64(part) / float64(whole)
}
