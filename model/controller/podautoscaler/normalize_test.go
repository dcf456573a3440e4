package podautoscaler

import (
	"testing"
	"time"

	"github.com/podsim/podsim/model"
)

// TestNormalizeDesiredReplicas ports upstream's test of
// stabilizeRecommendation (horizontal_test.go): the highest recommendation
// of the 5-minute window, and the log reusing an entry older than it.
func TestNormalizeDesiredReplicas(t *testing.T) {
	now := time.Hour
	for _, tc := range []struct {
		name       string
		recs       []recommendation
		desired    int32
		stabilized int32
		logLength  int
	}{
		{"empty log", nil, 5, 5, 1},
		{"stabilize", []recommendation{{4, now - 2*time.Minute}, {5, now - time.Minute}}, 3, 5, 3},
		{"no stabilize", []recommendation{{1, now - 2*time.Minute}, {2, now - time.Minute}}, 3, 3, 3},
		{"no stabilize - old recommendations", []recommendation{{10, now - 10*time.Minute}, {9, now - 9*time.Minute}}, 3, 3, 2},
		{"stabilize - old recommendations", []recommendation{{10, now - 10*time.Minute}, {4, now - time.Minute},
			{5, now - 2*time.Minute}, {9, now - 9*time.Minute}}, 3, 5, 4},
	} {
		h := &hpa{recs: tc.recs}
		if got := h.stabilize(now, 5*time.Minute, tc.desired); got != tc.stabilized || len(h.recs) != tc.logLength {
			t.Errorf("%s: %d stabilized, log of %d; want %d, %d", tc.name, got, len(h.recs), tc.stabilized, tc.logLength)
		}
	}
}

// TestConvertDesiredReplicasWithRules ports upstream's test of the same
// name.
func TestConvertDesiredReplicasWithRules(t *testing.T) {
	for _, tc := range []struct {
		current, desired, minR, maxR, want int32
		reason                             string
	}{
		{5, 7, 3, 8, 7, "DesiredWithinRange"},
		{3, 1, 2, 8, 2, "TooFewReplicas"},
		{1, 0, 0, 10, 0, "DesiredWithinRange"},
		{20, 1000, 1, 10, 10, "TooManyReplicas"},
		{3, 1000, 1, 2000, 6, "ScaleUpLimit"}, // calculateScaleUpLimit(3) = max(2 x 3, 4)
	} {
		got, why := convertWithRules(tc.current, tc.desired, tc.minR, tc.maxR)
		if got != tc.want || why.reason != tc.reason {
			t.Errorf("%+v: %d %s", tc, got, why.reason)
		}
	}
}

// defaultBehavior is spec.behavior: {} with the defaults of
// pkg/apis/autoscaling/v2/defaults.go.
func defaultBehavior() *model.AutoscalerBehavior {
	zero := time.Duration(0)
	return &model.AutoscalerBehavior{
		ScaleUp: model.ScalingRules{Stabilization: &zero, SelectPolicy: model.SelectMax,
			Policies: []model.ScalingPolicy{{Value: 4, Period: 15 * time.Second}, {Percent: true, Value: 100, Period: 15 * time.Second}}},
		ScaleDown: model.ScalingRules{SelectPolicy: model.SelectMax, Policies: []model.ScalingPolicy{{Percent: true, Value: 100, Period: 15 * time.Second}}},
	}
}

// TestBehaviorRate checks convertDesiredReplicasWithBehaviorRate on the
// policies: the default scale-up (the larger of 4 pods and 100%), a Pods
// and a Percent policy, Min and Disabled, a period's earlier changes
// taken back, and the bounds.
func TestBehaviorRate(t *testing.T) {
	now := time.Hour
	pods := func(v int32, p time.Duration) model.ScalingPolicy { return model.ScalingPolicy{Value: v, Period: p} }
	pct := func(v int32, p time.Duration) model.ScalingPolicy {
		return model.ScalingPolicy{Percent: true, Value: v, Period: p}
	}
	for _, tc := range []struct {
		name                         string
		up, down                     *model.ScalingRules
		ups, downs                   []scaleEvent
		current, desired, minR, maxR int32
		want                         int32
		reason                       string
	}{
		{name: "default scale-up from 1: 4 pods", current: 1, desired: 20, minR: 1, maxR: 100, want: 5, reason: "ScaleUpLimit"},
		{name: "default scale-up from 10: 100%", current: 10, desired: 50, minR: 1, maxR: 100, want: 20, reason: "ScaleUpLimit"},
		{name: "maxReplicas below the rate", current: 10, desired: 50, minR: 1, maxR: 15, want: 15, reason: "TooManyReplicas"},
		{name: "default scale-down: to minReplicas at once", current: 10, desired: 1, minR: 2, maxR: 100, want: 2, reason: "TooFewReplicas"},
		{name: "Pods policy", up: &model.ScalingRules{SelectPolicy: model.SelectMax, Policies: []model.ScalingPolicy{pods(2, time.Minute)}},
			current: 10, desired: 50, minR: 1, maxR: 100, want: 12, reason: "ScaleUpLimit"},
		{name: "Pods policy after a scale-up within its period", up: &model.ScalingRules{SelectPolicy: model.SelectMax, Policies: []model.ScalingPolicy{pods(2, time.Minute)}},
			ups: []scaleEvent{{change: 2, at: now - 30*time.Second}}, current: 12, desired: 50, minR: 1, maxR: 100, want: 12, reason: "ScaleUpLimit"},
		{name: "Pods policy after a scale-up before its period", up: &model.ScalingRules{SelectPolicy: model.SelectMax, Policies: []model.ScalingPolicy{pods(2, time.Minute)}},
			ups: []scaleEvent{{change: 2, at: now - time.Minute}}, current: 12, desired: 50, minR: 1, maxR: 100, want: 14, reason: "ScaleUpLimit"},
		{name: "Min of Pods and Percent", up: &model.ScalingRules{SelectPolicy: model.SelectMin, Policies: []model.ScalingPolicy{pods(4, time.Minute), pct(10, time.Minute)}},
			current: 10, desired: 50, minR: 1, maxR: 100, want: 11, reason: "ScaleUpLimit"},
		{name: "Disabled scale-up", up: &model.ScalingRules{SelectPolicy: model.SelectDisabled, Policies: []model.ScalingPolicy{pods(4, time.Minute)}},
			current: 10, desired: 50, minR: 1, maxR: 100, want: 10, reason: "ScaleUpLimit"},
		{name: "Percent scale-down rounds down", down: &model.ScalingRules{SelectPolicy: model.SelectMax, Policies: []model.ScalingPolicy{pct(25, time.Minute)}},
			current: 10, desired: 1, minR: 1, maxR: 100, want: 7, reason: "ScaleDownLimit"},
		{name: "Pods scale-down after one within its period", down: &model.ScalingRules{SelectPolicy: model.SelectMax, Policies: []model.ScalingPolicy{pods(1, time.Minute)}},
			downs: []scaleEvent{{change: 1, at: now - 15*time.Second}}, current: 9, desired: 1, minR: 1, maxR: 100, want: 9, reason: "ScaleDownLimit"},
		{name: "within range", current: 5, desired: 6, minR: 1, maxR: 100, want: 6, reason: "DesiredWithinRange"},
	} {
		b := defaultBehavior()
		if tc.up != nil {
			b.ScaleUp = *tc.up
		}
		if tc.down != nil {
			b.ScaleDown = *tc.down
		}
		h := &hpa{ups: tc.ups, downs: tc.downs}
		got, why := h.convertWithBehaviorRate(now, b, tc.current, tc.desired, tc.minR, tc.maxR)
		if got != tc.want || why.reason != tc.reason {
			t.Errorf("%s: %d %s, want %d %s", tc.name, got, why.reason, tc.want, tc.reason)
		}
	}
}

// TestStabilizeWithBehaviors checks stabilizeRecommendationWithBehaviors:
// a scale-up takes the lowest recommendation of its window, a scale-down
// the highest of its window.
func TestStabilizeWithBehaviors(t *testing.T) {
	now := time.Hour
	for _, tc := range []struct {
		name             string
		upWindow         time.Duration
		downWindow       time.Duration
		recs             []recommendation
		current, desired int32
		want             int32
		reason           string
	}{
		{"no window up", 0, 5 * time.Minute, []recommendation{{3, now - time.Minute}}, 3, 8, 8, "ScaleUpStabilized"},
		{"up window holds the lowest", 2 * time.Minute, 5 * time.Minute, []recommendation{{4, now - time.Minute}, {6, now - 30*time.Second}}, 3, 8, 4, "ScaleUpStabilized"},
		{"down window holds the highest", 0, 5 * time.Minute, []recommendation{{9, now - 4*time.Minute}, {5, now - time.Minute}}, 8, 2, 8, "ScaleDownStabilized"},
		{"down window past", 0, 5 * time.Minute, []recommendation{{9, now - 6*time.Minute}}, 8, 2, 2, "ScaleDownStabilized"},
	} {
		b := defaultBehavior()
		b.ScaleUp.Stabilization = &tc.upWindow
		h := &hpa{recs: tc.recs}
		got, why := h.stabilizeWithBehaviors(now, b, tc.downWindow, tc.current, tc.desired)
		if got != tc.want || why.reason != tc.reason {
			t.Errorf("%s: %d %s, want %d %s", tc.name, got, why.reason, tc.want, tc.reason)
		}
	}
}

// TestStoreScaleEvent checks that an event older than the direction's
// longest policy period is replaced, and that none is kept without
// behavior.
func TestStoreScaleEvent(t *testing.T) {
	now := time.Hour
	b := defaultBehavior()
	h := &hpa{ups: []scaleEvent{{change: 3, at: now - time.Minute}, {change: 1, at: now - 10*time.Second}}}
	h.storeScaleEvent(now, b, 4, 8)
	if len(h.ups) != 2 || h.ups[0] != (scaleEvent{change: 4, at: now}) || h.ups[1].outdated {
		t.Errorf("scale-up events %+v", h.ups)
	}
	h.storeScaleEvent(now, b, 8, 6)
	if len(h.downs) != 1 || h.downs[0].change != 2 {
		t.Errorf("scale-down events %+v", h.downs)
	}
	h.storeScaleEvent(now, nil, 6, 1)
	if len(h.downs) != 1 {
		t.Errorf("without behavior an event was kept: %+v", h.downs)
	}
}
