package model

import "time"

// The core's side of the kernel's OOM killers (model/kubelet/oom;
// docs/kubernetes-rules.md, The node's OOM killer): the hook the core
// calls when a pod's use of memory may have changed and to read a node's
// peak, the processes' ids the kubelet gives, and the readers the killers
// use on a pod's containers.

// MemoryWatcher is the kernel's OOM killers (model/kubelet/oom), set by
// Register.
type MemoryWatcher interface {
	// MemoryChanged hears that p's use of memory may have changed now,
	// first of all that hear of a change of use (before the use sinks and
	// PodUseChanged): the kernel acts on the allocation itself.
	MemoryChanged(p *Pod)
	// PeakMemory is the most memory in use on n at any instant so far,
	// in bytes; 0 if no pod that uses memory was bound to it.
	PeakMemory(n *Node) int64
}

// firstPodPID is where a node's process ids count up from.
const firstPodPID = 1000

// memoryChanged tells the OOM killers that p's use of memory may have
// changed now; not for a node no pod that uses memory was bound to
// (PodUsesMemory never told them of it: its processes are not counted).
func (w *World) memoryChanged(p *Pod) {
	if n := p.Node; w.memory != nil && n != nil && n.pids != 0 {
		w.memory.MemoryChanged(p)
	}
}

// MemoryChanged tells p's node that p's use of memory may have changed:
// its OOM check runs at this instant (model/kubelet/oom).
func (w *World) MemoryChanged(p *Pod) { w.memoryChanged(p) }

// PeakMemory is the most memory in use on n at any instant so far, in
// bytes: what its pods' containers used by their behaviours; 0 without
// the OOM killers.
func (n *Node) PeakMemory() int64 {
	if n.w.memory == nil {
		return 0
	}
	return n.w.memory.PeakMemory(n)
}

// countPIDs starts giving process ids on n, once: from when a pod that
// uses memory is first bound to it.
func (n *Node) countPIDs() {
	if n.pids == 0 {
		n.pids = firstPodPID
	}
}

// nextPID is the id of the next process started on n: ids count up from
// firstPodPID, one per container run, once counted (countPIDs); 0 before.
func (n *Node) nextPID() int32 {
	if n.pids == 0 {
		return 0
	}
	n.pids++
	return n.pids
}

// SpecAt is the spec of p's i-th container, the init ones first, below
// Containers(). Read it, do not keep it: a resize gives p a new spec.
func (p *Pod) SpecAt(i int) *ContainerSpec { return p.specAt(i) }

// ProcessAt reports whether the process of p's i-th container runs
// (published Running, or started and still in its postStart hook) and
// when it started.
func (p *Pod) ProcessAt(i int) (running bool, startedAt time.Duration) {
	return p.w.kubelet.Process(p, i)
}

// SteadyMemoryAt is the memory of p's i-th container at mrps apart from
// what it leaked (Behavior.Usage plus PerRequest times the rate); 0 when
// its process is not running.
func (p *Pod) SteadyMemoryAt(i int, mrps int64) int64 {
	running, _ := p.w.kubelet.Process(p, i)
	return steadyMemory(p.specAt(i), running, mrps)
}

// PIDAt is the id on its node of the last process of p's i-th container
// (0 if it started before its node counted processes).
func (p *Pod) PIDAt(i int) int32 { return p.w.kubelet.PID(p, i) }

// Leaks reports whether a process of b leaks memory.
func (b *Behavior) Leaks() bool { return b.leaks() }

// Leaked is the memory a process of b leaked after running for d.
func (b *Behavior) Leaked(d time.Duration) int64 { return b.leaked(d) }

// watchMemory starts counting n's processes if p, just bound to n, uses
// memory, and tells the parts: the OOM killers first, which keep n's
// memory in use from then on.
func (n *Node) watchMemory(p *Pod) {
	if !p.UsesMemory() {
		return
	}
	n.countPIDs()
	for _, h := range n.w.parts.podUsesMemory {
		h.PodUsesMemory(p, n)
	}
}

// UsesMemory reports whether a container of p has a behaviour that uses
// memory.
func (p *Pod) UsesMemory() bool {
	for _, cs := range [2][]ContainerSpec{p.Spec.InitContainers, p.Spec.Containers} {
		for i := range cs {
			if b := cs[i].Behavior; b != nil && (b.Usage.Memory > 0 || b.PerRequest.Memory > 0 || b.LeakMemory > 0) {
				return true
			}
		}
	}
	return false
}
