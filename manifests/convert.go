package manifests

import (
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/podsim/podsim/scenarios"
	"go.yaml.in/yaml/v3"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// converter turns the Kubernetes objects podsim simulates into the
// scenario's own types: the modelled fields, field by field. What it
// cannot convert (a quantity out of podsim's range) it reports against
// the converted value, whose position is found once it is located.
type converter struct {
	errs   []convError
	latest time.Time // the latest time the objects hold: the snapshot's instant (nodes.go)
}

type convError struct {
	at  any // a pointer into the converted object
	msg string
}

// object converts a *corev1.Pod into a *scenarios.Pod, and a Deployment,
// ReplicaSet (or ReplicationController, as a ReplicaSet), StatefulSet, DaemonSet, Job, CronJob or PodDisruptionBudget
// or a PriorityClass into a *scenarios.Workload. A minReadySeconds of 0 is
// left out, as it is the default.
func (c *converter) object(obj any) any {
	switch o := obj.(type) {
	case *corev1.Pod:
		m := meta(&o.ObjectMeta)
		m.SnapshotMeta = c.snapshotMeta(&o.ObjectMeta)
		return &scenarios.Pod{APIVersion: o.APIVersion, Kind: o.Kind, Metadata: m, Spec: c.podSpec(&o.Spec), Status: c.podStatus(&o.Status)}
	case *corev1.Node:
		return c.node(o)
	case *nodePool:
		return c.nodePool(o)
	case *appsv1.Deployment:
		sp := &o.Spec
		return c.workload(&o.TypeMeta, &o.ObjectMeta, scenarios.WorkloadSpec{Replicas: sp.Replicas,
			MinReadySeconds: nonZero(sp.MinReadySeconds), ProgressDeadlineSeconds: sp.ProgressDeadlineSeconds,
			Strategy: strategy(&sp.Strategy)}, &sp.Template)
	case *appsv1.ReplicaSet:
		return c.workload(&o.TypeMeta, &o.ObjectMeta, scenarios.WorkloadSpec{Replicas: o.Spec.Replicas,
			MinReadySeconds: nonZero(o.Spec.MinReadySeconds)}, &o.Spec.Template)
	case *corev1.ReplicationController:
		// A ReplicaSet with an equality selector: podsim reads neither.
		tm := metav1.TypeMeta{APIVersion: "apps/v1", Kind: "ReplicaSet"}
		tmpl := o.Spec.Template
		if tmpl == nil {
			tmpl = &corev1.PodTemplateSpec{}
		}
		return c.workload(&tm, &o.ObjectMeta, scenarios.WorkloadSpec{Replicas: o.Spec.Replicas,
			MinReadySeconds: nonZero(o.Spec.MinReadySeconds)}, tmpl)
	case *appsv1.DaemonSet:
		return c.workload(&o.TypeMeta, &o.ObjectMeta, scenarios.WorkloadSpec{MinReadySeconds: nonZero(o.Spec.MinReadySeconds)}, &o.Spec.Template)
	case *policyv1.PodDisruptionBudget:
		sp := &o.Spec
		out := &scenarios.Workload{APIVersion: o.APIVersion, Kind: o.Kind, Metadata: meta(&o.ObjectMeta), Spec: scenarios.WorkloadSpec{
			MinAvailable: intOrPercent(sp.MinAvailable), MaxUnavailable: intOrPercent(sp.MaxUnavailable)}}
		if p := sp.UnhealthyPodEvictionPolicy; p != nil {
			out.Spec.UnhealthyPodEvictionPolicy = string(*p)
		}
		if s := sp.Selector; s != nil {
			out.Spec.Selector = &scenarios.Selector{LabelSelector: *labelSelector(s)}
		}
		return out
	case *schedulingv1.PriorityClass:
		out := &scenarios.Workload{APIVersion: o.APIVersion, Kind: o.Kind, Metadata: meta(&o.ObjectMeta), Value: &o.Value,
			GlobalDefault: o.GlobalDefault, Description: o.Description}
		if p := o.PreemptionPolicy; p != nil {
			out.PreemptionPolicy = string(*p)
		}
		return out
	case *appsv1.StatefulSet:
		return c.workload(&o.TypeMeta, &o.ObjectMeta, scenarios.WorkloadSpec{Replicas: o.Spec.Replicas,
			PodManagementPolicy: string(o.Spec.PodManagementPolicy), MinReadySeconds: nonZero(o.Spec.MinReadySeconds)}, &o.Spec.Template)
	case *batchv1.Job:
		return c.workload(&o.TypeMeta, &o.ObjectMeta, jobSpec(&o.Spec), &o.Spec.Template)
	case *batchv1.CronJob:
		return c.cronJob(o)
	case *corev1.Service:
		return service(o)
	case *autoscalingv2.HorizontalPodAutoscaler:
		return c.hpaV2(o)
	case *autoscalingv1.HorizontalPodAutoscaler:
		return c.hpaV1(o)
	}
	return nil
}

// jobSpec converts a Job's own fields (not its template). Suspend is
// carried so that the validator warns of it: a suspended Job runs all the
// same.
func jobSpec(js *batchv1.JobSpec) scenarios.WorkloadSpec {
	return scenarios.WorkloadSpec{
		Completions:           js.Completions,
		Parallelism:           js.Parallelism,
		BackoffLimit:          js.BackoffLimit,
		ActiveDeadlineSeconds: js.ActiveDeadlineSeconds,
		Suspend:               js.Suspend,
		JobPolicies:           jobPolicies(js),
	}
}

// cronJob converts a CronJob; its jobTemplate becomes a Job's spec. A
// jobTemplate left out (all zero) stays nil, so that the validator says a
// CronJob needs one.
func (c *converter) cronJob(o *batchv1.CronJob) *scenarios.Workload {
	sp := &o.Spec
	spec := scenarios.WorkloadSpec{
		Schedule:                   sp.Schedule,
		TimeZone:                   sp.TimeZone,
		ConcurrencyPolicy:          string(sp.ConcurrencyPolicy),
		StartingDeadlineSeconds:    sp.StartingDeadlineSeconds,
		Suspend:                    sp.Suspend,
		SuccessfulJobsHistoryLimit: sp.SuccessfulJobsHistoryLimit,
		FailedJobsHistoryLimit:     sp.FailedJobsHistoryLimit,
	}
	if jt := &sp.JobTemplate; !reflect.ValueOf(jt).Elem().IsZero() {
		js := jobSpec(&jt.Spec)
		js.Template = c.template(&jt.Spec.Template)
		spec.JobTemplate = &scenarios.JobTemplate{Metadata: meta(&jt.ObjectMeta), Spec: js}
	}
	return &scenarios.Workload{APIVersion: o.APIVersion, Kind: o.Kind, Metadata: meta(&o.ObjectMeta), Spec: spec}
}

func (c *converter) workload(tm *metav1.TypeMeta, om *metav1.ObjectMeta, spec scenarios.WorkloadSpec, tmpl *corev1.PodTemplateSpec) *scenarios.Workload {
	spec.Template = c.template(tmpl)
	m := meta(om)
	m.SnapshotMeta = c.snapshotMeta(om)
	return &scenarios.Workload{APIVersion: tm.APIVersion, Kind: tm.Kind, Metadata: m, Spec: spec}
}

func (c *converter) template(t *corev1.PodTemplateSpec) scenarios.PodTemplate {
	return scenarios.PodTemplate{Metadata: meta(&t.ObjectMeta), Spec: c.podSpec(&t.Spec)}
}

func meta(m *metav1.ObjectMeta) scenarios.ObjectMeta {
	return scenarios.ObjectMeta{Name: m.Name, Namespace: m.Namespace, Labels: m.Labels, Annotations: m.Annotations}
}

func (c *converter) podSpec(ps *corev1.PodSpec) scenarios.PodSpec {
	out := scenarios.PodSpec{
		NodeName:                      ps.NodeName,
		NodeSelector:                  ps.NodeSelector,
		RestartPolicy:                 string(ps.RestartPolicy),
		TerminationGracePeriodSeconds: ps.TerminationGracePeriodSeconds,
	}
	out.ActiveDeadlineSeconds = ps.ActiveDeadlineSeconds
	out.SchedulerName = ps.SchedulerName
	out.InitContainers = c.containers(ps.InitContainers)
	out.Containers = c.containers(ps.Containers)
	for _, t := range ps.Tolerations {
		out.Tolerations = append(out.Tolerations, scenarios.Toleration{Key: t.Key, Operator: string(t.Operator),
			Value: t.Value, Effect: string(t.Effect), TolerationSeconds: t.TolerationSeconds})
	}
	for _, g := range ps.SchedulingGates {
		out.SchedulingGates = append(out.SchedulingGates, scenarios.NameOnly{Name: g.Name})
	}
	for _, g := range ps.ReadinessGates {
		out.ReadinessGates = append(out.ReadinessGates, scenarios.ReadinessGate{ConditionType: string(g.ConditionType)})
	}
	out.Priority, out.PriorityClassName = ps.Priority, ps.PriorityClassName
	if p := ps.PreemptionPolicy; p != nil {
		out.PreemptionPolicy = string(*p)
	}
	out.Affinity = affinity(ps.Affinity)
	for i := range ps.TopologySpreadConstraints {
		out.TopologySpreadConstraints = append(out.TopologySpreadConstraints, spreadConstraint(&ps.TopologySpreadConstraints[i]))
	}
	return out
}

// affinity converts spec.affinity.
func affinity(a *corev1.Affinity) *scenarios.Affinity {
	if a == nil {
		return nil
	}
	out := &scenarios.Affinity{PodAffinity: podAffinity(a.PodAffinity), PodAntiAffinity: podAntiAffinity(a.PodAntiAffinity)}
	if na := a.NodeAffinity; na != nil {
		out.NodeAffinity = &scenarios.NodeAffinity{}
		if r := na.RequiredDuringSchedulingIgnoredDuringExecution; r != nil {
			out.NodeAffinity.Required = &scenarios.NodeSelector{}
			for i := range r.NodeSelectorTerms {
				out.NodeAffinity.Required.NodeSelectorTerms = append(out.NodeAffinity.Required.NodeSelectorTerms, nodeSelectorTerm(&r.NodeSelectorTerms[i]))
			}
		}
		for _, p := range na.PreferredDuringSchedulingIgnoredDuringExecution {
			out.NodeAffinity.Preferred = append(out.NodeAffinity.Preferred, scenarios.PreferredSchedulingTerm{
				Weight: p.Weight, Preference: nodeSelectorTerm(&p.Preference)})
		}
	}
	return out
}

func nodeSelectorTerm(t *corev1.NodeSelectorTerm) scenarios.NodeSelectorTerm {
	return scenarios.NodeSelectorTerm{MatchExpressions: nodeRequirements(t.MatchExpressions), MatchFields: nodeRequirements(t.MatchFields)}
}

func nodeRequirements(in []corev1.NodeSelectorRequirement) []scenarios.SelectorRequirement {
	var out []scenarios.SelectorRequirement
	for _, r := range in {
		out = append(out, scenarios.SelectorRequirement{Key: r.Key, Operator: string(r.Operator), Values: r.Values})
	}
	return out
}

// podAffinity and podAntiAffinity convert the two halves of pod affinity,
// which Kubernetes types apart and podsim alike.
func podAffinity(a *corev1.PodAffinity) *scenarios.PodAffinity {
	if a == nil {
		return nil
	}
	return podAffinityTerms(a.RequiredDuringSchedulingIgnoredDuringExecution, a.PreferredDuringSchedulingIgnoredDuringExecution)
}

func podAntiAffinity(a *corev1.PodAntiAffinity) *scenarios.PodAffinity {
	if a == nil {
		return nil
	}
	return podAffinityTerms(a.RequiredDuringSchedulingIgnoredDuringExecution, a.PreferredDuringSchedulingIgnoredDuringExecution)
}

func podAffinityTerms(req []corev1.PodAffinityTerm, pref []corev1.WeightedPodAffinityTerm) *scenarios.PodAffinity {
	out := &scenarios.PodAffinity{}
	for i := range req {
		out.Required = append(out.Required, podAffinityTerm(&req[i]))
	}
	for i := range pref {
		out.Preferred = append(out.Preferred, scenarios.WeightedPodAffinityTerm{Weight: pref[i].Weight,
			PodAffinityTerm: podAffinityTerm(&pref[i].PodAffinityTerm)})
	}
	return out
}

func podAffinityTerm(t *corev1.PodAffinityTerm) scenarios.PodAffinityTerm {
	return scenarios.PodAffinityTerm{LabelSelector: labelSelector(t.LabelSelector), Namespaces: t.Namespaces,
		NamespaceSelector: labelSelector(t.NamespaceSelector), TopologyKey: t.TopologyKey}
}

// spreadConstraint converts one of spec.topologySpreadConstraints.
func spreadConstraint(c *corev1.TopologySpreadConstraint) scenarios.TopologySpreadConstraint {
	out := scenarios.TopologySpreadConstraint{MaxSkew: &c.MaxSkew, TopologyKey: c.TopologyKey,
		WhenUnsatisfiable: string(c.WhenUnsatisfiable), LabelSelector: labelSelector(c.LabelSelector),
		MinDomains: c.MinDomains, MatchLabelKeys: c.MatchLabelKeys}
	if p := c.NodeAffinityPolicy; p != nil {
		out.NodeAffinityPolicy = string(*p)
	}
	if p := c.NodeTaintsPolicy; p != nil {
		out.NodeTaintsPolicy = string(*p)
	}
	return out
}

// labelSelector converts a label selector.
func labelSelector(s *metav1.LabelSelector) *scenarios.LabelSelector {
	if s == nil {
		return nil
	}
	out := &scenarios.LabelSelector{MatchLabels: s.MatchLabels}
	for _, r := range s.MatchExpressions {
		out.MatchExpressions = append(out.MatchExpressions, scenarios.SelectorRequirement{Key: r.Key, Operator: string(r.Operator), Values: r.Values})
	}
	return out
}

func (c *converter) containers(in []corev1.Container) []scenarios.Container {
	if in == nil {
		return nil
	}
	out := make([]scenarios.Container, len(in))
	for i := range in {
		k := &in[i]
		o := &out[i]
		*o = scenarios.Container{
			Name:            k.Name,
			Image:           k.Image,
			ImagePullPolicy: string(k.ImagePullPolicy),
			LivenessProbe:   probe(k.LivenessProbe),
			ReadinessProbe:  probe(k.ReadinessProbe),
			StartupProbe:    probe(k.StartupProbe),
		}
		if k.RestartPolicy != nil {
			o.RestartPolicy = string(*k.RestartPolicy)
		}
		for _, r := range k.RestartPolicyRules {
			rule := scenarios.ContainerRestartRule{Action: string(r.Action)}
			if e := r.ExitCodes; e != nil {
				rule.ExitCodes = &scenarios.ExitCodesMatch{Operator: string(e.Operator), Values: e.Values}
			}
			o.RestartPolicyRules = append(o.RestartPolicyRules, rule)
		}
		for _, p := range k.Ports {
			o.Ports = append(o.Ports, scenarios.ContainerPort{Name: p.Name, ContainerPort: p.ContainerPort})
		}
		for _, p := range k.ResizePolicy {
			o.ResizePolicy = append(o.ResizePolicy, scenarios.ContainerResizePolicy{ResourceName: string(p.ResourceName), RestartPolicy: string(p.RestartPolicy)})
		}
		o.Resources.Requests = c.quantities(k.Resources.Requests, o)
		o.Resources.Limits = c.quantities(k.Resources.Limits, o)
		if l := k.Lifecycle; l != nil {
			o.Lifecycle = &scenarios.Lifecycle{PostStart: lifecycleHandler(l.PostStart), PreStop: lifecycleHandler(l.PreStop)}
		}
	}
	return out
}

// quantities converts a resource list; a quantity podsim cannot hold is
// reported at the container.
func (c *converter) quantities(in corev1.ResourceList, container *scenarios.Container) map[string]scenarios.Quantity {
	if in == nil {
		return nil
	}
	out := make(map[string]scenarios.Quantity, len(in))
	for name, q := range in {
		v, err := scenarios.ParseQuantity(q.String())
		if err != nil {
			c.errs = append(c.errs, convError{container, "container " + container.Name + ": " + string(name) + " " + q.String() + ": " + err.Error()})
			continue
		}
		out[string(name)] = v
	}
	return out
}

// strategy converts a Deployment's strategy (nil when none is written).
func strategy(st *appsv1.DeploymentStrategy) *scenarios.DeploymentStrategy {
	if st.Type == "" && st.RollingUpdate == nil {
		return nil
	}
	out := &scenarios.DeploymentStrategy{Type: string(st.Type)}
	if ru := st.RollingUpdate; ru != nil {
		out.RollingUpdate = &scenarios.RollingUpdateDeployment{MaxSurge: intOrPercent(ru.MaxSurge),
			MaxUnavailable: intOrPercent(ru.MaxUnavailable)}
	}
	return out
}

// intOrPercent converts minAvailable, maxUnavailable or maxSurge: an integer, or a
// string that must be a percentage (the validator refuses anything else).
func intOrPercent(v *intstr.IntOrString) *scenarios.IntOrPercent {
	switch {
	case v == nil:
		return nil
	case v.Type == intstr.Int:
		return &scenarios.IntOrPercent{Value: int64(v.IntVal)}
	}
	n, err := strconv.ParseInt(strings.TrimSuffix(v.StrVal, "%"), 10, 64)
	if err != nil || !strings.HasSuffix(v.StrVal, "%") {
		n = -1 // not a percentage: out of range, so the validator says so
	}
	return &scenarios.IntOrPercent{Value: n, Percent: true}
}

// set marks a value as given where podsim reads only that it is there: a
// handler (podsim reads only which kind it is).
func set(given bool) *yaml.Node {
	if !given {
		return nil
	}
	return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
}

func probe(p *corev1.Probe) *scenarios.Probe {
	if p == nil {
		return nil
	}
	h := &p.ProbeHandler
	handler := scenarios.Handler{Exec: set(h.Exec != nil), HTTPGet: set(h.HTTPGet != nil),
		TCPSocket: set(h.TCPSocket != nil), GRPC: set(h.GRPC != nil)}
	switch {
	case h.Exec != nil:
		handler.Exec = target(map[string]any{"command": h.Exec.Command})
	case h.HTTPGet != nil:
		handler.HTTPGet = target(map[string]any{"scheme": string(h.HTTPGet.Scheme), "host": h.HTTPGet.Host,
			"port": h.HTTPGet.Port.String(), "path": h.HTTPGet.Path})
	case h.TCPSocket != nil:
		handler.TCPSocket = target(map[string]any{"host": h.TCPSocket.Host, "port": h.TCPSocket.Port.String()})
	case h.GRPC != nil:
		handler.GRPC = target(map[string]any{"port": h.GRPC.Port, "service": h.GRPC.Service})
	}
	return &scenarios.Probe{
		Handler: handler,
		// The API server defaults a zero to the default, as podsim does
		// for a field left out.
		InitialDelaySeconds:           nonZero(p.InitialDelaySeconds),
		PeriodSeconds:                 nonZero(p.PeriodSeconds),
		TimeoutSeconds:                nonZero(p.TimeoutSeconds),
		SuccessThreshold:              nonZero(p.SuccessThreshold),
		FailureThreshold:              nonZero(p.FailureThreshold),
		TerminationGracePeriodSeconds: p.TerminationGracePeriodSeconds,
	}
}

// target is a probe handler's fields as a scenario's handler holds them
// (what it checks, shown by describe); set's empty mapping if they do not
// encode.
func target(fields map[string]any) *yaml.Node {
	var n yaml.Node
	if n.Encode(fields) != nil {
		return set(true)
	}
	return &n
}

func lifecycleHandler(h *corev1.LifecycleHandler) *scenarios.Handler {
	if h == nil {
		return nil
	}
	out := &scenarios.Handler{Exec: set(h.Exec != nil), HTTPGet: set(h.HTTPGet != nil), TCPSocket: set(h.TCPSocket != nil)}
	if h.Sleep != nil {
		out.Sleep = &scenarios.SleepAction{Seconds: &h.Sleep.Seconds}
	}
	return out
}

// service converts a Service: its selector; its other fields are treated
// as registered in package scenarios.
func service(o *corev1.Service) *scenarios.Workload {
	out := &scenarios.Workload{APIVersion: o.APIVersion, Kind: o.Kind, Metadata: meta(&o.ObjectMeta)}
	if o.Spec.Selector != nil {
		out.Spec.Selector = &scenarios.Selector{Labels: o.Spec.Selector}
	}
	return out
}

func nonZero(v int32) *int32 {
	if v == 0 {
		return nil
	}
	return &v
}
