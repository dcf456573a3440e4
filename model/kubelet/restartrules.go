package kubelet

import (
	"slices"

	"github.com/podsim/podsim/model"
)

// Whether the kubelet restarts a container: pkg/api/v1/pod/util.go
// (ContainerShouldRestart, IsContainerRestartable) with KEP-5307's
// container restartPolicy and restartPolicyRules (ContainerRestartRules,
// beta and on by default since v1.35), and computePodActions
// (kuberuntime_manager.go) for a container a probe killed.

// shouldRestart is the kubelet's restart rule for a container that exited
// with code (podutil.ContainerShouldRestart): sidecars always; a container
// with its own restartPolicy by the first of its restartPolicyRules that
// matches the code, else by that policy; any other by the pod's.
func (c *container) shouldRestart(code int32) bool {
	if c.Spec.Sidecar {
		return true
	}
	policy := c.pod.Spec.RestartPolicy
	if own := c.Spec.RestartPolicy; own != "" {
		for _, r := range c.Spec.RestartRules {
			if slices.Contains(r.ExitCodes, code) != r.NotIn {
				return true
			}
		}
		policy = own
	}
	switch policy {
	case model.RestartAlways:
		return true
	case model.RestartOnFailure:
		return code != 0
	}
	return false
}

// restartsAfterProbeKill reports whether the container restarts after a
// failed liveness or startup probe killed it: by its own restartPolicy if
// it has one (the rules are not weighed: it did not exit on its own,
// computePodActions), else unless the pod's is Never.
func (c *container) restartsAfterProbeKill() bool {
	if c.Spec.Sidecar {
		return true
	}
	if own := c.Spec.RestartPolicy; own != "" {
		return own != model.RestartNever
	}
	return c.pod.Spec.RestartPolicy != model.RestartNever
}
