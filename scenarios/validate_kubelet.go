package scenarios

import "math"

// podKubelet checks the pod spec's kubelet fields (schema_kubelet.go) as
// the API server's ValidatePodSpec does.
func (v *validator) podKubelet(ps *PodSpec) {
	if d := ps.ActiveDeadlineSeconds; d != nil && (*d < 1 || *d > math.MaxInt32) {
		v.at(d, "activeDeadlineSeconds must be between 1 and %d, inclusive", math.MaxInt32)
	}
}
