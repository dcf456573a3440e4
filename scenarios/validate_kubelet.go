package scenarios

import (
	"math"
	"time"

	"github.com/podsim/podsim/model"
)

// podKubelet checks the pod spec's kubelet fields (schema_kubelet.go) as
// the API server's ValidatePodSpec does.
func (v *validator) podKubelet(ps *PodSpec) {
	if d := ps.ActiveDeadlineSeconds; d != nil && (*d < 1 || *d > math.MaxInt32) {
		v.at(d, "activeDeadlineSeconds must be between 1 and %d, inclusive", math.MaxInt32)
	}
}

// nodeShutdown checks a node's graceful shutdown configuration, own over
// settings' (def), as the kubelet's configuration validation does: the
// critical pods' share must not exceed the whole period.
func (v *validator) nodeShutdown(own, def *NodeShutdown) {
	eff := effectiveShutdown(own, def)
	if eff.CriticalPods > eff.GracePeriod {
		at := own.ShutdownGracePeriodCriticalPods
		if at == nil {
			at = def.ShutdownGracePeriodCriticalPods
		}
		v.at(at, "shutdownGracePeriodCriticalPods (%s) must not exceed shutdownGracePeriod (%s)", eff.CriticalPods, eff.GracePeriod)
	}
}

// effectiveShutdown is a node's shutdown configuration: each field its own
// if set, else settings' (def), else 0 (off); the kubelet counts whole
// seconds (migrateConfig).
func effectiveShutdown(own, def *NodeShutdown) model.NodeShutdown {
	pick := func(a, b *Duration) time.Duration {
		switch {
		case a != nil:
			return a.D().Truncate(time.Second)
		case b != nil:
			return b.D().Truncate(time.Second)
		}
		return 0
	}
	return model.NodeShutdown{GracePeriod: pick(own.ShutdownGracePeriod, def.ShutdownGracePeriod),
		CriticalPods: pick(own.ShutdownGracePeriodCriticalPods, def.ShutdownGracePeriodCriticalPods)}
}
