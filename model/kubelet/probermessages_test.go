package kubelet

import (
	"testing"
	"time"

	"github.com/podsim/podsim/model"
)

// TestProbeFailureMessages pins the Unhealthy messages of the prober: the
// target is the probe's host or the pod's address (10.244.0.2, the first
// of node 0's range) and its port, a name resolved by the container's
// ports; an httpGet that finds nothing listening gives Go's url.Error, one
// that gets an answer the status line; a tcpSocket the dialer's error.
func TestProbeFailureMessages(t *testing.T) {
	cases := []struct {
		name     string
		probe    model.ProbeSpec
		startup  time.Duration
		want     string
		wantAddr string
	}{
		{"http named port, starting", model.ProbeSpec{Handler: "httpGet", Port: "web", Path: "/ready"}, time.Hour,
			`Readiness probe failed: Get "http://10.244.0.2:8080/ready": dial tcp 10.244.0.2:8080: connect: connection refused`, "10.244.0.2"},
		{"https host, no path, starting", model.ProbeSpec{Handler: "httpGet", Scheme: "HTTPS", Host: "example.test", Port: "443"}, time.Hour,
			`Readiness probe failed: Get "https://example.test:443": dial tcp example.test:443: connect: connection refused`, "10.244.0.2"},
		{"http started", model.ProbeSpec{Handler: "httpGet", Port: "8080", Path: "/ready"}, 0,
			"Readiness probe failed: HTTP probe failed with statuscode: 500", "10.244.0.2"},
		{"tcp", model.ProbeSpec{Handler: "tcpSocket", Port: "5432"}, 0,
			"Readiness probe failed: dial tcp 10.244.0.2:5432: connect: connection refused", "10.244.0.2"},
	}
	for _, c := range cases {
		b := &model.Behavior{StartupTime: c.startup, ProbeFailures: [3][]model.Window{model.Readiness: {{From: 0}}}}
		w, p := world(t, model.RestartAlways, b, model.DefaultSettings())
		probe := c.probe
		probe.Period, probe.Timeout, probe.SuccessThreshold, probe.FailureThreshold = 10*time.Second, time.Second, 1, 3
		p.Spec.Containers[0].Readiness = &probe
		p.Spec.Containers[0].Ports = []model.ContainerPort{{Name: "web", Port: 8080}}
		w.Run(25 * time.Second)
		if got := p.Status().PodIP; got != c.wantAddr {
			t.Errorf("%s: podIP %q, want %q", c.name, got, c.wantAddr)
		}
		var msgs []string
		for _, ch := range timelines[w].Changes {
			if ch.Kind == model.ChangeEvent && ch.Reason == "Unhealthy" {
				msgs = append(msgs, ch.Message)
			}
		}
		if len(msgs) == 0 || msgs[0] != c.want {
			t.Errorf("%s: Unhealthy messages %q, want %q", c.name, msgs, c.want)
		}
	}
}
