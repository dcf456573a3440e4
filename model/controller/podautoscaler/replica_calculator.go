package podautoscaler

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/podsim/podsim/model"
)

// The replica calculator (pkg/controller/podautoscaler/replica_calculator.go
// and metrics/utilization.go): from the pods of the target and their last
// sampled metric, the replicas that bring the metric to its target.

// class is how the calculator counts a pod (groupPods).
type class uint8

const (
	ready   class = iota // its sample counts
	unready              // Pending, or (for cpu) not ready or in its initialization
	missing              // no sample
	ignored              // being deleted, or Failed
)

// sample is one pod of the target as the calculator sees it.
type sample struct {
	name     string
	phase    model.Phase
	deleting bool
	// Its Ready condition (hasReady false: none yet) and start time.
	hasReady, isReady bool
	readySince        time.Duration
	started           bool
	start             time.Duration
	// Its metric, in thousandths, if metrics-server sampled it.
	hasMetric bool
	value     int64
	// Its request of the resource, in thousandths; noRequest names a
	// container without one.
	request   int64
	noRequest string

	class class
	fill  int64 // the value a fill-in gives it
}

// tolerances are the ratio's band around 1 inside which the replicas stay.
type tolerances struct{ down, up float64 }

func (t tolerances) within(r float64) bool { return 1-t.down <= r && r <= 1+t.up }

// calculator holds what groupPods compares against: the time, the two
// readiness delays, and the sampled metric's timestamp and window.
type calculator struct {
	now, cpuInit, readinessDelay time.Duration
	scrapeAt, window             time.Duration
}

// Errors of the calculator, as upstream words them.
var (
	errNoPods    = errors.New("no pods returned by selector while calculating replica count")
	errNoMetrics = errors.New("did not receive metrics for targeted pods (pods might be unready)")
	errNoMatch   = errors.New("no metrics returned matched known pods")
)

// group classes each pod (groupPods) and returns the count of each class.
// For cpu, a pod with a sample is unready if it has no Ready condition or
// start time; inside cpuInit after its start, if it is not ready or its
// sample may predate its readiness (the window since its last readiness
// change is not over at the sample); after cpuInit, if it is not ready and
// never was (its readiness last changed within readinessDelay of its
// start).
func (c *calculator) group(pods []sample, cpu bool) (nReady, nUnready, nMissing int) {
	for i := range pods {
		p := &pods[i]
		switch {
		case p.deleting || p.phase == model.Failed:
			p.class = ignored
		case p.phase == model.Pending:
			p.class = unready
		case !p.hasMetric:
			p.class = missing
		case cpu && c.cpuUnready(p):
			p.class = unready
		default:
			p.class = ready
		}
		switch p.class {
		case ready:
			nReady++
		case unready:
			nUnready++
		case missing:
			nMissing++
		}
	}
	return nReady, nUnready, nMissing
}

func (c *calculator) cpuUnready(p *sample) bool {
	if !p.hasReady || !p.started {
		return true
	}
	if p.start+c.cpuInit > c.now {
		return !p.isReady || c.scrapeAt < p.readySince+c.window
	}
	return !p.isReady && p.start+c.readinessDelay > p.readySince
}

// requests checks that every pod has a request (calculateRequests).
func requests(pods []sample, resource string) error {
	for i := range pods {
		if p := &pods[i]; p.noRequest != "" {
			return fmt.Errorf("missing request for %s in container %s of Pod %s", resource, p.noRequest, p.name)
		}
	}
	return nil
}

// filled says which pods a ratio counts: the ready ones, and those whose
// class is set in with (their fill value standing for their sample).
type filled struct{ missing, unready bool }

func (f filled) value(p *sample) (int64, bool) {
	switch {
	case p.class == ready:
		return p.value, true
	case p.class == missing && f.missing, p.class == unready && f.unready:
		return p.fill, true
	}
	return 0, false
}

// utilizationRatio is GetResourceUtilizationRatio: the metrics' sum over
// the requests' sum, as a truncated percent, over the target; and the
// average raw value.
func utilizationRatio(pods []sample, f filled, target int32) (ratio float64, util int32, raw int64, n int, err error) {
	var metrics, reqs int64
	for i := range pods {
		if v, ok := f.value(&pods[i]); ok {
			metrics += v
			reqs += pods[i].request
			n++
		}
	}
	if reqs == 0 {
		return 0, 0, 0, n, errNoMatch
	}
	util = int32(metrics * 100 / reqs)
	return float64(util) / float64(target), util, metrics / int64(n), n, nil
}

// usageRatio is GetMetricUsageRatio: the metrics' average (truncated)
// over the target.
func usageRatio(pods []sample, f filled, target int64) (ratio float64, usage int64, n int) {
	var total int64
	for i := range pods {
		if v, ok := f.value(&pods[i]); ok {
			total += v
			n++
		}
	}
	if n == 0 {
		return 0, 0, 0
	}
	usage = total / int64(n)
	return float64(usage) / float64(target), usage, n
}

// ceil32 is int32(math.Ceil(x)), capped at MaxInt32.
func ceil32(x float64) int32 {
	if x >= math.MaxInt32 {
		return math.MaxInt32
	}
	return int32(math.Ceil(x))
}

// resourceReplicas is GetResourceReplicas: the replicas for a target
// utilization (percent of request) of resource ("cpu" or "memory").
func (c *calculator) resourceReplicas(current, target int32, resource string, tol tolerances, pods []sample) (replicas, util int32, raw int64, err error) {
	if len(pods) == 0 {
		return 0, 0, 0, errNoPods
	}
	nReady, nUnready, nMissing := c.group(pods, resource == "cpu")
	if nReady == 0 {
		return 0, 0, 0, errNoMetrics
	}
	if err := requests(pods, resource); err != nil {
		return 0, 0, 0, err
	}
	ratio, util, raw, _, err := utilizationRatio(pods, filled{}, target)
	if err != nil {
		return 0, 0, 0, err
	}
	upWithUnready := nUnready > 0 && ratio > 1
	if !upWithUnready && nMissing == 0 {
		if tol.within(ratio) {
			return current, util, raw, nil
		}
		return ceil32(ratio * float64(nReady)), util, raw, nil
	}
	f := filled{missing: nMissing > 0 && ratio != 1, unready: upWithUnready}
	for i := range pods {
		p := &pods[i]
		switch {
		case p.class == missing && ratio < 1:
			// On a scale-down a missing pod uses its request, or the
			// target past 100%.
			p.fill = p.request * int64(max(100, target)) / 100
		default:
			p.fill = 0
		}
	}
	newRatio, _, _, n, err := utilizationRatio(pods, f, target)
	if err != nil {
		return 0, util, raw, err
	}
	return keepDirection(current, ratio, newRatio, n, tol), util, raw, nil
}

// keepDirection is the end of both calculations: the current replicas if
// the recomputed ratio is within tolerance or turned the direction over,
// or if the count it gives would go the other way; else that count.
func keepDirection(current int32, ratio, newRatio float64, n int, tol tolerances) int32 {
	if tol.within(newRatio) || (ratio < 1 && newRatio > 1) || (ratio > 1 && newRatio < 1) {
		return current
	}
	r := ceil32(newRatio * float64(n))
	if (newRatio < 1 && r > current) || (newRatio > 1 && r < current) {
		return current
	}
	return r
}

// plainReplicas is calcPlainMetricReplicas: the replicas for a target
// average value per pod (a resource's AverageValue, or a Pods metric,
// resource "").
func (c *calculator) plainReplicas(current int32, target int64, resource string, tol tolerances, pods []sample) (replicas int32, usage int64, err error) {
	if len(pods) == 0 {
		return 0, 0, errNoPods
	}
	nReady, nUnready, nMissing := c.group(pods, resource == "cpu")
	if nReady == 0 {
		return 0, 0, errNoMetrics
	}
	ratio, usage, _ := usageRatio(pods, filled{}, target)
	upWithUnready := nUnready > 0 && ratio > 1
	if !upWithUnready && nMissing == 0 {
		if tol.within(ratio) {
			return current, usage, nil
		}
		return ceil32(ratio * float64(nReady)), usage, nil
	}
	f := filled{missing: nMissing > 0 && ratio != 1, unready: upWithUnready}
	for i := range pods {
		p := &pods[i]
		p.fill = 0
		if p.class == missing && ratio < 1 {
			p.fill = target // on a scale-down a missing pod is at the target
		}
	}
	newRatio, _, n := usageRatio(pods, f, target)
	return keepDirection(current, ratio, newRatio, n, tol), usage, nil
}

// objectReplicas is GetObjectMetricReplicas with getUsageRatioReplicaCount:
// the replicas for an object's value, in proportion to the ready pods.
func objectReplicas(current int32, usage, target int64, tol tolerances, pods []sample) (int32, error) {
	ratio := float64(usage) / float64(target)
	if current == 0 {
		return ceil32(ratio), nil
	}
	if tol.within(ratio) {
		return current, nil
	}
	if len(pods) == 0 {
		return 0, fmt.Errorf("unable to calculate ready pods: %w", errNoPods)
	}
	n := 0
	for i := range pods {
		if p := &pods[i]; p.phase == model.Running && p.hasReady && p.isReady {
			n++
		}
	}
	return ceil32(ratio * float64(n)), nil
}

// objectPerPodReplicas is GetObjectPerPodMetricReplicas: the replicas for
// an object's value divided among the target's replicas; and that value
// per replica.
func objectPerPodReplicas(statusReplicas int32, usage, target int64, tol tolerances) (int32, int64) {
	replicas := statusReplicas
	if statusReplicas == 0 {
		return ceil32(float64(usage) / float64(target)), usage
	}
	if !tol.within(float64(usage) / (float64(target) * float64(statusReplicas))) {
		replicas = ceil32(float64(usage) / float64(target))
	}
	return replicas, int64(math.Ceil(float64(usage) / float64(statusReplicas)))
}
