package podautoscaler

import (
	"math"
	"time"

	"github.com/podsim/podsim/model"
)

// Normalization (pkg/controller/podautoscaler/horizontal.go): the
// recommendation of the metrics, stabilized over the recent ones and
// limited by the scaling rate and minReplicas/maxReplicas.

// Without behavior, a scale-up is limited to max(2 x current, 4).
const (
	scaleUpLimitFactor  = 2.0
	scaleUpLimitMinimum = 4.0
)

// recommendation is a timestampedRecommendation.
type recommendation struct {
	replicas int32
	at       time.Duration
}

// scaleEvent is a timestampedScaleEvent: a change of the replicas made.
type scaleEvent struct {
	change   int32
	at       time.Duration
	outdated bool
}

// limit is a normalization's outcome for the ScalingLimited condition.
type limit struct{ reason, message string }

var (
	withinRange    = limit{"DesiredWithinRange", "the desired count is within the acceptable range"}
	scaleUpLimit   = limit{"ScaleUpLimit", "the desired replica count is increasing faster than the maximum scale rate"}
	scaleDownLimit = limit{"ScaleDownLimit", "the desired replica count is decreasing faster than the maximum scale rate"}
	tooMany        = limit{"TooManyReplicas", "the desired replica count is more than the maximum replica count"}
	tooFew         = limit{"TooFewReplicas", "the desired replica count is less than the minimum replica count"}
)

// stabilize is stabilizeRecommendation (no behavior): the highest
// recommendation within the window, this one included, which it records
// in the place of one older than the window if there is one.
func (h *hpa) stabilize(now, window time.Duration, desired int32) int32 {
	highest, old := desired, -1
	cutoff := now - window
	for i, r := range h.recs {
		if r.at < cutoff {
			old = i
		} else if r.replicas > highest {
			highest = r.replicas
		}
	}
	h.record(old, desired, now)
	return highest
}

func (h *hpa) record(old int, desired int32, now time.Duration) {
	if old >= 0 {
		h.recs[old] = recommendation{desired, now}
	} else {
		h.recs = append(h.recs, recommendation{desired, now})
	}
}

// convertWithRules is convertDesiredReplicasWithRules: desired within
// minReplicas and the lower of maxReplicas and the scale-up limit.
func convertWithRules(current, desired, minR, maxR int32) (int32, limit) {
	upLimit := int32(math.Max(scaleUpLimitFactor*float64(current), scaleUpLimitMinimum))
	maxAllowed, why := maxR, tooMany
	if maxR > upLimit {
		maxAllowed, why = upLimit, scaleUpLimit
	}
	switch {
	case desired < minR:
		return minR, tooFew
	case desired > maxAllowed:
		return maxAllowed, why
	}
	return desired, withinRange
}

// stabilizeWithBehaviors is stabilizeRecommendationWithBehaviors: the
// current replicas brought up to the lowest recommendation of the
// scale-up window and down to the highest of the scale-down window.
func (h *hpa) stabilizeWithBehaviors(now time.Duration, b *model.AutoscalerBehavior, downWindow time.Duration, current, desired int32) (int32, limit) {
	up, down := desired, desired
	upCutoff := now - *b.ScaleUp.Stabilization
	downCutoff := now - downWindow
	old := -1
	for i, r := range h.recs {
		if r.at > upCutoff {
			up = min(up, r.replicas)
		}
		if r.at > downCutoff {
			down = max(down, r.replicas)
		}
		if r.at < upCutoff && r.at < downCutoff {
			old = i
		}
	}
	rec := max(current, up)
	rec = min(rec, down)
	h.record(old, desired, now)
	if desired >= current {
		return rec, limit{"ScaleUpStabilized", "recent recommendations were lower than current one, applying the lowest recent recommendation"}
	}
	return rec, limit{"ScaleDownStabilized", "recent recommendations were higher than current one, applying the highest recent recommendation"}
}

// convertWithBehaviorRate is convertDesiredReplicasWithBehaviorRate:
// desired within the policies' limits and minReplicas/maxReplicas.
func (h *hpa) convertWithBehaviorRate(now time.Duration, b *model.AutoscalerBehavior, current, desired, minR, maxR int32) (int32, limit) {
	switch {
	case desired > current:
		lim := max(upLimit(now, current, h.ups, h.downs, &b.ScaleUp), current)
		maxAllowed, why := maxR, tooMany
		if maxAllowed > lim {
			maxAllowed, why = lim, scaleUpLimit
		}
		if desired > maxAllowed {
			return maxAllowed, why
		}
	case desired < current:
		lim := min(downLimit(now, current, h.ups, h.downs, &b.ScaleDown), current)
		minAllowed, why := minR, tooFew
		if minAllowed < lim {
			minAllowed, why = lim, scaleDownLimit
		}
		if desired < minAllowed {
			return minAllowed, why
		}
	}
	return desired, withinRange
}

// changeInPeriod is getReplicasChangePerPeriod: the changes made within
// period before now.
func changeInPeriod(now, period time.Duration, events []scaleEvent) int32 {
	var n int32
	for _, e := range events {
		if e.at > now-period {
			n += e.change
		}
	}
	return n
}

// upLimit is calculateScaleUpLimitWithScalingRules: what each policy
// allows from the replicas at the start of its period, the highest (Max)
// or lowest (Min) of them; current if scaling up is Disabled.
func upLimit(now time.Duration, current int32, ups, downs []scaleEvent, r *model.ScalingRules) int32 {
	if r.SelectPolicy == model.SelectDisabled {
		return current
	}
	pick, result := maxOf, int32(math.MinInt32)
	if r.SelectPolicy == model.SelectMin {
		pick, result = minOf, math.MaxInt32
	}
	for _, p := range r.Policies {
		start := current - changeInPeriod(now, p.Period, ups) + changeInPeriod(now, p.Period, downs)
		proposed := start + p.Value
		if p.Percent {
			proposed = int32(math.Ceil(float64(start) * (1 + float64(p.Value)/100)))
		}
		result = pick(result, proposed)
	}
	return result
}

// downLimit is calculateScaleDownLimitWithBehaviors, the mirror of
// upLimit: Max picks the lowest floor, Min the highest.
func downLimit(now time.Duration, current int32, ups, downs []scaleEvent, r *model.ScalingRules) int32 {
	if r.SelectPolicy == model.SelectDisabled {
		return current
	}
	pick, result := minOf, int32(math.MaxInt32)
	if r.SelectPolicy == model.SelectMin {
		pick, result = maxOf, math.MinInt32
	}
	for _, p := range r.Policies {
		start := current - changeInPeriod(now, p.Period, ups) + changeInPeriod(now, p.Period, downs)
		proposed := start - p.Value
		if p.Percent {
			proposed = int32(float64(start) * (1 - float64(p.Value)/100))
		}
		result = pick(result, proposed)
	}
	return result
}

func maxOf(a, b int32) int32 { return max(a, b) }
func minOf(a, b int32) int32 { return min(a, b) }

// storeScaleEvent records a change of the replicas made, for the policies
// (only with behavior), in the place of one outdated past the direction's
// longest policy period if there is one.
func (h *hpa) storeScaleEvent(now time.Duration, b *model.AutoscalerBehavior, prev, next int32) {
	if b == nil {
		return
	}
	events, rules := &h.downs, &b.ScaleDown
	change := prev - next
	if next > prev {
		events, rules, change = &h.ups, &b.ScaleUp, next-prev
	}
	var longest time.Duration
	for _, p := range rules.Policies {
		longest = max(longest, p.Period)
	}
	for i := range *events {
		if (*events)[i].at < now-longest {
			(*events)[i].outdated = true
		}
	}
	for i := range *events {
		if (*events)[i].outdated {
			(*events)[i] = scaleEvent{change: change, at: now}
			return
		}
	}
	*events = append(*events, scaleEvent{change: change, at: now})
}
