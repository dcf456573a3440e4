// Package scenarios reads podsim scenario files: the schema of the contract
// (docs/scenario-format.md), strict decoding with FILE:LINE:COL errors,
// defaults, validation, and building a model world from a scenario. It also
// embeds the library of ready scenarios, the demo among them.
package scenarios

import (
	"time"

	"github.com/podsim/podsim/internal/yamlstrict"
	"go.yaml.in/yaml/v3"
)

// File is one scenario file as written.
type File struct {
	APIVersion string   `yaml:"apiVersion"`
	Kind       string   `yaml:"kind"`
	Metadata   Metadata `yaml:"metadata"`
	Spec       Spec     `yaml:"spec"`
}

// Metadata names a scenario.
type Metadata struct {
	Name        string            `yaml:"name"`
	Description string            `yaml:"description"`
	Labels      map[string]string `yaml:"labels"`
}

// Spec is the body of a scenario.
type Spec struct {
	Duration  *Duration  `yaml:"duration"`
	Seed      *uint64    `yaml:"seed"`
	StartTime string     `yaml:"startTime"` // RFC 3339: the wall-clock time of virtual time 0
	Settings  Settings   `yaml:"settings"`
	Nodes     []Node     `yaml:"nodes"`
	Pods      []Pod      `yaml:"pods"`
	Workloads []Workload `yaml:"workloads"`
	Include   []string   `yaml:"include"` // Kubernetes manifests (files, folders), relative to the scenario file
	Behavior  []Behavior `yaml:"behavior"`
	Faults    []Fault    `yaml:"faults"`
	Traffic   []Traffic  `yaml:"traffic"` // requests to Services (schema_traffic.go)
	Expect    []Expect   `yaml:"expect"`

	NodeAutoscaling `yaml:",inline"` // node groups, the Cluster Autoscaler (schema_nodegroups.go)
}

// Settings are the kubelet and control-plane knobs; unset ones take
// Kubernetes' defaults (see Defaults).
type Settings struct {
	CrashLoopBackOff          Backoff          `yaml:"crashLoopBackOff"`
	ImagePullBackOff          Backoff          `yaml:"imagePullBackOff"`
	NodeMonitorGracePeriod    *Duration        `yaml:"nodeMonitorGracePeriod"`
	EvictionTimeout           *Duration        `yaml:"evictionTimeout"`
	TerminatedPodGCThreshold  *int             `yaml:"terminatedPodGCThreshold"`
	KubeAPIQPS                *float64         `yaml:"kubeAPIQPS"`   // kube-controller-manager's --kube-api-qps
	KubeAPIBurst              *int             `yaml:"kubeAPIBurst"` // and --kube-api-burst
	NodeStatusUpdateFrequency *Duration        `yaml:"nodeStatusUpdateFrequency"`
	Images                    []Image          `yaml:"images"`
	KubeletSync               string           `yaml:"kubeletSync"` // exact (default) or realistic
	KubeProxy                 KubeProxy        `yaml:"kubeProxy"`
	MetricsServer             MetricsServer    `yaml:"metricsServer"`
	Eviction                  `yaml:",inline"` // the kubelet's eviction manager (schema_eviction.go)
	HorizontalPodAutoscaler   HPASettings      `yaml:"horizontalPodAutoscaler"`
	NodeShutdown              `yaml:",inline"` // every node's default (schema_kubelet.go)
}

// Backoff is a doubling delay: initial, doubling up to max; resetAfter is
// how long a container must run for the delay to start over.
type Backoff struct {
	Initial    *Duration `yaml:"initial"`
	Max        *Duration `yaml:"max"`
	ResetAfter *Duration `yaml:"resetAfter"`
}

// Image says how pulling one image behaves.
type Image struct {
	Name     string        `yaml:"name"`
	PullTime *DurationDist `yaml:"pullTime"`
	Missing  bool          `yaml:"missing"`
}

// Node is a node, or with Count > 1 a group of identical nodes.
type Node struct {
	Name      string              `yaml:"name"`
	Capacity  map[string]Quantity `yaml:"capacity"`
	Labels    map[string]string   `yaml:"labels"`
	Taints    []Taint             `yaml:"taints"`
	Count     *int                `yaml:"count"`
	NodeState `yaml:",inline"`    // read from a cluster (schema_snapshot.go)

	// Random failures (beyond the contract): each node of the entry powers
	// off at exponentially distributed times with this mean, and comes back
	// after RepairTime (none: the first failure is for good).
	MTBF       *Duration     `yaml:"mtbf"`
	RepairTime *DurationDist `yaml:"repairTime"`

	NodeShutdown `yaml:",inline"` // its own, over settings' (schema_kubelet.go)
	NodeCost     `yaml:",inline"` // pricePerHour (schema_cost.go)
}

// Taint is a node taint as in the Kubernetes API.
type Taint struct {
	Key    string `yaml:"key"`
	Value  string `yaml:"value"`
	Effect string `yaml:"effect"`
}

// ObjectMeta is the part of Kubernetes' metadata that podsim reads.
type ObjectMeta struct {
	Name         string            `yaml:"name"`
	Namespace    string            `yaml:"namespace"`
	Labels       map[string]string `yaml:"labels"`
	Annotations  map[string]string `yaml:"annotations"`
	SnapshotMeta `yaml:",inline"`  // read from a cluster (schema_snapshot.go)
}

// Pod is a bare pod: a Kubernetes Pod object.
type Pod struct {
	APIVersion string     `yaml:"apiVersion"`
	Kind       string     `yaml:"kind"`
	Metadata   ObjectMeta `yaml:"metadata"`
	Spec       PodSpec    `yaml:"spec"`
	Status     *PodStatus `yaml:"status"` // its state in a snapshot of a cluster (schema_snapshot.go)
}

// PodSpec holds the Kubernetes PodSpec fields podsim simulates; the others
// are accepted, quietly or with a warning (see the Ignore and Unmodelled
// calls in this file).
type PodSpec struct {
	NodeName                      string            `yaml:"nodeName"`
	NodeSelector                  map[string]string `yaml:"nodeSelector"`
	RestartPolicy                 string            `yaml:"restartPolicy"`
	TerminationGracePeriodSeconds *int64            `yaml:"terminationGracePeriodSeconds"`
	InitContainers                []Container       `yaml:"initContainers"`
	Containers                    []Container       `yaml:"containers"`
	Tolerations                   []Toleration      `yaml:"tolerations"`
	SchedulingGates               []NameOnly        `yaml:"schedulingGates"`
	ReadinessGates                []ReadinessGate   `yaml:"readinessGates"`
	Priority                      *int32            `yaml:"priority"`

	// Scheduling (scheduling.go).
	Affinity                  *Affinity                  `yaml:"affinity"`
	TopologySpreadConstraints []TopologySpreadConstraint `yaml:"topologySpreadConstraints"`
	PriorityClassName         string                     `yaml:"priorityClassName"`
	PreemptionPolicy          string                     `yaml:"preemptionPolicy"`
	// SchedulerName is read only to warn when it names another scheduler
	// than the one podsim runs (default-scheduler).
	SchedulerName string `yaml:"schedulerName"`

	PodKubelet            `yaml:",inline"` // schema_kubelet.go
	NodeClaimTemplateSpec `yaml:",inline"` // a NodePool's template (schema_karpenter.go)
}

// Toleration is a pod toleration as in the Kubernetes API.
type Toleration struct {
	Key               string `yaml:"key"`
	Operator          string `yaml:"operator"`
	Value             string `yaml:"value"`
	Effect            string `yaml:"effect"`
	TolerationSeconds *int64 `yaml:"tolerationSeconds"`
}

// Container is a Kubernetes container.
type Container struct {
	Name            string     `yaml:"name"`
	Image           string     `yaml:"image"`
	ImagePullPolicy string     `yaml:"imagePullPolicy"`
	RestartPolicy   string     `yaml:"restartPolicy"`
	Resources       Resources  `yaml:"resources"`
	LivenessProbe   *Probe     `yaml:"livenessProbe"`
	ReadinessProbe  *Probe     `yaml:"readinessProbe"`
	StartupProbe    *Probe     `yaml:"startupProbe"`
	Lifecycle       *Lifecycle `yaml:"lifecycle"`

	ContainerKubelet `yaml:",inline"` // schema_kubelet.go
}

// Resources are a container's requests and limits.
type Resources struct {
	Requests map[string]Quantity `yaml:"requests"`
	Limits   map[string]Quantity `yaml:"limits"`
}

// Handler is a probe or hook action. podsim never runs it; it only checks
// that exactly one kind is given. Outcomes come from the scenario's behavior.
type Handler struct {
	Exec      *yaml.Node   `yaml:"exec"`
	HTTPGet   *yaml.Node   `yaml:"httpGet"`
	TCPSocket *yaml.Node   `yaml:"tcpSocket"`
	GRPC      *yaml.Node   `yaml:"grpc"`
	Sleep     *SleepAction `yaml:"sleep"`
}

// Probe is a liveness, readiness or startup probe.
type Probe struct {
	Handler                       `yaml:",inline"`
	InitialDelaySeconds           *int32 `yaml:"initialDelaySeconds"`
	PeriodSeconds                 *int32 `yaml:"periodSeconds"`
	TimeoutSeconds                *int32 `yaml:"timeoutSeconds"`
	SuccessThreshold              *int32 `yaml:"successThreshold"`
	FailureThreshold              *int32 `yaml:"failureThreshold"`
	TerminationGracePeriodSeconds *int64 `yaml:"terminationGracePeriodSeconds"`
}

// Lifecycle holds a container's hooks.
type Lifecycle struct {
	PostStart *Handler `yaml:"postStart"`
	PreStop   *Handler `yaml:"preStop"`
}

// Workload is a controller object (ReplicaSet, Deployment, Job or
// DaemonSet), a PodDisruptionBudget or a PriorityClass.
type Workload struct {
	APIVersion string       `yaml:"apiVersion"`
	Kind       string       `yaml:"kind"`
	Metadata   ObjectMeta   `yaml:"metadata"`
	Spec       WorkloadSpec `yaml:"spec"`

	// PriorityClass (scheduling.k8s.io/v1): top-level fields.
	Value            *int32 `yaml:"value"`
	GlobalDefault    bool   `yaml:"globalDefault"`
	PreemptionPolicy string `yaml:"preemptionPolicy"`
	Description      string `yaml:"description"`
}

// WorkloadSpec is the union of the controller specs podsim reads, and of
// a PodDisruptionBudget's.
type WorkloadSpec struct {
	Replicas              *int32           `yaml:"replicas"`
	Completions           *int32           `yaml:"completions"`
	Parallelism           *int32           `yaml:"parallelism"`
	BackoffLimit          *int32           `yaml:"backoffLimit"`
	ActiveDeadlineSeconds *int64           `yaml:"activeDeadlineSeconds"`
	Selector              *Selector        `yaml:"selector"`
	Template              PodTemplate      `yaml:"template"`
	JobPolicies           `yaml:",inline"` // Job (schema_jobs.go)

	// ReplicaSet and Deployment: how long a pod is Ready before it counts
	// as available; Deployment: how new templates roll out.
	MinReadySeconds         *int32              `yaml:"minReadySeconds"`
	ProgressDeadlineSeconds *int32              `yaml:"progressDeadlineSeconds"`
	Strategy                *DeploymentStrategy `yaml:"strategy"`

	// PodDisruptionBudget (policy/v1).
	MinAvailable               *IntOrPercent `yaml:"minAvailable"`
	MaxUnavailable             *IntOrPercent `yaml:"maxUnavailable"`
	UnhealthyPodEvictionPolicy string        `yaml:"unhealthyPodEvictionPolicy"`

	// StatefulSet (apps/v1).
	PodManagementPolicy string `yaml:"podManagementPolicy"`

	// CronJob (batch/v1); Suspend is read on a CronJob only.
	Schedule                   string           `yaml:"schedule"`
	TimeZone                   *string          `yaml:"timeZone"`
	ConcurrencyPolicy          string           `yaml:"concurrencyPolicy"`
	StartingDeadlineSeconds    *int64           `yaml:"startingDeadlineSeconds"`
	Suspend                    *bool            `yaml:"suspend"`
	SuccessfulJobsHistoryLimit *int32           `yaml:"successfulJobsHistoryLimit"`
	FailedJobsHistoryLimit     *int32           `yaml:"failedJobsHistoryLimit"`
	JobTemplate                *JobTemplate     `yaml:"jobTemplate"`
	HPASpec                    `yaml:",inline"` // HorizontalPodAutoscaler (schema_hpa.go)
	NodePoolSpec               `yaml:",inline"` // Karpenter's NodePool (schema_karpenter.go)
}

// JobTemplate is a CronJob's jobTemplate: the Jobs it creates.
type JobTemplate struct {
	Metadata ObjectMeta   `yaml:"metadata"`
	Spec     WorkloadSpec `yaml:"spec"`
}

// DeploymentStrategy is a Deployment's spec.strategy: RollingUpdate (the
// default) or Recreate.
type DeploymentStrategy struct {
	Type          string                   `yaml:"type"`
	RollingUpdate *RollingUpdateDeployment `yaml:"rollingUpdate"`
}

// RollingUpdateDeployment bounds a rolling update: pods above replicas
// (maxSurge) and pods unavailable (maxUnavailable), each 25% by default.
type RollingUpdateDeployment struct {
	MaxSurge       *IntOrPercent `yaml:"maxSurge"`
	MaxUnavailable *IntOrPercent `yaml:"maxUnavailable"`
}

// LabelSelector is a Kubernetes label selector. A PodDisruptionBudget
// selects pods by matchLabels; controllers own the pods they created and
// do not read it; affinity terms and topology spread constraints read both
// parts.
type LabelSelector struct {
	MatchLabels      map[string]string     `yaml:"matchLabels"`
	MatchExpressions []SelectorRequirement `yaml:"matchExpressions"`
}

// PodTemplate is a workload's pod template.
type PodTemplate struct {
	Metadata ObjectMeta `yaml:"metadata"`
	Spec     PodSpec    `yaml:"spec"`
}

// Behavior says what one container's process does (contract section 4).
type Behavior struct {
	Pod              string        `yaml:"pod"`
	Namespace        string        `yaml:"namespace"` // of the pod or workload; "" is default
	Container        string        `yaml:"container"`
	Image            string        `yaml:"image"` // only while the container runs this image
	StartupTime      *DurationDist `yaml:"startupTime"`
	Runs             []Run         `yaml:"runs"`
	ShutdownTime     *DurationDist `yaml:"shutdownTime"`
	ShutdownExitCode *int32        `yaml:"shutdownExitCode"`
	Probes           ProbeWindows  `yaml:"probes"`
	Hooks            HookBehaviors `yaml:"hooks"`
	MaxRPS           *int64        `yaml:"maxRPS"`     // requests per second one pod serves
	Usage            *Usage        `yaml:"usage"`      // what the process uses with no traffic
	PerRequest       *Usage        `yaml:"perRequest"` // what each request per second it serves adds
	Leak             *Leak         `yaml:"leak"`       // memory it leaks as it runs (schema_traffic.go)
}

// Run is what one run (or Times runs) of a process does. Without ExitAfter
// the process runs until something stops it.
//
// With CrashProbability p, each run crashes (exit 1, Error) at its ExitAfter
// with probability p, and otherwise does what the other fields say; a run
// with neither ExitCode nor OOM then runs until something stops it, so
// ExitAfter is only the time of the crash.
type Run struct {
	ExitAfter        *DurationDist `yaml:"exitAfter"`
	ExitCode         *int32        `yaml:"exitCode"`
	OOM              bool          `yaml:"oom"`
	Times            *int          `yaml:"times"`
	CrashProbability *float64      `yaml:"crashProbability"`
}

// ProbeWindows are the spans of scenario time in which each probe fails.
type ProbeWindows struct {
	Liveness  []Window `yaml:"liveness"`
	Readiness []Window `yaml:"readiness"`
	Startup   []Window `yaml:"startup"`
}

// Window is [From, To) in scenario time, or with SinceStart in the time
// since each start of the container; no To means forever (until the
// container stops).
type Window struct {
	From       Duration  `yaml:"from"`
	To         *Duration `yaml:"to"`
	SinceStart bool      `yaml:"sinceStart"`
}

// HookBehaviors say how long each hook takes and whether it fails.
type HookBehaviors struct {
	PostStart *HookBehavior `yaml:"postStart"`
	PreStop   *HookBehavior `yaml:"preStop"`
}

// HookBehavior is one hook's outcome.
type HookBehavior struct {
	Duration DurationDist `yaml:"duration"`
	Fail     bool         `yaml:"fail"`
}

// Fault is something that happens at a moment: exactly one action is set.
type Fault struct {
	At           *DurationDist `yaml:"at"` // a distribution is drawn once, when the world is built
	Exit         *ExitFault    `yaml:"exit"`
	OOM          *ContainerRef `yaml:"oom"`
	Delete       *DeleteFault  `yaml:"delete"`
	DiskFailure  *NodeFault    `yaml:"diskFailure"`
	Partition    *NodeFault    `yaml:"partition"`
	NodeFailure  *NodeFault    `yaml:"nodeFailure"`
	Shutdown     *NodeFault    `yaml:"shutdown"`
	SetCondition *SetCondition `yaml:"setCondition"`
	Cordon       *NodeRef      `yaml:"cordon"`
	Uncordon     *NodeRef      `yaml:"uncordon"`
	Drain        *NodeRef      `yaml:"drain"`
	DeleteNode   *NodeRef      `yaml:"deleteNode"`
	Taint        *TaintFault   `yaml:"taint"`
	Scale        *ScaleFault   `yaml:"scale"`
	Rollout      *RolloutFault `yaml:"rollout"`
	Resize       *ResizeFault  `yaml:"resize"` // schema_resize.go
	Evict        *EvictFault   `yaml:"evict"`  // schema_evict.go

	NodeGroupBootFailure *NodeGroupFault      `yaml:"nodeGroupBootFailure"` // schema_nodegroups.go
	NodePoolUpdate       *NodePoolUpdateFault `yaml:"nodePoolUpdate"`       // schema_karpenter.go
	Create               *CreateFault         `yaml:"create"`               // schema_create.go
}

// NodeRef names a node, or by Selector the nodes with these labels.
type NodeRef struct {
	Node     string            `yaml:"node"`
	Selector map[string]string `yaml:"selector"`
}

// ContainerRef names a container of a pod (or of every pod of a workload).
type ContainerRef struct {
	Pod       string `yaml:"pod"`
	Namespace string `yaml:"namespace"`
	Container string `yaml:"container"`
}

// ExitFault makes a process exit with Code.
type ExitFault struct {
	ContainerRef `yaml:",inline"`
	Code         int32 `yaml:"code"`
}

// DeleteFault deletes a pod through the API.
type DeleteFault struct {
	Pod                string `yaml:"pod"`
	Namespace          string `yaml:"namespace"`
	GracePeriodSeconds *int64 `yaml:"gracePeriodSeconds"`
}

// NodeFault acts on a node (or nodes); For bounds it (nil: forever).
type NodeFault struct {
	NodeRef `yaml:",inline"`
	For     *DurationDist `yaml:"for"` // a distribution is drawn once, when the world is built
}

// SetCondition sets a pod condition (for readiness gates).
type SetCondition struct {
	Pod       string `yaml:"pod"`
	Namespace string `yaml:"namespace"`
	Type      string `yaml:"type"`
	Status    string `yaml:"status"`
}

// Expect is one expectation (contract section 6).
type Expect struct {
	At        *Duration `yaml:"at"`
	Pod       string    `yaml:"pod"`
	Workload  string    `yaml:"workload"`
	Node      string    `yaml:"node"`
	Namespace string    `yaml:"namespace"` // of the pod, workload or event's pod; "" is default

	Phase     string          `yaml:"phase"`
	Phases    []string        `yaml:"phases"`
	Status    string          `yaml:"status"`
	Ready     *bool           `yaml:"ready"`
	Condition *ConditionCheck `yaml:"condition"`
	Exists    *bool           `yaml:"exists"`
	NodeName  *string         `yaml:"nodeName"` // the node the pod is bound to; "" unscheduled
	// NominatedNodeName is status.nominatedNodeName: the node preemption
	// made room on; "" none.
	NominatedNodeName *string `yaml:"nominatedNodeName"`

	Container    string          `yaml:"container"`
	State        string          `yaml:"state"`
	Reason       string          `yaml:"reason"`
	ExitCode     *IntRange       `yaml:"exitCode"`
	RestartCount *IntRange       `yaml:"restartCount"`
	LastState    *LastStateCheck `yaml:"lastState"` // the previous termination, as kubectl describe's Last State

	Event *EventCheck `yaml:"event"`

	// A Service (schema_traffic.go): its endpoints as kube-proxy applied
	// them, and its requests counted from the start up to at.
	Service        string    `yaml:"service"`
	Endpoints      *IntRange `yaml:"endpoints"`
	ServedRequests *IntRange `yaml:"servedRequests"`
	FailedRequests *IntRange `yaml:"failedRequests"`
	// A pod's (or its container's) use of resources now.
	CPU    *QuantityRange `yaml:"cpu"`
	Memory *QuantityRange `yaml:"memory"`

	ReadyPods     *IntRange `yaml:"readyPods"`
	Pods          *IntRange `yaml:"pods"`
	SucceededPods *IntRange `yaml:"succeededPods"`
	FailedPods    *IntRange `yaml:"failedPods"`
	UpdatedPods   *IntRange `yaml:"updatedPods"`   // a Deployment's pods of its current template
	AvailablePods *IntRange `yaml:"availablePods"` // Ready for minReadySeconds

	// A CronJob's Jobs: those in the API, and those in status.active.
	Jobs       *IntRange       `yaml:"jobs"`
	ActiveJobs *IntRange       `yaml:"activeJobs"`
	JobStatus  *JobStatusCheck `yaml:"jobStatus"` // a Job's (schema_jobs.go)

	// A PodDisruptionBudget's status.
	DisruptionsAllowed *IntRange        `yaml:"disruptionsAllowed"`
	CurrentHealthy     *IntRange        `yaml:"currentHealthy"`
	DesiredHealthy     *IntRange        `yaml:"desiredHealthy"`
	ExpectedPods       *IntRange        `yaml:"expectedPods"`
	HPACheck           `yaml:",inline"` // a HorizontalPodAutoscaler's status (schema_hpa.go)
	NodeGroupCheck     `yaml:",inline"` // a node group's nodes, Pending pods (schema_nodegroups.go)

	// Beyond the contract: when the checks above must hold (instead of at
	// one instant, At), and phase transitions counted up to At.
	Within     *Span            `yaml:"within"` // at some instant of the span
	Always     *Span            `yaml:"always"` // at every instant of the span
	Transition *TransitionCheck `yaml:"transition"`
	Count      *IntRange        `yaml:"count"` // of transitions; default at least 1
}

// LastStateCheck checks a container's previous termination (its lastState,
// `kubectl describe`'s Last State): its reason and exit code.
type LastStateCheck struct {
	Reason   string    `yaml:"reason"`
	ExitCode *IntRange `yaml:"exitCode"`
}

// Span is a stretch of scenario time [from, to], both ends included,
// written as a two-item list: [1m, 2m].
type Span [2]Duration

// From is the span's first instant.
func (s *Span) From() time.Duration { return s[0].D() }

// To is the span's last instant.
func (s *Span) To() time.Duration { return s[1].D() }

// String formats the span as written: "[1m0s, 2m0s]".
func (s *Span) String() string { return "[" + s[0].String() + ", " + s[1].String() + "]" }

// TransitionCheck matches a pod's phase changes From -> To; an empty side
// matches any phase (and an empty From the pod's creation).
type TransitionCheck struct {
	From string `yaml:"from"`
	To   string `yaml:"to"`
}

// ConditionCheck matches a pod, node or workload condition.
type ConditionCheck struct {
	Type   string `yaml:"type"`
	Status string `yaml:"status"`
	Reason string `yaml:"reason"`
}

// EventCheck counts Kubernetes events.
type EventCheck struct {
	Pod      string    `yaml:"pod"`
	Node     string    `yaml:"node"`
	Workload string    `yaml:"workload"`
	Reason   string    `yaml:"reason"`
	Type     string    `yaml:"type"`
	Message  string    `yaml:"message"`
	Count    *IntRange `yaml:"count"`   // what reached the API (after the spam filter)
	Emitted  *IntRange `yaml:"emitted"` // what the components recorded, dropped ones included

	Namespace string `yaml:"namespace"` // of its pod or workload; see EventNamespace
}

// How each Kubernetes field that podsim does not simulate is treated, for
// the objects of a scenario and for manifests alike (package manifests
// reads this registry): Ignore lists the fields that do not change what
// podsim simulates, accepted quietly; Unmodelled those that change what
// Kubernetes would do, accepted with a warning at their line and column
// that says what is lost. Any other field is an error.
func init() { yamlstrict.Declare(schemaFields) }

func schemaFields() {
	Ignore[ObjectMeta]("generateName", "uid", "resourceVersion", "generation", "managedFields", "selfLink")
	Unmodelled[ObjectMeta](map[string]string{
		"finalizers": "deletion never waits for a finalizer",
	})
	Ignore[Workload]("status")
	Ignore[PodSpec]("volumes", "serviceAccountName", "serviceAccount", "automountServiceAccountToken",
		"securityContext", "dnsPolicy", "dnsConfig", "hostNetwork", "hostPID", "hostIPC", "hostname",
		"hostnameOverride", "subdomain", "hostAliases", "imagePullSecrets", "enableServiceLinks",
		"shareProcessNamespace", "os", "setHostnameAsFQDN", "ephemeralContainers", "hostUsers")
	Unmodelled[PodSpec](map[string]string{
		"runtimeClassName": "there is one runtime: its overhead and node selector are not applied",
		"overhead":         "not added to the pod's request",
		"resources":        "pod-level resources are not added to the request",
		"resourceClaims":   "dynamic resource allocation is not simulated: the pod never waits for a claim",
	})
	Ignore[Container]("command", "args", "workingDir", "env", "envFrom", "volumeMounts",
		"volumeDevices", "securityContext", "stdin", "stdinOnce", "tty", "terminationMessagePath",
		"terminationMessagePolicy")
	Unmodelled[PodAffinityTerm](map[string]string{
		"matchLabelKeys":    "the term selects pods by its labelSelector alone: the pod's values of these keys are not added to it",
		"mismatchLabelKeys": "the term selects pods by its labelSelector alone: the pod's values of these keys are not excluded",
	})
	Unmodelled[Lifecycle](map[string]string{
		"stopSignal": "a container is always stopped with SIGTERM",
	})
	Ignore[Resources]("claims")
	Ignore[WorkloadSpec]("revisionHistoryLimit", "manualSelector", "serviceName",
		"persistentVolumeClaimRetentionPolicy")
	Unmodelled[WorkloadSpec](map[string]string{
		"updateStrategy":          "there are no DaemonSet or StatefulSet updates",
		"paused":                  "a paused Deployment still rolls out: every rollout fault takes effect at once",
		"ttlSecondsAfterFinished": "a finished Job and its pods are never cleaned up",
		"managedBy":               "the built-in Job controller runs every Job",
		"volumeClaimTemplates":    "a StatefulSet's pods get no PersistentVolumeClaims: a replacement starts as fast as the first pod",
		"ordinals":                "a StatefulSet's pods are numbered from 0: ordinals.start is not applied",
	})
}
