package model

import (
	"math"
	"time"
	"unsafe"
)

// Phase is a pod's status.phase.
type Phase string

// Pod phases, as in the Kubernetes API.
const (
	Pending   Phase = "Pending"
	Running   Phase = "Running"
	Succeeded Phase = "Succeeded"
	Failed    Phase = "Failed"
	Unknown   Phase = "Unknown"
)

// Terminal reports whether p never changes again.
func (p Phase) Terminal() bool { return p == Succeeded || p == Failed }

// RestartPolicy is a pod's (or a sidecar's) restart policy.
type RestartPolicy string

// Restart policies, as in the Kubernetes API.
const (
	RestartAlways    RestartPolicy = "Always"
	RestartOnFailure RestartPolicy = "OnFailure"
	RestartNever     RestartPolicy = "Never"
)

// StateKind says which of a container state's three variants is set.
type StateKind uint8

// Container state kinds; StateNone is a container with no status yet.
const (
	StateNone StateKind = iota
	StateWaiting
	StateRunning
	StateTerminated
)

func (k StateKind) String() string {
	switch k {
	case StateWaiting:
		return "Waiting"
	case StateRunning:
		return "Running"
	case StateTerminated:
		return "Terminated"
	}
	return ""
}

// ContainerState is one of Waiting (Reason, Message), Running (StartedAt)
// or Terminated (Reason, ExitCode, StartedAt, FinishedAt).
type ContainerState struct {
	Kind       StateKind
	Reason     string
	Message    string
	ExitCode   int32
	Signal     int32
	StartedAt  time.Duration
	FinishedAt time.Duration
}

// Container waiting and terminated reasons used by the kubelet and runtime.
const (
	ReasonContainerCreating  = "ContainerCreating"
	ReasonPodInitializing    = "PodInitializing"
	ReasonCrashLoopBackOff   = "CrashLoopBackOff"
	ReasonErrImagePull       = "ErrImagePull"
	ReasonImagePullBackOff   = "ImagePullBackOff"
	ReasonErrImageNeverPull  = "ErrImageNeverPull"
	ReasonPostStartHookError = "PostStartHookError"
	ReasonCompleted          = "Completed"
	ReasonError              = "Error"
	ReasonOOMKilled          = "OOMKilled"
)

// ContainerStatus is a container's entry in the pod status.
type ContainerStatus struct {
	Name         string
	Image        string
	State        ContainerState
	LastState    ContainerState // the previous termination, if any
	Ready        bool
	Started      bool
	RestartCount int32
}

// Terminated reports the current termination or, if none, the last one.
func (s *ContainerStatus) Terminated() (ContainerState, bool) {
	if s.State.Kind == StateTerminated {
		return s.State, true
	}
	if s.LastState.Kind == StateTerminated {
		return s.LastState, true
	}
	return ContainerState{}, false
}

// ConditionStatus is True, False or Unknown.
type ConditionStatus string

// Condition statuses.
const (
	True          ConditionStatus = "True"
	False         ConditionStatus = "False"
	StatusUnknown ConditionStatus = "Unknown"
)

// Pod condition types set by podsim.
const (
	PodScheduled              = "PodScheduled"
	PodReadyToStartContainers = "PodReadyToStartContainers"
	Initialized               = "Initialized"
	ContainersReady           = "ContainersReady"
	Ready                     = "Ready"
	DisruptionTarget          = "DisruptionTarget"
)

// Condition is a pod or node condition.
type Condition struct {
	Type               string
	Status             ConditionStatus
	Reason             string
	Message            string
	LastTransitionTime time.Duration
}

// PodStatus is a copy of a pod's status at one moment.
type PodStatus struct {
	Phase                 Phase
	Reason                string // e.g. Evicted
	Message               string
	Conditions            []Condition
	InitContainerStatuses []ContainerStatus
	ContainerStatuses     []ContainerStatus
	StartTime             time.Duration
	Started               bool   // StartTime is set
	PodIP                 string // its sandbox's address (podip.go), "" before it has one
}

// Condition returns the condition of type t, if set.
func (s *PodStatus) Condition(t string) (Condition, bool) {
	for _, c := range s.Conditions {
		if c.Type == t {
			return c, true
		}
	}
	return Condition{}, false
}

// Container returns the status of the (init) container called name.
func (s *PodStatus) Container(name string) (*ContainerStatus, bool) {
	for i := range s.InitContainerStatuses {
		if s.InitContainerStatuses[i].Name == name {
			return &s.InitContainerStatuses[i], true
		}
	}
	for i := range s.ContainerStatuses {
		if s.ContainerStatuses[i].Name == name {
			return &s.ContainerStatuses[i], true
		}
	}
	return nil, false
}

// EventType is Normal or Warning (String gives the API's word).
type EventType uint8

// Event types.
const (
	EventNormal EventType = iota + 1
	EventWarning
)

// String is the event type as the API writes it: "Normal" or "Warning"
// ("" for the zero EventType).
func (t EventType) String() string {
	if int(t) < len(eventTypeWords) {
		return eventTypeWords[t]
	}
	return ""
}

var eventTypeWords = [...]string{EventNormal: "Normal", EventWarning: "Warning"}

// Event is a Kubernetes event object about a pod, node or workload, as the
// event recorder's correlator leaves it in the API (events.go): repeats of
// the same (source, object, type, reason, message) count into one event,
// similar events with many messages into one combined event, and the spam
// filter keeps some occurrences from the API. Count, LastSeen and (for a
// combined event) Message are what the API holds, as kubectl shows them;
// Occurrences and LastOccurred count every time the component recorded it.
type Event struct {
	origin    *eventOrigin // its source, type and reason (Source, Type, Reason)
	msgData   *byte        // Message, without the prefix of a combined event: its bytes (text) ...
	FirstSeen time.Duration
	LastSeen  time.Duration // the last occurrence the spam filter let through

	LastOccurred time.Duration // the last occurrence
	msgLen       int32         // ... and their length: 56 bytes an event, not a string's 64
	Count        int32         // occurrences up to the last one let through; 0: none reached the API
	Occurrences  int32         // every occurrence, those the spam filter dropped included (at most MaxInt32)

	group    int16 // its group's aggregation set in its object's log, or noSet (events.go)
	Combined bool  // the aggregate of similar events ("(combined from similar events): ...")
}

// text is the event's message without the prefix of a combined event.
func (e *Event) text() string { return unsafe.String(e.msgData, e.msgLen) }

// textIs is same(e.text(), msg), without building the text when its
// length or bytes decide.
func (e *Event) textIs(msg string) bool {
	return int(e.msgLen) == len(msg) && (e.msgData == unsafe.StringData(msg) || e.text() == msg)
}

// setText makes msg the event's message (text).
func (e *Event) setText(msg string) {
	if len(msg) > math.MaxInt32 {
		panic("model: an event message of 2 GB or more")
	}
	if msg == "" {
		e.msgData, e.msgLen = nil, 0
		return
	}
	e.msgData, e.msgLen = unsafe.StringData(msg), int32(len(msg))
}

// Type is Normal or Warning ("" for the zero Event).
func (e *Event) Type() EventType {
	if e.origin == nil {
		return 0
	}
	return e.origin.typ
}

// Reason is the event's reason, e.g. Scheduled.
func (e *Event) Reason() string {
	if e.origin == nil {
		return ""
	}
	return e.origin.reason
}

// Source is the component that recorded the event: "kubelet",
// "default-scheduler", "node-controller", ...
func (e *Event) Source() string {
	if e.origin == nil {
		return ""
	}
	return e.origin.source
}

// Message is the event's message as the API holds it: a combined event's
// is "(combined from similar events): " and the latest similar message,
// built when read (a ReplicaSet's SuccessfulCreate combines one per pod).
func (e *Event) Message() string {
	if e.Combined {
		return combinedPrefix + e.text()
	}
	return e.text()
}

// Listed reports whether the event reached the API (kubectl lists it).
func (e *Event) Listed() bool { return e.Count > 0 }
