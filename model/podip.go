package model

import (
	"net"
	"strconv"
	"strings"
)

// Pod addresses. kube-controller-manager's node IPAM gives each node a /24
// of the cluster CIDR 10.244.0.0/16 (the kind and kubeadm default;
// pkg/controller/nodeipam), and the CNI's host-local IPAM gives each new
// sandbox the next free address of its node's range, from .2 (.1 is the
// gateway), round-robin. podsim numbers node i's range 10.244.(i mod 256).0/24
// in the order nodes were added and hands out .2 to .254 in turn, without
// checking which addresses are still held: a simplification that matters
// only past 253 sandboxes on one node.

// assignIP gives the pod's new sandbox the next address of its node's range,
// as status.podIP (once per sandbox).
func (p *Pod) assignIP() {
	n := p.Node
	i := n.nextIP
	n.nextIP = (i + 1) % 253
	p.status.PodIP = "10.244." + strconv.Itoa(n.id%256) + "." + strconv.Itoa(i+2)
}

// probeTarget is where an httpGet or tcpSocket probe connects, host:port,
// as the kubelet resolves it (pkg/probe/http/request.go
// NewRequestForHTTPGetAction, pkg/kubelet/prober/prober.go): the probe's
// host, else the pod's IP, and its port, a name resolved to the number of
// the container's port of that name (pkg/probe/util.go ResolveContainerPort;
// a name no port has stays as written, where the kubelet's probe errors).
func (pr *prober) probeTarget() string {
	host := pr.spec.Host
	if host == "" {
		host = pr.c.pod.status.PodIP
	}
	return net.JoinHostPort(host, pr.c.spec.ResolvePort(pr.spec.Port))
}

// ResolvePort is the container port a probe's port names: a number as it
// is, a name as the number of the container's port of that name (the name
// itself if there is none).
func (s *ContainerSpec) ResolvePort(port string) string {
	for _, cp := range s.Ports {
		if cp.Name != "" && cp.Name == port {
			return strconv.Itoa(cp.Port)
		}
	}
	return port
}

// refusedOutput is the message of a connection the container refuses: for
// httpGet the error of Go's http client (a *url.Error:
// `Get "URL": dial tcp HOST:PORT: ...`, pkg/probe/http/http.go DoHTTPProbe),
// for tcpSocket the dialer's (pkg/probe/tcp/tcp.go). It is made once per
// pod address and kept.
func (pr *prober) refusedOutput() string {
	if pr.refusedIP == pr.c.pod.status.PodIP && pr.refused != "" {
		return pr.refused
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
	pr.refused, pr.refusedIP = msg, pr.c.pod.status.PodIP
	return msg
}
