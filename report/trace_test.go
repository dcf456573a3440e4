package report_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/podsim/podsim/internal/scenariogen"
	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/report"
	"github.com/podsim/podsim/scenarios"
)

// traceEvent is one event of a Chrome trace, as a viewer reads it.
type traceEvent struct {
	Name string         `json:"name"`
	Cat  string         `json:"cat"`
	Ph   string         `json:"ph"`
	TS   *float64       `json:"ts"`
	Dur  *float64       `json:"dur"`
	Pid  *int           `json:"pid"`
	Tid  int            `json:"tid"`
	S    string         `json:"s"`
	Args map[string]any `json:"args"`
}

// traceRun runs s with a Trace and returns its bytes and the world.
func traceRun(t *testing.T, s *scenarios.Scenario) ([]byte, *model.World) {
	t.Helper()
	var b bytes.Buffer
	w := s.NewWorld()
	tr := report.NewTrace(&b, w, s.File.Metadata.Name, s.Seed, s.Duration)
	w.Subscribe(tr)
	s.Populate(w)
	w.Run(s.Duration)
	if err := tr.Close(w.Now()); err != nil {
		t.Fatal(err)
	}
	return b.Bytes(), w
}

// checkTrace parses a trace and checks its structure: every process and
// thread named once before... anywhere in the file, every event on a named
// thread, complete events with dur >= 0 inside the run, each container's
// states one after another without gap or overlap, and the last counters
// equal to the world's own numbers at the end.
func checkTrace(t *testing.T, name string, data []byte, w *model.World, end time.Duration) {
	t.Helper()
	var doc struct {
		TraceEvents []traceEvent   `json:"traceEvents"`
		OtherData   map[string]any `json:"otherData"`
		Unit        string         `json:"displayTimeUnit"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("%s: not trace JSON: %v", name, err)
	}
	if len(doc.TraceEvents) == 0 || doc.OtherData["scenario"] == nil {
		t.Fatalf("%s: empty trace or no otherData", name)
	}
	procs := map[int]string{}
	threads := map[[2]int]string{}
	for _, e := range doc.TraceEvents {
		if e.Ph != "M" {
			continue
		}
		if e.Pid == nil {
			t.Fatalf("%s: metadata without pid: %+v", name, e)
		}
		key := [2]int{*e.Pid, e.Tid}
		switch e.Name {
		case "process_name":
			if _, dup := procs[*e.Pid]; dup {
				t.Errorf("%s: process %d named twice", name, *e.Pid)
			}
			procs[*e.Pid], _ = e.Args["name"].(string)
		case "thread_name":
			if _, dup := threads[key]; dup {
				t.Errorf("%s: thread %v named twice", name, key)
			}
			threads[key], _ = e.Args["name"].(string)
		case "process_sort_index", "thread_sort_index":
		default:
			t.Errorf("%s: unknown metadata %q", name, e.Name)
		}
	}
	type span struct{ start, end float64 }
	lastSpan := map[string]span{}
	counters := map[string]float64{} // "process/counter"
	seen := map[string]bool{}
	for _, e := range doc.TraceEvents {
		if e.Ph == "M" {
			continue
		}
		if e.Pid == nil || e.TS == nil || *e.TS < 0 || *e.TS > float64(end/time.Microsecond) {
			t.Fatalf("%s: event without pid or ts in the run: %+v", name, e)
		}
		if _, ok := procs[*e.Pid]; !ok {
			t.Errorf("%s: event in unnamed process %d: %+v", name, *e.Pid, e)
		}
		seen[e.Ph] = true
		switch e.Ph {
		case "X", "i":
			thread, ok := threads[[2]int{*e.Pid, e.Tid}]
			if !ok || e.Tid == 0 {
				t.Fatalf("%s: event on unnamed thread %d/%d: %+v", name, *e.Pid, e.Tid, e)
			}
			if e.Ph == "i" {
				if e.S != "t" {
					t.Errorf("%s: instant without thread scope: %+v", name, e)
				}
				continue
			}
			if e.Dur == nil || *e.Dur < 0 || *e.TS+*e.Dur > float64(end/time.Microsecond)+1e-3 {
				t.Fatalf("%s: complete event with bad dur: %+v", name, e)
			}
			if e.Cat == "container" {
				// Each container's states follow one another: the next
				// starts where the last ended. (Written when they end, so
				// in order on one thread.)
				s := span{*e.TS, *e.TS + *e.Dur}
				if prev, ok := lastSpan[thread]; ok && prev.end != s.start {
					t.Errorf("%s: %s: state at %v does not start where the last ended (%v)", name, thread, s.start, prev.end)
				}
				lastSpan[thread] = s
			}
		case "C":
			for k, v := range e.Args {
				f, ok := v.(float64)
				if !ok {
					t.Fatalf("%s: counter %s not a number: %+v", name, k, e)
				}
				counters[procs[*e.Pid]+"/"+e.Name] = f
			}
		default:
			t.Fatalf("%s: unexpected phase %q", name, e.Ph)
		}
	}
	if !seen["X"] || !seen["C"] {
		t.Errorf("%s: no complete events or no counters (%v)", name, seen)
	}
	for _, n := range w.Nodes() {
		a := n.Allocated()
		if got := counters["node "+n.Name+"/allocated cpu"]; got != float64(a.MilliCPU) {
			t.Errorf("%s: node %s: last allocated cpu %v, scheduler's %d", name, n.Name, got, a.MilliCPU)
		}
		if got := counters["node "+n.Name+"/allocated memory"]; got != float64(a.Memory) {
			t.Errorf("%s: node %s: last allocated memory %v, scheduler's %d", name, n.Name, got, a.Memory)
		}
	}
	for _, wl := range w.Workloads() {
		if k := wl.Spec.Kind; k == model.KindJob || k == model.KindDaemonSet || k == model.KindCronJob {
			continue
		}
		ready := 0
		for _, p := range w.Pods() {
			st := p.Status()
			if c, _ := st.Condition(model.Ready); p.Owner() == wl && !p.Deleted() && c.Status == model.True {
				ready++
			}
		}
		key := fmt.Sprintf("%s %s/ready pods", wl.Spec.Kind, wl.Key())
		if got, ok := counters[key]; !ok || got != float64(ready) {
			t.Errorf("%s: %s: last ready pods %v (written: %v), world's %d", name, key, got, ok, ready)
		}
	}
}

// Every scenario of the library gives a valid trace of the expected shape,
// whole (within the trace's bounds), the same bytes on a second run.
func TestTraceOfEveryScenario(t *testing.T) {
	all, err := scenariogen.Valid([]string{"../scenarios"})
	if err != nil {
		t.Fatal(err)
	}
	if len(all) < 30 {
		t.Fatalf("found %d scenarios", len(all))
	}
	for _, s := range all {
		data, w := traceRun(t, s)
		checkTrace(t, s.Path, data, w, s.Duration)
		if bytes.Contains(data, []byte(`"trace truncated: `)) {
			t.Errorf("%s: the trace left events out", s.Path)
		}
		again, _ := traceRun(t, s)
		if !bytes.Equal(data, again) {
			t.Errorf("%s: two runs gave different traces", s.Path)
		}
	}
}

// The demo's trace holds what a person looks for: web's container OOM
// killed with its exit code, the BackOff events, api's counter on the node.
func TestTraceOfTheDemo(t *testing.T) {
	s, err := scenarios.Demo()
	if err != nil {
		t.Fatal(err)
	}
	data, _ := traceRun(t, s)
	for _, want := range []string{
		`{"name":"process_name","ph":"M","pid":2,"args":{"name":"node node-a"}}`,
		`"name":"thread_name","ph":"M","pid":2,"tid":`,
		`"args":{"name":"web/app"}}`,
		`{"name":"Terminated: OOMKilled","cat":"container","ph":"X","pid":2,"tid":6,"ts":38000000,"dur":0,`,
		`"args":{"state":"Terminated","reason":"OOMKilled","exitCode":137,"restartCount":0}}`,
		`{"name":"BackOff","cat":"event","ph":"i","pid":2,"tid":4,"ts":68000000,"s":"t",`,
		`{"name":"allocated cpu","ph":"C","pid":2,"ts":0,"args":{"millicores":350}}`,
	} {
		if !bytes.Contains(data, []byte(want)) {
			t.Errorf("demo trace lacks %s", want)
		}
	}
}

// BenchmarkTraceSink runs the crash-loop study's base scenario (110 pods,
// 30 minutes) with the JSON lines sink and with the trace sink, and
// reports the allocations per change of each.
func BenchmarkTraceSink(b *testing.B) {
	s, err := scenarios.LoadFile("../scenarios/studies/crashloop-110.yaml")
	if err != nil {
		b.Fatal(err)
	}
	for _, sink := range []string{"jsonl", "trace"} {
		b.Run(sink, func(b *testing.B) {
			b.ReportAllocs()
			changes := 0
			for b.Loop() {
				w := s.NewWorld()
				var tr *report.Trace
				if sink == "trace" {
					tr = report.NewTrace(io.Discard, w, s.File.Metadata.Name, s.Seed, s.Duration)
					w.Subscribe(tr)
				} else {
					w.Subscribe(report.NewJSONL(io.Discard))
				}
				s.Populate(w)
				w.Run(s.Duration)
				if tr != nil {
					tr.Close(w.Now())
				}
				changes = w.ChangeCount()
			}
			b.ReportMetric(float64(changes), "changes/op")
		})
	}
}

// The trace counts the use of resources per pod and node and a Service's
// requests: the api's memory at its start, the node's, the requests that
// fail once the OOM-killed api leaves kube-proxy's view, and a leak's
// growth at metrics-server's first scrape (200Mi and 20Mi a minute, 15s).
func TestTraceOfUseAndTraffic(t *testing.T) {
	for file, wants := range map[string][]string{
		"../scenarios/eviction/system-oom.yaml": {
			`{"name":"api-0 memory","ph":"C","pid":2,"ts":0,"args":{"bytes":419430400}}`,
			`{"name":"memory in use","ph":"C","pid":2,"ts":0,"args":{"bytes":1468006400}}`,
			`{"name":"memory in use","ph":"C","pid":2,"ts":61000000,"args":{"bytes":1048576000}}`,
			`{"name":"process_name","ph":"M","pid":6,"args":{"name":"Service api"}}`,
			`{"name":"requests per second","ph":"C","pid":6,"ts":60000000,"args":{"served":0,"failed":200}}`,
		},
		"../scenarios/studies/memory-leak-base.yaml": {
			`{"name":"leaky-0 memory","ph":"C","pid":2,"ts":15000000,"args":{"bytes":214958080}}`,
		},
	} {
		s, err := scenarios.LoadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		data, w := traceRun(t, s)
		checkTrace(t, file, data, w, s.Duration)
		for _, want := range wants {
			if !bytes.Contains(data, []byte(want)) {
				t.Errorf("%s: trace lacks %s", file, want)
			}
		}
	}
}

// A rolling update's pod creations and deletions, events of the
// Deployment's ReplicaSets in the timeline, are on the Deployment's
// process: no process per ReplicaSet.
func TestTraceReplicaSetEventsOnDeployment(t *testing.T) {
	s, err := scenarios.LoadFile("../scenarios/rollouts/rolling-update.yaml")
	if err != nil {
		t.Fatal(err)
	}
	data, _ := traceRun(t, s)
	if n := bytes.Count(data, []byte(`"name":"process_name"`)); n != 4 {
		t.Errorf("%d processes, want 4: cluster, node-a, node-b, Deployment web", n)
	}
	if !bytes.Contains(data, []byte(`"args":{"name":"Deployment web"}}`)) || !bytes.Contains(data, []byte(`{"name":"SuccessfulCreate","cat":"event","ph":"i","pid":4,`)) {
		t.Errorf("web's SuccessfulCreate events are not on its process:\n%s", data)
	}
}

// runawayTrace runs the crash loop of centuries for a budget of events
// with a Trace, and returns the trace's events.
func runawayTrace(t *testing.T, events uint64) []traceEvent {
	t.Helper()
	s, err := scenarios.LoadFile("../testdata/hostile/runaway/crashloop-centuries.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	var tr *report.Trace
	r := s.Start(scenarios.RunOptions{Until: s.Duration, MaxEvents: events, Attach: func(w *model.World) {
		tr = report.NewTrace(&b, w, s.File.Metadata.Name, s.Seed, s.Duration)
		w.Subscribe(tr)
	}})
	if end := r.Run(nil); end != model.OverBudget {
		t.Fatalf("the runaway ended %v", end)
	}
	if err := tr.Close(r.World.Now()); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		TraceEvents []traceEvent `json:"traceEvents"`
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatalf("not trace JSON: %v", err)
	}
	return doc.TraceEvents
}

// A trace keeps a bounded number of events per lane and in all: the lanes
// of a crash loop keep their first events, and a note on each lane (and
// one for the trace) says how many it left out, from when; what is
// written and what the notes count add up to the whole trace.
func TestTraceIsBounded(t *testing.T) {
	const budget = 20_000
	count := func(evs []traceEvent) (events int, lanes map[[2]int]int, dropped int, notes []traceEvent) {
		lanes = map[[2]int]int{}
		for _, e := range evs {
			switch {
			case e.Ph == "M":
			case e.Cat == "podsim":
				notes = append(notes, e)
				dropped += int(e.Args["dropped"].(float64))
			default:
				events++
				lanes[[2]int{0, e.Tid}]++ // a thread moves between processes
				if e.Tid == 0 {
					lanes[[2]int{*e.Pid, 0}]++
				}
			}
		}
		return events, lanes, dropped, notes
	}
	whole, _, d, notes := count(runawayTrace(t, budget))
	if d != 0 || len(notes) != 0 || whole < 2*budget/3 {
		t.Fatalf("unbounded: %d events, notes %v", whole, notes)
	}
	for _, c := range []struct {
		lane, total int
		scopes      string // of the notes, in order
	}{{lane: 500, total: 1_000_000, scopes: "XX"}, {lane: 500, total: 800, scopes: "Xg"}} {
		report.SetTraceBounds(t, c.lane, c.total)
		evs := runawayTrace(t, budget)
		n, lanes, dropped, notes := count(evs)
		if n > c.total || n+dropped != whole {
			t.Errorf("bounds %d/%d: %d events written, %d noted as left out, want at most %d and %d in all", c.lane, c.total, n, dropped, c.total, whole)
		}
		for l, k := range lanes {
			if k > c.lane {
				t.Errorf("bounds %d/%d: lane %v wrote %d events", c.lane, c.total, l, k)
			}
		}
		scopes := ""
		for _, e := range notes {
			if e.Ph == "X" {
				scopes += "X"
			} else {
				scopes += e.S
			}
			if !strings.HasPrefix(e.Name, "trace truncated: ") || e.TS == nil || *e.TS <= 0 {
				t.Errorf("bounds %d/%d: note %+v", c.lane, c.total, e)
			}
		}
		if scopes != c.scopes {
			t.Errorf("bounds %d/%d: notes %q, want %q: %+v", c.lane, c.total, scopes, c.scopes, notes)
		}
		// A thread's note starts where its last written state ended: the
		// complete events of a thread do not overlap it.
		for _, note := range notes {
			for _, e := range evs {
				if e.Ph == "X" && e.Cat != "podsim" && e.Tid == note.Tid && *e.TS+*e.Dur > *note.TS {
					t.Errorf("bounds %d/%d: %+v ends inside the note %+v", c.lane, c.total, e, note)
					break
				}
			}
		}
	}
}
