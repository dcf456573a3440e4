package kubelet

import (
	"math"
	"slices"
	"testing"
	"time"

	"github.com/podsim/podsim/model"
)

// realisticCrashLoop runs one pod whose container exits 2s after each start
// (OOM-killed if oom) under the realistic pod worker with seed, for d, and
// returns its timeline.
func realisticCrashLoop(t *testing.T, seed uint64, oom bool, d time.Duration) []model.Change {
	t.Helper()
	st := model.DefaultSettings()
	st.KubeletSync = model.SyncRealistic
	w := newWorld(seed, st)
	var tl model.Timeline
	w.Subscribe(&tl)
	w.AddNode(model.NodeSpec{Name: "n", Capacity: model.Resources{MilliCPU: 4000, Memory: 1 << 34, Pods: 110}})
	run := model.RunSpec{ExitAfter: 2 * time.Second, ExitCode: 1, Times: 1, OOM: oom}
	w.AddPod("p", &model.PodSpec{RestartPolicy: model.RestartAlways, TerminationGracePeriod: 30 * time.Second,
		Containers: []model.ContainerSpec{{Name: "app", Image: "img", PullPolicy: model.PullIfNotPresent,
			Behavior: &model.Behavior{Runs: []model.RunSpec{run}}}}}, model.PodOptions{})
	w.Run(d)
	return tl.Changes
}

// The sync loop's cadence: a sync requeued after a failed one comes 10s x
// (1 + 0.5U) later, at the next whole-second tick: more than 10s, at most
// 16s.
const (
	minSyncGap = 10 * time.Second // exclusive
	maxSyncGap = 16 * time.Second
)

// crashDelay is the crash backoff after the n-th crash (1-based) of a
// container that never runs long: none after the first, then 10s doubling
// to 300s.
func crashDelay(n int) time.Duration {
	if n <= 1 {
		return 0
	}
	return min(10*time.Second<<(n-2), 300*time.Second)
}

// TestRealisticRestartDelays checks, over 200 seeds, that each restart comes
// at the first sync at or after its backoff ends: 0 to 16s after (the
// jittered 10-15s requeue, then the next one-second tick), never before; and
// that the delays spread over that range, as the jitter makes them.
func TestRealisticRestartDelays(t *testing.T) {
	var lates []time.Duration
	for seed := range uint64(200) {
		changes := realisticCrashLoop(t, seed, seed%2 == 1, time.Hour)
		var finished time.Duration
		crashes := 0
		for _, c := range changes {
			if c.Kind != model.ChangeContainer || c.Container != "app" {
				continue
			}
			switch {
			case c.State == model.StateTerminated:
				crashes++
				finished = c.T
			case c.State == model.StateRunning && crashes > 0:
				late := c.T - (finished + crashDelay(crashes))
				if late < 0 || late > maxSyncGap {
					t.Fatalf("seed %d: restart %d at %s, %s after its backoff ended (want 0 to %s)", seed, c.RestartCount, c.T, late, maxSyncGap)
				}
				if crashes > 1 {
					lates = append(lates, late)
				}
			}
		}
		if crashes < 10 {
			t.Fatalf("seed %d: %d crashes in an hour", seed, crashes)
		}
	}
	slices.Sort(lates)
	lo, hi, mean := lates[0], lates[len(lates)-1], time.Duration(0)
	for _, l := range lates {
		mean += l / time.Duration(len(lates))
	}
	t.Logf("%d restarts: %s to %s after their backoff ended, mean %s", len(lates), lo, hi, mean)
	// A renewal process of 10-15s steps lands on average ~6.3s past a point.
	if lo > 2*time.Second || hi < 13*time.Second || mean < 4*time.Second || mean > 9*time.Second {
		t.Errorf("%d restarts: %s to %s after their backoff ended, mean %s; want a spread over 0-16s around 6s", len(lates), lo, hi, mean)
	}
}

// TestRealisticStatusAfterCrash checks, over 200 seeds, that a crashed
// container shows Terminated (Error or OOMKilled) until the next sync: the
// next state comes 10-16s later, Waiting with CrashLoopBackOff (recorded by
// the sync at the crash) or Running (that sync restarted it), except after
// the first crash, restarted at once.
func TestRealisticStatusAfterCrash(t *testing.T) {
	for seed := range uint64(200) {
		oom := seed%2 == 1
		want := model.ReasonError
		if oom {
			want = model.ReasonOOMKilled
		}
		changes := realisticCrashLoop(t, seed, oom, 30*time.Minute)
		var last *model.Change
		waiting := 0
		for i := range changes {
			c := &changes[i]
			if c.Kind != model.ChangeContainer || c.Container != "app" {
				continue
			}
			if last != nil && last.State == model.StateTerminated {
				gap := c.T - last.T
				switch {
				case last.RestartCount == 0: // the first crash restarts at once
					if gap != 0 || c.State != model.StateRunning {
						t.Fatalf("seed %d: after the first crash at %s: %s %s at %s, want Running at once", seed, last.T, c.State, c.Reason, c.T)
					}
				case gap <= minSyncGap || gap > maxSyncGap:
					t.Fatalf("seed %d: crash at %s shown until %s (%s), want until the next sync, 10-16s later", seed, last.T, c.T, gap)
				case c.State == model.StateWaiting && c.Reason == model.ReasonCrashLoopBackOff:
					waiting++
				case c.State != model.StateRunning:
					t.Fatalf("seed %d: after the crash at %s: %s %s, want Waiting CrashLoopBackOff or Running", seed, last.T, c.State, c.Reason)
				}
			}
			if c.State == model.StateTerminated && c.Reason != want {
				t.Fatalf("seed %d: terminated with %s, want %s", seed, c.Reason, want)
			}
			last = c
		}
		if waiting == 0 {
			t.Fatalf("seed %d: never Waiting CrashLoopBackOff", seed)
		}
	}
}

// TestRealisticBackOffEventsPerSync checks, over 200 seeds, that every sync
// that finds the container in backoff logs BackOff: the sync at the crash,
// then one per requeue (10-16s apart) until the backoff ends, so a wait of
// D logs between ceil(D/16s) and ceil(D/10s) of them, and consecutive ones
// are one sync apart.
func TestRealisticBackOffEventsPerSync(t *testing.T) {
	for seed := range uint64(200) {
		changes := realisticCrashLoop(t, seed, false, time.Hour)
		crashes, backOffs := 0, 0
		var prev time.Duration
		check := func(at time.Duration) {
			if crashes < 2 {
				return
			}
			d := crashDelay(crashes).Seconds()
			lo, hi := int(math.Ceil(d/maxSyncGap.Seconds())), int(math.Ceil(d/minSyncGap.Seconds()))
			if backOffs < lo || backOffs > hi {
				t.Fatalf("seed %d: %d BackOff events in the %s wait ending at %s, want %d to %d", seed, backOffs, crashDelay(crashes), at, lo, hi)
			}
		}
		for _, c := range changes {
			switch {
			case c.Kind == model.ChangeEvent && c.Reason == "BackOff":
				if backOffs > 0 && (c.T-prev <= minSyncGap || c.T-prev > maxSyncGap) {
					t.Fatalf("seed %d: BackOff at %s, %s after the one before; want one sync apart (10-16s)", seed, c.T, c.T-prev)
				}
				backOffs++
				prev = c.T
			case c.Kind == model.ChangeContainer && c.State == model.StateRunning:
				check(c.T)
			case c.Kind == model.ChangeContainer && c.State == model.StateTerminated:
				crashes++
				backOffs = 0
			}
		}
	}
}

// TestRealisticSameSeedSameRun checks that a realistic run is reproducible
// and that the seed moves its syncs.
func TestRealisticSameSeedSameRun(t *testing.T) {
	a := realisticCrashLoop(t, 7, false, 20*time.Minute)
	b := realisticCrashLoop(t, 7, false, 20*time.Minute)
	c := realisticCrashLoop(t, 8, false, 20*time.Minute)
	if !slices.Equal(a, b) {
		t.Error("two runs with seed 7 differ")
	}
	if slices.Equal(a, c) {
		t.Error("seeds 7 and 8 give the same run")
	}
}
