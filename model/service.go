package model

import "time"

// Services (docs/kubernetes-rules.md, Services): the Service objects of the
// API. Two parts keep what follows from them: the EndpointSlice controller
// (model/controller/endpointslice) lists each Service's endpoints, and
// kube-proxy (model/proxy) applies them at its syncs and routes the
// traffic sent to them. The core reads both back through the interfaces
// below, which those parts implement: registering them (World.Register)
// sets them. A world without them has Services with no endpoints.

// ServiceSpec is a Service with a selector.
type ServiceSpec struct {
	Name      string
	Namespace string            // "" is DefaultNamespace
	Selector  map[string]string // none: no endpoints
}

// Service is a Service object.
type Service struct {
	Spec ServiceSpec
	w    *World
	key  string
	id   int

	queued bool // in World.trafficQueue (usesinks.go)
}

// RateStep is a request rate from At on, in thousandths of a request per
// second.
type RateStep struct {
	At       time.Duration
	MilliRPS int64
}

// EndpointSliceReader is the EndpointSlice controller as the core reads it.
type EndpointSliceReader interface {
	// SliceEndpoints counts the endpoints of s's EndpointSlices now.
	SliceEndpoints(s *Service) (ready, serving, total int)
}

// ServiceProxy is kube-proxy, and the traffic it routes, as the core reads
// it: each method is what the Service method of the same name returns.
type ServiceProxy interface {
	// ServedMilliRPS is the rate p serves now over every Service whose
	// view holds it, in thousandths of a request per second: what its
	// containers' use per request is counted at (usage.go).
	ServedMilliRPS(p *Pod) int64
	Endpoints(s *Service) int
	SetTraffic(s *Service, steps []RateStep)
	HasTraffic(s *Service) bool
	Requests(s *Service) (offered, served int64)
	Rates(s *Service) (offered, served int64)
	// Changes counts the changes of what it applied and of the rates
	// offered (World.TrafficChanges).
	Changes() int
}

// Key is the Service's key (see Key).
func (s *Service) Key() string { return s.key }

// ID numbers the Services in the order added, from 0: parts keep their
// state of a Service in slices indexed by it.
func (s *Service) ID() int { return s.id }

// Endpoints is how many ready endpoints kube-proxy applied at its last
// sync.
func (s *Service) Endpoints() int {
	if s.w.proxy == nil {
		return 0
	}
	return s.w.proxy.Endpoints(s)
}

// SliceEndpoints counts the endpoints of the Service's EndpointSlices now:
// ready and serving ones, and all of them.
func (s *Service) SliceEndpoints() (ready, serving, total int) {
	if s.w.slices == nil {
		return 0, 0, 0
	}
	return s.w.slices.SliceEndpoints(s)
}

// SetTraffic sends requests to s at the rates of steps (sorted by At; 0
// before the first) from now on. Without kube-proxy, nothing is sent.
func (s *Service) SetTraffic(steps []RateStep) {
	if s.w.proxy != nil {
		s.w.proxy.SetTraffic(s, steps)
	}
}

// HasTraffic reports whether s is sent requests (SetTraffic).
func (s *Service) HasTraffic() bool { return s.w.proxy != nil && s.w.proxy.HasTraffic(s) }

// Requests returns the requests offered to s and served by its endpoints
// from the start up to now, rounded to whole requests; failed ones are
// offered minus served.
func (s *Service) Requests() (offered, served int64) {
	if s.w.proxy == nil {
		return 0, 0
	}
	return s.w.proxy.Requests(s)
}

// Rates returns the requests per second offered to s now and those its
// endpoints serve, in thousandths; failed ones are offered minus served.
func (s *Service) Rates() (offered, served int64) {
	if s.w.proxy == nil {
		return 0, 0
	}
	return s.w.proxy.Rates(s)
}

// OfferedRate is the rate offered to s now, in thousandths of a request
// per second.
func (s *Service) OfferedRate() int64 {
	offered, _ := s.Rates()
	return offered
}

// AddService creates a Service now; the parts hear of it (ServiceAdded).
func (w *World) AddService(spec ServiceSpec) *Service {
	s := &Service{Spec: spec, w: w, key: Key(spec.Namespace, spec.Name), id: len(w.services)}
	if w.serviceIdx == nil {
		w.serviceIdx = map[string]*Service{}
	}
	w.services = append(w.services, s)
	w.serviceIdx[s.key] = s
	w.object(ObjectChange{Kind: ObjectService, Op: ObjectAdded, Service: s})
	for _, h := range w.parts.serviceAdded {
		h.ServiceAdded(s)
	}
	return s
}

// Service returns the Service with this key, or nil.
func (w *World) Service(key string) *Service { return w.serviceIdx[key] }

// Services returns every Service in the order added.
func (w *World) Services() []*Service { return w.services }

// TrafficChanges counts the changes of what kube-proxy applied and of
// the rates offered to Services: what a check of endpoints or of a use of
// resources sees differs only after this number (or ChangeCount) grows.
func (w *World) TrafficChanges() int {
	if w.proxy == nil {
		return 0
	}
	return w.proxy.Changes()
}

// listenerChanged tells the use sinks, metrics-server and the parts that
// p's listener may have changed.
func (w *World) listenerChanged(p *Pod) {
	w.useChanged(p)
	for _, h := range w.parts.podListenerChanged {
		h.PodListenerChanged(p)
	}
}

// servedMilliRPS is the rate p serves now, as kube-proxy routes it; 0
// without kube-proxy.
func servedMilliRPS(p *Pod) int64 {
	if p.w.proxy == nil {
		return 0
	}
	return p.w.proxy.ServedMilliRPS(p)
}

// Listening reports whether p accepts requests: it is in the API, its
// node has power, and every regular container's process runs and has not
// been sent SIGTERM (a preStop hook still runs with the listener open).
func (p *Pod) Listening() bool {
	cs := p.regularStatuses()
	if p.deleted || len(cs) == 0 || p.Node != nil && p.Node.down {
		return false
	}
	ni := int(p.ninit)
	for i := range cs {
		if cs[i].State.Kind != StateRunning || !p.w.kubelet.Serving(p, ni+i) {
			return false
		}
	}
	return true
}

// Sandboxed reports whether the kubelet has set the pod's sandbox up: it
// has an address (status.podIP).
func (p *Pod) Sandboxed() bool { return p.sandbox }

// UseChanged tells the use sinks, metrics-server and the node's memory
// that p's use of resources may have changed now (a part changed the rate
// it serves).
func (w *World) UseChanged(p *Pod) { w.useChanged(p) }

// RatesChanged tells the traffic sinks that the rates offered to or
// served by s changed now.
func (w *World) RatesChanged(s *Service) { w.trafficChanged(s) }
