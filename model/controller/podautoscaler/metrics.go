package podautoscaler

import (
	"errors"
	"fmt"

	"github.com/podsim/podsim/model"
)

// The metrics an autoscaler reads, from metrics-server's last scrape (the
// resource metrics API for cpu and memory; requests_per_second as a custom
// metrics adapter would serve it), and computeReplicasForMetrics.

var (
	errNoResourceMetrics = errors.New("no metrics returned from resource metrics API")
	errNoCustomMetrics   = errors.New("no metrics returned from custom metrics API")
)

// computeReplicasForMetrics proposes the highest replicas of the metrics
// that could be computed; -1 with an error if none could, or if one could
// not and the others would scale down. Each metric's status goes to
// Status.CurrentMetrics.
func (h *hpa) computeReplicasForMetrics(wl *model.Workload, current int32) (int32, string, error) {
	a, now := h.a, h.c.w.Now()
	if len(a.Spec.Metrics) == 0 {
		return current, "", nil // every metric is of a kind podsim does not simulate
	}
	var replicas int32
	metric := -1
	invalid := 0
	var firstErr error
	var firstCond [2]string // its reason and message
	for i := range a.Spec.Metrics {
		ms := &a.Spec.Metrics[i]
		a.Status.CurrentMetrics = append(a.Status.CurrentMetrics, model.MetricStatus{})
		proposal, reason, err := h.computeReplicasForMetric(wl, ms, current, &a.Status.CurrentMetrics[i])
		if err != nil {
			if invalid == 0 {
				firstErr = err
				firstCond = [2]string{reason, "the HPA was unable to compute the replica count: " + err.Error()}
			}
			invalid++
			continue
		}
		if replicas == 0 || proposal > replicas {
			replicas, metric = proposal, i
		}
	}
	if invalid >= len(a.Spec.Metrics) || (invalid > 0 && replicas < current) {
		a.Status.SetCondition(model.ScalingActive, model.False, firstCond[0], firstCond[1], now)
		return -1, "", fmt.Errorf("invalid metrics (%d invalid out of %d), first error is: %w", invalid, len(a.Spec.Metrics), firstErr)
	}
	a.Status.SetCondition(model.ScalingActive, model.True, "ValidMetricFound", h.valid[metric], now)
	return replicas, h.names[metric], nil
}

// computeReplicasForMetric proposes the replicas of one metric, and on
// failure the condition's reason (after recording its event,
// getUnableComputeReplicaCountCondition).
func (h *hpa) computeReplicasForMetric(wl *model.Workload, ms *model.MetricSpec, current int32, out *model.MetricStatus) (int32, string, error) {
	var (
		replicas   int32
		reason     string
		err, outer error
	)
	switch ms.Source {
	case model.MetricResource:
		reason = "FailedGetResourceMetric"
		replicas, err = h.resourceMetric(wl, ms, current, out)
		outer = err
	case model.MetricPods:
		reason = "FailedGetPodsMetric"
		replicas, err = h.podsMetric(wl, ms, current, out)
		if err != nil {
			outer = fmt.Errorf("failed to get pods metric value: %w", err)
		}
	case model.MetricObject:
		reason = "FailedGetObjectMetric"
		replicas, err = h.objectMetric(wl, ms, current, out)
		if err != nil {
			outer = fmt.Errorf("failed to get object metric value: %w", err)
		}
	}
	if err != nil {
		h.a.Event(model.EventWarning, reason, err.Error())
		return 0, reason, outer
	}
	out.Valid = true
	return replicas, "", nil
}

// resourceMetric is computeStatusForResourceMetricGeneric.
func (h *hpa) resourceMetric(wl *model.Workload, ms *model.MetricSpec, current int32, out *model.MetricStatus) (int32, error) {
	calc, tol := h.calculator(), h.tolerances()
	if !h.sample(wl, ms) {
		what := "usage"
		if ms.Target == model.TargetUtilization {
			what = "utilization"
		}
		return 0, fmt.Errorf("failed to get %s %s: unable to get metrics for resource %s: %w", ms.Resource, what, ms.Resource, errNoResourceMetrics)
	}
	if ms.Target == model.TargetAverageValue {
		r, usage, err := calc.plainReplicas(current, ms.MilliValue, ms.Resource, tol, h.pods)
		if err != nil {
			return 0, fmt.Errorf("failed to get %s usage: %w", ms.Resource, err)
		}
		out.Average = usage
		return r, nil
	}
	r, util, raw, err := calc.resourceReplicas(current, ms.Utilization, ms.Resource, tol, h.pods)
	if err != nil {
		return 0, fmt.Errorf("failed to get %s utilization: %w", ms.Resource, err)
	}
	out.Utilization, out.Average = util, raw
	return r, nil
}

// podsMetric is computeStatusForPodsMetric.
func (h *hpa) podsMetric(wl *model.Workload, ms *model.MetricSpec, current int32, out *model.MetricStatus) (int32, error) {
	if !h.sample(wl, ms) {
		return 0, fmt.Errorf("unable to get metric %s: %w", ms.Name, errNoCustomMetrics)
	}
	calc := h.calculator()
	r, usage, err := calc.plainReplicas(current, ms.MilliValue, "", h.tolerances(), h.pods)
	if err != nil {
		return 0, err
	}
	out.Average = usage
	return r, nil
}

// objectMetric is computeStatusForObjectMetric: a Service's
// requests_per_second as its Value or divided among the target's
// replicas (AverageValue).
func (h *hpa) objectMetric(wl *model.Workload, ms *model.MetricSpec, current int32, out *model.MetricStatus) (int32, error) {
	usage, ok := int64(0), false
	key := model.Key(h.a.Spec.Namespace, ms.ObjectName)
	for _, sm := range h.c.w.ServiceMetrics() {
		if sm.Service.Key() == key {
			usage, ok = sm.MilliRPS, true
		}
	}
	if !ok {
		return 0, fmt.Errorf("unable to get metric %s: %s on %s %s/%s", ms.Name, ms.ObjectKind, h.a.Namespace(), ms.ObjectName, errNoCustomMetrics)
	}
	if ms.Target == model.TargetAverageValue {
		r, avg := objectPerPodReplicas(int32(wl.ActivePods()), usage, ms.MilliValue, h.tolerances())
		out.Average = avg
		return r, nil
	}
	h.sample(wl, ms)
	r, err := objectReplicas(current, usage, ms.MilliValue, h.tolerances(), h.pods)
	if err != nil {
		return 0, err
	}
	out.Value = usage
	return r, nil
}

// metricName describes a metric in reasons and conditions, as upstream's
// computeStatusFor*Metric do.
func metricName(ms *model.MetricSpec) string {
	switch {
	case ms.Source == model.MetricResource && ms.Target == model.TargetAverageValue:
		return ms.Resource + " resource"
	case ms.Source == model.MetricResource:
		return ms.Resource + " resource utilization (percentage of request)"
	case ms.Source == model.MetricPods:
		return "pods metric " + ms.Name
	}
	return ms.ObjectKind + " metric " + ms.Name
}

// calculator is the replica calculator at this instant, with the last
// scrape as its samples' timestamp and window.
func (h *hpa) calculator() calculator {
	at, window, _ := h.c.w.MetricsScrape()
	return calculator{now: h.c.w.Now(), cpuInit: h.c.s.CPUInitializationPeriod, readinessDelay: h.c.s.InitialReadinessDelay,
		scrapeAt: at, window: window}
}

// tolerances are the behavior's tolerances, or the controller's.
func (h *hpa) tolerances() tolerances {
	t := tolerances{h.c.s.Tolerance, h.c.s.Tolerance}
	if b := h.a.Spec.Behavior; b != nil {
		if b.ScaleDown.Tolerance != nil {
			t.down = *b.ScaleDown.Tolerance
		}
		if b.ScaleUp.Tolerance != nil {
			t.up = *b.ScaleUp.Tolerance
		}
	}
	return t
}

// sample fills h.pods with the target's pods in the API and the metric of
// ms for each that the last scrape holds; it reports whether the scrape
// holds any of them (the metrics API returned something).
func (h *hpa) sample(wl *model.Workload, ms *model.MetricSpec) bool {
	scrape := h.c.index()
	h.pods = h.pods[:0]
	found := false
	for _, p := range wl.Pods() {
		if p.Deleted() {
			continue
		}
		s := sample{name: p.Name, phase: p.Phase(), deleting: p.Terminating()}
		if c, ok := p.ReadyCondition(); ok {
			s.hasReady, s.isReady, s.readySince = true, c.Status == model.True, c.LastTransitionTime
		}
		s.start, s.started = p.StartTime()
		if ms.Source == model.MetricResource {
			s.request, s.noRequest = request(p.Spec, ms.Resource)
		}
		if i, ok := h.c.scraped[p]; ok {
			s.hasMetric, s.value = true, value(&scrape[i], ms)
			found = true
		}
		h.pods = append(h.pods, s)
	}
	return found
}

// request sums the pod's containers' and sidecars' requests of resource,
// in thousandths; noRequest names the first container without one (a
// request of 0 counts as none).
func request(spec *model.PodSpec, resource string) (sum int64, noRequest string) {
	add := func(c *model.ContainerSpec) {
		v := c.Requests.MilliCPU
		if resource == "memory" {
			v = c.Requests.Memory * 1000
		}
		if v == 0 && noRequest == "" {
			noRequest = c.Name
		}
		sum += v
	}
	for i := range spec.Containers {
		add(&spec.Containers[i])
	}
	for i := range spec.InitContainers {
		if spec.InitContainers[i].Sidecar {
			add(&spec.InitContainers[i])
		}
	}
	return sum, noRequest
}

// value is a pod's metric of ms in thousandths: its containers' cpu (each
// rounded up to a millicore, as Quantity.MilliValue does) or memory, or
// what it served.
func value(pm *model.PodMetrics, ms *model.MetricSpec) int64 {
	if ms.Source != model.MetricResource {
		return pm.MilliRPS
	}
	var v int64
	for _, c := range pm.Containers {
		if ms.Resource == "cpu" {
			v += (c.NanoCPU + 999_999) / 1_000_000
		} else {
			v += c.Memory * 1000
		}
	}
	return v
}

// index returns the last scrape's pods, indexing them by pod once per
// scrape.
func (c *Controller) index() []model.PodMetrics {
	pods := c.w.PodMetrics()
	at, _, ok := c.w.MetricsScrape()
	if !ok || (c.indexed && at == c.scrapedAt) {
		return pods
	}
	clear(c.scraped)
	for i := range pods {
		c.scraped[pods[i].Pod] = i
	}
	c.scrapedAt, c.indexed = at, true
	return pods
}
