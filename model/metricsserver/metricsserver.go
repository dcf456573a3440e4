// Package metricsserver is metrics-server (kubernetes-sigs/metrics-server;
// docs/kubernetes-rules.md, metrics-server): every MetricResolution it
// scrapes the kubelets. A container's CPU is its average rate over the
// window since the previous scrape, integrated exactly from its
// piecewise-constant use; its memory is its working set at the scrape. A
// node's values are the sums of its pods'. Nothing runs per pod: each
// container's CPU is integrated when its use may change (PodUseChanged)
// and at the scrape. A Service's requests_per_second, as a custom metrics
// adapter would serve it, is the rate kube-proxy counted offered to it
// over the window.
package metricsserver

import (
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/model/proxy"
	"github.com/podsim/podsim/sim"
)

// Server is metrics-server: a part (model.World.Register) that starts
// scraping when the world's use of resources is enabled
// (model.World.EnableUsage), if MetricResolution is positive.
type Server struct {
	w          *model.World
	px         *proxy.Proxy
	resolution time.Duration
	on         bool
	timer      sim.Timer
	last       time.Duration // the last scrape
	window     time.Duration
	done       bool // it scraped once

	cpu [][]cpuUse // by Pod.ID, by container (init ones first); nil until the pod's use first changes

	pods       []model.PodMetrics
	containers []model.ContainerMetrics // backs the pods' Containers
	nodes      []model.NodeMetrics
	services   []model.ServiceMetrics
	offered    []int64 // by Service.ID: offered up to the last scrape
}

// cpuUse is a container's CPU integral: its rate since at, and what it
// used up to at and up to the last scrape, in millicore-nanoseconds.
type cpuUse struct {
	milliCPU int64
	at       time.Duration
	total    int64
	scraped  int64
}

// New returns w's metrics-server, reading Services' traffic from px.
func New(w *model.World, px *proxy.Proxy) *Server {
	ms := &Server{w: w, px: px, resolution: w.Settings().MetricResolution}
	ms.timer.Init(ms.scrape)
	return ms
}

// UsageEnabled starts scraping: the first scrape comes MetricResolution
// from now.
func (ms *Server) UsageEnabled() {
	if ms.on || ms.resolution <= 0 {
		return
	}
	ms.on = true
	ms.last = ms.w.Now()
	ms.w.Engine().Schedule(&ms.timer, sim.AddSat(ms.last, ms.resolution), sim.Normal)
}

// PodUseChanged integrates the CPU of p's containers up to now at their
// old rates and takes their rates now.
func (ms *Server) PodUseChanged(p *model.Pod) {
	if !ms.on {
		return
	}
	now := ms.w.Now()
	mrps := p.ServedMilliRPS()
	cpu := ms.cpuOf(p, now)
	for i := range cpu {
		u := &cpu[i]
		u.advance(now)
		u.milliCPU = p.UseAt(i, mrps).MilliCPU
	}
}

// cpuOf is the CPU integrals of p's containers, made on first use (from
// now, at no use).
func (ms *Server) cpuOf(p *model.Pod, now time.Duration) []cpuUse {
	id := p.ID()
	for len(ms.cpu) <= id {
		ms.cpu = append(ms.cpu, nil)
	}
	if ms.cpu[id] == nil {
		ms.cpu[id] = make([]cpuUse, p.Containers())
		for i := range ms.cpu[id] {
			ms.cpu[id][i].at = now
		}
	}
	return ms.cpu[id]
}

// advance counts the CPU used up to now at the current rate.
func (u *cpuUse) advance(now time.Duration) {
	if now > u.at {
		u.total = sim.AddSatInt(u.total, sim.MulDivSat(uint64(now-u.at), uint64(u.milliCPU), 1))
		u.at = now
	}
}

// scrape records every running pod's containers and every reachable
// node, and arms the next scrape.
func (ms *Server) scrape() {
	now := ms.w.Now()
	ms.window, ms.last, ms.done = now-ms.last, now, true
	ms.pods, ms.containers = ms.pods[:0], ms.containers[:0]
	ms.nodes = ms.nodes[:0]
	for _, n := range ms.w.Nodes() {
		if reachable(n) {
			ms.nodes = append(ms.nodes, model.NodeMetrics{Node: n})
		}
	}
	for _, p := range ms.w.Pods() {
		ms.scrapePod(p, now)
	}
	ms.scrapeServices()
	for _, pm := range ms.pods {
		for _, c := range pm.Containers {
			if nm := ms.node(pm.Pod.Node); nm != nil {
				nm.NanoCPU = sim.AddSatInt(nm.NanoCPU, c.NanoCPU)
				nm.Memory = sim.AddSatInt(nm.Memory, c.Memory)
			}
		}
	}
	ms.w.Engine().Schedule(&ms.timer, sim.AddSat(now, ms.resolution), sim.Normal)
}

// scrapePod records p if it runs on a reachable node: each container whose
// process runs; every container's CPU integral moves to now.
func (ms *Server) scrapePod(p *model.Pod, now time.Duration) {
	if p.Deleted() || p.Node == nil {
		return
	}
	mrps := p.ServedMilliRPS()
	k, grows := 0, false
	cpu := ms.cpuOf(p, now)
	for i := range cpu {
		cu := p.UseAt(i, mrps)
		grows = grows || cu.Leaks
		u := &cpu[i]
		u.advance(now)
		used := u.total - u.scraped
		u.scraped = u.total
		u.milliCPU = cu.MilliCPU
		if p.Phase() != model.Running || !reachable(p.Node) || !cu.Running {
			continue
		}
		ms.containers = append(ms.containers, model.ContainerMetrics{
			Name:    cu.Name,
			NanoCPU: sim.MulDivSat(uint64(used), 1_000_000, uint64(max(ms.window, 1))),
			Memory:  cu.Memory,
		})
		k++
	}
	if grows { // a leak's use moved since the last change
		ms.w.UseGrew(p)
	}
	if k > 0 {
		n := len(ms.containers) // a later append may move ms.containers: this slice keeps its values
		ms.pods = append(ms.pods, model.PodMetrics{Pod: p, Containers: ms.containers[n-k : n : n], MilliRPS: mrps})
	}
}

// scrapeServices records the rate offered to each Service with traffic
// over the window.
func (ms *Server) scrapeServices() {
	ms.services = ms.services[:0]
	for i, s := range ms.w.Services() {
		if i == len(ms.offered) {
			ms.offered = append(ms.offered, 0)
		}
		offered, ok := ms.px.Offered(s) // counted up to now, the scrape
		if !ok {
			continue
		}
		d := offered - ms.offered[i]
		ms.offered[i] = offered
		ms.services = append(ms.services, model.ServiceMetrics{Service: s, MilliRPS: sim.MulDivSat(uint64(max(d, 0)), 1000, uint64(max(ms.window, 1)))})
	}
}

// node is n's entry in the last scrape, or nil.
func (ms *Server) node(n *model.Node) *model.NodeMetrics {
	for i := range ms.nodes {
		if ms.nodes[i].Node == n {
			return &ms.nodes[i]
		}
	}
	return nil
}

// MetricsScrape returns when it last scraped and the window its CPU rates
// average over; ok is false before its first scrape.
func (ms *Server) MetricsScrape() (at, window time.Duration, ok bool) {
	if !ms.done {
		return 0, 0, false
	}
	return ms.last, ms.window, true
}

// PodMetrics returns the last scrape's pods in creation order.
func (ms *Server) PodMetrics() []model.PodMetrics { return ms.pods }

// ServiceMetrics returns the last scrape's Services with traffic.
func (ms *Server) ServiceMetrics() []model.ServiceMetrics { return ms.services }

// NodeMetrics returns the last scrape's reachable nodes.
func (ms *Server) NodeMetrics() []model.NodeMetrics { return ms.nodes }

// reachable reports whether metrics-server can scrape n's kubelet: it has
// power, is in the API and is not cut off from the network.
func reachable(n *model.Node) bool { return n.Reachable() && !n.Gone() }
