package model

import "time"

// The resource metrics API (metrics.k8s.io) as metrics-server
// (model/metricsserver; docs/kubernetes-rules.md, metrics-server) serves
// it from its last scrape: the types, and the World's methods that read
// them back through MetricsReader, which registering metrics-server sets.

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

// MetricsReader is metrics-server as the core reads it: each method is
// what the World method of the same name returns.
type MetricsReader interface {
	MetricsScrape() (at, window time.Duration, ok bool)
	PodMetrics() []PodMetrics
	ServiceMetrics() []ServiceMetrics
	NodeMetrics() []NodeMetrics
}

// MetricsScrape returns when metrics-server last scraped and the window
// its CPU rates average over; ok is false before its first scrape or when
// nothing declares a use of resources.
func (w *World) MetricsScrape() (at, window time.Duration, ok bool) {
	if w.metrics == nil {
		return 0, 0, false
	}
	return w.metrics.MetricsScrape()
}

// PodMetrics returns the last scrape's pods in creation order. The slice
// and its contents are valid until the next scrape.
func (w *World) PodMetrics() []PodMetrics {
	if w.metrics == nil {
		return nil
	}
	return w.metrics.PodMetrics()
}

// ServiceMetrics returns the last scrape's Services with traffic, in the
// order added. The slice is valid until the next scrape.
func (w *World) ServiceMetrics() []ServiceMetrics {
	if w.metrics == nil {
		return nil
	}
	return w.metrics.ServiceMetrics()
}

// NodeMetrics returns the last scrape's reachable nodes in the order
// added. The slice is valid until the next scrape.
func (w *World) NodeMetrics() []NodeMetrics {
	if w.metrics == nil {
		return nil
	}
	return w.metrics.NodeMetrics()
}
