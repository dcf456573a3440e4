package model

import (
	"math/rand/v2"
	"time"

	"github.com/podsim/podsim/sim"
)

// Services and their endpoints, as two parts of the control plane and the
// nodes read them (docs/kubernetes-rules.md, Services):
//
//   - the EndpointSlice controller (pkg/controller/endpointslice) keeps a
//     Service's endpoints: every pod it selects that is bound and not in a
//     terminal phase, with the conditions of KEP-1672 (podToEndpoint):
//     ready = Ready and not terminating, serving = Ready, terminating =
//     deletion timestamp set. It acts at once on every pod change.
//   - kube-proxy (pkg/proxy) applies the endpoints at its next sync: at most
//     once per minSyncPeriod after the last sync, and at the latest
//     syncPeriod after it. It sends a Service's requests to its ready
//     endpoints or, when none is ready, to those serving while terminating
//     (pkg/proxy/topology.go, CategorizeEndpoints).
//
// One kube-proxy view stands for every node's.

// ServiceSpec is a Service with a selector.
type ServiceSpec struct {
	Name      string
	Namespace string            // "" is DefaultNamespace
	Selector  map[string]string // none: no endpoints
}

// Service is a Service object, its endpoints and kube-proxy's view of
// them.
type Service struct {
	Spec ServiceSpec
	w    *World
	key  string

	pods  []*Pod // the pods it selects that are in the API, in creation order
	view  []*Pod // the endpoints kube-proxy sends requests to since its last sync
	ready int    // how many of them were ready then (0: the view holds serving, terminating ones)

	flow   *flow // its traffic (traffic.go); nil if none
	queued bool  // in World.trafficQueue (usesinks.go)
}

// Key is the Service's key (see Key).
func (s *Service) Key() string { return s.key }

// Endpoints is how many ready endpoints kube-proxy applied at its last
// sync.
func (s *Service) Endpoints() int { return s.ready }

// SliceEndpoints counts the endpoints of the Service's EndpointSlices now:
// ready and serving ones, and all of them.
func (s *Service) SliceEndpoints() (ready, serving, total int) {
	for _, p := range s.pods {
		if !endpointOf(p) {
			continue
		}
		total++
		if p.ready() {
			serving++
			if !p.deleting {
				ready++
			}
		}
	}
	return ready, serving, total
}

// endpointOf reports whether the EndpointSlice controller lists p: it has
// an address (it is bound and its sandbox is up) and is not in a terminal
// phase (ShouldPodBeInEndpoints with terminating pods included).
func endpointOf(p *Pod) bool {
	return !p.deleted && p.Node != nil && p.sandbox && !p.phase.Terminal()
}

// selects reports whether s selects p: a Service without a selector
// selects nothing.
func (s *Service) selects(p *Pod) bool {
	if len(s.Spec.Selector) == 0 || nsOf(p.Namespace) != nsOf(s.Spec.Namespace) {
		return false
	}
	for k, v := range s.Spec.Selector { // any mismatch decides: order is moot
		if got, ok := p.Labels[k]; !ok || got != v {
			return false
		}
	}
	return true
}

func nsOf(ns string) string {
	if ns == "" {
		return DefaultNamespace
	}
	return ns
}

// services is the EndpointSlice controller and kube-proxy: a part
// registered with the first Service.
type services struct {
	w        *World
	list     []*Service
	idx      map[string]*Service
	sync     sim.Timer // kube-proxy's next sync
	lastSync time.Duration
	synced   bool // it has synced once
	changes  int  // syncs that changed a view, and rate steps

	// With KubeletSync realistic, a sync's rules take effect a drawn
	// while after it starts (proxyLatency): while it runs, a change only
	// marks that another sync is wanted.
	running, wanted bool
	rand            *rand.Rand // "kube-proxy"
}

// ensureServices registers the part, once.
func (w *World) ensureServices() {
	if w.services == nil {
		w.services = &services{w: w, idx: map[string]*Service{}}
		w.services.sync.Init(w.services.proxySync)
		w.Register(w.services)
	}
}

// AddService creates a Service now; kube-proxy applies its endpoints at
// its next sync.
func (w *World) AddService(spec ServiceSpec) *Service {
	w.ensureServices()
	s := &Service{Spec: spec, w: w, key: Key(spec.Namespace, spec.Name)}
	for _, p := range w.pods {
		if !p.deleted && s.selects(p) {
			s.pods = append(s.pods, p)
		}
	}
	w.services.list = append(w.services.list, s)
	w.services.idx[s.key] = s
	w.object(ObjectChange{Kind: ObjectService, Op: ObjectAdded, Service: s})
	w.services.request()
	return s
}

// Service returns the Service with this key, or nil.
func (w *World) Service(key string) *Service {
	if w.services == nil {
		return nil
	}
	return w.services.idx[key]
}

// Services returns every Service in the order added.
func (w *World) Services() []*Service {
	if w.services == nil {
		return nil
	}
	return w.services.list
}

// TrafficChanges counts the changes of what kube-proxy applied and of
// the rates offered to Services: what a check of endpoints or of a use of
// resources sees differs only after this number (or ChangeCount) grows.
func (w *World) TrafficChanges() int {
	if w.services == nil {
		return 0
	}
	return w.services.changes
}

// PodAdded adds a selected pod to its Services.
func (ss *services) PodAdded(p *Pod) {
	for _, s := range ss.list {
		if s.selects(p) {
			s.pods = append(s.pods, p)
		}
	}
}

// PodChanged updates the endpoints of p's Services and asks kube-proxy to
// sync; a pod that left the API leaves them.
func (ss *services) PodChanged(p *Pod) {
	for _, s := range ss.list {
		i := indexOf(s.pods, p)
		if i < 0 {
			continue
		}
		if p.deleted {
			s.pods = append(s.pods[:i], s.pods[i+1:]...)
		}
		ss.request()
	}
	ss.listener(p)
}

// PodStatusUpdated asks kube-proxy to sync when a selected pod's status
// changed (its sandbox came up: it has an address).
func (ss *services) PodStatusUpdated(p *Pod) {
	for _, s := range ss.list {
		if indexOf(s.pods, p) >= 0 {
			ss.request()
			return
		}
	}
}

// leaveView takes s off the Services whose view holds p.
func (p *Pod) leaveView(s *Service) {
	for i, v := range p.inViews {
		if v == s {
			p.inViews = append(p.inViews[:i], p.inViews[i+1:]...)
			return
		}
	}
}

func indexOf(ps []*Pod, p *Pod) int {
	for i, q := range ps {
		if q == p {
			return i
		}
	}
	return -1
}

// request arranges kube-proxy's next sync: now, or minSyncPeriod after
// the last one (BoundedFrequencyRunner.Run).
func (ss *services) request() {
	if ss.running {
		ss.wanted = true
		return
	}
	at := ss.w.Now()
	if ss.synced {
		at = max(at, sim.AddSat(ss.lastSync, ss.w.settings.ProxyMinSyncPeriod))
	}
	if !ss.sync.Pending() || ss.sync.When() > at {
		ss.w.eng.Schedule(&ss.sync, at, sim.Normal)
	}
}

// proxySync is kube-proxy's sync: each Service's view becomes its ready
// endpoints, or its serving terminating ones if none is ready. The next
// one comes syncPeriod later unless a change asks for it sooner.
func (ss *services) proxySync() {
	now := ss.w.Now()
	if ss.w.settings.KubeletSync == SyncRealistic && !ss.running {
		ss.running = true
		ss.w.eng.Schedule(&ss.sync, sim.AddSat(now, ss.proxyLatency()), sim.Normal)
		return
	}
	ss.running = false
	changed := false
	for _, s := range ss.list {
		ready, serving := 0, 0
		for _, p := range s.pods {
			if endpointOf(p) && p.ready() {
				serving++
				if !p.deleting {
					ready++
				}
			}
		}
		want := serving
		if ready > 0 {
			want = ready
		}
		if s.viewIs(want, ready > 0) && s.ready == ready {
			continue
		}
		changed = true
		s.flushFlow(now)
		for _, p := range s.view { // what they serve changes
			ss.w.useChanged(p)
		}
		for _, p := range s.view {
			p.leaveView(s)
		}
		s.view = s.view[:0]
		for _, p := range s.pods {
			if endpointOf(p) && p.ready() && (ready == 0 || !p.deleting) {
				s.view = append(s.view, p)
				p.inViews = append(p.inViews, s)
			}
		}
		s.ready = ready
		s.rateFlow()
	}
	if changed {
		ss.changes++
	}
	ss.lastSync, ss.synced = now, true
	ss.w.eng.Schedule(&ss.sync, sim.AddSat(now, ss.w.settings.ProxySyncPeriod), sim.Normal)
	if ss.wanted {
		ss.wanted = false
		ss.request()
	}
}

// viewIs reports whether the view already holds exactly the n endpoints
// the sync would apply (the ready ones if ready, else the serving ones).
func (s *Service) viewIs(n int, ready bool) bool {
	if len(s.view) != n {
		return false
	}
	for _, p := range s.view {
		if !endpointOf(p) || !p.ready() || ready && p.deleting { // a pod gone from the API is no endpoint
			return false
		}
	}
	return true
}

// listener hears that p's listener may have opened or closed (a process
// started, got SIGTERM or exited, or the pod left the API): the traffic of
// every Service whose view holds p is counted up to now at the old rates.
func (ss *services) listener(p *Pod) {
	ss.w.memoryChanged(p)
	for _, s := range ss.list {
		if s.flow == nil {
			continue
		}
		if i := indexOf(s.view, p); i >= 0 {
			s.flushFlow(ss.w.Now())
			s.endpointChanged(i)
		}
	}
}

// listenerChanged tells the Services that p's listener may have changed.
func (w *World) listenerChanged(p *Pod) {
	w.useChanged(p)
	if w.services != nil {
		w.services.listener(p)
	}
}

// listening reports whether p accepts requests: it is in the API, its
// node has power, and every regular container's process runs and has not
// been sent SIGTERM (a preStop hook still runs with the listener open).
func listening(p *Pod) bool {
	if p.deleted || len(p.regular) == 0 || p.Node != nil && p.Node.down {
		return false
	}
	for _, c := range p.regular {
		if c.status.State.Kind != StateRunning || c.stopping && c.inHook != hookPreStop {
			return false
		}
	}
	return true
}

// maxProxyLatency bounds the realistic delay from a kube-proxy sync's
// start to its rules taking effect: the EndpointSlice's way through the
// API server's watch and the rules' write (syncProxyRules, iptables-restore
// or nft), a few hundred milliseconds on a small cluster (the
// kubeproxy_sync_proxy_rules_duration_seconds and network programming
// latency metrics; podsim's assumption, not an upstream constant).
const maxProxyLatency = 500 * time.Millisecond

// proxyLatency draws the realistic delay of one sync, uniform in [0,
// maxProxyLatency), from the "kube-proxy" stream.
func (ss *services) proxyLatency() time.Duration {
	if ss.rand == nil {
		ss.rand = ss.w.eng.Rand("kube-proxy")
	}
	return time.Duration(ss.rand.Int64N(int64(maxProxyLatency)))
}
