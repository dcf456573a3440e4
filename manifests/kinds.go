package manifests

import (
	"reflect"
	"slices"
	"sync"

	"github.com/podsim/podsim/scenarios"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	schedulingv1alpha3 "k8s.io/api/scheduling/v1alpha3"
	storagev1 "k8s.io/api/storage/v1"
)

// gvk is an object's apiVersion and kind.
type gvk struct{ apiVersion, kind string }

// kindInfo is what podsim does with a kind of object.
type kindInfo struct {
	typ reflect.Type // its Go type in k8s.io/api: the schema it is checked against
	// as is the scenario type a simulated object becomes (scenarios.Pod or
	// scenarios.Workload); nil for the others.
	as reflect.Type
	// ignored says why an object of the kind is ignored (one warning per
	// object); "" for simulated kinds and for Namespace, which podsim
	// models as a name only.
	ignored string
}

var (
	podType      = reflect.TypeFor[scenarios.Pod]()
	workloadType = reflect.TypeFor[scenarios.Workload]()
	nodeType     = reflect.TypeFor[nodeObject]() // a scenarios.Node (nodes.go)
)

// kinds are the kinds podsim knows, as served by Kubernetes v1.30 and
// later. A known kind at another apiVersion is an error (that API is no
// longer served); an unknown kind (a custom resource) is ignored with a
// warning. Built at the first manifest, not at start-up.
var kinds = sync.OnceValue(func() map[gvk]kindInfo {
	return map[gvk]kindInfo{
		{"v1", "Pod"}:                             {typ: reflect.TypeFor[corev1.Pod](), as: podType},
		{"apps/v1", "Deployment"}:                 {typ: reflect.TypeFor[appsv1.Deployment](), as: workloadType},
		{"apps/v1", "ReplicaSet"}:                 {typ: reflect.TypeFor[appsv1.ReplicaSet](), as: workloadType},
		{"v1", "ReplicationController"}:           {typ: reflect.TypeFor[corev1.ReplicationController](), as: workloadType},
		{"apps/v1", "DaemonSet"}:                  {typ: reflect.TypeFor[appsv1.DaemonSet](), as: workloadType},
		{"batch/v1", "Job"}:                       {typ: reflect.TypeFor[batchv1.Job](), as: workloadType},
		{"apps/v1", "StatefulSet"}:                {typ: reflect.TypeFor[appsv1.StatefulSet](), as: workloadType},
		{"batch/v1", "CronJob"}:                   {typ: reflect.TypeFor[batchv1.CronJob](), as: workloadType},
		{"policy/v1", "PodDisruptionBudget"}:      {typ: reflect.TypeFor[policyv1.PodDisruptionBudget](), as: workloadType},
		{"scheduling.k8s.io/v1", "PriorityClass"}: {typ: reflect.TypeFor[schedulingv1.PriorityClass](), as: workloadType},
		{"v1", "Node"}:                            {typ: reflect.TypeFor[corev1.Node](), as: nodeType},
		{"v1", "Namespace"}:                       {typ: reflect.TypeFor[corev1.Namespace]()},
		{"v1", "Service"}:                         {typ: reflect.TypeFor[corev1.Service](), as: workloadType},
		{"karpenter.sh/v1", "NodePool"}:           {typ: reflect.TypeFor[nodePool](), as: workloadType}, // nodepool.go

		{"discovery.k8s.io/v1", "EndpointSlice"}:                              {typ: reflect.TypeFor[discoveryv1.EndpointSlice](), ignored: "podsim simulates no networking"},
		{"networking.k8s.io/v1", "Ingress"}:                                   {typ: reflect.TypeFor[networkingv1.Ingress](), ignored: "podsim simulates no networking"},
		{"networking.k8s.io/v1", "IngressClass"}:                              {typ: reflect.TypeFor[networkingv1.IngressClass](), ignored: "podsim simulates no networking"},
		{"networking.k8s.io/v1", "NetworkPolicy"}:                             {typ: reflect.TypeFor[networkingv1.NetworkPolicy](), ignored: "podsim simulates no networking"},
		{"v1", "ConfigMap"}:                                                   {typ: reflect.TypeFor[corev1.ConfigMap](), ignored: "podsim simulates no volumes and no environment"},
		{"v1", "Secret"}:                                                      {typ: reflect.TypeFor[corev1.Secret](), ignored: "podsim simulates no volumes and no environment"},
		{"v1", "PersistentVolumeClaim"}:                                       {typ: reflect.TypeFor[corev1.PersistentVolumeClaim](), ignored: "podsim simulates no volumes: a pod never waits for its claim"},
		{"v1", "PersistentVolume"}:                                            {typ: reflect.TypeFor[corev1.PersistentVolume](), ignored: "podsim simulates no volumes"},
		{"storage.k8s.io/v1", "StorageClass"}:                                 {typ: reflect.TypeFor[storagev1.StorageClass](), ignored: "podsim simulates no volumes"},
		{"v1", "ServiceAccount"}:                                              {typ: reflect.TypeFor[corev1.ServiceAccount](), ignored: "podsim simulates no API access"},
		{"rbac.authorization.k8s.io/v1", "Role"}:                              {typ: reflect.TypeFor[rbacv1.Role](), ignored: "podsim simulates no API access"},
		{"rbac.authorization.k8s.io/v1", "RoleBinding"}:                       {typ: reflect.TypeFor[rbacv1.RoleBinding](), ignored: "podsim simulates no API access"},
		{"rbac.authorization.k8s.io/v1", "ClusterRole"}:                       {typ: reflect.TypeFor[rbacv1.ClusterRole](), ignored: "podsim simulates no API access"},
		{"rbac.authorization.k8s.io/v1", "ClusterRoleBinding"}:                {typ: reflect.TypeFor[rbacv1.ClusterRoleBinding](), ignored: "podsim simulates no API access"},
		{"autoscaling/v2", "HorizontalPodAutoscaler"}:                         {typ: reflect.TypeFor[autoscalingv2.HorizontalPodAutoscaler](), as: workloadType},
		{"autoscaling/v1", "HorizontalPodAutoscaler"}:                         {typ: reflect.TypeFor[autoscalingv1.HorizontalPodAutoscaler](), as: workloadType},
		{"v1", "ResourceQuota"}:                                               {typ: reflect.TypeFor[corev1.ResourceQuota](), ignored: "podsim simulates no admission: quotas are not enforced"},
		{"admissionregistration.k8s.io/v1", "ValidatingWebhookConfiguration"}: {typ: reflect.TypeFor[admissionregistrationv1.ValidatingWebhookConfiguration](), ignored: "podsim simulates no admission: webhooks are never called"},
		{"admissionregistration.k8s.io/v1", "MutatingWebhookConfiguration"}:   {typ: reflect.TypeFor[admissionregistrationv1.MutatingWebhookConfiguration](), ignored: "podsim simulates no admission: webhooks are never called"},
		{"scheduling.k8s.io/v1alpha3", "Workload"}:                            {typ: reflect.TypeFor[schedulingv1alpha3.Workload](), ignored: "podsim simulates no workload-aware (gang) scheduling: pods are scheduled one by one"},
		{"scheduling.k8s.io/v1alpha3", "PodGroup"}:                            {typ: reflect.TypeFor[schedulingv1alpha3.PodGroup](), ignored: "podsim simulates no workload-aware (gang) scheduling: pods are scheduled one by one"},
		{"scheduling.k8s.io/v1alpha3", "CompositePodGroup"}:                   {typ: reflect.TypeFor[schedulingv1alpha3.CompositePodGroup](), ignored: "podsim simulates no workload-aware (gang) scheduling: pods are scheduled one by one"},
		{"v1", "LimitRange"}:                                                  {typ: reflect.TypeFor[corev1.LimitRange](), ignored: "podsim simulates no admission: its default requests and limits are not applied"},
	}
})

// fieldOf is a field of a k8s.io/api type, by its JSON name.
type fieldOf struct {
	typ  reflect.Type
	name string
}

// removedFields are fields an earlier Kubernetes release served and
// v1.37 does not: the API server refuses them as unknown fields (kubectl
// validates strictly by default), and so does podsim, saying what took
// their place.
var removedFields = map[fieldOf]string{
	// core/v1 types.go: "This field got replaced with the SchedulingGroup
	// field in Kubernetes 1.36" (an alpha field of 1.35).
	{reflect.TypeFor[corev1.PodSpec](), "workloadRef"}: "an alpha field of Kubernetes 1.35 only, replaced in 1.36 by schedulingGroup (schedulingGroup: {podGroupName: NAME} names the pod's PodGroup)",
}

// servedAs returns the apiVersions at which kind is known, sorted.
func servedAs(kind string) []string {
	var out []string
	for k := range kinds() {
		if k.kind == kind {
			out = append(out, k.apiVersion)
		}
	}
	slices.Sort(out)
	return out
}
