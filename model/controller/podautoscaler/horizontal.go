// Package podautoscaler is the HorizontalPodAutoscaler controller
// (pkg/controller/podautoscaler/horizontal.go): every sync period it
// reads metrics-server's last scrape for the pods of each autoscaler's
// target, computes the replicas each metric asks for (replica_calculator.go),
// takes the highest, stabilizes and limits it (normalize.go), and scales
// the target through its scale subresource, with upstream's conditions and
// events.
package podautoscaler

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/sim"
)

// Controller is the HorizontalPodAutoscaler controller; register it with
// World.Register.
type Controller struct {
	w    *model.World
	s    model.HPASettings
	hpas []*hpa // by Autoscaler.ID

	// The pods of the last scrape, by pod: its index in World.PodMetrics.
	scraped   map[*model.Pod]int
	scrapedAt time.Duration
	indexed   bool
}

// hpa is the controller's state of one autoscaler.
type hpa struct {
	c     *Controller
	a     *model.Autoscaler
	timer sim.Timer

	recs       []recommendation
	ups, downs []scaleEvent
	pods       []sample // reused by each metric

	// By metric: its description in reasons and conditions, and the
	// message of ScalingActive when it wins (built once).
	names, valid []string

	prev      model.AutoscalerStatus // the status as last announced
	prevConds []model.Condition
	prevMets  []model.MetricStatus
}

// New returns the HorizontalPodAutoscaler controller of w, with w's
// settings.
func New(w *model.World) *Controller {
	return &Controller{w: w, s: w.Settings().HPA, scraped: map[*model.Pod]int{}}
}

// AutoscalerAdded starts metrics-server and queues the autoscaler's first
// sync now: since v1.37 the controller's informer adds a new autoscaler to
// its queue without the rate limiter (enqueueHPA, kubernetes/kubernetes
// #138294; before, the first sync came one sync period later). Before
// metrics-server's first scrape that sync finds no metrics, as on a
// cluster: FailedGetResourceMetric. An autoscaler that existed before the
// run (Spec.Existing) is in its periodic syncs: its next is one period in.
func (c *Controller) AutoscalerAdded(a *model.Autoscaler) {
	c.w.EnableUsage()
	h := &hpa{c: c, a: a}
	for i := range a.Spec.Metrics {
		n := metricName(&a.Spec.Metrics[i])
		h.names = append(h.names, n)
		h.valid = append(h.valid, "the HPA was able to successfully calculate a replica count from "+n)
	}
	h.timer.Init(h.sync)
	for len(c.hpas) <= a.ID() {
		c.hpas = append(c.hpas, nil)
	}
	c.hpas[a.ID()] = h
	first := c.w.Now()
	if a.Spec.Existing {
		first = sim.AddSat(first, c.s.SyncPeriod)
	}
	c.w.Engine().Schedule(&h.timer, first, sim.Normal)
}

// sync is reconcileAutoscaler, then the next sync one period later.
func (h *hpa) sync() {
	h.reconcile()
	h.announce()
	w := h.c.w
	w.Engine().Schedule(&h.timer, sim.AddSat(w.Now(), h.c.s.SyncPeriod), sim.Normal)
}

func (h *hpa) reconcile() {
	a, now := h.a, h.c.w.Now()
	st := &a.Status
	wl := a.Target()
	if wl == nil {
		err := fmt.Sprintf("%s.apps %q not found", strings.ToLower(a.Spec.TargetKind)+"s", a.Spec.TargetName)
		a.Event(model.EventWarning, "FailedGetScale", err)
		st.SetCondition(model.AbleToScale, model.False, "FailedGetScale", "the HPA controller was unable to get the target's current scale: "+err, now)
		return
	}
	st.SetCondition(model.AbleToScale, model.True, "SucceededGetScale", "the HPA controller was able to get the target's current scale", now)
	current := int32(wl.Spec.Replicas)
	minR, maxR := a.Spec.MinReplicas, a.Spec.MaxReplicas
	var desired int32
	reason, rescale := "", true
	st.CurrentMetrics = st.CurrentMetrics[:0]
	switch {
	case current == 0 && minR != 0:
		rescale = false
		st.SetCondition(model.ScalingActive, model.False, "ScalingDisabled", "scaling is disabled since the replica count of the target is zero", now)
	case current > maxR:
		reason, desired = "Current number of replicas above Spec.MaxReplicas", maxR
	case current < minR:
		reason, desired = "Current number of replicas below Spec.MinReplicas", minR
	default:
		proposal, metric, err := h.computeReplicasForMetrics(wl, current)
		if err != nil && proposal == -1 {
			h.setStatus(current, st.DesiredReplicas, false)
			a.Event(model.EventWarning, "FailedComputeMetricsReplicas", err.Error())
			return
		}
		if proposal > desired {
			desired = proposal
		}
		if desired > current {
			reason = metric + " above target"
		}
		if desired < current {
			reason = "All metrics below target"
		}
		if a.Spec.Behavior == nil {
			desired = h.normalize(now, current, desired)
		} else {
			desired = h.normalizeWithBehaviors(now, current, desired)
		}
		rescale = desired != current
	}
	if !rescale {
		h.setStatus(current, current, false)
		return
	}
	st.SetCondition(model.AbleToScale, model.True, "SucceededRescale", fmt.Sprintf("the HPA controller was able to update the target scale to %d", desired), now)
	a.Event(model.EventNormal, "SuccessfulRescale", fmt.Sprintf("New size: %d; reason: %s", desired, reason))
	h.storeScaleEvent(now, a.Spec.Behavior, current, desired)
	h.setStatus(current, desired, true)
	wl.Scale(int(desired))
}

// normalize is normalizeDesiredReplicas (no behavior).
func (h *hpa) normalize(now time.Duration, current, desired int32) int32 {
	st := &h.a.Status
	stabilized := h.stabilize(now, h.c.s.DownscaleStabilization, desired)
	if stabilized != desired {
		st.SetCondition(model.AbleToScale, model.True, "ScaleDownStabilized", "recent recommendations were higher than current one, applying the highest recent recommendation", now)
	} else {
		st.SetCondition(model.AbleToScale, model.True, "ReadyForNewScale", "recommended size matches current size", now)
	}
	out, why := convertWithRules(current, stabilized, h.a.Spec.MinReplicas, h.a.Spec.MaxReplicas)
	h.setLimited(out != stabilized, why, now)
	return out
}

// normalizeWithBehaviors is normalizeDesiredReplicasWithBehaviors; a
// scale-down without a stabilization window of its own takes the
// controller's.
func (h *hpa) normalizeWithBehaviors(now time.Duration, current, desired int32) int32 {
	st, b := &h.a.Status, h.a.Spec.Behavior
	downWindow := h.c.s.DownscaleStabilization
	if b.ScaleDown.Stabilization != nil {
		downWindow = *b.ScaleDown.Stabilization
	}
	stabilized, why := h.stabilizeWithBehaviors(now, b, downWindow, current, desired)
	if stabilized != desired {
		st.SetCondition(model.AbleToScale, model.True, why.reason, why.message, now)
	} else {
		st.SetCondition(model.AbleToScale, model.True, "ReadyForNewScale", "recommended size matches current size", now)
	}
	out, lim := h.convertWithBehaviorRate(now, b, current, stabilized, h.a.Spec.MinReplicas, h.a.Spec.MaxReplicas)
	h.setLimited(out != stabilized, lim, now)
	return out
}

func (h *hpa) setLimited(limited bool, l limit, now time.Duration) {
	s := model.False
	if limited {
		s = model.True
	}
	h.a.Status.SetCondition(model.ScalingLimited, s, l.reason, l.message, now)
}

// setStatus is setStatus: the replicas, and the last scale time if it
// rescaled.
func (h *hpa) setStatus(current, desired int32, rescaled bool) {
	st := &h.a.Status
	st.Synced = true
	st.CurrentReplicas, st.DesiredReplicas = current, desired
	if rescaled {
		st.LastScaleTime, st.Scaled = h.c.w.Now(), true
	}
}

// announce tells the object sinks of a status that differs from the one
// last announced (updateStatusIfNeeded).
func (h *hpa) announce() {
	st := &h.a.Status
	if st.Synced == h.prev.Synced && st.CurrentReplicas == h.prev.CurrentReplicas && st.DesiredReplicas == h.prev.DesiredReplicas &&
		st.LastScaleTime == h.prev.LastScaleTime && slices.Equal(st.Conditions, h.prevConds) && slices.Equal(st.CurrentMetrics, h.prevMets) {
		return
	}
	h.prevConds = append(h.prevConds[:0], st.Conditions...)
	h.prevMets = append(h.prevMets[:0], st.CurrentMetrics...)
	h.prev = *st
	h.a.Updated()
}
