package podautoscaler

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/podsim/podsim/model"
)

// The cases of upstream's pkg/controller/podautoscaler/replica_calculator_test.go
// that fall inside what podsim models, each named as upstream names it.
// Upstream's harness: each pod has two containers that both request the
// pod's request and use its level; the metric's timestamp is the zero time
// and its window a minute; a pod's start time is the zero time unless
// "hot" (now) or "cool" (3 minutes ago); the CPU initialization period is
// 2 minutes and the readiness delay 10 seconds. Times here are offsets from
// the zero time, with now an hour later. Cases of a single container (the
// HPA's container field), of External metrics and of metrics for pods
// outside the list (TestReplicaCalcDisjointResourcesMetrics) are not
// ported: podsim has none of them.

const testNow = time.Hour

var (
	hot  = testNow
	cool = testNow - 3*time.Minute
)

// calcCase is one upstream case.
type calcCase struct {
	name             string
	current          int32
	expectedReplicas int32
	expectedErr      string

	readiness []bool // default ready
	start     []time.Duration
	phase     []model.Phase
	deleting  []bool

	// A resource (cpu) case: requests in millicores per container, levels
	// per container; or a pods metric case: levels per pod.
	cpu                 bool
	requests            []int64
	levels              []int64
	target              int64 // utilization percent, or the metric's target
	expectedUtilization int32
	expectedValue       int64 // raw average, or usage
}

func (tc *calcCase) pods() []sample {
	n := int(tc.current)
	n = max(n, len(tc.phase))
	pods := make([]sample, n)
	for i := range pods {
		p := &pods[i]
		p.name = fmt.Sprintf("test-pod-%d", i)
		p.phase = model.Running
		if tc.phase != nil {
			p.phase = tc.phase[i]
		}
		p.hasReady, p.isReady, p.started = true, true, true
		if tc.readiness != nil && i < len(tc.readiness) {
			p.isReady = tc.readiness[i]
		}
		if tc.start != nil {
			p.start = tc.start[i]
		}
		if tc.deleting != nil {
			p.deleting = tc.deleting[i]
		}
		if tc.cpu {
			if i < len(tc.requests) {
				p.request = 2 * tc.requests[i]
			} else {
				p.noRequest = "container1"
			}
		}
		if i < len(tc.levels) {
			p.hasMetric = true
			p.value = tc.levels[i]
			if tc.cpu {
				p.value *= 2
			}
		}
	}
	return pods
}

func (tc *calcCase) run(t *testing.T) {
	t.Helper()
	c := calculator{now: testNow, cpuInit: 2 * time.Minute, readinessDelay: 10 * time.Second, window: time.Minute}
	tol := tolerances{0.1, 0.1}
	var got int32
	var util int32
	var value int64
	var err error
	if tc.cpu {
		got, util, value, err = c.resourceReplicas(tc.current, int32(tc.target), "cpu", tol, tc.pods())
	} else {
		got, value, err = c.plainReplicas(tc.current, tc.target, "", tol, tc.pods())
	}
	if tc.expectedErr != "" {
		if err == nil || !strings.Contains(err.Error(), tc.expectedErr) {
			t.Fatalf("%s: error %v, want one containing %q", tc.name, err, tc.expectedErr)
		}
		return
	}
	if err != nil {
		t.Fatalf("%s: %v", tc.name, err)
	}
	if got != tc.expectedReplicas || value != tc.expectedValue || (tc.cpu && util != tc.expectedUtilization) {
		t.Errorf("%s: replicas %d, utilization %d, value %d; want %d, %d, %d", tc.name, got, util, value,
			tc.expectedReplicas, tc.expectedUtilization, tc.expectedValue)
	}
}

func ones(n int) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = 1000
	}
	return out
}

func TestUpstreamReplicaCalcResource(t *testing.T) {
	run, fail, pend := model.Running, model.Failed, model.Pending
	for _, tc := range []calcCase{
		{name: "TestReplicaCalcScaleUp", current: 3, expectedReplicas: 5, cpu: true, requests: ones(3), levels: []int64{300, 500, 700},
			target: 30, expectedUtilization: 50, expectedValue: 2 * 500},
		{name: "TestReplicaCalcScaleUpUnreadyLessScale", current: 3, expectedReplicas: 4, readiness: []bool{false, true, true},
			cpu: true, requests: ones(3), levels: []int64{300, 500, 700}, target: 30, expectedUtilization: 60, expectedValue: 2 * 600},
		{name: "TestReplicaCalcScaleUpHotCpuLessScale", current: 3, expectedReplicas: 4, start: []time.Duration{hot, cool, cool},
			cpu: true, requests: ones(3), levels: []int64{300, 500, 700}, target: 30, expectedUtilization: 60, expectedValue: 2 * 600},
		{name: "TestReplicaCalcScaleUpUnreadyNoScale", current: 3, expectedReplicas: 3, readiness: []bool{true, false, false},
			cpu: true, requests: ones(3), levels: []int64{400, 500, 700}, target: 30, expectedUtilization: 40, expectedValue: 2 * 400},
		{name: "TestReplicaCalcScaleHotCpuNoScale", current: 3, expectedReplicas: 3, readiness: []bool{true, false, false},
			start: []time.Duration{cool, hot, hot}, cpu: true, requests: ones(3), levels: []int64{400, 500, 700}, target: 30,
			expectedUtilization: 40, expectedValue: 2 * 400},
		{name: "TestReplicaCalcScaleUpIgnoresFailedPods", current: 2, expectedReplicas: 4, readiness: []bool{true, true, false, false},
			phase: []model.Phase{run, run, fail, fail}, cpu: true, requests: ones(4), levels: []int64{500, 700}, target: 30,
			expectedUtilization: 60, expectedValue: 2 * 600},
		{name: "TestReplicaCalcScaleUpIgnoresDeletionPods", current: 2, expectedReplicas: 4, readiness: []bool{true, true, false, false},
			phase: []model.Phase{run, run, run, run}, deleting: []bool{false, false, true, true}, cpu: true, requests: ones(4),
			levels: []int64{500, 700}, target: 30, expectedUtilization: 60, expectedValue: 2 * 600},
		{name: "TestReplicaCalcScaleDown", current: 5, expectedReplicas: 3, cpu: true, requests: ones(5),
			levels: []int64{100, 300, 500, 250, 250}, target: 50, expectedUtilization: 28, expectedValue: 2 * 280},
		{name: "TestReplicaCalcScaleDownExcludeUnreadyPods", current: 5, expectedReplicas: 2, readiness: []bool{true, true, true, false, false},
			cpu: true, requests: ones(5), levels: []int64{100, 300, 500, 250, 250}, target: 50, expectedUtilization: 30, expectedValue: 2 * 300},
		{name: "TestReplicaCalcScaleDownExcludeUnscheduledPods", current: 5, expectedReplicas: 1, readiness: []bool{true, false, false, false, false},
			phase: []model.Phase{run, pend, pend, pend, pend}, cpu: true, requests: ones(5), levels: []int64{100}, target: 50,
			expectedUtilization: 10, expectedValue: 2 * 100},
		{name: "TestReplicaCalcScaleDownIgnoreHotCpuPods", current: 5, expectedReplicas: 2, start: []time.Duration{cool, cool, cool, hot, hot},
			cpu: true, requests: ones(5), levels: []int64{100, 300, 500, 250, 250}, target: 50, expectedUtilization: 30, expectedValue: 2 * 300},
		{name: "TestReplicaCalcScaleDownIgnoresFailedPods", current: 5, expectedReplicas: 3, readiness: []bool{true, true, true, true, true, false, false},
			phase: []model.Phase{run, run, run, run, run, fail, fail}, cpu: true, requests: ones(7), levels: []int64{100, 300, 500, 250, 250},
			target: 50, expectedUtilization: 28, expectedValue: 2 * 280},
		{name: "TestReplicaCalcScaleDownIgnoresDeletionPods", current: 5, expectedReplicas: 3, readiness: []bool{true, true, true, true, true, false, false},
			phase: []model.Phase{run, run, run, run, run, run, run}, deleting: []bool{false, false, false, false, false, true, true}, cpu: true,
			requests: ones(7), levels: []int64{100, 300, 500, 250, 250}, target: 50, expectedUtilization: 28, expectedValue: 2 * 280},
		{name: "TestReplicaCalcTolerance", current: 3, expectedReplicas: 3, cpu: true, requests: []int64{900, 1000, 1100},
			levels: []int64{1010, 1030, 1020}, target: 100, expectedUtilization: 102, expectedValue: 2 * 1020},
		{name: "TestReplicaCalcSuperfluousMetrics", current: 4, expectedReplicas: 24, cpu: true, requests: ones(4),
			levels: []int64{4000, 9500, 3000, 7000, 3200, 2000}, target: 100, expectedUtilization: 587, expectedValue: 2 * 5875},
		{name: "TestReplicaCalcMissingMetrics", current: 4, expectedReplicas: 3, cpu: true, requests: ones(4), levels: []int64{400, 95},
			target: 100, expectedUtilization: 24, expectedValue: 495},
		{name: "TestReplicaCalcEmptyCPURequest", current: 1, expectedErr: "missing request for", cpu: true, levels: []int64{200}, target: 100},
		{name: "TestReplicaCalcMissingMetricsNoChangeEq", current: 2, expectedReplicas: 2, cpu: true, requests: ones(2), levels: []int64{1000},
			target: 100, expectedUtilization: 100, expectedValue: 2 * 1000},
		{name: "TestReplicaCalcMissingMetricsNoChangeGt", current: 2, expectedReplicas: 2, cpu: true, requests: ones(2), levels: []int64{1900},
			target: 100, expectedUtilization: 190, expectedValue: 2 * 1900},
		{name: "TestReplicaCalcMissingMetricsNoChangeLt", current: 2, expectedReplicas: 2, cpu: true, requests: ones(2), levels: []int64{600},
			target: 100, expectedUtilization: 60, expectedValue: 2 * 600},
		{name: "TestReplicaCalcMissingMetricsUnreadyChange", current: 3, expectedReplicas: 3, readiness: []bool{false, true, true},
			cpu: true, requests: ones(3), levels: []int64{100, 450}, target: 50, expectedUtilization: 45, expectedValue: 2 * 450},
		{name: "TestReplicaCalcMissingMetricsHotCpuNoChange", current: 3, expectedReplicas: 3, start: []time.Duration{hot, cool, cool},
			cpu: true, requests: ones(3), levels: []int64{100, 450}, target: 50, expectedUtilization: 45, expectedValue: 2 * 450},
		{name: "TestReplicaCalcMissingMetricsUnreadyScaleUp", current: 3, expectedReplicas: 4, readiness: []bool{false, true, true},
			cpu: true, requests: ones(3), levels: []int64{100, 2000}, target: 50, expectedUtilization: 200, expectedValue: 2 * 2000},
		{name: "TestReplicaCalcMissingMetricsHotCpuScaleUp", current: 3, expectedReplicas: 4, readiness: []bool{false, true, true},
			start: []time.Duration{hot, cool, cool}, cpu: true, requests: ones(3), levels: []int64{100, 2000}, target: 50,
			expectedUtilization: 200, expectedValue: 2 * 2000},
		{name: "TestReplicaCalcMissingMetricsUnreadyScaleDown", current: 4, expectedReplicas: 3, readiness: []bool{false, true, true, true},
			cpu: true, requests: ones(4), levels: []int64{100, 100, 100}, target: 50, expectedUtilization: 10, expectedValue: 2 * 100},
		{name: "TestReplicaCalcMissingMetricsScaleDownTargetOver100", current: 4, expectedReplicas: 2, readiness: []bool{false, true, true, true},
			cpu: true, requests: []int64{1000, 1000, 2000, 2000}, levels: []int64{200, 100, 100}, target: 300, expectedUtilization: 6,
			expectedValue: 2 * 100},
		{name: "TestReplicaCalcDuringRollingUpdateWithMaxSurge", current: 2, expectedReplicas: 2, phase: []model.Phase{run, run, run},
			cpu: true, requests: ones(3), levels: []int64{100, 100}, target: 50, expectedUtilization: 10, expectedValue: 2 * 100},
	} {
		tc.run(t)
	}
}

func TestUpstreamReplicaCalcPodsMetric(t *testing.T) {
	for _, tc := range []calcCase{
		{name: "TestReplicaCalcScaleUpCM", current: 3, expectedReplicas: 4, levels: []int64{20000, 10000, 30000}, target: 15000, expectedValue: 20000},
		{name: "TestReplicaCalcScaleUpCMUnreadyHotCpuNoLessScale", current: 3, expectedReplicas: 6, readiness: []bool{true, true, false},
			start: []time.Duration{cool, cool, hot}, levels: []int64{50000, 10000, 30000}, target: 15000, expectedValue: 30000},
		{name: "TestReplicaCalcScaleUpCMUnreadyHotCpuScaleWouldScaleDown", current: 3, expectedReplicas: 7, readiness: []bool{false, true, false},
			start: []time.Duration{hot, cool, hot}, levels: []int64{50000, 15000, 30000}, target: 15000, expectedValue: 31666},
		{name: "TestReplicaCalcScaleDownCM", current: 5, expectedReplicas: 3, levels: []int64{12000, 12000, 12000, 12000, 12000}, target: 20000, expectedValue: 12000},
		{name: "TestReplicaCalcToleranceCM", current: 3, expectedReplicas: 3, levels: []int64{20000, 21000, 21000}, target: 20000, expectedValue: 20666},
		{name: "TestPlainMetricReplicaCalcMissingMetricsNoChangeEq", current: 5, expectedReplicas: 5, levels: []int64{20000, 19000, 21000}, target: 20000, expectedValue: 20000},
		{name: "TestReplicaCalcDuringRollingUpdateWithMaxSurgeCM", current: 2, expectedReplicas: 2, phase: []model.Phase{model.Running, model.Running, model.Running},
			levels: []int64{10000, 10000}, target: 17000, expectedValue: 10000},
	} {
		tc.run(t)
	}
}

func TestUpstreamReplicaCalcObjectMetric(t *testing.T) {
	tol := tolerances{0.1, 0.1}
	ready := func(n int, readiness ...bool) []sample {
		pods := make([]sample, n)
		for i := range pods {
			pods[i] = sample{phase: model.Running, hasReady: true, isReady: i >= len(readiness) || readiness[i]}
		}
		return pods
	}
	for _, tc := range []struct {
		name                       string
		current                    int32
		usage, target              int64
		pods                       []sample
		expectedReplicas           int32
		perPod                     bool
		expectedUsage              int64
		expectedPerPodUsageDivisor int64
	}{
		{name: "TestReplicaCalcScaleUpCMObject", current: 3, usage: 20000, target: 15000, pods: ready(3), expectedReplicas: 4},
		{name: "TestReplicaCalcScaleUpCMObjectIgnoresUnreadyPods", current: 3, usage: 50000, target: 10000, pods: ready(3, false, true, false), expectedReplicas: 5},
		{name: "TestReplicaCalcScaleDownCMObject", current: 5, usage: 12000, target: 20000, pods: ready(5), expectedReplicas: 3},
		{name: "TestReplicaCalcToleranceCMObject", current: 3, usage: 20666, target: 20000, pods: ready(3), expectedReplicas: 3},
		{name: "TestReplicaCalcScaleUpCMPerPodObject", current: 3, usage: 20000, target: 5000, perPod: true, expectedReplicas: 4, expectedUsage: 6667},
		{name: "TestReplicaCalcScaleDownPerPodCMObject", current: 5, usage: 6000, target: 2000, perPod: true, expectedReplicas: 3, expectedUsage: 1200},
		{name: "TestReplicaCalcTolerancePerPodCMObject", current: 4, usage: 20166, target: 5000, perPod: true, expectedReplicas: 4, expectedUsage: 5042},
	} {
		if tc.perPod {
			got, usage := objectPerPodReplicas(tc.current, tc.usage, tc.target, tol)
			if got != tc.expectedReplicas || usage != tc.expectedUsage {
				t.Errorf("%s: replicas %d, usage %d; want %d, %d", tc.name, got, usage, tc.expectedReplicas, tc.expectedUsage)
			}
			continue
		}
		got, err := objectReplicas(tc.current, tc.usage, tc.target, tol, tc.pods)
		if err != nil || got != tc.expectedReplicas {
			t.Errorf("%s: replicas %d (%v), want %d", tc.name, got, err, tc.expectedReplicas)
		}
	}
}

// TestReplicaCalcComputedToleranceAlgImplementation is upstream's
// regression test: a target just past the tolerance scales down, one just
// inside it does not.
func TestReplicaCalcComputedToleranceAlgImplementation(t *testing.T) {
	const startPods = 10
	used := int64(startPods * 150)
	requested := 2 * used
	perPod := requested / startPods
	requestedToUsed := float64(requested / used)
	for _, tc := range []struct {
		margin float64
		scales bool
	}{{0.01, true}, {0.004, false}} {
		target := math.Abs(1/(requestedToUsed*(1-0.1))) + tc.margin
		pct := int64(target * 100)
		want := int32(startPods)
		if tc.scales {
			want = int32(math.Ceil(float64(used) / (float64(requested) * target) * startPods))
		}
		var levels []int64
		for range startPods {
			levels = append(levels, used/10)
		}
		c := calcCase{name: fmt.Sprintf("margin %v", tc.margin), current: startPods, expectedReplicas: want, cpu: true,
			requests: []int64{perPod + 100, perPod - 100, perPod + 10, perPod - 10, perPod + 2, perPod - 2, perPod + 1, perPod - 1, perPod, perPod},
			levels:   levels, target: pct, expectedUtilization: int32(used * 100 / requested), expectedValue: 2 * used / 10}
		c.run(t)
	}
}

// TestGroupPodsCPU ports upstream's TestGroupPods cases of the CPU
// readiness rule (with the metric's own timestamp and window).
func TestGroupPodsCPU(t *testing.T) {
	now := time.Hour
	for _, tc := range []struct {
		name          string
		p             sample
		scrapeAt, win time.Duration
		want          class
	}{
		{"unready a pod without ready condition - CPU", sample{phase: model.Succeeded, started: true, start: now, hasMetric: true}, 0, 0, unready},
		{"count in a ready pod with fresh metrics during initialization period - CPU",
			sample{phase: model.Succeeded, started: true, start: now - time.Minute, hasReady: true, isReady: true, readySince: now - 30*time.Second, hasMetric: true},
			now, 30 * time.Second, ready},
		{"unready a ready pod without fresh metrics during initialization period - CPU",
			sample{phase: model.Succeeded, started: true, start: now - time.Minute, hasReady: true, isReady: true, readySince: now - 30*time.Second, hasMetric: true},
			now, time.Minute, unready},
		{"unready an unready pod during initialization period - CPU",
			sample{phase: model.Succeeded, started: true, start: now - 10*time.Minute, hasReady: true, readySince: now - 9*time.Minute - 54*time.Second, hasMetric: true},
			0, 0, unready},
		{"count in a ready pod without fresh metrics after initialization period - CPU",
			sample{phase: model.Succeeded, started: true, start: now - 3*time.Minute, hasReady: true, isReady: true, readySince: now - 3*time.Minute, hasMetric: true},
			now - 2*time.Minute, time.Minute, ready},
		{"count in an unready pod that was ready after initialization period - CPU",
			sample{phase: model.Succeeded, started: true, start: now - 10*time.Minute, hasReady: true, readySince: now - 9*time.Minute, hasMetric: true},
			0, 0, ready},
		{"unready pod that has never been ready after initialization period - CPU",
			sample{phase: model.Succeeded, started: true, start: now - 10*time.Minute, hasReady: true, readySince: now - 9*time.Minute - 50*time.Second, hasMetric: true},
			0, 0, ready},
		{"a missing pod", sample{phase: model.Succeeded, started: true, start: now - 3*time.Minute}, 0, 0, missing},
		{"pending pods are unreadied", sample{phase: model.Pending}, 0, 0, unready},
		{"ignore pods with deletion timestamps", sample{phase: model.Running, deleting: true, hasMetric: true}, 0, 0, ignored},
		{"ignore pods in a failed state", sample{phase: model.Failed, hasMetric: true}, 0, 0, ignored},
	} {
		c := calculator{now: now, cpuInit: 2 * time.Minute, readinessDelay: 10 * time.Second, scrapeAt: tc.scrapeAt, window: tc.win}
		pods := []sample{tc.p}
		c.group(pods, true)
		if pods[0].class != tc.want {
			t.Errorf("%s: class %d, want %d", tc.name, pods[0].class, tc.want)
		}
	}
}
