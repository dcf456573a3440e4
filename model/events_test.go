package model

import (
	"fmt"
	"testing"
	"time"
)

// emit is one event recorded at a moment.
type emit struct {
	at             time.Duration
	source, reason string
	msg            string
}

// record runs a world that records the given events about node n-1 and
// returns the changes they made.
func recordEvents(t *testing.T, evs []emit) (*World, []Change) {
	t.Helper()
	w := newWorld(1, DefaultSettings())
	var tl Timeline
	w.AddNode(NodeSpec{Name: "n-1"})
	w.Subscribe(&tl)
	for _, e := range evs {
		w.Schedule(e.at, func() { w.eventMsg("Node", "n-1", EventWarning, e.reason, e.source, e.msg) })
	}
	w.Run(evs[len(evs)-1].at)
	return w, tl.Changes
}

func TestSpamFilterBurstAndRefill(t *testing.T) {
	var evs []emit
	for i := range 30 { // one a second: the burst of 25 goes, 5 are dropped
		evs = append(evs, emit{time.Duration(i) * time.Second, "kubelet", "BackOff", "m"})
	}
	// A minute later the bucket has refilled 0.2 tokens: dropped. Five
	// minutes after the 25th event one token is back: let through.
	evs = append(evs, emit{89 * time.Second, "kubelet", "BackOff", "m"},
		emit{324 * time.Second, "kubelet", "BackOff", "m"},
		emit{325 * time.Second, "kubelet", "BackOff", "m"})
	w, changes := recordEvents(t, evs)
	var dropped []int
	for i, c := range changes {
		if c.Dropped {
			dropped = append(dropped, i)
		}
	}
	if got, want := fmt.Sprint(dropped), "[25 26 27 28 29 30 32]"; got != want {
		t.Errorf("dropped occurrences %s, want %s", got, want)
	}
	e := w.EventsFor("Node", "n-1")[0]
	// The one let through at 324s carries every occurrence so far (32).
	if e.Count != 32 || e.Occurrences != 33 || e.LastSeen != 324*time.Second || e.LastOccurred != 325*time.Second || e.FirstSeen != 0 {
		t.Errorf("event count %d of %d occurrences, last seen %s, last occurred %s, first %s; want 32 of 33, 5m24s, 5m25s, 0s",
			e.Count, e.Occurrences, e.LastSeen, e.LastOccurred, e.FirstSeen)
	}
}

func TestSpamFilterPerSource(t *testing.T) {
	var evs []emit
	for i := range 26 {
		evs = append(evs, emit{time.Duration(i) * time.Second, "kubelet", "BackOff", "m"})
	}
	evs = append(evs, emit{30 * time.Second, "node-controller", "NodeNotReady", "m"})
	_, changes := recordEvents(t, evs)
	if !changes[25].Dropped || changes[26].Dropped {
		t.Errorf("the kubelet's 26th event dropped %v, the node controller's first %v; want true, false",
			changes[25].Dropped, changes[26].Dropped)
	}
}

// TestAggregationOfSimilarEvents, in a short log and in one long enough to
// be indexed (after 20 events of other reasons).
func TestAggregationOfSimilarEvents(t *testing.T) {
	for _, before := range []int{0, 20} {
		t.Run(fmt.Sprintf("after %d", before), func(t *testing.T) { testAggregation(t, before) })
	}
}

func testAggregation(t *testing.T, before int) {
	var evs []emit
	for i := range before {
		evs = append(evs, emit{0, "kubelet", fmt.Sprintf("Other%d", i), "other"})
	}
	for i := range 12 { // 12 distinct messages, 10s apart
		evs = append(evs, emit{time.Duration(i) * 10 * time.Second, "replicaset-controller", "SuccessfulCreate", fmt.Sprintf("Created pod: web-%d", i)})
	}
	evs = append(evs,
		emit{120 * time.Second, "replicaset-controller", "SuccessfulCreate", "Created pod: web-11"}, // among the last 9: its own event
		emit{121 * time.Second, "replicaset-controller", "SuccessfulCreate", "Created pod: web-11"}, // which it counts into
		emit{130 * time.Second, "replicaset-controller", "SuccessfulCreate", "Created pod: web-0"},  // dropped from the set: combined
		emit{745 * time.Second, "replicaset-controller", "SuccessfulCreate", "Created pod: web-99"}, // over 10 minutes later: starts over
	)
	w, changes := recordEvents(t, evs)
	changes = changes[before:]
	if before > 0 && w.nodeIdx["n-1"].events.index() == nil {
		t.Fatal("the log is not indexed")
	}
	// The changes keep the component's messages and say which went into
	// the combined event.
	var msgs []string
	for _, c := range changes {
		m := c.Message
		if c.Combined {
			m = "combined " + m
		}
		msgs = append(msgs, m)
	}
	const comb = "(combined from similar events): "
	for i, want := range map[int]string{8: "Created pod: web-8", 9: "combined Created pod: web-9", 11: "combined Created pod: web-11",
		12: "Created pod: web-11", 13: "Created pod: web-11", 14: "combined Created pod: web-0", 15: "Created pod: web-99"} {
		if msgs[i] != want {
			t.Errorf("occurrence %d: %q, want %q", i, msgs[i], want)
		}
	}
	var combined *Event
	similar := w.EventsFor("Node", "n-1")[before:]
	for _, e := range similar {
		if e.Message() == "Created pod: web-11" && e.Count != 2 {
			t.Errorf("web-11's own event counts %d, want 2", e.Count)
		}
		if e.Combined {
			if combined != nil {
				t.Fatal("two combined events")
			}
			combined = e
		}
	}
	if combined == nil || combined.Count != 4 || combined.Message() != comb+"Created pod: web-0" || combined.FirstSeen != 90*time.Second {
		t.Fatalf("combined event %+v, want count 4 since 1m30s with the latest message", combined)
	}
	if n := len(similar); n != 1+9+1+1 {
		t.Errorf("%d events, want 12: 9 separate, web-11's own, the combined one, web-99", n)
	}
}

// A pod's events go to the log that its key names, as World.EventsFor
// finds it: its own, or, once a later pod took the key (a StatefulSet's
// pod made again), that pod's.
func TestPodEventsFollowTheirKey(t *testing.T) {
	w := newWorld(1, DefaultSettings())
	var tl Timeline
	w.Subscribe(&tl)
	spec := &PodSpec{RestartPolicy: RestartAlways, Containers: []ContainerSpec{{Name: "c", Image: "i"}}}
	old := w.AddPod("web", spec, PodOptions{Namespace: "shop"})
	old.event(EventNormal, "Test", "tester", "about %s", "web")
	later := w.AddPod("web", spec, PodOptions{Namespace: "shop"})
	old.event(EventNormal, "Test", "tester", "about %s", "web")
	if n := len(old.events.list); n != 1 || old.events.list[0].Count != 1 {
		t.Errorf("the first pod's own log: %d events (count %d), want 1 of count 1", n, old.events.list[0].Count)
	}
	evs := w.EventsFor("Pod", "shop/web")
	if len(evs) != 1 || evs[0].Count != 1 || evs[0].Message() != "about web" || later.eventLog() != &later.events {
		t.Fatalf("events of shop/web %+v, want the later pod's one event of count 1", evs)
	}
	var got []string
	for _, c := range tl.Changes {
		if c.Kind == ChangeEvent {
			got = append(got, c.Namespace+"/"+c.Pod+" "+c.Reason+" "+c.Message)
		}
	}
	if want := "[shop/web Test about web shop/web Test about web]"; fmt.Sprint(got) != want {
		t.Errorf("event changes %v, want %s", got, want)
	}
}

// A group whose occurrences all had one message keeps no set of its own:
// its last time is its event's last occurrence, so a second message 6
// minutes after a repeat (15 after the first) joins the set {first}, and
// the tenth distinct message is combined; over 10 minutes after the
// repeat, the set starts over and the tenth is not.
func TestAggregationOfARepeatedEvent(t *testing.T) {
	for _, tc := range []struct {
		second   time.Duration
		combined bool
	}{{15 * time.Minute, true}, {20 * time.Minute, false}} {
		evs := []emit{{0, "kubelet", "Unhealthy", "x"}, {9 * time.Minute, "kubelet", "Unhealthy", "x"}}
		for i := range 9 {
			evs = append(evs, emit{tc.second + time.Duration(i)*time.Second, "kubelet", "Unhealthy", fmt.Sprint("m", i)})
		}
		w, changes := recordEvents(t, evs)
		if last := changes[len(changes)-1]; last.Combined != tc.combined {
			t.Errorf("second message at %v: the tenth distinct one combined %v, want %v", tc.second, last.Combined, tc.combined)
		}
		l := &w.nodeIdx["n-1"].events
		if l.rare == nil {
			t.Fatal("no aggregation set was made")
		}
		if len(l.rare.sets) != 1 || l.list[0].group != 0 {
			t.Errorf("%d sets, the first event's group %d; want 1 and 0", len(l.rare.sets), l.list[0].group)
		}
	}
}
