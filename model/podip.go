package model

import "strconv"

// Pod addresses. kube-controller-manager's node IPAM gives each node a /24
// of the cluster CIDR 10.244.0.0/16 (the kind and kubeadm default;
// pkg/controller/nodeipam), and the CNI's host-local IPAM gives each new
// sandbox the next free address of its node's range, from .2 (.1 is the
// gateway), round-robin. podsim numbers node i's range 10.244.(i mod 256).0/24
// in the order nodes were added and hands out .2 to .254 in turn, without
// checking which addresses are still held: a simplification that matters
// only past 253 sandboxes on one node.

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
