package model

import (
	"time"

	"github.com/podsim/podsim/sim"
)

// Settings are the kubelet and control-plane knobs of a world.
type Settings struct {
	CrashLoopBackOff          Backoff
	ImagePullBackOff          Backoff
	NodeMonitorGracePeriod    time.Duration
	EvictionTimeout           time.Duration
	NodeStatusUpdateFrequency time.Duration
	TerminatedPodGCThreshold  int
	Images                    map[string]ImageSpec // by image name; absent: present everywhere, pulls in 0s
	// StartTime is the wall-clock time of virtual time 0, for CronJob
	// schedules (WallTime); zero: the Unix epoch, unless StartTimeSet.
	StartTime    time.Time
	StartTimeSet bool // the zero time, 0001-01-01, is the start time

	// KubeletSync says when the kubelet's pod worker syncs a pod (model/kubelet/podworker.go).
	KubeletSync KubeletSync

	// ProbeEveryTick runs every tick of every probe worker. By default a
	// worker skips the ticks that can change nothing; the timeline is the
	// same either way, byte for byte.
	ProbeEveryTick bool

	// kube-proxy applies endpoint changes at most once per
	// ProxyMinSyncPeriod, and syncs at least once per ProxySyncPeriod
	// (service.go).
	ProxyMinSyncPeriod, ProxySyncPeriod time.Duration

	// MetricResolution is how often metrics-server scrapes the kubelets
	// (metricsserver.go).
	MetricResolution time.Duration
	// The kubelet's eviction manager (evictionmanager.go): the
	// memory.available thresholds of evictionHard and evictionSoft (zero:
	// none), evictionSoftGracePeriod's for memory.available,
	// evictionMaxPodGracePeriod and evictionPressureTransitionPeriod.
	EvictionHard, EvictionSoft       MemoryThreshold
	EvictionSoftGracePeriod          time.Duration
	EvictionMaxPodGracePeriod        time.Duration
	EvictionPressureTransitionPeriod time.Duration

	// KubeAPIQPS and KubeAPIBurst are kube-controller-manager's
	// --kube-api-qps and --kube-api-burst: the token bucket of a
	// controller's API client, which paces the ReplicaSet controller's pod
	// creations and deletions (model/controller/replicaset).
	KubeAPIQPS   float64
	KubeAPIBurst int

	// HPA is the HorizontalPodAutoscaler controller's flags
	// (model/controller/podautoscaler).
	HPA HPASettings

	// NodeGroups are the cloud's node groups; ClusterAutoscaler, if set,
	// resizes them (model/controller/clusterautoscaler).
	NodeGroups        []NodeGroup
	ClusterAutoscaler *ClusterAutoscalerSettings
}

// HPASettings are kube-controller-manager's
// --horizontal-pod-autoscaler-* flags.
type HPASettings struct {
	SyncPeriod              time.Duration // how often each autoscaler syncs
	Tolerance               float64       // the ratio's change below which it keeps the replicas
	DownscaleStabilization  time.Duration // the window of recommendations a scale-down looks back on
	CPUInitializationPeriod time.Duration // after a pod's start, when its CPU sample may be skipped
	InitialReadinessDelay   time.Duration // after a pod's start, when a readiness change is its first
}

// Backoff is a delay that starts at Initial and doubles up to Max; an entry
// that has seen no restart decision for more than ResetAfter starts over.
type Backoff struct {
	Initial, Max, ResetAfter time.Duration
}

// DefaultSettings returns Kubernetes' own defaults.
func DefaultSettings() Settings {
	return Settings{
		CrashLoopBackOff:                 Backoff{Initial: 10 * time.Second, Max: 300 * time.Second, ResetAfter: 10 * time.Minute},
		ImagePullBackOff:                 Backoff{Initial: 10 * time.Second, Max: 300 * time.Second, ResetAfter: 10 * time.Minute},
		NodeMonitorGracePeriod:           50 * time.Second, // 40s before v1.32 (kubernetes/kubernetes#126287)
		EvictionTimeout:                  5 * time.Minute,
		NodeStatusUpdateFrequency:        10 * time.Second,
		TerminatedPodGCThreshold:         12500,
		ProxyMinSyncPeriod:               time.Second,
		ProxySyncPeriod:                  30 * time.Second,
		MetricResolution:                 15 * time.Second,
		EvictionHard:                     MemoryThreshold{Bytes: 100 << 20},
		EvictionPressureTransitionPeriod: 5 * time.Minute,
		KubeAPIQPS:                       20,
		KubeAPIBurst:                     30,
		HPA: HPASettings{SyncPeriod: 15 * time.Second, Tolerance: 0.1, DownscaleStabilization: 5 * time.Minute,
			CPUInitializationPeriod: 5 * time.Minute, InitialReadinessDelay: 30 * time.Second},
	}
}

// ImageSpec says how pulling one image behaves.
type ImageSpec struct {
	PullTime     time.Duration
	PullTimeDist Dist // if set, each pull takes a draw from it instead of PullTime
	Missing      bool // every pull fails: ErrImagePull, then ImagePullBackOff
}

// Resources are amounts of cpu (milli-cores), memory (bytes) and pods.
type Resources struct {
	MilliCPU int64
	Memory   int64
	Pods     int64
}

// PodSpec is what a pod asks for, in the model's terms.
type PodSpec struct {
	NodeName               string
	NodeSelector           map[string]string
	RestartPolicy          RestartPolicy
	TerminationGracePeriod time.Duration
	ActiveDeadline         *time.Duration // spec.activeDeadlineSeconds (model/kubelet/activedeadline.go); nil: none
	InitContainers         []ContainerSpec
	Containers             []ContainerSpec
	ReadinessGates         []string

	// Scheduling (affinity.go, priority.go; the scheduler reads them, model/scheduler).
	Affinity                  *Affinity
	TopologySpreadConstraints []TopologySpreadConstraint
	PriorityClassName         string
	Priority                  *int32 // as written; admission checks it
	PreemptionPolicy          string // as written: "", PreemptLowerPriority or Never
}

// Requests is the pod's effective request: the larger of the sum of its
// regular containers (plus sidecars) and any single init container.
func (s *PodSpec) Requests() Resources { return s.requests(nil) }

// requests is Requests with each container's request passed through per
// (nil: as it is).
func (s *PodSpec) requests(per func(Resources) Resources) Resources {
	req := func(c *ContainerSpec) Resources {
		if per == nil {
			return c.Requests
		}
		return per(c.Requests)
	}
	var sum, initMax, sidecars Resources
	for i := range s.InitContainers {
		c := &s.InitContainers[i]
		own := req(c)
		r := own
		r.MilliCPU += sidecars.MilliCPU
		r.Memory += sidecars.Memory
		initMax.MilliCPU = max(initMax.MilliCPU, r.MilliCPU)
		initMax.Memory = max(initMax.Memory, r.Memory)
		if c.Sidecar {
			sidecars.MilliCPU += own.MilliCPU
			sidecars.Memory += own.Memory
		}
	}
	sum = sidecars
	for i := range s.Containers {
		r := req(&s.Containers[i])
		sum.MilliCPU += r.MilliCPU
		sum.Memory += r.Memory
	}
	return Resources{MilliCPU: max(sum.MilliCPU, initMax.MilliCPU), Memory: max(sum.Memory, initMax.Memory), Pods: 1}
}

// PullPolicy is a container's imagePullPolicy.
type PullPolicy string

// Image pull policies.
const (
	PullAlways       PullPolicy = "Always"
	PullIfNotPresent PullPolicy = "IfNotPresent"
	PullNever        PullPolicy = "Never"
)

// ContainerSpec is one container of a pod spec.
type ContainerSpec struct {
	Name       string
	Image      string
	PullPolicy PullPolicy
	Sidecar    bool // an init container with restartPolicy Always
	// RestartPolicy is a regular container's own restartPolicy ("": the
	// pod's), and RestartRules its restartPolicyRules (KEP-5307).
	RestartPolicy RestartPolicy
	RestartRules  []RestartRule
	Requests      Resources
	Limits        Resources    // 0: none (usage.go: CPU is capped at it, memory past it is OOM-killed)
	ResizePolicy  ResizePolicy // what an in-place resize of each resource does (model/kubelet/resize.go)
	Behavior      *Behavior    // nil: runs until stopped, probes pass
	Ports         []ContainerPort

	Liveness, Readiness, Startup *ProbeSpec
	PostStart, PreStop           string // the hook's handler kind ("exec", "httpGet", ...); "" if none
	// PostStartSleep and PreStopSleep are a sleep action's seconds: the
	// hook's duration unless the behaviour gives one.
	PostStartSleep, PreStopSleep time.Duration
}

// ContainerPort is one of a container's ports: what a probe's named port
// resolves to.
type ContainerPort struct {
	Name string
	Port int
}

// RestartRule is a container's restart rule with the action Restart: it
// matches an exit code in ExitCodes (NotIn: not in them).
type RestartRule struct {
	NotIn     bool
	ExitCodes []int32
}

// ProbeKind is liveness, readiness or startup.
type ProbeKind uint8

// Probe kinds.
const (
	Liveness ProbeKind = iota
	Readiness
	Startup
)

func (k ProbeKind) String() string {
	return [...]string{"Liveness", "Readiness", "Startup"}[k]
}

// probe is s's probe of kind k, nil if none.
func (s *ContainerSpec) probe(k ProbeKind) *ProbeSpec {
	return [...]*ProbeSpec{Liveness: s.Liveness, Readiness: s.Readiness, Startup: s.Startup}[k]
}

// ProbeSpec is a probe with Kubernetes' defaults applied.
type ProbeSpec struct {
	Handler string // exec, httpGet, tcpSocket, grpc
	// What the handler checks, as written, for the views (podsim runs no
	// handler): exec's Command; httpGet's Scheme, Host, Port and Path;
	// tcpSocket's Host and Port; grpc's Port and Service.
	Command                           []string
	Scheme, Host, Port, Path, Service string

	InitialDelay     time.Duration
	Period           time.Duration
	Timeout          time.Duration
	SuccessThreshold int
	FailureThreshold int
	// TerminationGracePeriod, if set, replaces the pod's for kills caused by
	// this probe (liveness and startup only).
	TerminationGracePeriod *time.Duration
}

// Window is a span [From, To) of scenario time, or with SinceStart of the
// time since each start of the container's process; To == 0 means forever
// (until the process stops).
type Window struct {
	From, To   time.Duration
	SinceStart bool
}

// Span is the window in scenario time for a process that started at
// startedAt: [from, to), to == 0 for ever. A time past the end of time
// saturates.
func (w Window) Span(startedAt time.Duration) (from, to time.Duration) {
	if !w.SinceStart {
		return w.From, w.To
	}
	from = sim.AddSat(startedAt, w.From)
	if w.To != 0 {
		to = sim.AddSat(startedAt, w.To)
	}
	return from, to
}

// Contains reports whether t falls in the window, for a process that
// started at startedAt.
func (w Window) Contains(t, startedAt time.Duration) bool {
	from, to := w.Span(startedAt)
	return t >= from && (to == 0 || t < to)
}

// HookBehavior is how a lifecycle hook behaves when it runs.
type HookBehavior struct {
	Duration     time.Duration
	DurationDist Dist // if set, each run of the hook takes a draw from it instead of Duration
	Fail         bool
}

// Behavior is what a container's process does on each run.
type Behavior struct {
	StartupTime      time.Duration // probes fail until the process has run this long
	Runs             []RunSpec     // the last one repeats forever; empty: run forever
	ShutdownTime     time.Duration // from SIGTERM to exit
	ShutdownExitCode int32         // the exit code of a graceful exit after SIGTERM
	ProbeFailures    [3][]Window   // by ProbeKind: when that probe fails (NormalizeWindows)
	PostStart        HookBehavior
	PreStop          HookBehavior
	MaxRPS           int64 // the requests per second the pod can serve (traffic.go); 0: no limit
	// Usage is what the process uses with no traffic; PerRequest what each
	// request per second it serves adds (usage.go).
	Usage, PerRequest Resources
	// LeakMemory is the memory the process leaks per LeakPer of running:
	// its use grows linearly from its start (usage.go); 0: none.
	LeakMemory int64
	LeakPer    time.Duration

	// If set, each run draws its startup time, and each SIGTERM its
	// shutdown time, from these instead of the fixed values above.
	StartupTimeDist, ShutdownTimeDist Dist
}

// probeFails reports whether a probe of kind k fails at now for a process
// that started at startedAt and needs startup to start.
func (b *Behavior) probeFails(k ProbeKind, now, startedAt, startup time.Duration) bool {
	if b == nil {
		return false
	}
	if now-startedAt < startup {
		return true
	}
	return anyContains(b.ProbeFailures[k], now, startedAt)
}

func (b *Behavior) startupTime() time.Duration {
	if b == nil {
		return 0
	}
	return b.StartupTime
}

func (b *Behavior) shutdown() (time.Duration, int32) {
	if b == nil {
		return 0, 0
	}
	return b.ShutdownTime, b.ShutdownExitCode
}

func (b *Behavior) hook(preStop bool) HookBehavior {
	switch {
	case b == nil:
		return HookBehavior{}
	case preStop:
		return b.PreStop
	}
	return b.PostStart
}

// RunSpec is one or more identical runs of a process.
type RunSpec struct {
	Forever   bool          // never exits on its own
	ExitAfter time.Duration // when it exits, after the start
	ExitCode  int32
	OOM       bool // killed by the OOM killer: exit 137, OOMKilled
	Times     int  // how many runs this entry covers (>= 1)

	// ExitAfterDist, if set, gives each run a draw instead of ExitAfter.
	ExitAfterDist Dist
	// CrashProbability is the chance that a run crashes (exit 1, Error) at
	// its ExitAfter; a run that does not crash does what the fields above
	// say (a Forever run keeps running).
	CrashProbability float64
}

// run returns what the n-th run (0-based) of the process does.
func (b *Behavior) run(n int32) RunSpec {
	if b == nil || len(b.Runs) == 0 {
		return RunSpec{Forever: true, Times: 1}
	}
	for _, r := range b.Runs {
		if int(n) < r.Times {
			return r
		}
		n -= int32(r.Times)
	}
	return b.Runs[len(b.Runs)-1]
}
