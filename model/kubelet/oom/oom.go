// Package oom is the kernel's two OOM killers on every node
// (docs/kubernetes-rules.md, The node's OOM killer), a part of the
// kubelet (model.World.Register): it keeps a node's memory in use, the
// sum of what its pods' running containers use (model.Pod.UseAt), from
// the first pod that uses memory bound to it (PodUsesMemory). One timer
// per node, armed only by a change of use (MemoryChanged) or by the next
// instant a leak crosses a limit, runs the killers:
//
//   - the memory cgroup's: a container past its memory limit is killed
//     (exit 137, OOMKilled; model.Pod.OOMKill) and restarts by its policy;
//   - the system's: when the node's memory in use passes its capacity
//     before the kubelet's eviction manager has acted, the kernel kills the
//     process with the highest oom_badness, its use plus its oom_score_adj
//     per mille of the node's memory (mm/oom_kill.c), the adjustment the
//     kubelet gave its container by QoS class (pkg/kubelet/qos/policy.go);
//     the kubelet's OOM watcher records the Warning event SystemOOM on the
//     node (pkg/kubelet/oom/oom_watcher_linux.go).
//
// It also keeps the node's peak memory in use (PeakMemory): use only
// grows between changes (a leak) and drops at one, so the peak is the
// larger of the use just before each change and the use at the end.
package oom

import (
	"math"
	"math/bits"
	"strconv"
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/sim"
)

// Killer is the OOM killers of every node: a part of w
// (model.MemoryWatcher).
type Killer struct {
	w     *model.World
	nodes []*nodeMemory // by Node.ID; nil until a pod that uses memory is bound there
}

// New returns the OOM killers of w's nodes.
func New(w *model.World) *Killer { return &Killer{w: w} }

// nodeMemory is a node's memory in use since the last check: fixed plus
// each running leak's growth.
type nodeMemory struct {
	w        *model.World
	n        *model.Node
	timer    sim.Timer // the next check: now after a change, or a crossing
	checking bool
	fixed    int64 // what the running containers use apart from their leaks
	leaks    []leak
	peak     int64
}

// leak is a running container that leaks, as the last check took it.
type leak struct {
	b      *model.Behavior
	steady int64 // its use apart from the leak
	start  time.Duration
	limit  int64 // its memory limit; 0: none
}

// Kernel and kubelet constants of the OOM killer.
const (
	guaranteedOOMScoreAdj = -997 // pkg/kubelet/qos/policy.go
	besteffortOOMScoreAdj = 1000
	taskCommLen           = 15 // the kernel's TASK_COMM_LEN less its NUL: a process name's length
)

// PodUsesMemory starts keeping n's memory in use, once.
func (k *Killer) PodUsesMemory(_ *model.Pod, n *model.Node) {
	id := n.ID()
	for len(k.nodes) <= id {
		k.nodes = append(k.nodes, nil)
	}
	if k.nodes[id] == nil {
		m := &nodeMemory{w: k.w, n: n}
		m.timer.Init(m.check)
		k.nodes[id] = m
	}
}

// of is n's memory, nil if not kept.
func (k *Killer) of(n *model.Node) *nodeMemory {
	if id := n.ID(); id < len(k.nodes) {
		return k.nodes[id]
	}
	return nil
}

// MemoryChanged tells p's node that p's use of memory may have changed:
// its check runs at this instant, once the change is over, before any
// other event of the instant (the kernel acts on the allocation itself:
// the kubelet's checks and metrics-server's scrapes see what it left).
func (k *Killer) MemoryChanged(p *model.Pod) {
	n := p.Node
	if n == nil {
		return
	}
	m := k.of(n)
	if m == nil || m.checking {
		return
	}
	if now := k.w.Now(); !m.timer.Pending() || m.timer.When() > now {
		k.w.Engine().Schedule(&m.timer, now, sim.Urgent)
	}
}

// useAt is the node's memory in use at t (not before the last check), by
// the use the last check took.
func (m *nodeMemory) useAt(t time.Duration) int64 {
	u := m.fixed
	for i := range m.leaks {
		l := &m.leaks[i]
		u = sim.AddSatInt(u, l.b.Leaked(t-l.start))
	}
	return u
}

// PeakMemory is the most memory in use on n at any instant so far, in
// bytes: what its pods' containers used by their behaviours.
func (k *Killer) PeakMemory(n *model.Node) int64 {
	m := k.of(n)
	if m == nil {
		return 0
	}
	return max(m.peak, m.useAt(k.w.Now()))
}

// check runs the OOM killers on what the node uses now, notes the peak
// and arms the next crossing.
func (m *nodeMemory) check() {
	n := m.n
	now := m.w.Now()
	m.peak = max(m.peak, min(m.useAt(now), n.Capacity.Memory)) // just before the change
	m.checking = true
	for _, p := range n.Pods() {
		mrps := p.ServedMilliRPS()
		for i, nc := 0, p.Containers(); i < nc; i++ {
			if l := p.SpecAt(i).Limits.Memory; l > 0 && p.StatusOf(i).State.Kind == model.StateRunning {
				if u := p.UseAt(i, mrps); u.Memory > l {
					p.OOMKill(u.Name)
				}
			}
		}
	}
	if !n.PoweredOff() {
		for m.take(); m.useAt(now) > n.Capacity.Memory; m.take() {
			if !m.systemOOM() {
				break
			}
		}
	}
	m.take()
	m.checking = false
	m.peak = max(m.peak, min(m.useAt(now), n.Capacity.Memory))
	m.arm()
}

// take reads the use of the node's running containers.
func (m *nodeMemory) take() {
	m.fixed, m.leaks = 0, m.leaks[:0]
	for _, p := range m.n.Pods() {
		mrps := p.ServedMilliRPS()
		for i, nc := 0, p.Containers(); i < nc; i++ {
			steady := p.SteadyMemoryAt(i, mrps)
			m.fixed = sim.AddSatInt(m.fixed, steady)
			s := p.SpecAt(i)
			if b := s.Behavior; b.Leaks() {
				if running, startedAt := p.ProcessAt(i); running {
					m.leaks = append(m.leaks, leak{b: b, steady: steady, start: startedAt, limit: s.Limits.Memory})
				}
			}
		}
	}
}

// arm schedules the next check at the first instant a leak takes its
// container past its limit or the node past its capacity; none if no
// container leaks.
func (m *nodeMemory) arm() {
	now := m.w.Now()
	next := time.Duration(math.MaxInt64)
	for i := range m.leaks {
		l := &m.leaks[i]
		if l.limit <= 0 {
			continue
		}
		// The first run time e with steady + leaked(e) > limit: leaked(e)
		// is floor(mem*e/per), at least k once mem*e >= k*per.
		k := l.limit - l.steady + 1
		if k <= 0 {
			next = now
			break
		}
		e := mulDivCeil(uint64(k), uint64(l.b.LeakPer), uint64(l.b.LeakMemory))
		next = min(next, max(sim.AddSat(l.start, time.Duration(e)), now))
	}
	if len(m.leaks) > 0 && !m.n.PoweredOff() {
		next = min(next, m.crossing(now))
	}
	if next == math.MaxInt64 {
		m.w.Engine().Stop(&m.timer)
		return
	}
	m.w.Engine().Schedule(&m.timer, next, sim.Urgent)
}

// crossing is the first instant after now at which the node's memory in
// use passes its capacity: use only grows between checks, so a bisection
// finds it, between bounds the leaks' summed rate suggests (each leak's
// floor is at most a byte under its line) and checked, widened by
// doubling when they do not hold. MaxInt64 if never.
func (m *nodeMemory) crossing(now time.Duration) time.Duration {
	capacity := m.n.Capacity.Memory
	if m.useAt(now) > capacity {
		return now
	}
	rate := 0.0 // bytes per nanosecond
	for i := range m.leaks {
		rate += float64(m.leaks[i].b.LeakMemory) / float64(m.leaks[i].b.LeakPer)
	}
	lo, step := now, time.Second
	if e := float64(capacity-m.useAt(now)) / rate; e+float64(len(m.leaks)+2)/rate < 1<<62 {
		if t := sim.AddSat(now, time.Duration(e)); m.useAt(t) <= capacity {
			lo = t
		}
		step = max(time.Duration(float64(len(m.leaks)+2)/rate), 1)
	}
	hi := sim.AddSat(lo, step)
	for m.useAt(hi) <= capacity {
		if hi == math.MaxInt64 {
			return math.MaxInt64
		}
		lo, step = hi, sim.MulSat(step, 2)
		hi = sim.AddSat(lo, step)
	}
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if m.useAt(mid) > capacity {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}

// systemOOM is the kernel's out_of_memory on the whole node: it kills the
// running container with the highest oom_badness (ties: the later
// process) and reports whether there was one.
func (m *nodeMemory) systemOOM() bool {
	n := m.n
	var victim *model.Pod
	var vi int
	var best int64
	var bestPID int32
	for _, p := range n.Pods() {
		mrps := p.ServedMilliRPS()
		for i, nc := 0, p.Containers(); i < nc; i++ {
			if p.StatusOf(i).State.Kind != model.StateRunning {
				continue
			}
			mem := p.UseAt(i, mrps).Memory
			score := oomBadness(mem, oomScoreAdj(p, i, n.Capacity.Memory), n.Capacity.Memory)
			if pid := p.PIDAt(i); victim == nil || score > best || score == best && pid > bestPID {
				victim, vi, best, bestPID = p, i, score, pid
			}
		}
	}
	if victim == nil {
		return false
	}
	full := victim.SpecAt(vi).Name
	name := full
	if len(name) > taskCommLen {
		name = name[:taskCommLen]
	}
	n.Event(model.EventWarning, "SystemOOM", "kubelet",
		"System OOM encountered, victim process: "+name+", pid: "+strconv.Itoa(int(bestPID)))
	victim.OOMKill(full)
	return true
}

// oomBadness is the kernel's oom_badness in bytes: the process's use plus
// its oom_score_adj per mille of the node's memory.
func oomBadness(mem, adj, capacity int64) int64 {
	return mem + adj*(capacity/1000)
}

// oomScoreAdj is the oom_score_adj the kubelet gives p's i-th container
// (GetContainerOOMScoreAdjust): -997 for a node-critical or Guaranteed
// pod, 1000 for BestEffort; for Burstable 1000 less the container's memory
// request per mille of the node's (a sidecar no more than for its pod's
// smallest regular request), within [3, 999].
func oomScoreAdj(p *model.Pod, i int, capacity int64) int64 {
	if p.Spec.PriorityClassName == "system-node-critical" {
		return guaranteedOOMScoreAdj
	}
	switch qosClass(p.Spec) {
	case "Guaranteed":
		return guaranteedOOMScoreAdj
	case "BestEffort":
		return besteffortOOMScoreAdj
	}
	perMille := func(req int64) int64 { return 1000 - sim.MulDivSat(1000, uint64(req), uint64(max(capacity, 1))) }
	s := p.SpecAt(i)
	adj := perMille(s.Requests.Memory)
	if regular := p.Spec.Containers; s.Sidecar && len(regular) > 0 {
		least := regular[0].Requests.Memory
		for _, r := range regular[1:] {
			least = min(least, r.Requests.Memory)
		}
		adj = min(adj, perMille(least))
	}
	if adj < 1000+guaranteedOOMScoreAdj {
		return 1000 + guaranteedOOMScoreAdj
	}
	if adj == besteffortOOMScoreAdj {
		return adj - 1
	}
	return adj
}

// qosClass is the pod's QoS class (GetPodQOS): BestEffort with no cpu or
// memory request or limit in any container, Guaranteed when every
// container limits both and the requests equal the limits, else Burstable.
func qosClass(s *model.PodSpec) string {
	var req, lim model.Resources
	guaranteed, any := true, false
	for _, cs := range [2][]model.ContainerSpec{s.InitContainers, s.Containers} {
		for i := range cs {
			c := &cs[i]
			req.MilliCPU += c.Requests.MilliCPU
			req.Memory += c.Requests.Memory
			lim.MilliCPU += c.Limits.MilliCPU
			lim.Memory += c.Limits.Memory
			if c.Limits.MilliCPU == 0 || c.Limits.Memory == 0 {
				guaranteed = false
			}
			any = any || c.Requests.MilliCPU > 0 || c.Requests.Memory > 0 || c.Limits.MilliCPU > 0 || c.Limits.Memory > 0
		}
	}
	switch {
	case !any:
		return "BestEffort"
	case guaranteed && req.MilliCPU == lim.MilliCPU && req.Memory == lim.Memory:
		return "Guaranteed"
	}
	return "Burstable"
}

// mulDivCeil is ceil(a*b/c) in 128 bits, saturated at MaxInt64.
func mulDivCeil(a, b, c uint64) int64 {
	hi, lo := bits.Mul64(a, b)
	if hi >= c {
		return math.MaxInt64
	}
	q, r := bits.Div64(hi, lo, c)
	if r != 0 {
		q++
	}
	if q > math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(q)
}
