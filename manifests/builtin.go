package manifests

import (
	"fmt"
	"strings"
	"sync"

	"github.com/podsim/podsim/internal/yamlstrict"
)

// builtinKinds are the kinds of every API group built into Kubernetes, at
// any version (k8s.io/api v0.37, a test keeps them in step; and the
// apiextensions and apiregistration groups every cluster serves too). A
// kind outside this list in one of these groups is a typo, not a custom
// resource. Built at the first lookup, not at start-up.
var builtinKinds = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"":                             "Binding ComponentStatus ConfigMap Endpoints Event LimitRange Namespace Node PersistentVolume PersistentVolumeClaim Pod PodTemplate RangeAllocation ReplicationController ResourceQuota Secret SerializedReference Service ServiceAccount",
		"admission.k8s.io":             "AdmissionReview",
		"admissionregistration.k8s.io": "MutatingAdmissionPolicy MutatingAdmissionPolicyBinding MutatingWebhookConfiguration ValidatingAdmissionPolicy ValidatingAdmissionPolicyBinding ValidatingWebhookConfiguration",
		"apidiscovery.k8s.io":          "APIGroupDiscovery",
		"apiextensions.k8s.io":         "CustomResourceDefinition",
		"apiregistration.k8s.io":       "APIService",
		"apps":                         "ControllerRevision DaemonSet Deployment DeploymentRollback ReplicaSet Scale StatefulSet",
		"authentication.k8s.io":        "SelfSubjectReview TokenRequest TokenReview",
		"authorization.k8s.io":         "LocalSubjectAccessReview SelfSubjectAccessReview SelfSubjectRulesReview SubjectAccessReview",
		"autoscaling":                  "HorizontalPodAutoscaler Scale",
		"batch":                        "CronJob Job",
		"certificates.k8s.io":          "CertificateSigningRequest ClusterTrustBundle PodCertificateRequest",
		"coordination.k8s.io":          "Lease LeaseCandidate",
		"discovery.k8s.io":             "EndpointSlice",
		"events.k8s.io":                "Event",
		"extensions":                   "DaemonSet Deployment DeploymentRollback Ingress NetworkPolicy ReplicaSet Scale",
		"flowcontrol.apiserver.k8s.io": "FlowSchema PriorityLevelConfiguration",
		"imagepolicy.k8s.io":           "ImageReview",
		"internal.apiserver.k8s.io":    "StorageVersion",
		"lifecycle.k8s.io":             "Eviction EvictionRequest",
		"networking.k8s.io":            "IPAddress Ingress IngressClass NetworkPolicy ServiceCIDR",
		"node.k8s.io":                  "RuntimeClass",
		"policy":                       "Eviction PodDisruptionBudget",
		"rbac.authorization.k8s.io":    "ClusterRole ClusterRoleBinding Role RoleBinding",
		"resource.k8s.io":              "DeviceClass DeviceTaintRule ResourceClaim ResourceClaimTemplate ResourcePoolStatusRequest ResourceSlice",
		"scheduling.k8s.io":            "CompositePodGroup PodGroup PriorityClass Workload",
		"storage.k8s.io":               "CSIDriver CSINode CSIStorageCapacity StorageClass VolumeAttachment VolumeAttributesClass",
		"storagemigration.k8s.io":      "StorageVersionMigration",
	}
})

// apiGroup returns the group of an apiVersion: "apps" of apps/v1, "" of v1.
func apiGroup(apiVersion string) string {
	if i := strings.LastIndexByte(apiVersion, '/'); i >= 0 {
		return apiVersion[:i]
	}
	return ""
}

// isBuiltinGroup reports whether apiVersion is of an API group built into
// Kubernetes: a kind podsim knows under another of its versions is one no
// longer served (extensions/v1beta1 Deployment), while the same kind in
// another group is a custom resource's (serving.knative.dev/v1 Service,
// kueue.x-k8s.io/v1beta1 Workload).
func isBuiltinGroup(apiVersion string) bool {
	_, ok := builtinKinds()[apiGroup(apiVersion)]
	return ok
}

// unknownBuiltinKind returns an error message if kind is not a kind of
// apiVersion's group and that group is built into Kubernetes (so the kind
// is a typo, which the API server would refuse), with the closest kind of
// the group; "" if the kind is known or the group is not built in (a
// custom resource's).
func unknownBuiltinKind(apiVersion, kind string) string {
	group := apiGroup(apiVersion)
	list, builtin := builtinKinds()[group]
	if !builtin {
		return ""
	}
	known := strings.Fields(list)
	for _, k := range known {
		if k == kind {
			return ""
		}
	}
	name := group
	if name == "" {
		name = "core"
	}
	msg := fmt.Sprintf("%s %s is not a kind of the built-in API group %s", apiVersion, kind, name)
	if s := yamlstrict.SuggestName(kind, known); s != "" {
		msg += fmt.Sprintf("; did you mean %s?", s)
	}
	return msg
}
