package prober

import (
	"net"
	"strings"
)

// What a probe reports when it fails (pkg/kubelet/prober/prober.go
// runProbe): probes are not executed; the scenario's behaviour decides
// their results, and these are the messages the kubelet would record.

// output is what a failing probe reports: while the process starts, an
// httpGet or tcpSocket probe finds nothing listening; after, an httpGet gets
// an error status.
func (pr *worker) output(starting bool) string {
	switch handler := pr.spec.Handler; {
	case handler == "grpc":
		return `service unhealthy (responded with "NOT_SERVING")`
	case handler == "exec":
		return "command terminated with exit code 1"
	case starting || handler == "tcpSocket":
		return pr.refusedOutput()
	}
	return "HTTP probe failed with statuscode: 500"
}

// probeTarget is where an httpGet or tcpSocket probe connects, host:port,
// as the kubelet resolves it (pkg/probe/http/request.go
// NewRequestForHTTPGetAction, pkg/kubelet/prober/prober.go): the probe's
// host, else the pod's IP, and its port, a name resolved to the number of
// the container's port of that name (pkg/probe/util.go ResolveContainerPort;
// a name no port has stays as written, where the kubelet's probe errors).
func (pr *worker) probeTarget() string {
	host := pr.spec.Host
	if host == "" {
		host = pr.c.pod.IP()
	}
	return net.JoinHostPort(host, pr.c.Spec.ResolvePort(pr.spec.Port))
}

// refusal is a worker's refusedOutput, made for the pod address ip.
type refusal struct{ msg, ip string }

// refusedOutput is the message of a connection the container refuses: for
// httpGet the error of Go's http client (a *url.Error:
// `Get "URL": dial tcp HOST:PORT: ...`, pkg/probe/http/http.go DoHTTPProbe),
// for tcpSocket the dialer's (pkg/probe/tcp/tcp.go). It is made once per
// pod address and kept by the Manager.
func (pr *worker) refusedOutput() string {
	m, ip := pr.c.target.Prober(), pr.c.pod.IP()
	if r, ok := m.refused[pr]; ok && r.ip == ip {
		return r.msg
	}
	target := pr.probeTarget()
	msg := "dial tcp " + target + ": connect: connection refused"
	if pr.spec.Handler == "httpGet" {
		scheme := strings.ToLower(pr.spec.Scheme)
		if scheme == "" {
			scheme = "http"
		}
		path := pr.spec.Path
		if path != "" && !strings.HasPrefix(path, "/") {
			path = "/" + path // net/url adds the slash a path after a host needs
		}
		msg = `Get "` + scheme + "://" + target + path + `": ` + msg
	}
	if m.refused == nil {
		m.refused = map[*worker]refusal{}
	}
	m.refused[pr] = refusal{msg, ip}
	return msg
}
