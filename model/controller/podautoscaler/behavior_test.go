package podautoscaler

import (
	"testing"
	"time"

	"github.com/podsim/podsim/model"
)

// The behavior tables of upstream's pkg/controller/podautoscaler/
// horizontal_test.go, each case named as upstream names it: the same
// inputs and expected outputs against podsim's normalization.

// rules is upstream's generateScalingRules: a Max rule of a Pods policy
// and a Percent policy, each left out when its value is 0.
func rules(pods int32, podsPeriod time.Duration, percent int32, percentPeriod time.Duration) *model.ScalingRules {
	r := &model.ScalingRules{SelectPolicy: model.SelectMax}
	if pods != 0 {
		r.Policies = append(r.Policies, model.ScalingPolicy{Value: pods, Period: podsPeriod})
	}
	if percent != 0 {
		r.Policies = append(r.Policies, model.ScalingPolicy{Percent: true, Value: percent, Period: percentPeriod})
	}
	return r
}

// spread is upstream's generateEventsUniformDistribution: the changes
// placed at the centres of equal segments of the period before now, the
// oldest first, their ages truncated to whole seconds as upstream does.
func spread(now time.Duration, changes []int32, periodSeconds int) []scaleEvent {
	events := make([]scaleEvent, len(changes))
	seg := float64(periodSeconds) / float64(len(changes))
	for i, c := range changes {
		age := time.Duration(float64(periodSeconds)-seg*float64(i+1)+seg/2) * time.Second
		events[i] = scaleEvent{change: c, at: now - age}
	}
	return events
}

// TestScalingWithRules ports upstream's TestScalingWithRules
// (convertDesiredReplicasWithBehaviorRate); nil rules are the defaults
// of GenerateHPAScaleUpRules/GenerateHPAScaleDownRules.
func TestScalingWithRules(t *testing.T) {
	now := time.Hour
	m := time.Minute
	three := []int32{1, 5, 9}
	four := []int32{8, 12, 9, 11}
	for _, tc := range []struct {
		name                   string
		ups, downs             []scaleEvent
		minR, maxR             int32
		up, down               *model.ScalingRules
		current, desired, want int32
		reason                 string
	}{
		{name: "prenormalized desired replicas within range", current: 5, desired: 7, minR: 3, maxR: 8, want: 7, reason: "DesiredWithinRange"},
		{name: "prenormalized desired replicas < minReplicas", current: 3, desired: 1, minR: 2, maxR: 8, want: 2, reason: "TooFewReplicas"},
		{name: "prenormalized desired replicas within range when minReplicas is 0", current: 1, desired: 0, minR: 0, maxR: 10, want: 0, reason: "DesiredWithinRange"},
		{name: "maxReplicas is the limit because maxReplicas < scaleUpLimit", current: 20, desired: 1000, minR: 1, maxR: 10, want: 10, reason: "TooManyReplicas"},
		{name: "desired replica count is more than the maximum replica count", current: 100, desired: 1000, minR: 100, maxR: 150, want: 150, reason: "TooManyReplicas"},
		{name: "scaleUpLimit is the limit because scaleUpLimit < maxReplicas with user policies", current: 3, desired: 1000, minR: 1, maxR: 2000,
			up: rules(0, 0, 1, m), want: 4, reason: "ScaleUpLimit"},
		// Upstream skips this case (testThis); the rule gives 1000 - 20.
		{name: "scaleDownLimit is the limit because scaleDownLimit > minReplicas with user defined policies", current: 1000, desired: 3, minR: 3, maxR: 2000,
			down: rules(20, m, 0, 0), want: 980, reason: "ScaleDownLimit"},
		{name: "scaleUp with default behavior", minR: 1, maxR: 1000, current: 10, desired: 50, want: 20, reason: "ScaleUpLimit"},
		{name: "scaleUp with pods policy larger than percent policy", minR: 1, maxR: 1000, up: rules(100, m, 100, m), current: 10, desired: 500, want: 110, reason: "ScaleUpLimit"},
		{name: "scaleUp with percent policy larger than pods policy", minR: 1, maxR: 1000, up: rules(2, m, 100, m), current: 10, desired: 500, want: 20, reason: "ScaleUpLimit"},
		{name: "scaleUp with spec MaxReplicas limitation with large pod policy", minR: 1, maxR: 1000, up: rules(100, m, 0, 0), current: 10, desired: 50, want: 50, reason: "DesiredWithinRange"},
		{name: "scaleUp with spec MaxReplicas limitation with large percent policy", minR: 1, maxR: 1000, up: rules(10000, m, 0, 0), current: 10, desired: 50, want: 50, reason: "DesiredWithinRange"},
		{name: "scaleUp with pod policy limitation", minR: 1, maxR: 1000, up: rules(30, m, 0, 0), current: 10, desired: 50, want: 40, reason: "ScaleUpLimit"},
		{name: "scaleUp with percent policy limitation", minR: 1, maxR: 1000, up: rules(0, 0, 200, m), current: 10, desired: 50, want: 30, reason: "ScaleUpLimit"},
		{name: "scaleDown with percent policy larger than pod policy", minR: 1, maxR: 1000, down: rules(20, m, 1, m), current: 100, desired: 2, want: 80, reason: "ScaleDownLimit"},
		{name: "scaleDown with pod policy larger than percent policy", minR: 1, maxR: 1000, down: rules(2, m, 1, m), current: 100, desired: 2, want: 98, reason: "ScaleDownLimit"},
		{name: "scaleDown with spec MinReplicas=nil limitation with large pod policy", minR: 1, maxR: 1000, down: rules(100, m, 0, 0), current: 10, desired: 0, want: 1, reason: "TooFewReplicas"},
		{name: "scaleDown with spec MinReplicas limitation with large pod policy", minR: 1, maxR: 1000, down: rules(100, m, 0, 0), current: 10, desired: 0, want: 1, reason: "TooFewReplicas"},
		{name: "scaleDown with spec MinReplicas limitation with large percent policy", minR: 5, maxR: 1000, down: rules(0, 0, 100, m), current: 10, desired: 2, want: 5, reason: "TooFewReplicas"},
		{name: "scaleDown with pod policy limitation", minR: 1, maxR: 1000, down: rules(5, m, 0, 0), current: 10, desired: 2, want: 5, reason: "ScaleDownLimit"},
		{name: "scaleDown with percent policy limitation", minR: 1, maxR: 1000, down: rules(0, 0, 50, m), current: 10, desired: 5, want: 5, reason: "DesiredWithinRange"},
		{name: "scaleUp with spec MaxReplicas limitation with large pod policy and events", ups: spread(now, three, 120), minR: 1, maxR: 200,
			up: rules(300, m, 0, 0), current: 100, desired: 500, want: 200, reason: "TooManyReplicas"},
		{name: "scaleUp with spec MaxReplicas limitation with large percent policy and events", ups: spread(now, three, 120), minR: 1, maxR: 200,
			up: rules(0, 0, 10000, m), current: 100, desired: 500, want: 200, reason: "TooManyReplicas"},
		{name: "scaleUp with currentReplicas limitation with rate.PeriodSeconds with a lot of recent scale up events", ups: spread(now, three, 120), minR: 1, maxR: 1000,
			up: rules(5, 2*m, 0, 0), current: 100, desired: 500, want: 100, reason: "ScaleUpLimit"},
		{name: "scaleUp with pod policy and previous scale up events", ups: spread(now, three, 120), minR: 1, maxR: 1000,
			up: rules(150, 2*m, 0, 0), current: 100, desired: 500, want: 235, reason: "ScaleUpLimit"},
		{name: "scaleUp with percent policy and previous scale up events", ups: spread(now, three, 120), minR: 1, maxR: 1000,
			up: rules(0, 0, 200, 2*m), current: 100, desired: 500, want: 255, reason: "ScaleUpLimit"},
		{name: "scaleUp with percent policy and previous scale up and down events", ups: spread(now, []int32{4}, 120), downs: spread(now, []int32{2}, 120),
			minR: 1, maxR: 1000, up: rules(0, 0, 300, 5*m), current: 6, desired: 24, want: 16, reason: "ScaleUpLimit"},
		{name: "scaleDown with default policy and previous events", downs: spread(now, three, 120), minR: 1, maxR: 1000, current: 10, desired: 5, want: 5, reason: "DesiredWithinRange"},
		{name: "scaleDown with spec MinReplicas=nil limitation with large pod policy and previous events", downs: spread(now, three, 120), minR: 1, maxR: 1000,
			down: rules(115, 2*m, 0, 0), current: 100, desired: 0, want: 1, reason: "TooFewReplicas"},
		{name: "scaleDown with spec MinReplicas limitation with large pod policy and previous events", downs: spread(now, three, 120), minR: 5, maxR: 1000,
			down: rules(130, 2*m, 0, 0), current: 100, desired: 0, want: 5, reason: "TooFewReplicas"},
		{name: "scaleDown with spec MinReplicas limitation with large percent policy and previous events", downs: spread(now, three, 120), minR: 5, maxR: 1000,
			down: rules(0, 0, 100, 2*m), current: 100, desired: 2, want: 5, reason: "TooFewReplicas"},
		{name: "scaleDown with pod policy limitation and previous events", downs: spread(now, three, 120), minR: 1, maxR: 1000,
			down: rules(5, 2*m, 0, 0), current: 100, desired: 2, want: 100, reason: "ScaleDownLimit"},
		{name: "scaleDown with percent policy limitation and previous events", downs: spread(now, []int32{2, 4, 6}, 120), minR: 1, maxR: 1000,
			down: rules(0, 0, 50, 2*m), current: 100, desired: 0, want: 56, reason: "ScaleDownLimit"},
		{name: "scaleDown with percent policy and previous scale up and down events", ups: spread(now, []int32{2}, 120), downs: spread(now, []int32{4}, 120),
			minR: 1, maxR: 1000, down: rules(0, 0, 50, 3*m), current: 10, desired: 1, want: 6, reason: "ScaleDownLimit"},
		{name: "scaleDown with previous events preventing further scale down", downs: spread(now, []int32{10, 10, 10}, 120), minR: 1, maxR: 1000,
			down: rules(0, 0, 10, 2*m), current: 100, desired: 0, want: 100, reason: "ScaleDownLimit"},
		{name: "scaleDown with with previous events still allowing more scale down", downs: spread(now, []int32{10, 10, 10}, 120), minR: 1, maxR: 1000,
			down: rules(0, 0, 1000, 2*m), current: 10, desired: 5, want: 5, reason: "DesiredWithinRange"},
		{name: "check 'outdated' flag for events for one behavior for up", ups: spread(now, four, 120), minR: 1, maxR: 1000,
			up: rules(1000, m, 0, 0), current: 100, desired: 200, want: 200, reason: "DesiredWithinRange"},
		{name: "check that events were not marked 'outdated' for two different policies in the behavior for up", ups: spread(now, four, 120), minR: 1, maxR: 1000,
			up: rules(1000, 2*m, 100, m), current: 100, desired: 200, want: 200, reason: "DesiredWithinRange"},
		{name: "check that events were marked 'outdated' for two different policies in the behavior for up", ups: spread(now, four, 120), minR: 1, maxR: 1000,
			up: rules(1000, 30*time.Second, 100, m), current: 100, desired: 200, want: 200, reason: "DesiredWithinRange"},
		{name: "check 'outdated' flag for events for one behavior for down", downs: spread(now, four, 120), minR: 1, maxR: 1000,
			down: rules(1000, m, 0, 0), current: 100, desired: 5, want: 5, reason: "DesiredWithinRange"},
		{name: "check that events were not marked 'outdated' for two different policies in the behavior for down", downs: spread(now, four, 120), minR: 1, maxR: 1000,
			down: rules(1000, 2*m, 100, m), current: 100, desired: 5, want: 5, reason: "DesiredWithinRange"},
		{name: "check that events were marked 'outdated' for two different policies in the behavior for down", downs: spread(now, four, 120), minR: 1, maxR: 1000,
			down: rules(1000, 30*time.Second, 100, m), current: 100, desired: 5, want: 5, reason: "DesiredWithinRange"},
	} {
		b := defaultBehavior()
		if tc.up != nil {
			b.ScaleUp.SelectPolicy, b.ScaleUp.Policies = tc.up.SelectPolicy, tc.up.Policies
		}
		if tc.down != nil {
			b.ScaleDown.SelectPolicy, b.ScaleDown.Policies = tc.down.SelectPolicy, tc.down.Policies
		}
		h := &hpa{ups: tc.ups, downs: tc.downs}
		got, why := h.convertWithBehaviorRate(now, b, tc.current, tc.desired, tc.minR, tc.maxR)
		if got != tc.want || why.reason != tc.reason {
			t.Errorf("%s: %d %s, want %d %s", tc.name, got, why.reason, tc.want, tc.reason)
		}
	}
}

// TestCalculateScaleLimitsWithMin ports upstream's
// TestCalculateScaleUpLimitWithScalingRules and
// TestCalculateScaleDownLimitWithBehaviors: Min of 2 pods and 50% per
// minute, from 1 up (3 or ceil(1.5)) and from 5 down (3 or trunc(2.5)).
func TestCalculateScaleLimitsWithMin(t *testing.T) {
	r := &model.ScalingRules{SelectPolicy: model.SelectMin, Policies: []model.ScalingPolicy{
		{Value: 2, Period: time.Minute}, {Percent: true, Value: 50, Period: time.Minute}}}
	if got := upLimit(time.Hour, 1, nil, nil, r); got != 2 {
		t.Errorf("TestCalculateScaleUpLimitWithScalingRules: %d, want 2", got)
	}
	if got := downLimit(time.Hour, 5, nil, nil, r); got != 3 {
		t.Errorf("TestCalculateScaleDownLimitWithBehaviors: %d, want 3", got)
	}
}

// TestNormalizeDesiredReplicasWithBehavior ports upstream's test of the
// same name (stabilizeRecommendationWithBehaviors): both windows as the
// case sets them (0 if unset), and the recommendations kept after.
func TestNormalizeDesiredReplicasWithBehavior(t *testing.T) {
	now := time.Hour
	m := time.Minute
	for _, tc := range []struct {
		name             string
		recs             []recommendation
		current, desired int32
		want             int32
		kept             []int32 // nil: upstream does not check them
		upWin, downWin   time.Duration
	}{
		{name: "empty recommendations for scaling down", current: 100, desired: 5, want: 5, kept: []int32{5}},
		{name: "simple scale down stabilization", recs: []recommendation{{4, now - 2*m}, {5, now - m}}, current: 100, desired: 3, want: 5,
			kept: []int32{4, 5, 3}, downWin: 3 * m},
		{name: "simple scale up stabilization", recs: []recommendation{{4, now - 2*m}, {5, now - m}}, current: 1, desired: 7, want: 4,
			kept: []int32{4, 5, 7}, upWin: 5 * m},
		{name: "no scale down stabilization", recs: []recommendation{{1, now - 2*m}, {2, now - m}}, current: 100, desired: 3, want: 3,
			kept: []int32{1, 2, 3}, upWin: 5 * m},
		{name: "no scale up stabilization", recs: []recommendation{{4, now - 2*m}, {5, now - m}}, current: 1, desired: 3, want: 3,
			kept: []int32{4, 5, 3}, downWin: 5 * m},
		{name: "no scale down stabilization, reuse recommendation element", recs: []recommendation{{10, now - 10*m}, {9, now - 9*m}},
			current: 100, desired: 3, want: 3, kept: []int32{10, 3}},
		{name: "no scale up stabilization, reuse recommendation element", recs: []recommendation{{10, now - 10*m}, {9, now - 9*m}},
			current: 1, desired: 100, want: 100, kept: []int32{10, 100}},
		{name: "scale down stabilization, reuse one of obsolete recommendation element",
			recs:    []recommendation{{10, now - 10*m}, {4, now - m}, {5, now - 2*m}, {9, now - 9*m}},
			current: 100, desired: 3, want: 5, kept: []int32{10, 4, 5, 3}, downWin: 3 * m},
		{name: "scale up stabilization, reuse one of obsolete recommendation element",
			recs:    []recommendation{{10, now - 100*m}, {6, now - m}, {5, now - 2*m}, {9, now - 3*m}},
			current: 1, desired: 100, want: 5, kept: []int32{100, 6, 5, 9}, upWin: 5 * m},
		{name: "scale up and down stabilization, do not scale up when prenormalized rec goes down",
			recs: []recommendation{{2, now - 100*m}, {3, now - 3*m}}, current: 2, desired: 1, want: 2, upWin: 5 * m, downWin: 5 * m},
		{name: "scale up and down stabilization, do not scale down when prenormalized rec goes up",
			recs: []recommendation{{2, now - 100*m}, {1, now - 3*m}}, current: 2, desired: 3, want: 2, upWin: 5 * m, downWin: 5 * m},
	} {
		b := defaultBehavior()
		b.ScaleUp.Stabilization = &tc.upWin
		h := &hpa{recs: tc.recs}
		got, _ := h.stabilizeWithBehaviors(now, b, tc.downWin, tc.current, tc.desired)
		if got != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, got, tc.want)
		}
		if tc.kept == nil {
			continue
		}
		kept := make([]int32, len(h.recs))
		for i, r := range h.recs {
			kept[i] = r.replicas
		}
		if len(kept) != len(tc.kept) {
			t.Errorf("%s: kept %v, want %v", tc.name, kept, tc.kept)
			continue
		}
		for i := range kept {
			if kept[i] != tc.kept[i] {
				t.Errorf("%s: kept %v, want %v", tc.name, kept, tc.kept)
				break
			}
		}
	}
}
