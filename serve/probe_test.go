package serve

import (
	"testing"
	"time"

	"github.com/podsim/podsim/model"
)

// A pod's probes are served as written: their handler with what it checks,
// and their timings.
func TestProbesServedAsWritten(t *testing.T) {
	base := model.ProbeSpec{Period: 10 * time.Second, Timeout: time.Second, SuccessThreshold: 1, FailureThreshold: 3, InitialDelay: 5 * time.Second}
	http := base
	http.Handler, http.Scheme, http.Port, http.Path = "httpGet", "HTTP", "http", "/healthz"
	if p := probe(&http); p == nil || p.HTTPGet == nil || p.HTTPGet.Port.String() != "http" || p.HTTPGet.Path != "/healthz" ||
		p.HTTPGet.Scheme != "HTTP" || p.InitialDelaySeconds != 5 || p.PeriodSeconds != 10 || p.FailureThreshold != 3 {
		t.Errorf("httpGet: %+v", p)
	}
	tcp := base
	tcp.Handler, tcp.Port = "tcpSocket", "80"
	if p := probe(&tcp); p == nil || p.TCPSocket == nil || p.TCPSocket.Port.IntValue() != 80 {
		t.Errorf("tcpSocket: %+v", p)
	}
	exec := base
	exec.Handler, exec.Command = "exec", []string{"cat", "/tmp/healthy"}
	if p := probe(&exec); p == nil || p.Exec == nil || len(p.Exec.Command) != 2 {
		t.Errorf("exec: %+v", p)
	}
	grpc := base
	grpc.Handler, grpc.Port, grpc.Service = "grpc", "9090", "health"
	if p := probe(&grpc); p == nil || p.GRPC == nil || p.GRPC.Port != 9090 || *p.GRPC.Service != "health" {
		t.Errorf("grpc: %+v", p)
	}
	if probe(nil) != nil || probe(&base) != nil {
		t.Error("no probe, or no handler, is served as one")
	}
}
