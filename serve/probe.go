package serve

import (
	"strconv"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/podsim/podsim/model"
)

// probe renders a probe as written: its handler with what it checks and
// its timings (podsim runs no handler; the scenario's behaviour decides
// its outcome). nil for none, or for a handler the model does not name.
func probe(p *model.ProbeSpec) *corev1.Probe {
	if p == nil {
		return nil
	}
	out := &corev1.Probe{InitialDelaySeconds: int32(p.InitialDelay / time.Second), TimeoutSeconds: int32(p.Timeout / time.Second),
		PeriodSeconds: int32(p.Period / time.Second), SuccessThreshold: int32(p.SuccessThreshold), FailureThreshold: int32(p.FailureThreshold)}
	if g := p.TerminationGracePeriod; g != nil {
		s := int64(*g / time.Second)
		out.TerminationGracePeriodSeconds = &s
	}
	h := &out.ProbeHandler
	switch p.Handler {
	case "exec":
		h.Exec = &corev1.ExecAction{Command: p.Command}
	case "httpGet":
		h.HTTPGet = &corev1.HTTPGetAction{Path: p.Path, Port: intstr.Parse(p.Port), Host: p.Host, Scheme: corev1.URIScheme(p.Scheme)}
	case "tcpSocket":
		h.TCPSocket = &corev1.TCPSocketAction{Port: intstr.Parse(p.Port), Host: p.Host}
	case "grpc":
		port, _ := strconv.Atoi(p.Port)
		service := p.Service
		h.GRPC = &corev1.GRPCAction{Port: int32(port), Service: &service}
	default:
		return nil
	}
	return out
}
