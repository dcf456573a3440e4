package manifests

import (
	g0 "k8s.io/api/admission/v1"
	g1 "k8s.io/api/admission/v1beta1"
	g2 "k8s.io/api/admissionregistration/v1"
	g3 "k8s.io/api/admissionregistration/v1alpha1"
	g4 "k8s.io/api/admissionregistration/v1beta1"
	g5 "k8s.io/api/apidiscovery/v2"
	g6 "k8s.io/api/apidiscovery/v2beta1"
	g7 "k8s.io/api/apiserverinternal/v1alpha1"
	g8 "k8s.io/api/apps/v1"
	g9 "k8s.io/api/apps/v1beta1"
	g10 "k8s.io/api/apps/v1beta2"
	g11 "k8s.io/api/authentication/v1"
	g12 "k8s.io/api/authentication/v1alpha1"
	g13 "k8s.io/api/authentication/v1beta1"
	g14 "k8s.io/api/authorization/v1"
	g15 "k8s.io/api/authorization/v1beta1"
	g16 "k8s.io/api/autoscaling/v1"
	g17 "k8s.io/api/autoscaling/v2"
	g18 "k8s.io/api/batch/v1"
	g19 "k8s.io/api/batch/v1beta1"
	g20 "k8s.io/api/certificates/v1"
	g21 "k8s.io/api/certificates/v1alpha1"
	g22 "k8s.io/api/certificates/v1beta1"
	g23 "k8s.io/api/coordination/v1"
	g24 "k8s.io/api/coordination/v1alpha2"
	g25 "k8s.io/api/coordination/v1beta1"
	g26 "k8s.io/api/core/v1"
	g27 "k8s.io/api/discovery/v1"
	g28 "k8s.io/api/discovery/v1beta1"
	g29 "k8s.io/api/events/v1"
	g30 "k8s.io/api/events/v1beta1"
	g31 "k8s.io/api/extensions/v1beta1"
	g32 "k8s.io/api/flowcontrol/v1"
	g33 "k8s.io/api/flowcontrol/v1beta1"
	g34 "k8s.io/api/flowcontrol/v1beta2"
	g35 "k8s.io/api/flowcontrol/v1beta3"
	g36 "k8s.io/api/imagepolicy/v1alpha1"
	g37 "k8s.io/api/lifecycle/v1alpha1"
	g38 "k8s.io/api/networking/v1"
	g39 "k8s.io/api/networking/v1beta1"
	g40 "k8s.io/api/node/v1"
	g41 "k8s.io/api/node/v1alpha1"
	g42 "k8s.io/api/node/v1beta1"
	g43 "k8s.io/api/policy/v1"
	g44 "k8s.io/api/policy/v1beta1"
	g45 "k8s.io/api/rbac/v1"
	g46 "k8s.io/api/rbac/v1alpha1"
	g47 "k8s.io/api/rbac/v1beta1"
	g48 "k8s.io/api/resource/v1"
	g49 "k8s.io/api/resource/v1alpha3"
	g50 "k8s.io/api/resource/v1beta1"
	g51 "k8s.io/api/resource/v1beta2"
	g52 "k8s.io/api/scheduling/v1"
	g53 "k8s.io/api/scheduling/v1alpha3"
	g54 "k8s.io/api/scheduling/v1beta1"
	g55 "k8s.io/api/storage/v1"
	g56 "k8s.io/api/storage/v1alpha1"
	g57 "k8s.io/api/storage/v1beta1"
	g58 "k8s.io/api/storagemigration/v1"
	g59 "k8s.io/api/storagemigration/v1beta1"
	"k8s.io/apimachinery/pkg/runtime"
)

// kubernetesScheme registers every group and version of k8s.io/api.
func kubernetesScheme() *runtime.Scheme {
	s := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{
		g0.AddToScheme,
		g1.AddToScheme,
		g2.AddToScheme,
		g3.AddToScheme,
		g4.AddToScheme,
		g5.AddToScheme,
		g6.AddToScheme,
		g7.AddToScheme,
		g8.AddToScheme,
		g9.AddToScheme,
		g10.AddToScheme,
		g11.AddToScheme,
		g12.AddToScheme,
		g13.AddToScheme,
		g14.AddToScheme,
		g15.AddToScheme,
		g16.AddToScheme,
		g17.AddToScheme,
		g18.AddToScheme,
		g19.AddToScheme,
		g20.AddToScheme,
		g21.AddToScheme,
		g22.AddToScheme,
		g23.AddToScheme,
		g24.AddToScheme,
		g25.AddToScheme,
		g26.AddToScheme,
		g27.AddToScheme,
		g28.AddToScheme,
		g29.AddToScheme,
		g30.AddToScheme,
		g31.AddToScheme,
		g32.AddToScheme,
		g33.AddToScheme,
		g34.AddToScheme,
		g35.AddToScheme,
		g36.AddToScheme,
		g37.AddToScheme,
		g38.AddToScheme,
		g39.AddToScheme,
		g40.AddToScheme,
		g41.AddToScheme,
		g42.AddToScheme,
		g43.AddToScheme,
		g44.AddToScheme,
		g45.AddToScheme,
		g46.AddToScheme,
		g47.AddToScheme,
		g48.AddToScheme,
		g49.AddToScheme,
		g50.AddToScheme,
		g51.AddToScheme,
		g52.AddToScheme,
		g53.AddToScheme,
		g54.AddToScheme,
		g55.AddToScheme,
		g56.AddToScheme,
		g57.AddToScheme,
		g58.AddToScheme,
		g59.AddToScheme,
	} {
		if err := add(s); err != nil {
			panic(err)
		}
	}
	return s
}
