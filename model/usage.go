package model

import (
	"time"

	"github.com/podsim/podsim/sim"
)

// Use of resources (docs/kubernetes-rules.md, Use of resources): a running
// container uses its behaviour's Usage, plus PerRequest for each request
// per second its pod serves (its share of its Services' traffic), plus
// what it leaked since its process started (LeakMemory per LeakPer). CPU
// is capped at the container's limit, as the CFS quota throttles it;
// memory is not: a container whose memory passes its limit is OOM-killed
// by the kernel (model/kubelet/oom) and restarts by its policy. Use changes only
// when a rate, a view or a container does, and a leak grows linearly in
// between: nothing runs to move it; the OOM killer's checks are scheduled
// at the instants a leak crosses a limit.

// EnableUsage makes the world's use of resources count: the parts hear it
// once (UsageEnabled): kube-proxy then follows listeners, as a Service
// makes it do too, and metrics-server starts scraping. Call it before the
// world runs.
func (w *World) EnableUsage() {
	if !w.usageOn {
		w.usageOn = true
		for _, h := range w.parts.usageEnabled {
			h.UsageEnabled()
		}
	}
}

// useChanged tells p's node's memory check, the use sinks and the parts
// (metrics-server) that p's use may have changed now: call it whenever it
// may have.
func (w *World) useChanged(p *Pod) {
	w.memoryChanged(p)
	w.queueUse(p)
	for _, h := range w.parts.podUseChanged {
		h.PodUseChanged(p)
	}
}

// UseGrew tells the use sinks that p's use moved now with no change of
// its rates: a leak grew (metrics-server's scrape).
func (w *World) UseGrew(p *Pod) { w.queueUse(p) }

// ServedMilliRPS is the rate p serves now, as kube-proxy routes it to it,
// in thousandths of a request per second.
func (p *Pod) ServedMilliRPS() int64 { return servedMilliRPS(p) }

// ContainerUse is what one container uses now.
type ContainerUse struct {
	Name     string
	MilliCPU int64 // capped at its limit
	Memory   int64
	Running  bool // its process runs (published Running, or still in postStart)
	Leaks    bool // its process leaks memory
}

// UseAt is what p's i-th container uses now, when p serves mrps
// (ServedMilliRPS): i counts the init containers first, then the regular
// ones, in spec order, below Containers().
func (p *Pod) UseAt(i int, mrps int64) ContainerUse {
	s := p.specAt(i)
	running, startedAt := p.w.kubelet.Process(p, i)
	cpu, mem := useOf(s, running, p.w.Now()-startedAt, mrps)
	return ContainerUse{Name: s.Name, MilliCPU: cpu, Memory: mem, Running: running, Leaks: running && s.Behavior.leaks()}
}

// specAt is the spec of p's i-th container, the init ones first.
func (p *Pod) specAt(i int) *ContainerSpec {
	if ni := len(p.Spec.InitContainers); i >= ni {
		return &p.Spec.Containers[i-ni]
	}
	return &p.Spec.InitContainers[i]
}

// Usage returns what the container called name uses now (the pod's sum
// for name ""): CPU in millicores and memory in bytes; ok is false if the
// pod has no such container.
func (p *Pod) Usage(name string) (milliCPU, memory int64, ok bool) {
	mrps := servedMilliRPS(p)
	for i := range p.Containers() {
		s := p.specAt(i)
		if name != "" && s.Name != name {
			continue
		}
		ok = true
		running, startedAt := p.w.kubelet.Process(p, i)
		cpu, mem := useOf(s, running, p.w.Now()-startedAt, mrps)
		milliCPU += cpu
		memory += mem
	}
	return milliCPU, memory, ok
}

// useOf is the CPU (capped at its limit) and memory now of a container
// of spec s whose process, if running, has run for age, at mrps
// thousandths of a request per second served by its pod; 0 when its
// process is not running.
func useOf(s *ContainerSpec, running bool, age time.Duration, mrps int64) (milliCPU, memory int64) {
	b := s.Behavior
	if b == nil || !running {
		return 0, 0
	}
	milliCPU = sim.AddSatInt(b.Usage.MilliCPU, sim.MulDivSat(uint64(b.PerRequest.MilliCPU), uint64(mrps), 1000))
	if l := s.Limits.MilliCPU; l > 0 {
		milliCPU = min(milliCPU, l)
	}
	return milliCPU, sim.AddSatInt(steadyMemory(s, running, mrps), b.leaked(age))
}

// steadyMemory is the memory of a container of spec s at mrps apart from
// what it leaked: Usage plus PerRequest times the rate; 0 when its process
// is not running.
func steadyMemory(s *ContainerSpec, running bool, mrps int64) int64 {
	b := s.Behavior
	if b == nil || !running {
		return 0
	}
	return sim.AddSatInt(b.Usage.Memory, sim.MulDivSat(uint64(b.PerRequest.Memory), uint64(mrps), 1000))
}

// leaked is the memory a process of b leaked after running for d.
func (b *Behavior) leaked(d time.Duration) int64 {
	if !b.leaks() || d <= 0 {
		return 0
	}
	return sim.MulDivSat(uint64(b.LeakMemory), uint64(d), uint64(b.LeakPer))
}
