// Package endpointslice is the EndpointSlice controller
// (pkg/controller/endpointslice; docs/kubernetes-rules.md, Services): it
// keeps each Service's endpoints, every pod the Service selects that is
// bound and not in a terminal phase, with the conditions of KEP-1672
// (podToEndpoint): ready = Ready and not terminating, serving = Ready,
// terminating = deletion timestamp set. It acts at once on every pod
// change, and tells its watchers (kube-proxy) which Service's slices
// changed.
package endpointslice

import "github.com/podsim/podsim/model"

// Watcher hears that a Service's EndpointSlices may have changed, as
// kube-proxy's EndpointSlice informer does.
type Watcher interface{ SlicesChanged(s *model.Service) }

// Controller is the EndpointSlice controller: a part (model.World.Register).
type Controller struct {
	w        *model.World
	services []*model.Service
	pods     [][]*model.Pod // by Service.ID: the pods it selects that are in the API, in creation order
	watchers []Watcher
}

// New returns the controller of w's Services.
func New(w *model.World) *Controller { return &Controller{w: w} }

// Watch makes h hear of every change of the slices, after the watchers
// added before it.
func (c *Controller) Watch(h Watcher) { c.watchers = append(c.watchers, h) }

// Pods returns the pods s selects that are in the API, in creation order:
// those its slices may list (IsEndpoint tells which). The slice is the
// controller's: read it before the next change.
func (c *Controller) Pods(s *model.Service) []*model.Pod { return c.pods[s.ID()] }

// IsEndpoint reports whether the controller lists p: it has an address
// (it is bound and its sandbox is up) and is not in a terminal phase
// (ShouldPodBeInEndpoints with terminating pods included).
func IsEndpoint(p *model.Pod) bool {
	return !p.Deleted() && p.Node != nil && p.Sandboxed() && !p.Phase().Terminal()
}

// SliceEndpoints counts the endpoints of s's EndpointSlices now: ready and
// serving ones, and all of them.
func (c *Controller) SliceEndpoints(s *model.Service) (ready, serving, total int) {
	for _, p := range c.pods[s.ID()] {
		if !IsEndpoint(p) {
			continue
		}
		total++
		if p.IsReady() {
			serving++
			if !p.Terminating() {
				ready++
			}
		}
	}
	return ready, serving, total
}

// ServiceAdded lists the pods the new Service selects.
func (c *Controller) ServiceAdded(s *model.Service) {
	var pods []*model.Pod
	for _, p := range c.w.Pods() {
		if !p.Deleted() && selects(s, p) {
			pods = append(pods, p)
		}
	}
	c.services = append(c.services, s)
	c.pods = append(c.pods, pods)
	c.changed(s)
}

// PodAdded adds a selected pod to its Services.
func (c *Controller) PodAdded(p *model.Pod) {
	for i, s := range c.services {
		if selects(s, p) {
			c.pods[i] = append(c.pods[i], p)
		}
	}
}

// PodChanged updates the endpoints of p's Services; a pod that left the
// API leaves them.
func (c *Controller) PodChanged(p *model.Pod) {
	for i, s := range c.services {
		j := indexOf(c.pods[i], p)
		if j < 0 {
			continue
		}
		if p.Deleted() {
			c.pods[i] = append(c.pods[i][:j], c.pods[i][j+1:]...)
		}
		c.changed(s)
	}
}

// PodStatusUpdated tells the watchers when a selected pod's status changed
// (its sandbox came up: it has an address), once.
func (c *Controller) PodStatusUpdated(p *model.Pod) {
	for i, s := range c.services {
		if indexOf(c.pods[i], p) >= 0 {
			c.changed(s)
			return
		}
	}
}

func (c *Controller) changed(s *model.Service) {
	for _, h := range c.watchers {
		h.SlicesChanged(s)
	}
}

// selects reports whether s selects p: a Service without a selector
// selects nothing.
func selects(s *model.Service, p *model.Pod) bool {
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
		return model.DefaultNamespace
	}
	return ns
}

func indexOf(ps []*model.Pod, p *model.Pod) int {
	for i, q := range ps {
		if q == p {
			return i
		}
	}
	return -1
}
