// Package proxy is kube-proxy (pkg/proxy; docs/kubernetes-rules.md,
// Services) and the traffic it routes. It applies the endpoints the
// EndpointSlice controller lists at its next sync: at most once per
// minSyncPeriod after the last sync, and at the latest syncPeriod after
// it. It sends a Service's requests to its ready endpoints or, when none
// is ready, to those serving while terminating (pkg/proxy/topology.go,
// CategorizeEndpoints). One kube-proxy view stands for every node's.
package proxy

import (
	"math/rand/v2"
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/model/controller/endpointslice"
	"github.com/podsim/podsim/sim"
)

// Proxy is kube-proxy: a part (model.World.Register) that watches the
// EndpointSlice controller. It stays idle until the first Service or
// model.World.EnableUsage.
type Proxy struct {
	w        *model.World
	es       *endpointslice.Controller
	services []*service   // by Service.ID
	views    [][]*service // by Pod.ID: the Services whose view holds the pod
	active   bool         // a Service was added or the use of resources enabled

	sync     sim.Timer // the next sync
	lastSync time.Duration
	synced   bool // it has synced once
	changes  int  // syncs that changed a view, and rate steps

	minSyncPeriod, syncPeriod time.Duration

	// With KubeletSync realistic, a sync's rules take effect a drawn
	// while after it starts (latency): while it runs, a change only marks
	// that another sync is wanted.
	running, wanted bool
	rand            *rand.Rand // "kube-proxy"
}

// service is kube-proxy's view of a Service and its traffic.
type service struct {
	s     *model.Service
	view  []*model.Pod // the endpoints requests go to since the last sync
	ready int          // how many of them were ready then (0: the view holds serving, terminating ones)
	flow  *flow        // its traffic (traffic.go); nil if none
}

// New returns w's kube-proxy, reading the slices es keeps; it watches es.
func New(w *model.World, es *endpointslice.Controller) *Proxy {
	st := w.Settings()
	px := &Proxy{w: w, es: es, minSyncPeriod: st.ProxyMinSyncPeriod, syncPeriod: st.ProxySyncPeriod}
	px.sync.Init(px.proxySync)
	es.Watch(px)
	return px
}

// ServiceAdded starts keeping s's view.
func (px *Proxy) ServiceAdded(s *model.Service) {
	px.active = true
	px.services = append(px.services, &service{s: s})
}

// UsageEnabled makes kube-proxy follow the pods' listeners.
func (px *Proxy) UsageEnabled() { px.active = true }

// SlicesChanged asks for a sync.
func (px *Proxy) SlicesChanged(*model.Service) { px.request() }

// PodChanged counts the traffic of p's Services up to now: p's listener
// may have closed.
func (px *Proxy) PodChanged(p *model.Pod) {
	if px.active {
		px.listener(p)
	}
}

// PodListenerChanged counts the traffic of p's Services up to now.
func (px *Proxy) PodListenerChanged(p *model.Pod) {
	if px.active {
		px.listener(p)
	}
}

// Endpoints is how many ready endpoints of s it applied at its last sync.
func (px *Proxy) Endpoints(s *model.Service) int { return px.services[s.ID()].ready }

// Changes counts the syncs that changed a view, and the rate steps.
func (px *Proxy) Changes() int { return px.changes }

// viewOf is the Services whose view holds p.
func (px *Proxy) viewOf(p *model.Pod) []*service {
	if id := p.ID(); id < len(px.views) {
		return px.views[id]
	}
	return nil
}

// enter adds sv to the Services whose view holds p.
func (px *Proxy) enter(p *model.Pod, sv *service) {
	id := p.ID()
	for len(px.views) <= id {
		px.views = append(px.views, nil)
	}
	px.views[id] = append(px.views[id], sv)
}

// leave takes sv off the Services whose view holds p.
func (px *Proxy) leave(p *model.Pod, sv *service) {
	vs := px.views[p.ID()]
	for i, v := range vs {
		if v == sv {
			px.views[p.ID()] = append(vs[:i], vs[i+1:]...)
			return
		}
	}
}

// request arranges the next sync: now, or minSyncPeriod after the last
// one (BoundedFrequencyRunner.Run).
func (px *Proxy) request() {
	if px.running {
		px.wanted = true
		return
	}
	at := px.w.Now()
	if px.synced {
		at = max(at, sim.AddSat(px.lastSync, px.minSyncPeriod))
	}
	if !px.sync.Pending() || px.sync.When() > at {
		px.w.Engine().Schedule(&px.sync, at, sim.Normal)
	}
}

// proxySync is kube-proxy's sync: each Service's view becomes its ready
// endpoints, or its serving terminating ones if none is ready. The next
// one comes syncPeriod later unless a change asks for it sooner.
func (px *Proxy) proxySync() {
	now := px.w.Now()
	eng := px.w.Engine()
	if !px.running && px.w.Settings().KubeletSync == model.SyncRealistic {
		px.running = true
		eng.Schedule(&px.sync, sim.AddSat(now, px.latency()), sim.Normal)
		return
	}
	px.running = false
	changed := false
	for _, sv := range px.services {
		if px.apply(sv, now) {
			changed = true
		}
	}
	if changed {
		px.changes++
	}
	px.lastSync, px.synced = now, true
	eng.Schedule(&px.sync, sim.AddSat(now, px.syncPeriod), sim.Normal)
	if px.wanted {
		px.wanted = false
		px.request()
	}
}

// apply makes sv's view what the slices hold now and reports whether it
// changed.
func (px *Proxy) apply(sv *service, now time.Duration) bool {
	pods := px.es.Pods(sv.s)
	ready, serving := 0, 0
	for _, p := range pods {
		if endpointslice.IsEndpoint(p) && p.IsReady() {
			serving++
			if !p.Terminating() {
				ready++
			}
		}
	}
	want := serving
	if ready > 0 {
		want = ready
	}
	if sv.viewIs(want, ready > 0) && sv.ready == ready {
		return false
	}
	sv.flushFlow(now)
	for _, p := range sv.view { // what they serve changes
		px.w.UseChanged(p)
	}
	for _, p := range sv.view {
		px.leave(p, sv)
	}
	sv.view = sv.view[:0]
	for _, p := range pods {
		if endpointslice.IsEndpoint(p) && p.IsReady() && (ready == 0 || !p.Terminating()) {
			sv.view = append(sv.view, p)
			px.enter(p, sv)
		}
	}
	sv.ready = ready
	px.rateFlow(sv)
	return true
}

// viewIs reports whether the view already holds exactly the n endpoints
// the sync would apply (the ready ones if ready, else the serving ones).
func (sv *service) viewIs(n int, ready bool) bool {
	if len(sv.view) != n {
		return false
	}
	for _, p := range sv.view {
		if !endpointslice.IsEndpoint(p) || !p.IsReady() || ready && p.Terminating() { // a pod gone from the API is no endpoint
			return false
		}
	}
	return true
}

// listener hears that p's listener may have opened or closed (a process
// started, got SIGTERM or exited, or the pod left the API): the traffic of
// every Service whose view holds p is counted up to now at the old rates.
func (px *Proxy) listener(p *model.Pod) {
	px.w.MemoryChanged(p)
	for _, sv := range px.services {
		if sv.flow == nil {
			continue
		}
		if i := indexOf(sv.view, p); i >= 0 {
			sv.flushFlow(px.w.Now())
			px.endpointChanged(sv, i)
		}
	}
}

func indexOf(ps []*model.Pod, p *model.Pod) int {
	for i, q := range ps {
		if q == p {
			return i
		}
	}
	return -1
}

// maxLatency bounds the realistic delay from a kube-proxy sync's start to
// its rules taking effect: the EndpointSlice's way through the API
// server's watch and the rules' write (syncProxyRules, iptables-restore or
// nft), a few hundred milliseconds on a small cluster (the
// kubeproxy_sync_proxy_rules_duration_seconds and network programming
// latency metrics; podsim's assumption, not an upstream constant).
const maxLatency = 500 * time.Millisecond

// latency draws the realistic delay of one sync, uniform in [0,
// maxLatency), from the "kube-proxy" stream.
func (px *Proxy) latency() time.Duration {
	if px.rand == nil {
		px.rand = px.w.Engine().Rand("kube-proxy")
	}
	return time.Duration(px.rand.Int64N(int64(maxLatency)))
}
