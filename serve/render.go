package serve

import (
	"strconv"
	"strings"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	batchv1 "k8s.io/api/batch/v1"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	policyv1 "k8s.io/api/policy/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/report"
)

// moment is the instant a response shows: the world's virtual time and the
// wall instant the response is written at. Virtual time t is shown as the
// wall instant as far before the response as t is before now, so a client
// that computes ages from timestamps (kubectl describe, k9s) reads the
// scenario's ages, as the Table form's AGE cells do.
type moment struct {
	now  time.Duration
	wall time.Time
}

func (m moment) ts(t time.Duration) metav1.Time {
	return metav1.NewTime(m.wall.Add(t - m.now).Truncate(time.Second))
}

func (m moment) tsp(t time.Duration) *metav1.Time {
	v := m.ts(t)
	return &v
}

func (m moment) objectMeta(x *meta) metav1.ObjectMeta {
	return metav1.ObjectMeta{Name: x.name, Namespace: x.namespace, UID: types.UID(x.uid),
		ResourceVersion: strconv.FormatUint(x.rv, 10), CreationTimestamp: m.ts(x.created), Labels: x.labels}
}

// metaOf is a snapshot's metadata, with the UID of a pod or an event,
// which is not kept (podSnap, eventSnap).
func (m moment) metaOf(s snapshot) metav1.ObjectMeta {
	om := m.objectMeta(s.base())
	switch x := s.(type) {
	case *podSnap:
		om.UID = types.UID(x.podUID())
	case *eventSnap:
		om.UID = types.UID(x.eventUID())
	}
	return om
}

func (o *owner) ref() metav1.OwnerReference {
	yes := true
	return metav1.OwnerReference{APIVersion: o.apiVersion, Kind: o.kind, Name: o.name, UID: types.UID(o.uid),
		Controller: &yes, BlockOwnerDeletion: &yes}
}

func (m moment) pod(s *podSnap) *corev1.Pod {
	v := &s.view
	p := &corev1.Pod{TypeMeta: metav1.TypeMeta{Kind: "Pod", APIVersion: "v1"}, ObjectMeta: m.metaOf(s)}
	if s.owner != nil {
		p.OwnerReferences = []metav1.OwnerReference{s.owner.ref()}
	}
	if s.deleting {
		p.DeletionTimestamp = m.tsp(s.deadline)
		g := int64(s.grace / time.Second)
		p.DeletionGracePeriodSeconds = &g
	}
	p.Spec = podSpec(v.Spec)
	p.Spec.NodeName = v.Node
	if s.index != "" && s.owner != nil {
		// An Indexed Job's pod: the index as an annotation too, and the
		// hostname <job>-<index> (the Job controller's template changes).
		p.Annotations = map[string]string{model.LabelCompletionIndex: s.index}
		p.Spec.Hostname = s.owner.name + "-" + s.index
	}
	policy := corev1.PreemptionPolicy(s.policy)
	p.Spec.Priority, p.Spec.PreemptionPolicy = &s.priority, &policy
	st := &v.Status
	p.Status = corev1.PodStatus{Phase: corev1.PodPhase(st.Phase), Reason: st.Reason, Message: st.Message, QOSClass: qosClass(v.Spec),
		NominatedNodeName: v.Nominated}
	if st.Started {
		p.Status.StartTime = m.tsp(st.StartTime)
	}
	if st.PodIP != "" {
		p.Status.PodIP, p.Status.PodIPs = st.PodIP, []corev1.PodIP{{IP: st.PodIP}}
	}
	for _, c := range st.Conditions {
		p.Status.Conditions = append(p.Status.Conditions, corev1.PodCondition{Type: corev1.PodConditionType(c.Type),
			Status: corev1.ConditionStatus(c.Status), Reason: c.Reason, Message: c.Message, LastTransitionTime: m.ts(c.LastTransitionTime)})
	}
	p.Status.InitContainerStatuses = m.containerStatuses(st.InitContainerStatuses)
	p.Status.ContainerStatuses = m.containerStatuses(st.ContainerStatuses)
	return p
}

// containerStatuses renders the kubelet's statuses; none before the
// kubelet has reported any.
func (m moment) containerStatuses(cs []model.ContainerStatus) []corev1.ContainerStatus {
	reported := false
	for i := range cs {
		reported = reported || cs[i].State.Kind != model.StateNone
	}
	if !reported {
		return nil
	}
	out := make([]corev1.ContainerStatus, len(cs))
	for i := range cs {
		c := &cs[i]
		started := c.Started
		out[i] = corev1.ContainerStatus{Name: c.Name, Image: c.Image, Ready: c.Ready, Started: &started,
			RestartCount: c.RestartCount, State: m.state(&c.State), LastTerminationState: m.state(&c.LastState)}
	}
	return out
}

func (m moment) state(s *model.ContainerState) corev1.ContainerState {
	switch s.Kind {
	case model.StateWaiting:
		return corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: s.Reason, Message: s.Message}}
	case model.StateRunning:
		return corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: m.ts(s.StartedAt)}}
	case model.StateTerminated:
		return corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: s.ExitCode, Signal: s.Signal,
			Reason: s.Reason, Message: s.Message, StartedAt: m.ts(s.StartedAt), FinishedAt: m.ts(s.FinishedAt)}}
	}
	return corev1.ContainerState{}
}

// podSpec renders the parts of a pod spec the model keeps, probes
// included. Hooks keep only their handler's kind in the model, so they are
// left out rather than invented.
func podSpec(s *model.PodSpec) corev1.PodSpec {
	grace := int64(s.TerminationGracePeriod / time.Second)
	out := corev1.PodSpec{RestartPolicy: corev1.RestartPolicy(s.RestartPolicy), TerminationGracePeriodSeconds: &grace,
		NodeSelector: s.NodeSelector, SchedulerName: corev1.DefaultSchedulerName, PriorityClassName: s.PriorityClassName}
	for i := range s.InitContainers {
		out.InitContainers = append(out.InitContainers, container(&s.InitContainers[i]))
	}
	for i := range s.Containers {
		out.Containers = append(out.Containers, container(&s.Containers[i]))
	}
	for _, g := range s.ReadinessGates {
		out.ReadinessGates = append(out.ReadinessGates, corev1.PodReadinessGate{ConditionType: corev1.PodConditionType(g)})
	}
	return out
}

func container(c *model.ContainerSpec) corev1.Container {
	out := corev1.Container{Name: c.Name, Image: c.Image, ImagePullPolicy: corev1.PullPolicy(c.PullPolicy),
		TerminationMessagePath: corev1.TerminationMessagePathDefault, TerminationMessagePolicy: corev1.TerminationMessageReadFile}
	if c.Sidecar {
		always := corev1.ContainerRestartPolicyAlways
		out.RestartPolicy = &always
	}
	out.LivenessProbe, out.ReadinessProbe, out.StartupProbe = probe(c.Liveness), probe(c.Readiness), probe(c.Startup)
	out.Resources.Requests, out.Resources.Limits = computeResources(c.Requests), computeResources(c.Limits)
	return out
}

// computeResources is a container's cpu and memory requests or limits; nil if
// none.
func computeResources(r model.Resources) corev1.ResourceList {
	if r.MilliCPU <= 0 && r.Memory <= 0 {
		return nil
	}
	out := corev1.ResourceList{}
	if r.MilliCPU > 0 {
		out[corev1.ResourceCPU] = *resource.NewMilliQuantity(r.MilliCPU, resource.DecimalSI)
	}
	if r.Memory > 0 {
		out[corev1.ResourceMemory] = *resource.NewQuantity(r.Memory, resource.BinarySI)
	}
	return out
}

// qosClass is the pod's QoS class (report.QOSClass: ComputePodQOS).
func qosClass(s *model.PodSpec) corev1.PodQOSClass { return corev1.PodQOSClass(report.QOSClass(s)) }

// nodeResources is a node's resources as the API lists them.
func nodeResources(r model.Resources) corev1.ResourceList {
	return corev1.ResourceList{
		corev1.ResourceCPU:    *resource.NewMilliQuantity(r.MilliCPU, resource.DecimalSI),
		corev1.ResourceMemory: *resource.NewQuantity(r.Memory, resource.BinarySI),
		corev1.ResourcePods:   *resource.NewQuantity(r.Pods, resource.DecimalSI),
	}
}

// KubeletVersion is the version podsim's nodes report: the Kubernetes
// version whose API types it serves.
const KubeletVersion = "v1.37.2"

func (m moment) node(s *nodeSnap) *corev1.Node {
	n := &corev1.Node{TypeMeta: metav1.TypeMeta{Kind: "Node", APIVersion: "v1"}, ObjectMeta: m.objectMeta(&s.meta)}
	n.Spec.Unschedulable = s.unschedulable
	for _, t := range s.taints {
		taint := corev1.Taint{Key: t.Key, Value: t.Value, Effect: corev1.TaintEffect(t.Effect)}
		if t.Effect == string(corev1.TaintEffectNoExecute) {
			taint.TimeAdded = m.tsp(t.TimeAdded)
		}
		n.Spec.Taints = append(n.Spec.Taints, taint)
	}
	n.Status.Allocatable = nodeResources(s.capacity)
	n.Status.Capacity = n.Status.Allocatable
	if s.total != (model.Resources{}) {
		n.Status.Capacity = nodeResources(s.total)
	}
	// The kubelet posts its status when it changes and every
	// nodeStatusReportFrequency; the node controller's Unknown keeps the
	// kubelet's last.
	report := s.beats.last(m.now, s.beats.report)
	for _, c := range s.conditions {
		heard := report
		if c.Status != model.StatusUnknown {
			heard = max(heard, c.LastTransitionTime)
		}
		n.Status.Conditions = append(n.Status.Conditions, corev1.NodeCondition{Type: corev1.NodeConditionType(c.Type),
			Status: corev1.ConditionStatus(c.Status), Reason: c.Reason, Message: c.Message, LastHeartbeatTime: m.ts(heard),
			LastTransitionTime: m.ts(c.LastTransitionTime)})
	}
	n.Status.Addresses = []corev1.NodeAddress{{Type: corev1.NodeHostName, Address: s.name}}
	n.Status.NodeInfo = corev1.NodeSystemInfo{KubeletVersion: KubeletVersion, OSImage: "podsim", OperatingSystem: "linux",
		Architecture: "amd64", ContainerRuntimeVersion: "podsim://" + KubeletVersion}
	return n
}

// lease is a node's coordination.k8s.io/v1 Lease: held by its kubelet,
// renewed at each heartbeat (leaseDurationSeconds 40, the kubelet's
// default).
func (m moment) lease(s *leaseSnap) *coordinationv1.Lease {
	n := s.node
	l := &coordinationv1.Lease{TypeMeta: metav1.TypeMeta{Kind: "Lease", APIVersion: "coordination.k8s.io/v1"}, ObjectMeta: m.objectMeta(&s.meta)}
	l.OwnerReferences = []metav1.OwnerReference{{APIVersion: "v1", Kind: "Node", Name: n.name, UID: types.UID(n.uid)}}
	holder, duration := n.name, int32(40)
	renewed := metav1.NewMicroTime(m.ts(n.beats.last(m.now, model.NodeLeaseRenewInterval)).Time)
	// The kubelet's lease controller sets no acquireTime
	// (component-helpers/apimachinery/lease: newLease).
	l.Spec = coordinationv1.LeaseSpec{HolderIdentity: &holder, LeaseDurationSeconds: &duration, RenewTime: &renewed}
	return l
}

func (m moment) event(s *eventSnap) *corev1.Event {
	e := &corev1.Event{TypeMeta: metav1.TypeMeta{Kind: "Event", APIVersion: "v1"}, ObjectMeta: m.metaOf(s),
		InvolvedObject: corev1.ObjectReference{Kind: s.involved.kind, Namespace: s.involvedNS, Name: s.involved.name,
			UID: types.UID(s.involvedUID()), APIVersion: s.involved.apiVersion()},
		Reason: s.reason, Message: s.message, Type: s.typ.String(), Count: int32(s.count),
		FirstTimestamp: m.ts(s.first), LastTimestamp: m.ts(s.last),
		Source:              corev1.EventSource{Component: s.source, Host: s.host},
		ReportingController: s.source, ReportingInstance: s.host,
	}
	return e
}

// eventV1 is the event as events.k8s.io/v1 shows it.
func (m moment) eventV1(s *eventSnap) *eventsv1.Event {
	e := &eventsv1.Event{TypeMeta: metav1.TypeMeta{Kind: "Event", APIVersion: "events.k8s.io/v1"}, ObjectMeta: m.metaOf(s),
		EventTime:           metav1.NewMicroTime(m.ts(s.first).Time),
		ReportingController: s.source, ReportingInstance: s.host, Reason: s.reason, Note: s.message, Type: s.typ.String(),
		Regarding: corev1.ObjectReference{Kind: s.involved.kind, Namespace: s.involvedNS, Name: s.involved.name,
			UID: types.UID(s.involvedUID()), APIVersion: s.involved.apiVersion()},
		DeprecatedSource:         corev1.EventSource{Component: s.source, Host: s.host},
		DeprecatedFirstTimestamp: m.ts(s.first), DeprecatedLastTimestamp: m.ts(s.last), DeprecatedCount: int32(s.count),
	}
	if s.count > 1 {
		e.Series = &eventsv1.EventSeries{Count: int32(s.count), LastObservedTime: metav1.NewMicroTime(m.ts(s.last).Time)}
	}
	return e
}

// priorityClass is a scheduling.k8s.io/v1 PriorityClass, its
// preemptionPolicy defaulted as the API does.
func (m moment) priorityClass(s *priorityClassSnap) *schedulingv1.PriorityClass {
	c := &s.class
	policy := corev1.PreemptionPolicy(c.PreemptionPolicy)
	if policy == "" {
		policy = corev1.PreemptLowerPriority
	}
	return &schedulingv1.PriorityClass{TypeMeta: metav1.TypeMeta{Kind: "PriorityClass", APIVersion: "scheduling.k8s.io/v1"},
		ObjectMeta: m.objectMeta(&s.meta), Value: c.Value, GlobalDefault: c.GlobalDefault, Description: c.Description,
		PreemptionPolicy: &policy}
}

func (m moment) namespace(s *namespaceSnap) *corev1.Namespace {
	return &corev1.Namespace{TypeMeta: metav1.TypeMeta{Kind: "Namespace", APIVersion: "v1"}, ObjectMeta: m.objectMeta(&s.meta),
		Spec: corev1.NamespaceSpec{Finalizers: []corev1.FinalizerName{corev1.FinalizerKubernetes}}, Status: corev1.NamespaceStatus{Phase: corev1.NamespaceActive}}
}

func (s *workloadSnap) podTemplate() corev1.PodTemplateSpec {
	return corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: s.template}, Spec: podSpec(s.tmpl)}
}

func (m moment) workloadMeta(s *workloadSnap) metav1.ObjectMeta {
	om := m.objectMeta(&s.meta)
	om.Generation = s.generation
	if s.owner != nil {
		om.OwnerReferences = []metav1.OwnerReference{s.owner.ref()}
	}
	return om
}

func int32p(n int) *int32 {
	v := int32(n)
	return &v
}

// deployment is an apps/v1 Deployment: its spec, and its status and
// conditions as the model's deployment controller last wrote them. The
// controller acts on a change of spec at once, so observedGeneration is
// its generation.
func (m moment) deployment(s *workloadSnap) *appsv1.Deployment {
	st, sp := &s.rs, s.spec
	d := &appsv1.Deployment{TypeMeta: metav1.TypeMeta{Kind: "Deployment", APIVersion: "apps/v1"}, ObjectMeta: m.workloadMeta(s),
		Spec: appsv1.DeploymentSpec{Replicas: int32p(s.replicas), Selector: &metav1.LabelSelector{MatchLabels: s.selector},
			Template: s.podTemplate(), MinReadySeconds: int32(sp.MinReadySeconds), RevisionHistoryLimit: int32p(10)},
		Status: appsv1.DeploymentStatus{ObservedGeneration: s.generation, Replicas: int32(st.Replicas), UpdatedReplicas: int32(st.UpdatedReplicas),
			ReadyReplicas: int32(st.ReadyReplicas), AvailableReplicas: int32(st.AvailableReplicas), UnavailableReplicas: int32(st.UnavailableReplicas)},
	}
	if sp.Strategy == model.Recreate {
		d.Spec.Strategy.Type = appsv1.RecreateDeploymentStrategyType
	} else {
		d.Spec.Strategy = appsv1.DeploymentStrategy{Type: appsv1.RollingUpdateDeploymentStrategyType,
			RollingUpdate: &appsv1.RollingUpdateDeployment{MaxSurge: intstrOf(&sp.MaxSurge), MaxUnavailable: intstrOf(&sp.MaxUnavailable)}}
	}
	if p := sp.ProgressDeadline; p != nil {
		d.Spec.ProgressDeadlineSeconds = int32p(int(*p / time.Second))
	}
	for _, c := range s.conditions {
		update := c.LastTransitionTime
		if c.Type == model.DeploymentProgressing {
			update = s.progressUpdated
		}
		d.Status.Conditions = append(d.Status.Conditions, appsv1.DeploymentCondition{Type: appsv1.DeploymentConditionType(c.Type),
			Status: corev1.ConditionStatus(c.Status), Reason: c.Reason, Message: c.Message,
			LastUpdateTime: m.ts(update), LastTransitionTime: m.ts(c.LastTransitionTime)})
	}
	d.Annotations = map[string]string{"deployment.kubernetes.io/revision": strconv.Itoa(s.revision)}
	return d
}

// replicaSet is an apps/v1 ReplicaSet, a ReplicaSet workload or one of a
// Deployment's (with its revision and replicas annotations), its status
// as the model's ReplicaSet controller last wrote it.
func (m moment) replicaSet(s *workloadSnap) *appsv1.ReplicaSet {
	st := &s.rs
	rs := &appsv1.ReplicaSet{TypeMeta: metav1.TypeMeta{Kind: "ReplicaSet", APIVersion: "apps/v1"}, ObjectMeta: m.workloadMeta(s),
		Spec: appsv1.ReplicaSetSpec{Replicas: int32p(s.replicas), MinReadySeconds: int32(s.spec.MinReadySeconds),
			Selector: &metav1.LabelSelector{MatchLabels: s.selector}, Template: s.podTemplate()},
		Status: appsv1.ReplicaSetStatus{ObservedGeneration: s.generation, Replicas: int32(st.Replicas), FullyLabeledReplicas: int32(st.Replicas),
			ReadyReplicas: int32(st.ReadyReplicas), AvailableReplicas: int32(st.AvailableReplicas)},
	}
	if s.owner != nil {
		rs.Annotations = map[string]string{"deployment.kubernetes.io/revision": strconv.Itoa(s.revision),
			"deployment.kubernetes.io/desired-replicas": strconv.Itoa(s.desired),
			"deployment.kubernetes.io/max-replicas":     strconv.Itoa(s.maxRepl)}
		if len(s.history) > 0 {
			var revs []string
			for _, r := range s.history {
				revs = append(revs, strconv.Itoa(r))
			}
			rs.Annotations["deployment.kubernetes.io/revision-history"] = strings.Join(revs, ",")
		}
	}
	return rs
}

func (m moment) daemonSet(s *workloadSnap) *appsv1.DaemonSet {
	st := &s.status
	return &appsv1.DaemonSet{TypeMeta: metav1.TypeMeta{Kind: "DaemonSet", APIVersion: "apps/v1"}, ObjectMeta: m.workloadMeta(s),
		Spec: appsv1.DaemonSetSpec{Selector: &metav1.LabelSelector{MatchLabels: s.selector}, Template: s.podTemplate()},
		Status: appsv1.DaemonSetStatus{ObservedGeneration: s.generation, DesiredNumberScheduled: int32(st.replicas),
			CurrentNumberScheduled: int32(st.scheduled), NumberReady: int32(st.ready), UpdatedNumberScheduled: int32(st.scheduled),
			NumberAvailable: int32(st.ready), NumberUnavailable: int32(st.replicas - st.ready)},
	}
}

func (m moment) job(s *workloadSnap) *batchv1.Job {
	st := &s.status
	sp := s.spec
	j := &batchv1.Job{TypeMeta: metav1.TypeMeta{Kind: "Job", APIVersion: "batch/v1"}, ObjectMeta: m.workloadMeta(s),
		Spec: batchv1.JobSpec{Completions: int32p(sp.Completions), Parallelism: int32p(sp.Parallelism), BackoffLimit: int32p(sp.BackoffLimit),
			Selector: &metav1.LabelSelector{MatchLabels: s.selector}, Template: s.podTemplate()},
		Status: batchv1.JobStatus{StartTime: m.tsp(s.created), Active: int32(st.active), Succeeded: int32(st.succeeded),
			Failed: int32(st.failed), Ready: int32p(st.ready), Terminating: int32p(st.terminating),
			CompletedIndexes: st.completedIndexes, UncountedTerminatedPods: &batchv1.UncountedTerminatedPods{}},
	}
	if st.hasFailedIndexes {
		j.Status.FailedIndexes = &st.failedIndexes
	}
	jobSpecPolicies(&j.Spec, sp)
	if sp.ActiveDeadline != nil {
		secs := int64(*sp.ActiveDeadline / time.Second)
		j.Spec.ActiveDeadlineSeconds = &secs
	}
	if st.completed {
		j.Status.CompletionTime = m.tsp(st.completedAt)
	}
	for _, c := range s.conditions {
		j.Status.Conditions = append(j.Status.Conditions, batchv1.JobCondition{Type: batchv1.JobConditionType(c.Type),
			Status: corev1.ConditionStatus(c.Status), Reason: c.Reason, Message: c.Message,
			LastProbeTime: m.ts(c.LastTransitionTime), LastTransitionTime: m.ts(c.LastTransitionTime)})
	}
	return j
}

// pdb is a policy/v1 PodDisruptionBudget: the spec as the scenario gives
// it, the status and the DisruptionAllowed condition as the model's
// disruption controller (or the Eviction API) last wrote them: empty, with
// observedGeneration 0, until its first sync. The model keeps no spec
// changes, so generation and observedGeneration are 1.
func (m moment) pdb(s *pdbSnap) *policyv1.PodDisruptionBudget {
	sp := &s.spec
	b := &policyv1.PodDisruptionBudget{TypeMeta: metav1.TypeMeta{Kind: "PodDisruptionBudget", APIVersion: "policy/v1"},
		ObjectMeta: m.objectMeta(&s.meta),
		Spec: policyv1.PodDisruptionBudgetSpec{MinAvailable: intstrOf(sp.MinAvailable), MaxUnavailable: intstrOf(sp.MaxUnavailable),
			Selector: &metav1.LabelSelector{MatchLabels: sp.Selector}},
		Status: policyv1.PodDisruptionBudgetStatus{DisruptionsAllowed: int32(s.status.DisruptionsAllowed),
			CurrentHealthy: int32(s.status.CurrentHealthy), DesiredHealthy: int32(s.status.DesiredHealthy),
			ExpectedPods: int32(s.status.ExpectedPods)},
	}
	b.Generation = 1
	if sp.AlwaysAllowUnhealthy {
		p := policyv1.AlwaysAllow
		b.Spec.UnhealthyPodEvictionPolicy = &p
	}
	if c := s.cond; c.Type != "" { // the controller has synced it
		b.Status.ObservedGeneration = 1
		b.Status.Conditions = []metav1.Condition{{Type: c.Type, Status: metav1.ConditionStatus(c.Status), ObservedGeneration: 1,
			LastTransitionTime: m.ts(c.LastTransitionTime), Reason: c.Reason, Message: c.Message}}
	}
	return b
}

func intstrOf(v *model.IntOrPercent) *intstr.IntOrString {
	switch {
	case v == nil:
		return nil
	case v.Percent:
		x := intstr.FromString(strconv.Itoa(v.Value) + "%")
		return &x
	}
	x := intstr.FromInt32(int32(v.Value))
	return &x
}

// scale is the autoscaling/v1 Scale of a Deployment or ReplicaSet, as its
// scale subresource shows it.
func (m moment) scale(s *workloadSnap) *autoscalingv1.Scale {
	om := m.objectMeta(&s.meta)
	om.Labels = nil
	return &autoscalingv1.Scale{TypeMeta: metav1.TypeMeta{Kind: "Scale", APIVersion: "autoscaling/v1"}, ObjectMeta: om,
		Spec:   autoscalingv1.ScaleSpec{Replicas: int32(s.replicas)},
		Status: autoscalingv1.ScaleStatus{Replicas: int32(s.current()), Selector: labels.Set(s.selector).String()}}
}

// current is status.replicas: a Deployment's or ReplicaSet's as its
// controller wrote it, the others' counted.
func (s *workloadSnap) current() int {
	if s.spec.Kind == model.KindDeployment || s.spec.Kind == model.KindReplicaSet {
		return s.rs.Replicas
	}
	return s.status.replicas
}

// statefulSet is an apps/v1 StatefulSet: its pods counted as its
// controller counts them (the model keeps one revision, so every pod is
// current and updated).
func (m moment) statefulSet(s *workloadSnap) *appsv1.StatefulSet {
	st := &s.status
	policy := appsv1.OrderedReadyPodManagement
	if s.spec.PodManagement == model.Parallel {
		policy = appsv1.ParallelPodManagement
	}
	return &appsv1.StatefulSet{TypeMeta: metav1.TypeMeta{Kind: "StatefulSet", APIVersion: "apps/v1"}, ObjectMeta: m.workloadMeta(s),
		Spec: appsv1.StatefulSetSpec{Replicas: int32p(s.replicas), Selector: &metav1.LabelSelector{MatchLabels: s.selector},
			Template: s.podTemplate(), ServiceName: s.name, PodManagementPolicy: policy,
			UpdateStrategy: appsv1.StatefulSetUpdateStrategy{Type: appsv1.RollingUpdateStatefulSetStrategyType}},
		Status: appsv1.StatefulSetStatus{ObservedGeneration: s.generation, Replicas: int32(st.replicas), ReadyReplicas: int32(st.ready),
			CurrentReplicas: int32(st.replicas), UpdatedReplicas: int32(st.replicas), AvailableReplicas: int32(st.ready)},
	}
}

// cronJob is a batch/v1 CronJob: its status as its controller last wrote
// it (active Jobs, lastScheduleTime, lastSuccessfulTime).
func (m moment) cronJob(s *workloadSnap) *batchv1.CronJob {
	cs := s.spec.CronJob
	js := &cs.Job
	policy := batchv1.AllowConcurrent
	switch cs.ConcurrencyPolicy {
	case model.ForbidConcurrent:
		policy = batchv1.ForbidConcurrent
	case model.ReplaceConcurrent:
		policy = batchv1.ReplaceConcurrent
	}
	suspend := cs.Suspend
	c := &batchv1.CronJob{TypeMeta: metav1.TypeMeta{Kind: "CronJob", APIVersion: "batch/v1"}, ObjectMeta: m.workloadMeta(s),
		Spec: batchv1.CronJobSpec{Schedule: cs.ScheduleText, ConcurrencyPolicy: policy, Suspend: &suspend,
			SuccessfulJobsHistoryLimit: int32p(cs.SuccessfulJobsHistoryLimit), FailedJobsHistoryLimit: int32p(cs.FailedJobsHistoryLimit),
			JobTemplate: batchv1.JobTemplateSpec{Spec: batchv1.JobSpec{Completions: int32p(js.Completions), Parallelism: int32p(js.Parallelism),
				BackoffLimit: int32p(js.BackoffLimit), Template: s.podTemplate()}}},
	}
	if d := cs.StartingDeadline; d != nil {
		secs := int64(*d / time.Second)
		c.Spec.StartingDeadlineSeconds = &secs
	}
	st := s.cron
	for _, j := range st.active {
		c.Status.Active = append(c.Status.Active, corev1.ObjectReference{Kind: j.kind, Namespace: s.namespace, Name: j.name,
			UID: types.UID(j.uid), APIVersion: j.apiVersion})
	}
	if st.scheduled {
		c.Status.LastScheduleTime = m.tsp(st.lastSchedule)
	}
	if st.succeeded {
		c.Status.LastSuccessfulTime = m.tsp(st.lastSuccess)
	}
	return c
}
