package report

import "time"

// Metric is one quantity measured on every run of a study. A run gives a
// metric one sample per object of its scope: per pod, per workload, per node,
// or one for the cluster.
type Metric struct {
	Name  string // scope.name, as a study's metrics list names it
	Unit  string
	Scope string // pod, workload, node, service, hpa or cluster
	Help  string
}

// Metrics is every metric, in the order tables list them.
var Metrics = []Metric{
	{"pod.timeToReady", "s", "pod", "from the pod's creation to its first Ready=True (pods that never got ready are left out)"},
	{"pod.restarts", "count", "pod", "container restarts of the pod by the end of the run, all containers"},
	{"pod.restartsPerHour", "restarts/h", "pod", "the same per hour of the run"},
	{"pod.crashLoopTime", "s", "pod", "time its containers spent waiting in CrashLoopBackOff, summed over containers"},
	{"pod.notReadyTime", "s", "pod", "time without Ready=True from its creation until it ended (terminal phase or deletion) or the run did"},
	{"pod.evictions", "count", "pod", "times the kubelet's eviction manager evicted the pod under node pressure (its Evicted events)"},
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
	{"node.peakMemoryUtilization", "%", "node", "highest share of the node's memory in use at any instant: what its pods' containers use by their behaviours (usage, perRequest, leak), not what they request"},
	{"service.failedRequests", "count", "service", "requests to the Service that failed by the end of the run: with no endpoint, past a pod's maxRPS, or sent to a pod no longer listening (Services with traffic)"},
	{"service.availability", "%", "service", "requests served over requests offered by the end of the run (Services offered any)"},
	{"hpa.rescales", "count", "hpa", "times the HorizontalPodAutoscaler changed its target's replicas (its SuccessfulRescale events): flaps show as many"},
	{"hpa.maxReplicas", "count", "hpa", "most replicas its target had"},
	{"hpa.replicaHours", "replica-h", "hpa", "integral of its target's replicas over the run: what the autoscaled capacity cost"},
	{"hpa.timeToCapacity", "s", "hpa", "from its first scale-up until its target had as many ready pods as replicas after the last scale-up before a scale-down (autoscalers that never scaled up, or whose target never caught up, are left out)"},
	{"cluster.schedulingFailures", "count", "cluster", "FailedScheduling events: a pod fitting no node (each new reason counts once)"},
	{"cluster.podsNeverReady", "count", "cluster", "pods that never got Ready=True"},
	{"cluster.pendingPodSeconds", "pod-s", "cluster", "integral of the pods that are Pending and not yet bound to a node (not being deleted): how long pods waited for a place, summed over pods"},
	{"cluster.timeToSchedule", "s", "pod", "from a pod's creation to its binding to a node (pods never bound are left out): the wait a scale-up shortens"},
	{"cluster.nodeHours", "node-h", "cluster", "sum of the nodes' lifetimes in the run, from their creation to their deletion or the end of the run"},
	{"cluster.cost", "$", "cluster", "sum of each node's lifetime in hours times its pricePerHour"},
	{"cluster.peakNodes", "count", "cluster", "most nodes in the cluster at once, booting ones included"},
	{"cluster.scaleUps", "count", "cluster", "nodes a node autoscaler provisioned during the run"},
	{"cluster.evictions", "count", "cluster", "pods evicted through the Eviction API (kubectl drain, an autoscaler's drain), each once: their DisruptionTarget condition EvictionByEvictionAPI"},
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
		add("pod.evictions", float64(t.evictions))
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
		total, top := m.writesTotal[i], m.writes[i].peak()
		if secs > 0 {
			add("node.statusWritesPerSecond", float64(total)/secs)
			add("node.statusWritesPer10s", float64(total)*10/secs)
		}
		add("node.peakStatusWritesPer10s", float64(top))
		add("node.peakRestartsPer10s", float64(m.restartsIn[i].peak()))
		if secs > 0 {
			add("node.statusUpdatesPer10s", float64(m.updates[i])*10/secs)
			add("node.eventWritesPer10s", float64(m.eventWrites[i])*10/secs)
			add("node.apiWritesPer10s", float64(m.updates[i]+m.eventWrites[i])*10/secs)
		}
		add("node.peakCPU", m.peak[i][0])
		add("node.peakMemory", m.peak[i][1])
		add("node.peakPods", m.peak[i][2])
		add("node.peakMemoryUtilization", share(m.nodes[i].PeakMemory(), m.nodes[i].Capacity.Memory))
	}
	for _, s := range m.services {
		if !s.HasTraffic() {
			continue
		}
		offered, served := s.Requests()
		add("service.failedRequests", float64(offered-served))
		if offered > 0 {
			add("service.availability", share(served, offered))
		}
	}
	m.finishHPAs(add)
	add("cluster.schedulingFailures", float64(m.schedFailures))
	add("cluster.podsNeverReady", float64(neverReady))
	m.cluster.finish(add, duration)
	return out
}

// share is part/whole in percent (0 for an unknown whole).
func share(part, whole int64) float64 {
	if whole <= 0 {
		return 0
	}
	return 100 * float64(part) / float64(whole)
}
