package model

import "time"

// KindHorizontalPodAutoscaler is the kind of a HorizontalPodAutoscaler's
// events.
const KindHorizontalPodAutoscaler = "HorizontalPodAutoscaler"

// The types of a HorizontalPodAutoscaler's conditions.
const (
	AbleToScale    = "AbleToScale"
	ScalingActive  = "ScalingActive"
	ScalingLimited = "ScalingLimited"
)

// MetricSource says where a metric of an autoscaler comes from
// (autoscaling/v2 MetricSourceType).
type MetricSource uint8

// The metric sources podsim provides.
const (
	// MetricResource is a resource of the pods (cpu or memory) as
	// metrics-server last scraped it.
	MetricResource MetricSource = iota + 1
	// MetricPods is a per-pod metric: requests_per_second, what each pod
	// served at metrics-server's last scrape.
	MetricPods
	// MetricObject is a metric of another object: a Service's
	// requests_per_second, offered to it over metrics-server's last window.
	MetricObject
)

// MetricTarget is the type of a metric's target (autoscaling/v2
// MetricTargetType).
type MetricTarget uint8

// The target types.
const (
	TargetUtilization  MetricTarget = iota + 1 // a percentage of the pods' requests (Resource only)
	TargetAverageValue                         // a value per pod
	TargetValue                                // the object's value (Object only)
)

// String is the target type as the API writes it.
func (t MetricTarget) String() string {
	return [...]string{"", "Utilization", "AverageValue", "Value"}[t]
}

// MetricSpec is one metric an autoscaler scales on, and its target.
type MetricSpec struct {
	Source MetricSource
	// Resource is "cpu" or "memory" (MetricResource); Name is the metric's
	// name (MetricPods, MetricObject): requests_per_second.
	Resource, Name string
	// ObjectKind and ObjectName name the described object (MetricObject):
	// a Service of the autoscaler's namespace.
	ObjectKind, ObjectName string
	Target                 MetricTarget
	Utilization            int32 // percent of request (TargetUtilization)
	MilliValue             int64 // thousandths (TargetAverageValue, TargetValue)
}

// ScalingPolicy lets the replicas change by Value pods (Pods) or Value
// percent (Percent) within any Period.
type ScalingPolicy struct {
	Percent bool
	Value   int32
	Period  time.Duration
}

// The select policies of a direction's rules.
const (
	SelectMax      = "Max"
	SelectMin      = "Min"
	SelectDisabled = "Disabled"
)

// ScalingRules are one direction's behavior with the defaults of
// pkg/apis/autoscaling/v2/defaults.go applied, but for a scale-down's
// stabilization window left out (nil), which the controller fills from its
// --horizontal-pod-autoscaler-downscale-stabilization.
type ScalingRules struct {
	Stabilization *time.Duration
	SelectPolicy  string // SelectMax, SelectMin or SelectDisabled
	Policies      []ScalingPolicy
	Tolerance     *float64 // nil: the controller's --horizontal-pod-autoscaler-tolerance
}

// AutoscalerBehavior is spec.behavior with its defaults.
type AutoscalerBehavior struct {
	ScaleUp, ScaleDown ScalingRules
}

// AutoscalerSpec is an autoscaling/v2 HorizontalPodAutoscaler's spec with
// its defaults (minReplicas 1; no metrics: cpu at 80% of request).
type AutoscalerSpec struct {
	Name, Namespace          string
	TargetKind, TargetName   string // a Deployment, ReplicaSet or StatefulSet of its namespace
	MinReplicas, MaxReplicas int32
	Metrics                  []MetricSpec
	Behavior                 *AutoscalerBehavior // nil: none written
	// Existing: made before the run (a snapshot's object), so it has synced
	// before: its next sync is one period in, not at once as a new one's.
	Existing bool
}

// MetricStatus is a metric's current value as the last sync computed it
// (status.currentMetrics); Valid is false where it could not.
type MetricStatus struct {
	Valid bool
	// Utilization (TargetUtilization) is the percent of request; Average
	// is the value per pod, Value the object's, in thousandths.
	Utilization int32
	Average     int64
	Value       int64
}

// AutoscalerStatus is a HorizontalPodAutoscaler's status as its controller
// last wrote it.
type AutoscalerStatus struct {
	Synced          bool // written at least once
	CurrentReplicas int32
	DesiredReplicas int32
	CurrentMetrics  []MetricStatus // by Spec.Metrics' index
	Conditions      []Condition    // AbleToScale, ScalingActive, ScalingLimited, as set
	LastScaleTime   time.Duration
	Scaled          bool // LastScaleTime is set
}

// Condition returns the condition of type t, if set.
func (s *AutoscalerStatus) Condition(t string) (Condition, bool) {
	for _, c := range s.Conditions {
		if c.Type == t {
			return c, true
		}
	}
	return Condition{}, false
}

// Autoscaler is a HorizontalPodAutoscaler. Its controller
// (model/controller/podautoscaler) writes Status and announces it.
type Autoscaler struct {
	w       *World
	Spec    AutoscalerSpec
	Status  AutoscalerStatus
	key     string
	id      int
	created time.Duration
}

// AutoscalerAddedHandler hears of a new autoscaler, after its Added object
// change.
type AutoscalerAddedHandler interface{ AutoscalerAdded(a *Autoscaler) }

// AddAutoscaler creates a HorizontalPodAutoscaler now; its controller, if
// one is registered, hears of it.
func (w *World) AddAutoscaler(s AutoscalerSpec) *Autoscaler {
	a := &Autoscaler{w: w, Spec: s, key: Key(s.Namespace, s.Name), id: len(w.autoscalers), created: w.Now()}
	w.autoscalers = append(w.autoscalers, a)
	w.object(ObjectChange{Kind: ObjectAutoscaler, Op: ObjectAdded, Autoscaler: a})
	for _, h := range w.parts.autoscalerAdded {
		h.AutoscalerAdded(a)
	}
	return a
}

// Autoscalers returns every HorizontalPodAutoscaler in the order added.
func (w *World) Autoscalers() []*Autoscaler { return w.autoscalers }

// Autoscaler returns the HorizontalPodAutoscaler with this key (see Key),
// or nil.
func (w *World) Autoscaler(key string) *Autoscaler {
	for _, a := range w.autoscalers {
		if a.key == key {
			return a
		}
	}
	return nil
}

// Key is the autoscaler's key (see Key).
func (a *Autoscaler) Key() string { return a.key }

// Created is when the autoscaler was added.
func (a *Autoscaler) Created() time.Duration { return a.created }

// ID numbers the autoscalers in the order added, from 0.
func (a *Autoscaler) ID() int { return a.id }

// Namespace is the autoscaler's namespace.
func (a *Autoscaler) Namespace() string {
	if a.Spec.Namespace != "" {
		return a.Spec.Namespace
	}
	return DefaultNamespace
}

// Target returns the workload the autoscaler scales, or nil if there is
// none of its kind and name.
func (a *Autoscaler) Target() *Workload {
	wl := a.w.workloadIdx[Key(a.Spec.Namespace, a.Spec.TargetName)]
	if wl == nil || wl.Spec.Kind != a.Spec.TargetKind || wl.gone {
		return nil
	}
	return wl
}

// Event records a Kubernetes event about the autoscaler from
// horizontal-pod-autoscaler.
func (a *Autoscaler) Event(typ EventType, reason, msg string) {
	a.w.eventMsg(KindHorizontalPodAutoscaler, a.key, typ, reason, "horizontal-pod-autoscaler", msg)
}

// Updated announces that the autoscaler's status changed.
func (a *Autoscaler) Updated() {
	a.w.object(ObjectChange{Kind: ObjectAutoscaler, Op: ObjectUpdated, Autoscaler: a})
}

// SetCondition sets the condition of type t, as setConditionInList does:
// its transition time moves only when its status changes.
func (s *AutoscalerStatus) SetCondition(t string, status ConditionStatus, reason, msg string, now time.Duration) {
	for i := range s.Conditions {
		c := &s.Conditions[i]
		if c.Type != t {
			continue
		}
		if c.Status != status {
			c.LastTransitionTime = now
		}
		c.Status, c.Reason, c.Message = status, reason, msg
		return
	}
	s.Conditions = append(s.Conditions, Condition{Type: t, Status: status, Reason: reason, Message: msg, LastTransitionTime: now})
}

// ActivePods counts the workload's pods that are not finished and not
// being deleted: the replicas its scale subresource reports.
func (wl *Workload) ActivePods() int {
	n := 0
	for _, p := range wl.pods {
		if active(p) {
			n++
		}
	}
	return n
}

// ReadyCondition returns the pod's Ready condition, if set, without
// copying its status.
func (p *Pod) ReadyCondition() (Condition, bool) { return p.Condition(Ready) }

// StartTime returns the pod's status.startTime; ok is false until the
// kubelet sets it.
func (p *Pod) StartTime() (t time.Duration, ok bool) { return p.startTime, p.started }
