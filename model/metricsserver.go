package model

import (
	"time"

	"github.com/podsim/podsim/sim"
)

// metrics-server (docs/kubernetes-rules.md, metrics-server): every
// MetricResolution it scrapes the kubelets. A container's CPU is its
// average rate over the window since the previous scrape, integrated
// exactly from its piecewise-constant use; its memory is its working set
// at the scrape. A node's values are the sums of its pods'. Nothing runs
// per pod: each container's CPU is integrated when its use may change and
// at the scrape.

// ContainerMetrics is one container's values at a scrape.
type ContainerMetrics struct {
	Name    string
	NanoCPU int64 // average over the window, in billionths of a core
	Memory  int64 // working set at the scrape, in bytes
}

// PodMetrics is one pod's containers at a scrape: those whose process ran
// at the scrape, in spec order (init containers first).
type PodMetrics struct {
	Pod        *Pod
	Containers []ContainerMetrics
	// MilliRPS is what the pod served at the scrape, in thousandths of a
	// request per second: its requests_per_second, as a custom metrics
	// adapter would serve it to the HorizontalPodAutoscaler.
	MilliRPS int64
}

// ServiceMetrics is a Service's requests_per_second at a scrape: the
// rate offered to it over the window, in thousandths of a request per
// second.
type ServiceMetrics struct {
	Service  *Service
	MilliRPS int64
}

// NodeMetrics is a node's values at a scrape: the sums of its pods'.
type NodeMetrics struct {
	Node    *Node
	NanoCPU int64
	Memory  int64
}

// cpuUse is a container's CPU integral: its rate since At, and what it
// used up to At and up to the last scrape, in millicore-nanoseconds.
type cpuUse struct {
	milliCPU int64
	at       time.Duration
	total    int64
	scraped  int64
}

// metricsServer is the scraper: a part registered by EnableUsage.
type metricsServer struct {
	w      *World
	timer  sim.Timer
	last   time.Duration // the last scrape
	window time.Duration
	done   bool // it scraped once

	pods       []PodMetrics
	containers []ContainerMetrics // backs the pods' Containers
	nodes      []NodeMetrics
	services   []ServiceMetrics
	offered    []int64 // by Service, in the order added: offered up to the last scrape
}

// enableMetricsServer registers metrics-server, once; its first scrape
// comes MetricResolution from now.
func (w *World) enableMetricsServer() {
	if w.metrics != nil || w.settings.MetricResolution <= 0 {
		return
	}
	ms := &metricsServer{w: w, last: w.Now()}
	ms.timer.Init(ms.scrape)
	w.metrics = ms
	w.Register(ms)
	w.eng.Schedule(&ms.timer, sim.AddSat(w.Now(), w.settings.MetricResolution), sim.Normal)
}

// useChanged integrates the CPU of p's containers up to now at their old
// rates and takes their rates now: call it whenever p's use may have
// changed.
func (w *World) useChanged(p *Pod) {
	w.memoryChanged(p)
	w.queueUse(p)
	if w.metrics == nil {
		return
	}
	now := w.Now()
	mrps := servedMilliRPS(p)
	for _, cs := range [2][]*container{p.init, p.regular} {
		for _, c := range cs {
			u := c.cpuUse(now)
			u.advance(now)
			u.milliCPU, _ = c.usage(mrps)
		}
	}
}

// cpuUse is c's CPU integral, made on first use (from now, at no use).
func (c *container) cpuUse(now time.Duration) *cpuUse {
	if c.cpu == nil {
		c.cpu = &cpuUse{at: now}
	}
	return c.cpu
}

// advance counts the CPU used up to now at the current rate.
func (u *cpuUse) advance(now time.Duration) {
	if now > u.at {
		u.total = addSat(u.total, mulDiv(uint64(now-u.at), uint64(u.milliCPU), 1))
		u.at = now
	}
}

// scrape records every running pod's containers and every reachable
// node, and arms the next scrape.
func (ms *metricsServer) scrape() {
	w := ms.w
	now := w.Now()
	ms.window, ms.last, ms.done = now-ms.last, now, true
	ms.pods, ms.containers = ms.pods[:0], ms.containers[:0]
	ms.nodes = ms.nodes[:0]
	for _, n := range w.nodes {
		if reachable(n) {
			ms.nodes = append(ms.nodes, NodeMetrics{Node: n})
		}
	}
	for _, p := range w.pods {
		ms.scrapePod(p, now)
	}
	ms.scrapeServices()
	for _, pm := range ms.pods {
		for _, c := range pm.Containers {
			if nm := ms.node(pm.Pod.Node); nm != nil {
				nm.NanoCPU = addSat(nm.NanoCPU, c.NanoCPU)
				nm.Memory = addSat(nm.Memory, c.Memory)
			}
		}
	}
	w.eng.Schedule(&ms.timer, sim.AddSat(now, w.settings.MetricResolution), sim.Normal)
}

// scrapePod records p if it runs on a reachable node: each container whose
// process runs; every container's CPU integral moves to now.
func (ms *metricsServer) scrapePod(p *Pod, now time.Duration) {
	if p.deleted || p.Node == nil {
		return
	}
	mrps := servedMilliRPS(p)
	k, grows := 0, false
	for _, cs := range [2][]*container{p.init, p.regular} {
		for _, c := range cs {
			grows = grows || c.processRunning() && c.spec.Behavior.leaks()
			u := c.cpuUse(now)
			u.advance(now)
			used := u.total - u.scraped
			u.scraped = u.total
			cpu, mem := c.usage(mrps)
			u.milliCPU = cpu
			if p.phase != Running || !reachable(p.Node) || !c.processRunning() {
				continue
			}
			ms.containers = append(ms.containers, ContainerMetrics{
				Name:    c.spec.Name,
				NanoCPU: mulDiv(uint64(used), 1_000_000, uint64(max(ms.window, 1))),
				Memory:  mem,
			})
			k++
		}
	}
	if grows { // a leak's use moved since the last change
		ms.w.queueUse(p)
	}
	if k > 0 {
		n := len(ms.containers) // a later append may move ms.containers: this slice keeps its values
		ms.pods = append(ms.pods, PodMetrics{Pod: p, Containers: ms.containers[n-k : n : n], MilliRPS: mrps})
	}
}

// scrapeServices records the rate offered to each Service with traffic
// over the window.
func (ms *metricsServer) scrapeServices() {
	ms.services = ms.services[:0]
	if ms.w.proxy == nil {
		return
	}
	for i, s := range ms.w.Services() {
		if i == len(ms.offered) {
			ms.offered = append(ms.offered, 0)
		}
		offered, ok := ms.w.proxy.Offered(s) // counted up to now, the scrape
		if !ok {
			continue
		}
		d := offered - ms.offered[i]
		ms.offered[i] = offered
		ms.services = append(ms.services, ServiceMetrics{Service: s, MilliRPS: mulDiv(uint64(max(d, 0)), 1000, uint64(max(ms.window, 1)))})
	}
}

// node is n's entry in the last scrape, or nil.
func (ms *metricsServer) node(n *Node) *NodeMetrics {
	for i := range ms.nodes {
		if ms.nodes[i].Node == n {
			return &ms.nodes[i]
		}
	}
	return nil
}

// MetricsScrape returns when metrics-server last scraped and the window
// its CPU rates average over; ok is false before its first scrape or when
// nothing declares a use of resources.
func (w *World) MetricsScrape() (at, window time.Duration, ok bool) {
	if w.metrics == nil || !w.metrics.done {
		return 0, 0, false
	}
	return w.metrics.last, w.metrics.window, true
}

// PodMetrics returns the last scrape's pods in creation order. The slice
// and its contents are valid until the next scrape.
func (w *World) PodMetrics() []PodMetrics {
	if w.metrics == nil {
		return nil
	}
	return w.metrics.pods
}

// ServiceMetrics returns the last scrape's Services with traffic, in the
// order added. The slice is valid until the next scrape.
func (w *World) ServiceMetrics() []ServiceMetrics {
	if w.metrics == nil {
		return nil
	}
	return w.metrics.services
}

// NodeMetrics returns the last scrape's reachable nodes in the order
// added. The slice is valid until the next scrape.
func (w *World) NodeMetrics() []NodeMetrics {
	if w.metrics == nil {
		return nil
	}
	return w.metrics.nodes
}

// reachable reports whether metrics-server can scrape n's kubelet: it has
// power, is in the API and is not cut off from the network.
func reachable(n *Node) bool { return !n.down && !n.gone && !n.partitioned }
