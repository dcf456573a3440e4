package model

import "github.com/podsim/podsim/sim"

// Use of resources (docs/kubernetes-rules.md, Use of resources): a running
// container uses its behaviour's Usage, plus PerRequest for each request
// per second its pod serves (its share of its Services' traffic). CPU is
// capped at the container's limit, as the CFS quota throttles it; memory
// is not: a container whose memory passes its limit is OOM-killed by the
// kernel at once (exit 137, OOMKilled) and restarts by its policy. Use
// changes only when a rate, a view or a container does: it is piecewise
// constant, and nothing runs to move it.

// EnableUsage makes the world watch its containers' memory against their
// limits (AddService does too) and starts metrics-server. Call it before
// the world runs.
func (w *World) EnableUsage() {
	w.ensureServices()
	w.enableMetricsServer()
}

// Usage returns what the container called name uses now (the pod's sum
// for name ""): CPU in millicores and memory in bytes; ok is false if the
// pod has no such container.
func (p *Pod) Usage(name string) (milliCPU, memory int64, ok bool) {
	mrps := servedMilliRPS(p)
	for _, cs := range [2][]*container{p.init, p.regular} {
		for _, c := range cs {
			if name != "" && c.spec.Name != name {
				continue
			}
			ok = true
			cpu, mem := c.usage(mrps)
			milliCPU += cpu
			memory += mem
		}
	}
	return milliCPU, memory, ok
}

// usage is c's CPU (capped at its limit) and memory at mrps thousandths of
// a request per second served by its pod; 0 when its process is not
// running.
func (c *container) usage(mrps int64) (milliCPU, memory int64) {
	b := c.spec.Behavior
	if b == nil || !c.processRunning() {
		return 0, 0
	}
	milliCPU = addSat(b.Usage.MilliCPU, mulDiv(uint64(b.PerRequest.MilliCPU), uint64(mrps), 1000))
	memory = addSat(b.Usage.Memory, mulDiv(uint64(b.PerRequest.Memory), uint64(mrps), 1000))
	if l := c.spec.Limits.MilliCPU; l > 0 {
		milliCPU = min(milliCPU, l)
	}
	return milliCPU, memory
}

// servedMilliRPS is the rate p serves now, over every Service whose
// kube-proxy view holds it, in thousandths of a request per second.
func servedMilliRPS(p *Pod) int64 {
	ss := p.w.services
	if ss == nil || !listening(p) {
		return 0
	}
	var out int64
	for _, s := range ss.list {
		f := s.flow
		if f == nil || indexOf(s.view, p) < 0 {
			continue
		}
		share := f.mrps / f.n
		if c := maxMilliRPS(p); c > 0 && c < share {
			share = c
		}
		out += share
	}
	return out
}

// checkMemory arranges for p's containers to be checked against their
// memory limits once the current change is over.
func (ss *services) checkMemory(p *Pod) {
	if indexOf(ss.oomPending, p) >= 0 {
		return
	}
	ss.oomPending = append(ss.oomPending, p)
	if !ss.oomTimer.Pending() {
		ss.w.eng.Schedule(&ss.oomTimer, ss.w.Now(), sim.Normal)
	}
}

// oomKill is the kernel's OOM killer: each running container past its
// memory limit is killed.
func (ss *services) oomKill() {
	for len(ss.oomPending) > 0 {
		p := ss.oomPending[0]
		ss.oomPending = append(ss.oomPending[:0], ss.oomPending[1:]...)
		mrps := servedMilliRPS(p)
		for _, cs := range [2][]*container{p.init, p.regular} {
			for _, c := range cs {
				if l := c.spec.Limits.Memory; l > 0 && c.status.State.Kind == StateRunning {
					if _, mem := c.usage(mrps); mem > l {
						p.OOMKill(c.spec.Name)
					}
				}
			}
		}
	}
}

// usesMemory reports whether a container of p has a memory limit and a
// behaviour that uses memory.
func usesMemory(p *Pod) bool {
	for _, cs := range [2][]*container{p.init, p.regular} {
		for _, c := range cs {
			if b := c.spec.Behavior; b != nil && c.spec.Limits.Memory > 0 && (b.Usage.Memory > 0 || b.PerRequest.Memory > 0) {
				return true
			}
		}
	}
	return false
}
