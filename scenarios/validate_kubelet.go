package scenarios

import (
	"math"
	"slices"
	"time"

	"github.com/podsim/podsim/model"
)

// podKubelet checks the pod spec's kubelet fields (schema_kubelet.go) as
// the API server's ValidatePodSpec does.
func (v *validator) podKubelet(ps *PodSpec) {
	if d := ps.ActiveDeadlineSeconds; d != nil && (*d < 1 || *d > math.MaxInt32) {
		v.at(d, "activeDeadlineSeconds must be between 1 and %d, inclusive", math.MaxInt32)
	}
	v.resizePolicies(ps)
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

// containerRestart checks a container's restartPolicy and
// restartPolicyRules as ValidatePodSpec does with ContainerRestartRules:
// an init container's policy can only be Always (a sidecar); a regular
// container's Always, OnFailure or Never; rules need the container's own
// policy, and each has the action Restart and exit codes In or NotIn a
// list of distinct values.
func (v *validator) containerRestart(c *Container, init bool) {
	switch {
	case c.RestartPolicy != "" && init && c.RestartPolicy != "Always":
		v.at(&c.RestartPolicy, "an init container's restartPolicy can only be Always (a sidecar)")
	case c.RestartPolicy != "" && !slices.Contains([]string{"Always", "OnFailure", "Never"}, c.RestartPolicy):
		v.at(&c.RestartPolicy, "restartPolicy %q: want Always, OnFailure or Never", c.RestartPolicy)
	}
	if len(c.RestartPolicyRules) == 0 {
		return
	}
	switch {
	case init:
		v.atKey(&c.RestartPolicyRules, "restartPolicyRules are allowed on regular containers only")
	case c.RestartPolicy == "":
		v.atKey(&c.RestartPolicyRules, "restartPolicyRules need the container's own restartPolicy")
	}
	for i := range c.RestartPolicyRules {
		r := &c.RestartPolicyRules[i]
		if r.Action != "Restart" {
			v.at(&r.Action, "restart rule action %q: want Restart", r.Action)
		}
		e := r.ExitCodes
		if e == nil {
			v.at(r, "a restart rule needs exitCodes")
			continue
		}
		if e.Operator != "In" && e.Operator != "NotIn" {
			v.at(&e.Operator, "exitCodes operator %q: want In or NotIn", e.Operator)
		}
		if len(e.Values) == 0 {
			v.at(e, "exitCodes: values must list at least one exit code")
		}
		for j, x := range e.Values {
			if slices.Contains(e.Values[:j], x) {
				v.at(&e.Values[j], "exitCodes: duplicate value %d", x)
			}
		}
	}
}
