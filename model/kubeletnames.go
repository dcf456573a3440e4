package model

// The kinds, settings and names of the API the kubelet reads and writes,
// the core's: its sync mode, the memory thresholds of its eviction
// manager, a container's resize policy and the reasons and conditions it
// sets.

// KubeletSync says when the kubelet's pod worker syncs a pod.
type KubeletSync uint8

const (
	// SyncExact syncs a pod the instant anything about it changes: a
	// restart or a pull retry happens the moment its backoff ends,
	// CrashLoopBackOff shows the moment a container crashes, and one BackOff
	// event is logged per wait. The rules' own arithmetic, nothing else.
	SyncExact KubeletSync = iota
	// SyncRealistic adds the pod worker's cadence (pkg/kubelet/pod_workers.go):
	// a sync runs on each container start and exit (PLEG events) and on each
	// probe result change; after a sync that failed (something still in
	// backoff, a pull that failed) the pod is requeued after 10s, after any
	// other after 1m, both jittered by up to half again and taken off the
	// work queue at the sync loop's next one-second tick. Restarts and pull
	// retries wait for the first sync at or after their backoff ends; a
	// waiting reason shows from the sync after the one that recorded it;
	// every sync that finds a container or an image in backoff logs BackOff.
	SyncRealistic
)

var kubeletSyncNames = [...]string{SyncExact: "exact", SyncRealistic: "realistic"}

func (k KubeletSync) String() string {
	if int(k) < len(kubeletSyncNames) {
		return kubeletSyncNames[k]
	}
	return "unknown"
}

// ParseKubeletSync returns the mode called s ("exact", "realistic").
func ParseKubeletSync(s string) (KubeletSync, bool) {
	for k, name := range kubeletSyncNames {
		if name == s {
			return KubeletSync(k), true
		}
	}
	return 0, false
}

// MemoryThreshold is a memory.available threshold: Bytes, or when
// Percentage is set, that share (0..1] of the node's memory capacity.
type MemoryThreshold struct {
	Bytes      int64
	Percentage float32
}

// Of is the threshold in bytes on a node with capacity bytes of memory
// (GetThresholdQuantity); 0: none.
func (t MemoryThreshold) Of(capacity int64) int64 {
	if t.Percentage > 0 {
		return int64(float64(capacity) * float64(t.Percentage))
	}
	return t.Bytes
}

// TaintMemoryPressure is the taint of a node under memory pressure.
const TaintMemoryPressure = "node.kubernetes.io/memory-pressure"

// ResizeRestart is a container's resizePolicy restartPolicy for one
// resource.
type ResizeRestart uint8

// Resize restart policies.
const (
	ResizeNotRequired      ResizeRestart = iota // applied in place (the default)
	ResizeRestartContainer                      // the container restarts to apply it
)

// ResizePolicy is a container's resizePolicy, per resource.
type ResizePolicy struct {
	CPU, Memory ResizeRestart
}

// Resize conditions and reasons (pkg/apis/core/types.go).
const (
	PodResizePending    = "PodResizePending"
	PodResizeInProgress = "PodResizeInProgress"
	ReasonDeferred      = "Deferred"
	ReasonInfeasible    = "Infeasible"
)

// Reasons of a pod the kubelet's admission rejects for want of a resource
// (InsufficientResourcePrefix + the resource's name).
const (
	ReasonOutOfCPU    = "OutOfcpu"
	ReasonOutOfMemory = "OutOfmemory"
	ReasonOutOfPods   = "OutOfpods"
)

// ReasonDeadlineExceeded is the reason of a pod the kubelet fails for
// running past spec.activeDeadlineSeconds (active_deadline.go).
const ReasonDeadlineExceeded = "DeadlineExceeded"
