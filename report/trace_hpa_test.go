package report_test

import (
	"bytes"
	"encoding/json"
	"io"
	"runtime"
	"testing"
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/report"
	"github.com/podsim/podsim/scenarios"
)

// hpaStatuses is an object sink that keeps each status an autoscaler
// announces: its instant, replicas and first metric.
type hpaStatuses struct {
	w   *model.World
	got []hpaStatus
}

type hpaStatus struct {
	t                time.Duration
	desired, current int32
	util             int32
	valid            bool
}

func (h *hpaStatuses) Change(*model.Change) {}

func (h *hpaStatuses) Object(o *model.ObjectChange) {
	if o.Kind != model.ObjectAutoscaler || !o.Autoscaler.Status.Synced {
		return
	}
	st := &o.Autoscaler.Status
	h.got = append(h.got, hpaStatus{t: h.w.Now(), desired: st.DesiredReplicas, current: st.CurrentReplicas,
		util: st.CurrentMetrics[0].Utilization, valid: st.CurrentMetrics[0].Valid})
}

// TestTraceOfTheHPA: the load step's trace has a process for the
// autoscaler with its events, and counters of its replicas (desired and
// current) and of its cpu utilization against the target, each written at
// the instant of the status that moved it, with that status's values.
func TestTraceOfTheHPA(t *testing.T) {
	s, err := scenarios.LoadFile("../scenarios/hpa/load-step.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	w := s.NewWorld()
	tr := report.NewTrace(&b, w, s.File.Metadata.Name, s.Seed, s.Duration)
	w.Subscribe(tr)
	want := &hpaStatuses{w: w}
	w.Subscribe(want)
	s.Populate(w)
	w.Run(s.Duration)
	if err := tr.Close(w.Now()); err != nil {
		t.Fatal(err)
	}
	checkTrace(t, s.Path, b.Bytes(), w, s.Duration)
	var doc struct{ TraceEvents []traceEvent }
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	pid := -1
	var replicas, cpu []hpaStatus
	rescales := 0
	for _, e := range doc.TraceEvents {
		switch {
		case e.Ph == "M" && e.Name == "process_name" && e.Args["name"] == "HorizontalPodAutoscaler web":
			pid = *e.Pid
		case e.Pid == nil || *e.Pid != pid:
		case e.Ph == "C" && e.Name == "replicas":
			replicas = append(replicas, hpaStatus{t: time.Duration(*e.TS) * time.Microsecond,
				desired: int32(e.Args["desired"].(float64)), current: int32(e.Args["current"].(float64))})
		case e.Ph == "C" && e.Name == "cpu utilization (% of request)":
			if e.Args["target"] != 50.0 {
				t.Errorf("target %v", e.Args)
			}
			cpu = append(cpu, hpaStatus{t: time.Duration(*e.TS) * time.Microsecond, util: int32(e.Args["current"].(float64)), valid: true})
		case e.Ph == "i" && e.Name == "SuccessfulRescale":
			rescales++
		}
	}
	// The model's statuses, kept where a value moved.
	var wantRepl, wantCPU []hpaStatus
	for _, st := range want.got {
		if n := len(wantRepl); n == 0 || wantRepl[n-1].desired != st.desired || wantRepl[n-1].current != st.current {
			wantRepl = append(wantRepl, hpaStatus{t: st.t, desired: st.desired, current: st.current})
		}
		if n := len(wantCPU); st.valid && (n == 0 || wantCPU[n-1].util != st.util) {
			wantCPU = append(wantCPU, hpaStatus{t: st.t, util: st.util, valid: true})
		}
	}
	if !equalStatuses(replicas, wantRepl) || len(replicas) < 5 {
		t.Errorf("replicas counter %+v\nthe model's %+v", replicas, wantRepl)
	}
	if !equalStatuses(cpu, wantCPU) || len(cpu) < 5 {
		t.Errorf("cpu counter %+v\nthe model's %+v", cpu, wantCPU)
	}
	if rescales != 3 {
		t.Errorf("%d SuccessfulRescale events on the autoscaler's process", rescales)
	}
}

func equalStatuses(a, b []hpaStatus) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestTraceHPAAllocatesNothing: the load step from 5m45s to 7m (syncs,
// scrapes and probes; the utilization falling at 6m15s after the drop)
// allocates no more with the trace sink than without it.
func TestTraceHPAAllocatesNothing(t *testing.T) {
	s, err := scenarios.LoadFile("../scenarios/hpa/load-step.yaml")
	if err != nil {
		t.Fatal(err)
	}
	allocs := func(trace bool) uint64 {
		w := s.NewWorld()
		if trace {
			w.Subscribe(report.NewTrace(io.Discard, w, s.File.Metadata.Name, s.Seed, s.Duration))
		}
		s.Populate(w)
		w.Run(5*time.Minute + 45*time.Second)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		w.Run(7 * time.Minute)
		runtime.ReadMemStats(&after)
		return after.Mallocs - before.Mallocs
	}
	if with, without := allocs(true), allocs(false); with > without {
		t.Errorf("allocations from 5m45s to 7m: %d with the trace, %d without", with, without)
	}
}
