package expect

import (
	"fmt"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/scenarios"
)

// service checks a Service's endpoints as kube-proxy applied them, and
// its requests served and failed from the start up to now.
func (k *checker) service(e *scenarios.Expect) {
	s := k.w.Service(model.Key(e.Namespace, e.Service))
	if s == nil {
		k.fail("", "to exist", "no such Service", nil)
		return
	}
	ready, serving, total := s.SliceEndpoints()
	why := func() string {
		return fmt.Sprintf("its EndpointSlices hold %d endpoints, %d ready, %d serving; kube-proxy last synced %d", total, ready, serving, s.Endpoints())
	}
	k.num("endpoints", e.Endpoints, int64(s.Endpoints()), why)
	offered, served := s.Requests()
	load := func() string {
		return fmt.Sprintf("%d offered, %d served, %d failed", offered, served, offered-served)
	}
	k.num("servedRequests", e.ServedRequests, served, load)
	k.num("failedRequests", e.FailedRequests, offered-served, load)
}

// usage checks what a pod (or its container) uses now.
func (k *checker) usage(e *scenarios.Expect, p *model.Pod) {
	if e.CPU == nil && e.Memory == nil {
		return
	}
	cpu, mem, ok := p.Usage(e.Container)
	if !ok {
		return // the container's own checks say it is missing
	}
	field := ""
	if e.Container != "" {
		field = "container " + e.Container + " "
	}
	if r := e.CPU; r != nil && !r.Contains(cpu) {
		k.fail(field+"cpu", r.String(), fmt.Sprintf("%dm", cpu), nil)
	}
	if r := e.Memory; r != nil && !r.Contains(mem*1000) {
		k.fail(field+"memory", r.String(), fmt.Sprintf("%d bytes (%s)", mem, mib(mem)), nil)
	}
}

// mib formats bytes in MiB with two decimals.
func mib(b int64) string { return fmt.Sprintf("%.2fMi", float64(b)/(1<<20)) }
